import type { ProductLandingModel } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { CardGrid } from '../parts/card-grid.tsx';
import { HelpfulTopics } from '../parts/helpful-topics.tsx';
import { ContactBlock } from '../parts/contact-block.tsx';
import { Subheader } from '../parts/subheader.tsx';
import { LinkList } from '../parts/links.tsx';
import { ProductHero } from '../parts/product-hero.tsx';
import { stringsOf } from '../i18n/catalogue.tsx';

/** Product landing page (spec §2): sub-header, notice, title, resource and collection cards, support forms. */
export function ProductLandingPage({
  chrome, breadcrumbs, deploymentSelector, notice, title, tagline, iconUrl, productLabel, docsHref, docsTitle, kbHref, kbTitle, resourcesHref, supportHref,
  resources, collections, supportForms, helpful, contact,
}: ProductLandingModel) {
  const t = stringsOf(chrome);
  const name = productLabel ?? title;
  return (
    <Document chrome={chrome} linkedData={{ breadcrumbs }}>
      <div className="product-landing">
        <Subheader breadcrumbs={breadcrumbs} deploymentSelector={deploymentSelector} notice={notice} />
        <ProductHero title={title} tagline={tagline} iconUrl={iconUrl}>
          {docsHref || kbHref || resourcesHref ? (
            <ul className="product-links">
              {docsHref ? <li><a href={docsHref}>{docsTitle ?? t.product.documentation(name)}</a></li> : null}
              {kbHref ? <li><a href={kbHref}>{kbTitle ?? t.product.knowledgeBase(name)}</a></li> : null}
              {resourcesHref ? <li><a href={resourcesHref}>{t.product.resources(name)}</a></li> : null}
              {supportHref ? <li><a href={supportHref.href}>{supportHref.label}</a></li> : null}
            </ul>
          ) : null}
        </ProductHero>

        {resources.length > 0 ? (
          <section aria-labelledby="product-resources-heading" data-analytics="resource_card_click">
            <h2 id="product-resources-heading">{t.product.resourcesHeading}</h2>
            <CardGrid cards={resources} headingLevel={3} />
          </section>
        ) : null}

        {collections.length > 0 ? (
          <section aria-labelledby="product-collections-heading">
            <h2 id="product-collections-heading">{t.product.browseByTopic}</h2>
            <CardGrid cards={collections} headingLevel={3} />
          </section>
        ) : null}

        {supportForms.length > 0 ? (
          <section aria-labelledby="product-support-heading">
            <h2 id="product-support-heading">{t.product.getSupport}</h2>
            <LinkList links={supportForms} />
          </section>
        ) : null}

        <HelpfulTopics model={helpful} />
        <ContactBlock contact={contact} />
      </div>
    </Document>
  );
}
