import type { KbArticle, KbPlatform, Metadata, Product } from '../../content/schemas.ts';
import type { Crumb } from '../../../views/view-model.ts';
import { KbArticlePage } from '../../../views/pages/kb-article-page.tsx';
import { bodyOf, feedbackModel, contactModel } from '../context.ts';
import { isoDate, pathOf, type Loader, type LoaderContext } from './shared.ts';

const PLATFORM_LABEL: Record<KbPlatform, string> = {
  'cloud-only': 'Cloud', 'cloud-and-data-center': 'Cloud, Data Center', 'data-center-only': 'Data Center',
  'data-center-and-cloud-by-request': 'Data Center, Cloud by request',
};

export const kbArticleLoader = (ctx: LoaderContext): Loader => async (request, entry, preview) => {
  const { app } = ctx;
  const f = entry.fields as unknown as KbArticle;
  const kb = entry.contextId ? await app.content.byId(entry.contextId, { preview }) : undefined;
  const kbHomeId = kb?.fields.kbHomePage as string | undefined;
  const kbPath = kbHomeId ? (await app.content.pathsFor([kbHomeId], null)).get(kbHomeId) : undefined;
  const breadcrumbs: Crumb[] = [{ label: 'Support', href: '/' }];
  if (kbPath) breadcrumbs.push({ label: `${String(kb?.fields.productName ?? '')} Knowledge Base`, href: kbPath });
  const productIds = [...new Set((f.productVersions ?? []).map((p) => p.product))];
  const products = new Map((await app.content.byIds(productIds, { preview })).map((p) => [p.id, p.fields as Product]));
  const portfolio = (id: string) => products.get(id)?.portfolio === true;
  // The article's own products decide whether Server end of support applies (spec §2): not when none had Server.
  const hadServer = products.size === 0 || [...products.values()].some((p) => p.serverEdition !== false);
  const site = (await app.content.singleton('metadata'))?.fields as Metadata | undefined;
  const c = await ctx.chromeOf(request, entry, preview);
  return {
    view: <KbArticlePage
      chrome={c} breadcrumbs={breadcrumbs} title={entry.title ?? ''} body={bodyOf(entry, preview)}
      lastPublished={isoDate(entry.lastPublished)}
      notice={f.platform ? {
        platform: f.platform,
        serverEndOfSupport: hadServer ? { brand: site?.brand ?? '', href: site?.serverEndOfSupportUrl } : null,
      } : null}
      products={(f.productVersions ?? []).map((p) => {
        const product = products.get(p.product);
        const name = product?.productName ?? p.product;
        // The portfolio product's data center name is its self-hosted label (spec §5): no second platform word.
        const selfHosted = portfolio(p.product) && p.platform !== 'Cloud';
        return {
          name: selfHosted ? `${name} Data Center` : name, platform: selfHosted ? '' : p.platform,
          version: [p.versionNumber, p.versionModifier].filter(Boolean).join(' '),
        };
      })}
      sidebarPlatform={f.platform && (f.productVersions ?? []).some((p) => !portfolio(p.product)) ? PLATFORM_LABEL[f.platform] : null}
      feedback={feedbackModel(app, request, entry, pathOf(request))} contact={contactModel(c)}
      staffEditHint={c.visitor.staff} />,
  };
};
