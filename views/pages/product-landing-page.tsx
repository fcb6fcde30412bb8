import type { ProductLandingModel } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { CardGrid } from '../parts/card-grid.tsx';
import { HelpfulTopics } from '../parts/helpful-topics.tsx';
import { ContactBlock } from '../parts/contact-block.tsx';
import { Subheader } from '../parts/subheader.tsx';
import { LinkList } from '../parts/links.tsx';
import { ProductHero } from '../parts/product-hero.tsx';

/** Product landing page (spec §2): sub-header, notice, title, resource and collection cards, support forms. */
export function ProductLandingPage({
  chrome, breadcrumbs, deploymentSelector, notice, title, tagline, iconUrl, docsHref, kbHref, resourcesHref, supportHref,
  resources, collections, supportForms, helpful, contact,
}: ProductLandingModel) {
  return (
    <Document chrome={chrome}>
      <div className="product-landing">
        <Subheader breadcrumbs={breadcrumbs} deploymentSelector={deploymentSelector} notice={notice} />
        <ProductHero title={title} tagline={tagline} iconUrl={iconUrl}>
          {docsHref || kbHref || resourcesHref ? (
            <ul className="product-links">
              {docsHref ? <li><a href={docsHref}>{`${title} documentation`}</a></li> : null}
              {kbHref ? <li><a href={kbHref}>{`${title} knowledge base`}</a></li> : null}
              {resourcesHref ? <li><a href={resourcesHref}>{`${title} resources`}</a></li> : null}
              {supportHref ? <li><a href={supportHref.href}>{supportHref.label}</a></li> : null}
            </ul>
          ) : null}
        </ProductHero>

        {resources.length > 0 ? (
          <section aria-labelledby="product-resources-heading">
            <h2 id="product-resources-heading">Resources</h2>
            <CardGrid cards={resources} headingLevel={3} />
          </section>
        ) : null}

        {collections.length > 0 ? (
          <section aria-labelledby="product-collections-heading">
            <h2 id="product-collections-heading">Browse by topic</h2>
            <CardGrid cards={collections} headingLevel={3} />
          </section>
        ) : null}

        {supportForms.length > 0 ? (
          <section aria-labelledby="product-support-heading">
            <h2 id="product-support-heading">Get support</h2>
            <LinkList links={supportForms} />
          </section>
        ) : null}

        <HelpfulTopics model={helpful} />
        <ContactBlock contact={contact} />
      </div>
    </Document>
  );
}
