import type { Chrome } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { Body, type BodyProps } from '../parts/body.tsx';
import { stringsOf } from '../i18n/catalogue.tsx';

export function NotFoundPage({ chrome, title, body }: { chrome: Chrome; title: string; body: BodyProps | null }) {
  const t = stringsOf(chrome);
  return (
    <Document chrome={chrome}>
      <div className="not-found">
        <h1>{title}</h1>
        <Body body={body} />
        <form action="/search-results/" method="get" target="_blank" role="search" className="search-form">
          <label htmlFor="not-found-search">{t.notFound.searchSupport} <span className="visually-hidden">{t.notFound.resultsNewTab}</span></label>
          <input id="not-found-search" name="searchTerm" type="search" />
          <button type="submit">{t.notFound.search}</button>
        </form>
        <p><a href={chrome.localePrefix || '/'}>{t.notFound.goHome}</a></p>
      </div>
    </Document>
  );
}
