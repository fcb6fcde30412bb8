import type { DocumentedProductModel } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { CardGrid } from '../parts/card-grid.tsx';
import { PageTree } from '../parts/page-tree.tsx';
import { ContactBlock } from '../parts/contact-block.tsx';
import { Subheader } from '../parts/subheader.tsx';
import { ProductHero } from '../parts/product-hero.tsx';
import { ShowMore } from '../parts/show-more.tsx';
import { stringsOf } from '../i18n/catalogue.tsx';

/** Documentation child lists show this many links before 'Show more' (spec §4, §9). */
export const LIST_PREVIEW = 5;
/** Spec §9: guide card icon 100x100. */
const GUIDE_ICON_SIZE = 100;

/** Documented product home (spec §2): tree, selector, hero search, guides, documentation lists. */
export function DocumentedProductPage({
  chrome, breadcrumbs, tree, deploymentSelector, notice, title, tagline, iconUrl, search, guides, lists, contact,
}: DocumentedProductModel) {
  const t = stringsOf(chrome);
  return (
    <Document chrome={chrome} sidebar={tree ? <PageTree tree={tree} /> : undefined} linkedData={{ breadcrumbs }}>
      <div className="documented-product">
        <Subheader breadcrumbs={breadcrumbs} deploymentSelector={deploymentSelector} notice={notice} />

        <ProductHero title={title} tagline={tagline} iconUrl={iconUrl}>
          <form className="search-form" action={search.action} method="get" role="search">
            {Object.entries(search.fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
            <label htmlFor="product-search" className="visually-hidden">{t.product.searchIn(title)}</label>
            <input id="product-search" name="searchTerm" type="search" placeholder={t.product.searchIn(title)} />
            <button type="submit">{t.product.search}</button>
          </form>
        </ProductHero>

        {guides.length > 0 ? (
          <section className="guides" aria-labelledby="guides-heading">
            <h2 id="guides-heading">{t.product.guides}</h2>
            {/* Guide cards show the guide's icon at 100x100 (spec §9). */}
            <CardGrid cards={guides} headingLevel={3} iconSize={GUIDE_ICON_SIZE} />
          </section>
        ) : null}

        {lists.length > 0 ? (
          <div className="doc-lists">
            {lists.map((list, i) => (
              <section key={`${i}-${list.href}`} className="doc-list">
                <h2><a href={list.href}>{list.title}</a></h2>
                {list.description ? <p className="doc-list-description">{list.description}</p> : null}
                <ShowMore items={{ kind: 'links', links: list.links }} first={LIST_PREVIEW} id={`doc-list-${i + 1}`} />
              </section>
            ))}
          </div>
        ) : null}

        <ContactBlock contact={contact} />
      </div>
    </Document>
  );
}
