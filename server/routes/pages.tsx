/**
 * Every page of the help centre: the path selects a stored entry, its type selects the loader and
 * the view (spec §2 page-type dispatch). Loaders gather plain props; views render them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ReactElement } from 'react';
import type { Config } from '../config.ts';
import type { RoutedEntry, StoredEntry } from '../content/store.ts';
import type { KbArticle, KbPlatform, Metadata, Page, Product, ResourceCard, FeaturedContent } from '../content/schemas.ts';
import { buildChrome, cardOf, productHref, resourcesHref, visitorOf, type ChromeInput } from '../pages/chrome.ts';
import { docsTree, treeModel, placeOf, collectionOf, siblingsModel, upNextModel, deploymentSelector, noticeOf } from '../pages/docs.ts';
import {
  isPreview, bodyOf, feedbackModel, contactModel, communityHref,
} from '../pages/context.ts';
import type { CardLink, Crumb, FormShellModel } from '../../views/view-model.ts';
import { TopicPage } from '../../views/pages/topic-page.tsx';
import { TopicSetPage } from '../../views/pages/topic-set-page.tsx';
import { KbArticlePage } from '../../views/pages/kb-article-page.tsx';
import { NotFoundPage } from '../../views/pages/not-found-page.tsx';
import { HomePage } from '../../views/pages/home-page.tsx';
import { ProductLandingPage } from '../../views/pages/product-landing-page.tsx';
import { DocumentedProductPage } from '../../views/pages/documented-product-page.tsx';
import { CollectionPage } from '../../views/pages/collection-page.tsx';
import { KbHomePage } from '../../views/pages/kb-home-page.tsx';
import { FormShellPage } from '../../views/pages/form-shell-page.tsx';
import { VersionNotFoundPage } from '../../views/pages/version-not-found-page.tsx';
import { PreviewErrorPage } from '../../views/pages/preview-error-page.tsx';
import { ResourcesPage } from '../../views/pages/resources-page.tsx';
import { LegalPage } from '../../views/pages/legal-page.tsx';
import { stringsFor } from '../../views/i18n/catalogue.tsx';


const PREVIEW_MESSAGES = {
  default: "We can't build a preview until all required fields are set.",
  context: "We can't build a preview until the Context field is set.",
  contextAndCollection: "We can't build a preview until the Context and Collection Reference fields are set.",
} as const;

const OTHER_CONTACTS = ['hotContact', 'statusPageContact', 'partnerContact'] as const;

const SHELL_KINDS: Partial<Record<Page['pageType'], FormShellModel['kind']>> = {
  contact: 'contact', hotContact: 'hotContact', partnerContact: 'partnerContact', statusPageContact: 'statusPageContact',
  myRequests: 'myRequests', fileDownload: 'fileDownload',
};

export interface PagesOptions {
  config: Pick<Config, 'publicUrl' | 'previewToken' | 'identityUrl' | 'staffDomain'>;
}

interface Loaded {
  view: ReactElement;
  status?: number;
}

export default async function pages(app: FastifyInstance, opts: PagesOptions) {
  const { config } = opts;
  const chrome = (request: FastifyRequest, input: ChromeInput) => buildChrome(app, request, config, input);
  const chromeOf = (request: FastifyRequest, entry: StoredEntry & { path: string | null }, preview: boolean, extra: Partial<ChromeInput> = {}) =>
    chrome(request, {
      title: entry.title ?? '', path: entry.path, language: entry.language, preview,
      metaDescription: entry.fields.metaDescription as string | undefined,
      editable: { entryId: entry.id, confluencePageId: entry.fields.confluencePageId as string | undefined, label: entry.type }, ...extra,
    });

  /** Published single pages of some page types, read once per content version. */
  const pagesOfTypes = (types: readonly string[]) => app.content.memo(`pages:${types.join(',')}`, async () =>
    (await app.content.ofType('page', { preview: false })).filter((p) => types.includes(String(p.fields.pageType))));

  /** Every published resource card, read once per content version. */
  const resourceCards = () => app.content.memo('resourceCards', async () =>
    (await app.content.ofType('resourceCard', { preview: false })).map((e) => e.fields as ResourceCard));

  async function notFound(request: FastifyRequest, reply: FastifyReply) {
    const entry = await app.content.pageOfType('notFound');
    const c = await chrome(request, { title: entry?.title ?? 'Page not found', path: null, language: 'en-US', preview: false });
    return reply.page(<NotFoundPage chrome={c} title={entry?.title ?? 'Page not found'} body={entry ? bodyOf(entry, false) : null} />,
      { status: 404, cache: 'public' });
  }
  app.setNotFoundHandler(notFound);

  const productOf = async (entry: StoredEntry, preview: boolean) =>
    entry.productId ? app.content.byId(entry.productId, { preview }) : undefined;

  async function docsCrumbs(entry: RoutedEntry, preview: boolean): Promise<Crumb[]> {
    // The first crumb is the support home of the page's language.
    const ja = entry.language === 'ja-JP';
    const crumbs: Crumb[] = [{ label: stringsFor(ja ? 'ja' : 'en').supportHome, href: ja ? '/ja' : '/' }];
    if (!entry.contextId) return crumbs;
    const tree = await docsTree(app, entry.contextId, entry.routeVersion, preview);
    if (!tree) return crumbs;
    if (tree.home.id !== entry.id) crumbs.push({ label: tree.home.title, href: tree.home.href });
    for (const c of tree.collections) {
      if (c.entry.id === entry.id) break;
      if (c.children.some((ch) => ch.entry.id === entry.id || ch.topics.some((t) => t.entry.id === entry.id))) {
        crumbs.push({ label: c.entry.title ?? c.entry.id, href: c.href });
        const set = c.children.find((ch) => ch.topics.some((t) => t.entry.id === entry.id));
        if (set) crumbs.push({ label: set.entry.title ?? set.entry.id, href: set.href });
        break;
      }
    }
    return crumbs;
  }

  const loaders: Record<string, (request: FastifyRequest, entry: RoutedEntry, preview: boolean) => Promise<Loaded>> = {
    async topic(request, entry, preview) {
      const product = await productOf(entry, preview);
      const tree = entry.contextId ? await docsTree(app, entry.contextId, entry.routeVersion, preview) : null;
      const place = tree ? placeOf(tree, entry.id) : null;
      const c = await chromeOf(request, entry, preview);
      const path = request.url.split('?')[0] ?? '/';
      // Explore more: the other collections of this documentation, never the one being read.
      const own = tree ? collectionOf(tree, entry.id) : undefined;
      const exploreMore: CardLink[] = (tree?.collections ?? [])
        .filter((col) => col !== own)
        .slice(0, 5)
        .map((col) => ({ title: col.entry.title ?? col.entry.id, href: col.href, description: col.entry.fields.description as string | undefined }));
      return {
        view: <TopicPage
          chrome={c} breadcrumbs={await docsCrumbs(entry, preview)} tree={tree ? treeModel(tree, entry.id) : null}
          deploymentSelector={await deploymentSelector(app, product, entry, entry.routeVersion)} notice={await noticeOf(app, product)}
          title={entry.title ?? ''} version={entry.routeVersion}
          featuredVideo={(entry.fields.featuredVideo as { videoUrl: string } | undefined) ?? null}
          body={bodyOf(entry, preview)} toc={(entry.fields.tableOfContents as { id: string; text: string; level: 2 | 3 }[] | undefined) ?? []}
          lastPublished={entry.lastPublished ? new Date(entry.lastPublished).toISOString() : null}
          feedback={feedbackModel(app, request, entry, path)} contact={contactModel(c)} exploreMore={exploreMore}
          siblings={place ? siblingsModel(place) : null}
          communityHref={communityHref(c, product?.fields.productName as string | undefined)}
          upNext={tree ? upNextModel(tree, entry.id) : null} />,
      };
    },

    async topicSet(request, entry, preview) {
      const tree = entry.contextId ? await docsTree(app, entry.contextId, entry.routeVersion, preview) : null;
      const place = tree ? placeOf(tree, entry.id) : null;
      const c = await chromeOf(request, entry, preview);
      const topicIds = (entry.fields.topics as string[] | undefined) ?? [];
      const topics = await app.content.byIds(topicIds, { preview });
      const paths = await app.content.exactPaths(topicIds, entry.routeVersion);
      const byId = new Map(topics.map((t) => [t.id, t]));
      return {
        view: <TopicSetPage
          chrome={c} breadcrumbs={await docsCrumbs(entry, preview)} tree={tree ? treeModel(tree, entry.id) : null}
          title={entry.title ?? ''} overview={bodyOf(entry, preview)}
          topics={topicIds.flatMap((id) => {
            const t = byId.get(id);
            const href = paths.get(id);
            return t && href ? [{ title: t.title ?? id, href, description: t.fields.metaDescription as string | undefined }] : [];
          })}
          feedback={feedbackModel(app, request, entry, request.url.split('?')[0] ?? '/')} contact={contactModel(c)}
          siblings={place ? siblingsModel(place) : null}
          upNext={tree ? upNextModel(tree, entry.id) : null} />,
      };
    },

    async collection(request, entry, preview) {
      const product = await productOf(entry, preview);
      const context = entry.contextId ? await app.content.byId(entry.contextId, { preview }) : undefined;
      const tree = entry.contextId ? await docsTree(app, entry.contextId, entry.routeVersion, preview) : null;
      const c = await chromeOf(request, entry, preview, { waffle: true });
      const ids = (entry.fields.children as string[] | undefined) ?? [];
      const children = new Map((await app.content.byIds(ids, { preview })).map((e) => [e.id, e]));
      const paths = await app.content.exactPaths(ids, entry.routeVersion);
      const isHub = context?.type === 'context' && context.fields.type === 'hub';
      const f = product?.fields as Product | undefined;
      return {
        view: <CollectionPage
          chrome={c} breadcrumbs={await docsCrumbs(entry, preview)} tree={tree ? treeModel(tree, entry.id) : null}
          deploymentSelector={isHub ? null : await deploymentSelector(app, product, entry, entry.routeVersion)}
          notice={await noticeOf(app, product ?? context)}
          contextTitle={f ? `${f.productName} ${f.deployment}${entry.routeVersion ? ` ${entry.routeVersion}` : ''}` : String(context?.fields.hubName ?? '')}
          title={entry.title ?? ''} subhead={entry.fields.subhead as string | undefined} body={bodyOf(entry, preview)}
          children={ids.flatMap((id) => {
            const child = children.get(id);
            const href = paths.get(id);
            if (!child || !href) return [];
            return [{
              title: child.title ?? id, href, kind: child.type === 'topicSet' ? 'topics' as const : 'topic' as const,
              description: (child.fields.description ?? child.fields.metaDescription) as string | undefined,
            }];
          })}
          contact={contactModel(c)} />,
      };
    },

    async kbArticle(request, entry, preview) {
      const f = entry.fields as unknown as KbArticle;
      const ctx = entry.contextId ? await app.content.byId(entry.contextId, { preview }) : undefined;
      const kbHomeId = ctx?.fields.kbHomePage as string | undefined;
      const kbPath = kbHomeId ? (await app.content.pathsFor([kbHomeId], null)).get(kbHomeId) : undefined;
      const breadcrumbs: Crumb[] = [{ label: 'Support', href: '/' }];
      if (kbPath) breadcrumbs.push({ label: `${String(ctx?.fields.productName ?? '')} Knowledge Base`, href: kbPath });
      const productIds = [...new Set((f.productVersions ?? []).map((p) => p.product))];
      const products = new Map((await app.content.byIds(productIds, { preview })).map((p) => [p.id, p.fields as Product]));
      const portfolio = (id: string) => products.get(id)?.portfolio === true;
      // The article's own products decide whether Server end of support applies (spec §2): not when none had Server.
      const hadServer = products.size === 0 || [...products.values()].some((p) => p.serverEdition !== false);
      const site = (await app.content.singleton('metadata'))?.fields as Metadata | undefined;
      const platformLabel: Record<KbPlatform, string> = {
        'cloud-only': 'Cloud', 'cloud-and-data-center': 'Cloud, Data Center', 'data-center-only': 'Data Center',
        'data-center-and-cloud-by-request': 'Data Center, Cloud by request',
      };
      const c = await chromeOf(request, entry, preview);
      return {
        view: <KbArticlePage
          chrome={c} breadcrumbs={breadcrumbs} title={entry.title ?? ''} body={bodyOf(entry, preview)}
          lastPublished={entry.lastPublished ? new Date(entry.lastPublished).toISOString() : null}
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
          sidebarPlatform={f.platform && (f.productVersions ?? []).some((p) => !portfolio(p.product)) ? platformLabel[f.platform] : null}
          feedback={feedbackModel(app, request, entry, request.url.split('?')[0] ?? '/')} contact={contactModel(c)}
          staffEditHint={c.visitor.staff} />,
      };
    },

    async page(request, entry, preview) {
      const page = entry.fields as unknown as Page;
      const shell = SHELL_KINDS[page.pageType];
      const c = await chromeOf(request, entry, preview);
      if (shell) {
        const form = page.supportForm;
        // The general contact page leads on to the other contact pages of its language.
        const others = shell === 'contact'
          ? (await pagesOfTypes(OTHER_CONTACTS)).filter((p) => p.language === entry.language && p.path)
            .map((p) => ({ label: p.title ?? p.id, href: p.path as string }))
          : undefined;
        return {
          view: <FormShellPage chrome={c} kind={shell} title={entry.title ?? ''} tagline={page.tagline}
            formUrl={form ? (c.visitor.signedIn ? form.authenticated : form.unauthenticated) : undefined}
            partnerPortalHref={shell === 'partnerContact' ? c.siteLinks.partnerPortal : undefined} otherContacts={others} />,
        };
      }
      switch (page.pageType) {
        case 'home': return { view: await homePage(request, entry, page, c) };
        case 'documentedProduct': return { view: await documentedProductPage(request, entry, page, c, preview) };
        case 'productLanding': case 'productSupport': return { view: await productLandingPage(entry, page, c, preview) };
        case 'kbHome': {
          const articles = entry.contextId ? await app.content.ofType('kbArticle', { preview, contextId: entry.contextId }) : [];
          const ctx = entry.contextId ? await app.content.byId(entry.contextId, { preview }) : undefined;
          return {
            view: <KbHomePage chrome={c} breadcrumbs={[{ label: 'Support', href: '/' }]}
              productName={String(ctx?.fields.productName ?? entry.title ?? '')}
              articles={articles.filter((a) => a.path).map((a) => ({ title: a.title ?? a.id, href: a.path ?? '/', description: a.fields.metaDescription as string | undefined }))}
              moreWaysToGetHelp={c.siteLinks.moreWaysToGetHelp} contact={contactModel(c)} />,
          };
        }
        case 'legal':
          return { view: <LegalPage chrome={c} title={entry.title ?? ''} body={bodyOf(entry, preview)}
            lastPublished={entry.lastPublished ? new Date(entry.lastPublished).toISOString() : null} /> };
        default:
          return { view: <NotFoundPage chrome={c} title={entry.title ?? ''} body={bodyOf(entry, preview)} /> };
      }
    },
  };

  async function homePage(request: FastifyRequest, entry: RoutedEntry, page: Page, c: Awaited<ReturnType<typeof chrome>>) {
    const featured = page.featuredContent ? await app.content.byId(page.featuredContent, { preview: false }) : undefined;
    const ff = featured?.fields as FeaturedContent | undefined;
    const cards = (await app.content.byIds(page.resourceCards ?? [], { preview: false })).map((e) => e.fields as ResourceCard);
    const order = new Map((page.resourceCards ?? []).map((id, i) => [id, i]));
    const visible = cards.filter((card) => !card.hideInHeader)
      .sort((a, b) => Number(!!b.featured) - Number(!!a.featured) || (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    const platform = (request.query as { platform?: unknown }).platform === 'data-center' ? 'data-center' : 'cloud';
    const toCards = (list: { name: string; href: string; iconUrl?: string | undefined }[]) => list.map((p) => ({ title: p.name, href: p.href, iconUrl: p.iconUrl }));
    return <HomePage chrome={c} title={entry.title ?? ''} tagline={page.tagline}
      featured={ff ? { title: ff.title, entries: ff.featuredEntries.map((e) => ({ label: e.linkText, href: e.url, external: e.linkTarget === '_blank' })) } : null}
      platform={platform} products={{ cloud: toCards(c.header.products.cloud), dataCenter: toCards(c.header.products.dataCenter) }}
      resources={visible.map(cardOf)} contact={contactModel(c)} />;
  }

  async function documentedProductPage(request: FastifyRequest, entry: RoutedEntry, page: Page, c: Awaited<ReturnType<typeof chrome>>, preview: boolean) {
    const product = await productOf(entry, preview);
    const f = product?.fields as Product | undefined;
    const tree = entry.contextId ? await docsTree(app, entry.contextId, entry.routeVersion, preview) : null;
    const guides = (tree?.collections ?? []).filter((col) => col.entry.fields.pageType === 'Guide');
    const lists = (tree?.collections ?? []).filter((col) => col.entry.fields.pageType !== 'Guide');
    const fields: Record<string, string> = {};
    if (f) {
      fields.product = f.productNameId;
      fields.deployment = f.deployment === 'Cloud' ? 'cloud' : 'data_center';
      if (entry.routeVersion) fields.version = entry.routeVersion;
    }
    return <DocumentedProductPage chrome={c} breadcrumbs={[{ label: 'Support', href: '/' }]}
      tree={tree ? treeModel(tree, entry.id) : null}
      deploymentSelector={await deploymentSelector(app, product, entry, entry.routeVersion)} notice={await noticeOf(app, product)}
      title={entry.title ?? ''} tagline={page.tagline} iconUrl={page.icon?.url}
      search={{ action: '/search-results/', fields }}
      guides={guides.map((g) => ({ title: g.entry.title ?? g.entry.id, href: g.href, description: g.entry.fields.description as string | undefined, buttonText: g.entry.fields.buttonText as string | undefined }))}
      lists={lists.map((l) => ({
        title: l.entry.title ?? l.entry.id, href: l.href, description: l.entry.fields.description as string | undefined,
        links: l.children.map((ch) => ({ label: ch.entry.title ?? ch.entry.id, href: ch.href })),
      }))}
      contact={contactModel(c)} />;
  }

  async function productLandingPage(entry: RoutedEntry, page: Page, c: Awaited<ReturnType<typeof chrome>>, preview: boolean) {
    const product = await productOf(entry, preview);
    const f = product?.fields as Product | undefined;
    const cards = (await app.content.byIds(page.resourceCards ?? [], { preview })).map((e) => e.fields as ResourceCard);
    const collections = await app.content.byIds(page.collections ?? [], { preview });
    const collectionPaths = await app.content.pathsFor(collections.map((col) => col.id), null);
    const docs = product ? (await app.content.ofType('page', { preview, contextId: product.id })).find((p) => p.fields.pageType === 'documentedProduct') : undefined;
    const kbHome = f ? await app.content.byPath(`/${f.productNameId}/kb`, { preview }) : undefined;
    const supportPage = page.pageType === 'productLanding' && product
      ? (await pagesOfTypes(['productSupport'])).find((p) => p.contextId === product.id) : undefined;
    const allCards = await resourceCards();
    const helpful = allCards.filter((card) => product && card.relatedApps?.includes(product.id)).map(cardOf);
    const form = page.supportForm ?? (f?.customSupportFormUnauthenticated && f.customSupportFormAuthenticated
      ? { authenticated: f.customSupportFormAuthenticated, unauthenticated: f.customSupportFormUnauthenticated } : undefined);
    return <ProductLandingPage chrome={c} breadcrumbs={[{ label: 'Support', href: '/' }]}
      deploymentSelector={await deploymentSelector(app, product, entry, null)} notice={await noticeOf(app, product)}
      title={entry.title ?? ''} tagline={page.tagline} iconUrl={page.icon?.url}
      docsHref={docs?.path ?? undefined} kbHref={kbHome?.path ?? undefined}
      resourcesHref={product ? resourcesHref(product) : undefined}
      supportHref={supportPage?.path ? { label: supportPage.title ?? 'Support', href: supportPage.path } : undefined}
      resources={cards.filter((card) => card.buttonLink).map(cardOf)}
      collections={collections.filter((col) => collectionPaths.has(col.id)).map((col) => ({
        title: col.title ?? col.id, href: collectionPaths.get(col.id) ?? '/', description: col.fields.description as string | undefined,
      }))}
      supportForms={form ? [{ label: `Contact ${f?.supportTitle ?? 'support'}`, href: c.visitor.signedIn ? form.authenticated : form.unauthenticated }] : []}
      helpful={{ cards: helpful, external: c.siteLinks.helpful }} contact={contactModel(c)} />;
  }

  // Personalised (signed-in) and preview responses are never shared by caches.
  const send = (reply: FastifyReply, preview: boolean, loaded: Loaded) =>
    reply.page(loaded.view, {
      status: loaded.status ?? 200,
      cache: preview || visitorOf(reply.request).signedIn ? 'private' : 'public',
    });

  // Related resources of a product (spec §2): /{resourceSlug}/resources.
  app.get<{ Params: { slug: string } }>('/:slug/resources', async (request, reply) => {
    const products = await app.content.memo('products', () => app.content.ofType('product', { preview: false }));
    const product = products.find((p) => resourcesHref(p) === `/${request.params.slug}/resources`);
    if (!product) return notFound(request, reply);
    const f = product.fields as Product;
    const cards = await resourceCards();
    const related = cards.filter((card) => card.relatedApps?.includes(product.id) && card.buttonLink).map(cardOf);
    const title = `${f.productName} ${f.deployment} resources`;
    const c = await chrome(request, { title, path: `/${request.params.slug}/resources`, language: 'en-US', preview: false,
      metaDescription: `Community, training and other resources for ${f.productName} ${f.deployment}.` });
    return send(reply, false, {
      view: <ResourcesPage chrome={c} title={title}
        breadcrumbs={[{ label: 'Support', href: '/' }, { label: `${f.productName} ${f.deployment}`, href: productHref(product) }]}
        cards={related.length > 0 ? related : cards.filter((card) => card.buttonLink && !card.hideInHeader).map(cardOf)}
        helpful={{ cards: [], external: c.siteLinks.helpful }} contact={contactModel(c)} />,
    });
  });

  // Browsers ask for /favicon.ico whatever the page says: send them the site's icon from content.
  app.get('/favicon.ico', async (request, reply) => {
    const favicon = (await app.content.singleton('metadata'))?.fields.favicon;
    if (typeof favicon !== 'string') return notFound(request, reply);
    return reply.header('cache-control', 'public, max-age=86400').redirect(favicon, 301);
  });

  // Data center versions without a page of their own go to their documentation home.
  app.get<{ Params: { product: string; version: string } }>('/:product/:version', async (request, reply) => {
    const { product, version } = request.params;
    if (!/^\d+(\.\d+)*$/.test(version)) return pageRoute(request, reply);
    const target = await app.content.byPath(`/${product}/${version}/docs`, { preview: false });
    return target ? reply.redirect(`/${product}/${version}/docs`, 301) : notFound(request, reply);
  });

  async function pageRoute(request: FastifyRequest, reply: FastifyReply) {
    // The request guard refuses paths that do not decode (400); this never throws on one that slips past.
    let rawPath: string;
    try {
      rawPath = decodeURIComponent(request.url.split('?')[0] ?? '/');
    } catch {
      return notFound(request, reply);
    }
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
    const preview = isPreview(request, config.previewToken);
    const entry = await app.content.byPath(path, { preview });
    if (!entry) return notFound(request, reply);
    const loader = loaders[entry.type];
    if (!loader) return notFound(request, reply);
    return send(reply, preview, await loader(request, entry, preview));
  }
  app.get('/*', pageRoute);

  // The version selector's GET form: the same page in that version, or 'Unable to find page' (spec §8).
  // A visitor never gets a bare 400 here: no entry or an unknown one is the 404 page (with search), and
  // a missing or malformed version goes back to the page the visitor came from.
  app.get<{ Querystring: { entry?: string; version?: string; from?: string } }>('/version-switch', {
    schema: {
      querystring: {
        type: 'object', additionalProperties: true,
        properties: { entry: { type: 'string' }, version: { type: 'string' }, from: { type: 'string' } },
      },
    },
  }, async (request, reply) => {
    const { entry: id = '', version = '', from } = request.query;
    const entry = id && id.length <= 200 ? await app.content.byId(id, { preview: false }) : undefined;
    if (!entry) return notFound(request, reply);
    const routes = await app.content.routesOf(id);
    if (!/^[0-9]+(\.[0-9]+)*$/.test(version)) {
      const back = routes.find((r) => r.version === from) ?? routes[0];
      return reply.redirect(back?.path ?? '/', 303);
    }
    const match = routes.find((r) => r.version === version);
    if (match) return reply.redirect(match.path, 303);
    const product = await productOf(entry, false);
    const home = entry.contextId ? await app.content.docsHome(entry.contextId, version) : undefined;
    const cancel = routes.find((r) => r.version === from) ?? routes[0];
    const search = new URLSearchParams({ searchTerm: entry.title ?? '', deployment: 'data_center', version });
    if (product) search.set('product', String(product.fields.productNameId));
    const c = await chrome(request, { title: 'Unable to find page', path: null, language: entry.language, preview: false });
    return reply.page(<VersionNotFoundPage chrome={c} version={version} searchHref={`/search-results/?${search}`}
      browseHref={home?.path ?? (product ? productHref(product) : '/')} cancelHref={cancel?.path ?? '/'} />,
    { status: 404, cache: 'public' });
  });

  // Preview of any entry by id, with the reason when it cannot be built (spec §5 preview errors).
  app.get<{ Params: { id: string } }>('/preview/:id', async (request, reply) => {
    if (!isPreview(request, config.previewToken)) return notFound(request, reply);
    const entry = await app.content.byId(request.params.id, { preview: true });
    if (!entry) return notFound(request, reply);
    const routes = await app.content.routesOf(entry.id);
    const parentless = (entry.type === 'topic' || entry.type === 'topicSet') && !entry.fields.parentId;
    if (routes[0] && !parentless) {
      const routed = await app.content.byPath(routes[0].path, { preview: true });
      const loader = routed ? loaders[routed.type] : undefined;
      if (routed && loader) return send(reply, true, await loader(request, routed, true));
    }
    const message = entry.type === 'topic' || entry.type === 'topicSet' ? PREVIEW_MESSAGES.contextAndCollection
      : entry.type === 'collection' || entry.type === 'kbArticle' ? PREVIEW_MESSAGES.context : PREVIEW_MESSAGES.default;
    // The page's title comes from the preview-error page in content (spec §2 Preview error page).
    const title = (await app.content.pageOfType('previewError'))?.title ?? 'Preview unavailable';
    const c = await chrome(request, { title, path: null, language: entry.language, preview: true });
    return reply.page(<PreviewErrorPage chrome={c} title={title} message={message} />, { status: 422, cache: 'private' });
  });
}
