import type { Chrome, Crumb } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { Breadcrumbs } from '../parts/breadcrumbs.tsx';
import { Body, type BodyProps } from '../parts/body.tsx';

export interface GenericPageProps {
  chrome: Chrome;
  breadcrumbs: Crumb[];
  title: string;
  tagline?: string | undefined;
  body: BodyProps | null;
  links: { title: string; href: string; description?: string | undefined }[];
}

/** Page types whose full layouts come later render their title, text and child links. */
export function GenericPage({ chrome, breadcrumbs, title, tagline, body, links }: GenericPageProps) {
  return (
    <Document chrome={chrome}>
      <Breadcrumbs items={breadcrumbs} />
      <h1>{title}</h1>
      {tagline ? <p className="tagline">{tagline}</p> : null}
      <Body body={body} />
      {links.length > 0 ? (
        <ul className="card-list">
          {links.map((l) => <li key={l.href}><a href={l.href}>{l.title}</a>{l.description ? <p>{l.description}</p> : null}</li>)}
        </ul>
      ) : null}
    </Document>
  );
}
