import type { Chrome, Crumb } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { Breadcrumbs } from '../parts/breadcrumbs.tsx';
import { Body, type BodyProps } from '../parts/body.tsx';
import { formatUpdated } from '../parts/dates.ts';

export interface TopicPageProps {
  chrome: Chrome;
  breadcrumbs: Crumb[];
  title: string;
  body: BodyProps | null;
  toc: { id: string; text: string; level: 2 | 3 }[];
  lastPublished: string | null;
  version: string | null;
}

export function TopicPage({ chrome, breadcrumbs, title, body, toc, lastPublished, version }: TopicPageProps) {
  return (
    <Document chrome={chrome}>
      <div className="page-with-sidebar">
        <article className="topic">
          <Breadcrumbs items={breadcrumbs} />
          <h1>{title}</h1>
          {version ? <p className="version-note">Data Center {version}</p> : null}
          <Body body={body} />
          {lastPublished ? <p className="updated">{`Updated on ${formatUpdated(lastPublished)}`}</p> : null}
        </article>
        {toc.length >= 2 ? (
          <nav className="on-this-page" aria-labelledby="on-this-page-heading">
            <h2 id="on-this-page-heading">On this page</h2>
            <ul>
              {toc.map((item) => <li key={item.id} className={`toc-level-${item.level}`}><a href={`#${item.id}`}>{item.text}</a></li>)}
            </ul>
          </nav>
        ) : null}
      </div>
    </Document>
  );
}
