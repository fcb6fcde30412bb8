import type { HomePageModel } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { CardGrid, cardItems } from '../parts/card-grid.tsx';
import { Island } from '../island.tsx';
import { PlatformTabs } from '../islands/platform-tabs.tsx';
import { ContactBlock } from '../parts/contact-block.tsx';
import { LinkList } from '../parts/links.tsx';
import { stringsOf } from '../i18n/catalogue.tsx';

const PLATFORMS = ['cloud', 'data-center'] as const;

/** Support home (spec §2 Support home page v2). */
export function HomePage({ chrome, title, tagline, featured, platform, products, resources, contact }: HomePageModel) {
  const t = stringsOf(chrome);
  const label = (p: 'cloud' | 'data-center') => (p === 'cloud' ? t.header.cloud : t.header.dataCenter);
  return (
    <Document chrome={chrome}>
      <div className="home">
        <section className="hero">
          <h1>{title}</h1>
          <form className="search-form hero-search" action="/search-results/" method="get" role="search">
            <label htmlFor="home-search" className="visually-hidden">{t.home.search}</label>
            <input id="home-search" name="searchTerm" type="search" placeholder={t.home.searchPlaceholder} />
            <button type="submit">{t.home.search}</button>
          </form>
          {tagline ? <p className="tagline hero-subheader">{tagline}</p> : null}
        </section>

        {featured && featured.entries.length > 0 ? (
          <section className="featured" aria-labelledby="featured-heading" data-analytics="featured_card_click">
            <h2 id="featured-heading">{featured.title}</h2>
            <LinkList links={featured.entries} />
          </section>
        ) : null}

        <section className="browse-products" aria-labelledby="browse-products-heading">
          <h2 id="browse-products-heading">{t.home.browseByProduct}</h2>
          <Island name="platform-tabs" hydrate="interaction" component={PlatformTabs} props={{
            platform, label: t.home.platform, opensInNewTab: t.opensInNewTab,
            platforms: PLATFORMS.map((p) => ({
              id: p, label: label(p), cards: cardItems(p === 'cloud' ? products.cloud : products.dataCenter), empty: t.home.noProducts(label(p)),
            })),
          }} />
        </section>

        {resources.length > 0 ? (
          <section className="browse-resources" aria-labelledby="browse-resources-heading" data-analytics="resource_card_click">
            <h2 id="browse-resources-heading">{t.home.browseResources}</h2>
            <CardGrid cards={resources} headingLevel={3} />
          </section>
        ) : null}

        <ContactBlock contact={contact} />
      </div>
    </Document>
  );
}
