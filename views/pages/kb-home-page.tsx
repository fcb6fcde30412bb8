import type { KbHomeModel } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { Breadcrumbs } from '../parts/breadcrumbs.tsx';
import { ContactBlock } from '../parts/contact-block.tsx';
import { LinkList } from '../parts/links.tsx';

/** Knowledge-base home (spec §2): title, search to /search-results/, articles, more ways to get help. */
export function KbHomePage({ chrome, breadcrumbs, productName, articles, moreWaysToGetHelp, contact }: KbHomeModel) {
  return (
    <Document chrome={chrome} linkedData={{ breadcrumbs }}>
      <div className="kb-home">
        <Breadcrumbs items={breadcrumbs} />
        <div className="hero">
          <h1>{`${productName} Knowledge Base`}</h1>
          <form className="search-form" action="/search-results/" method="get" role="search">
            <label htmlFor="kb-search">{`Search the ${productName} knowledge base`}</label>
            <input id="kb-search" name="searchTerm" type="search" />
            <button type="submit">Search</button>
          </form>
        </div>

        {articles.length > 0 ? (
          <section aria-labelledby="kb-articles-heading">
            <h2 id="kb-articles-heading">Articles</h2>
            <ul className="card-list">
              {articles.map((a, i) => (
                <li key={`${i}-${a.href}`}>
                  <a href={a.href}>{a.title}</a>
                  {a.description ? <p>{a.description}</p> : null}
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        {moreWaysToGetHelp.length > 0 ? (
          <section className="more-help" aria-labelledby="more-help-heading">
            <h2 id="more-help-heading">More ways to get help</h2>
            <LinkList links={moreWaysToGetHelp} />
          </section>
        ) : null}

        <ContactBlock contact={contact} />
      </div>
    </Document>
  );
}
