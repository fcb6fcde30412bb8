import type { Chrome } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { Body, type BodyProps } from '../parts/body.tsx';
import { formatUpdated } from '../parts/dates.ts';
import { stringsOf } from '../i18n/catalogue.tsx';

export interface LegalPageModel {
  chrome: Chrome;
  title: string;
  body: BodyProps | null;
  lastPublished: string | null;
}

/** A legal or trust page linked from the footer (spec §2 footer links): a title and a body from content. */
export function LegalPage({ chrome, title, body, lastPublished }: LegalPageModel) {
  const t = stringsOf(chrome);
  return (
    <Document chrome={chrome}>
      <article className="legal-page">
        <h1>{title}</h1>
        <Body body={body} />
        {lastPublished ? <p className="updated">{t.topic.updatedOn(formatUpdated(lastPublished, t.locale))}</p> : null}
      </article>
    </Document>
  );
}
