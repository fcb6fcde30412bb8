import type { Chrome, Crumb } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { Breadcrumbs } from '../parts/breadcrumbs.tsx';
import { Body, type BodyProps } from '../parts/body.tsx';
import { formatUpdated } from '../parts/dates.ts';
import { PlatformNotice, type PlatformNoticeProps } from '../parts/platform-notice.tsx';

export interface KbArticlePageProps {
  chrome: Chrome;
  breadcrumbs: Crumb[];
  title: string;
  notice: PlatformNoticeProps | null;
  body: BodyProps | null;
  lastPublished: string | null;
  products: { name: string; platform: string; version: string }[];
}

export function KbArticlePage({ chrome, breadcrumbs, title, notice, body, lastPublished, products }: KbArticlePageProps) {
  return (
    <Document chrome={chrome}>
      <article className="kb-article">
        <Breadcrumbs items={breadcrumbs} />
        <h1>{title}</h1>
        {notice ? <PlatformNotice {...notice} /> : null}
        <Body body={body} />
        {lastPublished ? <p className="updated">{`Updated on ${formatUpdated(lastPublished)}`}</p> : null}
        {products.length > 0 ? (
          <section aria-labelledby="related-products" className="related-products">
            <h2 id="related-products">Related products</h2>
            <ul>{products.map((p) => <li key={`${p.name}-${p.platform}`}>{[p.name, p.platform, p.version].filter(Boolean).join(' ')}</li>)}</ul>
          </section>
        ) : null}
      </article>
    </Document>
  );
}
