import type { KbArticle, KbPlatform, Metadata, Product } from '../../content/schemas.ts';
import type { Crumb } from '../../../views/view-model.ts';
import { KbArticlePage } from '../../../views/pages/kb-article-page.tsx';
import { bodyOf, feedbackModel, contactModel } from '../context.ts';
import { isoDate, pathOf, type Loader, type LoaderContext } from './shared.ts';
import { deploymentLabel, deploymentsOf, deploymentValue } from '../../content/deployments.ts';
import { formatNoticeDate, type EndOfSupportNotice } from '../../../views/parts/platform-notice.tsx';

const PLATFORM_LABEL: Record<KbPlatform, (cloud: string, dc: string) => string> = {
  'cloud-only': (c) => c, 'cloud-and-data-center': (c, d) => `${c}, ${d}`, 'data-center-only': (_, d) => d,
  'data-center-and-cloud-by-request': (c, d) => `${d}, ${c} by request`,
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
  const site = (await app.content.singleton('metadata'))?.fields as Metadata | undefined;
  const deployments = deploymentsOf(site);
  const labels = { cloud: deploymentLabel(deployments, 'cloud'), dataCenter: deploymentLabel(deployments, 'data_center') };
  // The article's own products decide which end-of-support notices apply (spec §2): a notice naming
  // products applies to articles about one of them (or about no product).
  const families = new Set([...products.values()].map((p) => p.productNameId));
  const endOfSupport: EndOfSupportNotice[] = (site?.endOfSupport ?? [])
    .filter((n) => !n.products || families.size === 0 || n.products.some((p) => families.has(p)))
    .map((n) => ({ text: n.text, date: formatNoticeDate(n.date, entry.language), linkText: n.linkText, href: n.href }));
  const c = await ctx.chromeOf(request, entry, preview);
  return {
    view: <KbArticlePage
      chrome={c} breadcrumbs={breadcrumbs} title={entry.title ?? ''} body={bodyOf(entry, preview)}
      lastPublished={isoDate(entry.lastPublished)}
      notice={f.platform ? {
        platform: f.platform, labels, endOfSupport,
      } : null}
      products={(f.productVersions ?? []).map((p) => {
        const product = products.get(p.product);
        const name = product?.productName ?? p.product;
        // The portfolio product's data center name is its self-hosted label (spec §5): no second platform word.
        const selfHosted = portfolio(p.product) && deploymentValue(deployments, p.platform) !== 'cloud';
        return {
          name: selfHosted ? product?.selfHostedLabel ?? `${name} ${labels.dataCenter}` : name, platform: selfHosted ? '' : p.platform,
          version: [p.versionNumber, p.versionModifier].filter(Boolean).join(' '),
        };
      })}
      sidebarPlatform={f.platform && (f.productVersions ?? []).some((p) => !portfolio(p.product)) ? PLATFORM_LABEL[f.platform](labels.cloud, labels.dataCenter) : null}
      feedback={feedbackModel(app, request, entry, pathOf(request))}
      contact={contactModel(c, {
        products: [...products.values()].map((p) => p.productName),
        deployments: (f.productVersions ?? []).flatMap((p) => {
          const value = deploymentValue(deployments, p.platform);
          return value ? [deploymentLabel(deployments, value)] : [];
        }),
      })}
      staffEditHint={c.visitor.staff} />,
  };
};
