import type { Chrome } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { Body, type BodyProps } from '../parts/body.tsx';

export function NotFoundPage({ chrome, title, body }: { chrome: Chrome; title: string; body: BodyProps | null }) {
  return (
    <Document chrome={chrome}>
      <div className="not-found">
        <h1>{title}</h1>
        <Body body={body} />
        <form action="/search-results/" method="get" target="_blank" role="search" className="search-form">
          <label htmlFor="not-found-search">Search support <span className="visually-hidden">(results open in a new tab)</span></label>
          <input id="not-found-search" name="searchTerm" type="search" />
          <button type="submit">Search</button>
        </form>
        <p><a href={chrome.localePrefix || '/'}>Go to the support home page</a></p>
      </div>
    </Document>
  );
}
