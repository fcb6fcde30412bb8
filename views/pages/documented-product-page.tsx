import type { DocumentedProductModel, Link } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { CardGrid } from '../parts/card-grid.tsx';
import { PageTree } from '../parts/page-tree.tsx';
import { ContactBlock } from '../parts/contact-block.tsx';
import { Subheader } from '../parts/subheader.tsx';

/** Documentation child lists show this many links before 'Show more' (spec §4, §9). */
export const LIST_PREVIEW = 5;

function LinkList({ links }: { links: Link[] }) {
  return (
    <ul className="link-list">
      {links.map((l, i) => <li key={`${i}-${l.href}`}><a href={l.href}>{l.label}</a></li>)}
    </ul>
  );
}

/** Documented product home (spec §2): tree, selector, hero search, guides, documentation lists. */
export function DocumentedProductPage({
  chrome, breadcrumbs, tree, deploymentSelector, notice, title, tagline, iconUrl, search, guides, lists, contact,
}: DocumentedProductModel) {
  return (
    <Document chrome={chrome} sidebar={tree ? <PageTree tree={tree} /> : undefined}>
      <div className="documented-product">
        <Subheader breadcrumbs={breadcrumbs} deploymentSelector={deploymentSelector} notice={notice} />

        <div className="hero product-hero">
          {iconUrl ? <img className="product-icon" src={iconUrl} alt="" width="75" height="75" /> : null}
          <div>
            <h1>{title}</h1>
            {tagline ? <p className="tagline">{tagline}</p> : null}
            <form className="search-form" action={search.action} method="get" role="search">
              {Object.entries(search.fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
              <label htmlFor="product-search" className="visually-hidden">{`Search ${title}`}</label>
              <input id="product-search" name="searchTerm" type="search" placeholder={`Search ${title}`} />
              <button type="submit">Search</button>
            </form>
          </div>
        </div>

        {guides.length > 0 ? (
          <section className="guides" aria-labelledby="guides-heading">
            <h2 id="guides-heading">Guides</h2>
            <CardGrid cards={guides} headingLevel={3} />
          </section>
        ) : null}

        {lists.length > 0 ? (
          <div className="doc-lists">
            {lists.map((list, i) => {
              const first = list.links.slice(0, LIST_PREVIEW);
              const rest = list.links.slice(LIST_PREVIEW);
              return (
                <section key={`${i}-${list.href}`} className="doc-list">
                  <h2><a href={list.href}>{list.title}</a></h2>
                  {list.description ? <p className="doc-list-description">{list.description}</p> : null}
                  {first.length > 0 ? <LinkList links={first} /> : null}
                  {rest.length > 0 ? (
                    <details className="show-more" data-island="show-more">
                      <summary>Show more</summary>
                      <LinkList links={rest} />
                    </details>
                  ) : null}
                </section>
              );
            })}
          </div>
        ) : null}

        <ContactBlock contact={contact} />
      </div>
    </Document>
  );
}
