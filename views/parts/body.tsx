import type { Document as RichDocument } from '../../server/content/rich-text.ts';
import { Html, type SafeHtml } from '../rich-text/safe-html.tsx';
import { RichText, type LinkList } from '../rich-text/rich-text.tsx';

/** An entry's body: stored HTML, or in preview mode the rich-text document rendered now (spec §4). */
export type BodyProps = { html: SafeHtml } | { document: RichDocument; links: LinkList };

export function Body({ body }: { body: BodyProps | null }) {
  if (!body) return null;
  if ('html' in body) return <Html className="rich-text" html={body.html} />;
  return <div className="rich-text"><RichText document={body.document} links={body.links} /></div>;
}
