import type { PreviewErrorModel } from '../view-model.ts';
import { Document } from '../layout/document.tsx';

/** Preview of an entry missing required fields (spec §5 preview error messages). */
export function PreviewErrorPage({ chrome, title, message }: PreviewErrorModel) {
  return (
    <Document chrome={chrome}>
      <div className="preview-error">
        <h1>{title}</h1>
        <p>{message}</p>
      </div>
    </Document>
  );
}
