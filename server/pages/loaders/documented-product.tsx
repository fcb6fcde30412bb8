import type { Page, Product } from '../../content/schemas.ts';
import { isCloud } from '../../content/deployments.ts';
import { DocumentedProductPage } from '../../../views/pages/documented-product-page.tsx';
import { docsTree, treeModel, deploymentSelector, noticeOf } from '../docs.ts';
import { contactModel, productTags } from '../context.ts';
import type { Loader, LoaderContext } from './shared.ts';
import { stringsFor } from '../../../views/i18n/catalogue.tsx';

/**
 * Links one collection's list carries at most (the first five show, the rest behind 'Show more'); a longer
 * collection ends with a link to its page, which lists every child. The page stays the same size
 * whatever the size of each collection.
 */
export const DOC_LIST_MAX = 15;

/** A documentation home: guides, then each collection with its children (spec §2). */
export const documentedProductLoader = (ctx: LoaderContext): Loader => async (request, entry, preview) => {
  const { app } = ctx;
  const page = entry.fields as unknown as Page;
  const c = await ctx.chromeOf(request, entry, preview);
  const product = await ctx.productOf(entry, preview);
  const f = product?.fields as Product | undefined;
  const tree = entry.contextId ? await docsTree(app, entry.contextId, entry.routeVersion, preview) : null;
  const guides = (tree?.collections ?? []).filter((col) => col.entry.fields.pageType === 'Guide');
  const lists = (tree?.collections ?? []).filter((col) => col.entry.fields.pageType !== 'Guide');
  const strings = stringsFor(entry.language === 'ja-JP' ? 'ja' : 'en');
  const fields: Record<string, string> = {};
  if (f) {
    fields.product = f.productNameId;
    fields.deployment = isCloud(f) ? 'cloud' : 'data_center';
    if (entry.routeVersion) fields.version = entry.routeVersion;
  }
  return {
    view: <DocumentedProductPage chrome={c} breadcrumbs={[{ label: 'Support', href: '/' }]}
      tree={tree ? treeModel(tree, entry.id) : null}
      deploymentSelector={await deploymentSelector(app, product, entry, entry.routeVersion)} notice={await noticeOf(app, product)}
      title={entry.title ?? ''} tagline={page.tagline} iconUrl={page.icon?.url}
      search={{ action: '/search-results/', fields }}
      guides={guides.map((g) => ({
        title: g.entry.title ?? g.entry.id, href: g.href, description: g.entry.fields.description, buttonText: g.entry.fields.buttonText,
        iconUrl: g.entry.fields.icon?.url,
      }))}
      lists={lists.map((l) => {
        const title = l.entry.title ?? l.entry.id;
        const links = l.children.map((ch) => ({ label: ch.entry.title ?? ch.entry.id, href: ch.href }));
        return {
          title, href: l.href, description: l.entry.fields.description,
          links: links.length <= DOC_LIST_MAX ? links
            : [...links.slice(0, DOC_LIST_MAX - 1), { label: strings.tree.allPages(links.length, title), href: l.href }],
        };
      })}
      contact={contactModel(c, productTags(product))} />,
  };
};
