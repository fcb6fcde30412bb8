import type { Page, Product, ResourceCard } from '../../content/schemas.ts';
import { ProductLandingPage } from '../../../views/pages/product-landing-page.tsx';
import { cardOf, resourcesHref, withoutRepeatedLinks } from '../chrome.ts';
import { productLabel } from '../../content/deployments.ts';
import { deploymentSelector, noticeOf } from '../docs.ts';
import { contactModel, productTags } from '../context.ts';
import { stringsFor } from '../../../views/i18n/catalogue.tsx';
import type { Loader, LoaderContext } from './shared.ts';

/** A product's landing or support page (spec §2). */
export const productLandingLoader = (ctx: LoaderContext): Loader => async (request, entry, preview) => {
  const { app } = ctx;
  const page = entry.fields as unknown as Page;
  const c = await ctx.chromeOf(request, entry, preview);
  const product = await ctx.productOf(entry, preview);
  const f = product?.fields as Product | undefined;
  const cards = (await app.content.byIds(page.resourceCards ?? [], { preview })).map((e) => e.fields as ResourceCard);
  const collections = await app.content.outlines(page.collections ?? [], { preview });
  const collectionPaths = await app.content.pathsFor(collections.map((col) => col.id), null);
  const docs = product ? (await app.content.ofType('page', { preview, contextId: product.id })).find((p) => p.fields.pageType === 'documentedProduct') : undefined;
  const kbHome = f ? await app.content.byPath(`/${f.productNameId}/kb`, { preview }) : undefined;
  const supportPage = page.pageType === 'productLanding' && product
    ? (await ctx.pagesOfTypes(['productSupport'])).find((p) => p.contextId === product.id) : undefined;
  const helpful = (await ctx.resourceCards()).filter((card) => product && card.relatedApps?.includes(product.id)).map(cardOf);
  const t = stringsFor(c.lang);
  const contactPath = entry.language === 'ja-JP' ? '/ja/contact' : '/contact';
  const form = page.supportForm ?? (f?.customSupportFormUnauthenticated && f.customSupportFormAuthenticated
    ? { authenticated: f.customSupportFormAuthenticated, unauthenticated: f.customSupportFormUnauthenticated } : undefined);
  return {
    view: <ProductLandingPage chrome={c} breadcrumbs={[{ label: 'Support', href: '/' }]}
      deploymentSelector={await deploymentSelector(app, product, entry, null)} notice={await noticeOf(app, product)}
      title={entry.title ?? ''} tagline={page.tagline} iconUrl={page.icon?.url}
      productLabel={f ? productLabel(f) : undefined}
      docsHref={docs?.path ?? undefined} docsTitle={docs?.title ?? undefined}
      kbHref={kbHome?.path ?? undefined} kbTitle={kbHome?.title ?? undefined}
      resourcesHref={product ? resourcesHref(product) : undefined}
      supportHref={supportPage?.path ? { label: supportPage.title ?? 'Support', href: supportPage.path } : undefined}
      resources={cards.filter((card) => card.buttonLink).map(cardOf)}
      collections={collections.filter((col) => collectionPaths.has(col.id)).map((col) => ({
        title: col.title ?? col.id, href: collectionPaths.get(col.id) ?? '/', description: col.fields.description,
      }))}
      supportForms={product ? [{
        label: t.contact.contactProduct(f?.supportTitle ?? entry.title ?? ''),
        // The product's own external form where it names one; otherwise the built-in contact form, product chosen.
        href: form ? (c.visitor.signedIn ? form.authenticated : form.unauthenticated) : `${contactPath}?product=${encodeURIComponent(product.id)}`,
      }] : []}
      helpful={{ cards: withoutRepeatedLinks(helpful, c.siteLinks.helpful), external: c.siteLinks.helpful }} contact={contactModel(c, productTags(product))} />,
  };
};
