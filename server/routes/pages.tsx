/**
 * Every page of the help centre: the path selects a stored entry, its type (and a single page's page
 * type) selects the loader (spec §2 page-type dispatch). Loaders (server/pages/loaders/) gather plain
 * props from the content cache; views render them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RoutedEntry } from '../content/store.ts';
import type { Page } from '../content/schemas.ts';
import { isPreview } from '../pages/context.ts';
import { loaderContext, type Loaded, type Loader, type PagesConfig } from '../pages/loaders/shared.ts';
import { topicLoader } from '../pages/loaders/topic.tsx';
import { topicSetLoader } from '../pages/loaders/topic-set.tsx';
import { collectionLoader } from '../pages/loaders/collection.tsx';
import { kbArticleLoader } from '../pages/loaders/kb-article.tsx';
import { formShellLoader, SHELL_KINDS } from '../pages/loaders/form-shell.tsx';
import { homeLoader } from '../pages/loaders/home.tsx';
import { documentedProductLoader } from '../pages/loaders/documented-product.tsx';
import { productLandingLoader } from '../pages/loaders/product-landing.tsx';
import { kbHomeLoader } from '../pages/loaders/kb-home.tsx';
import { legalLoader } from '../pages/loaders/legal.tsx';
import { notFoundPage, plainPageLoader } from '../pages/loaders/not-found.tsx';
import { HttpError } from '../http/http-error.ts';
import { resourcesPage } from '../pages/loaders/resources.tsx';
import { versionSwitch } from '../pages/loaders/version-switch.tsx';
import { previewErrorPage } from '../pages/loaders/preview-error.tsx';
import { MAX_REDIRECT_PATH, normalPath, readRedirects, redirectLocation } from '../content/redirects.ts';

export interface PagesOptions {
  config: PagesConfig;
}

export default async function pages(app: FastifyInstance, opts: PagesOptions) {
  const { config } = opts;
  const ctx = loaderContext(app, config);

  const byPageType: Partial<Record<Page['pageType'], Loader>> = {
    home: homeLoader(ctx),
    documentedProduct: documentedProductLoader(ctx),
    productLanding: productLandingLoader(ctx),
    productSupport: productLandingLoader(ctx),
    kbHome: kbHomeLoader(ctx),
    legal: legalLoader(ctx),
  };
  const formShell = formShellLoader(ctx);
  const plainPage = plainPageLoader(ctx);
  const loaders: Record<string, Loader> = {
    topic: topicLoader(ctx),
    topicSet: topicSetLoader(ctx),
    collection: collectionLoader(ctx),
    kbArticle: kbArticleLoader(ctx),
    page: (request, entry, preview) => {
      const pageType = (entry.fields as unknown as Page).pageType;
      const loader = SHELL_KINDS[pageType] ? formShell : byPageType[pageType] ?? plainPage;
      return loader(request, entry, preview);
    },
  };

  // Personalised (signed-in) and preview responses are never shared by caches.
  const send = (reply: FastifyReply, preview: boolean, loaded: Loaded) =>
    reply.page(loaded.view, {
      status: loaded.status ?? 200,
      // A signed-in visitor's page is made private by reply.page itself (it carries the session cookie).
      cache: preview || loaded.cache === 'private' ? 'private' : 'public',
    });
  // Pages that are the same for every visitor, signed in or not (not found, version not found).
  const sendShared = (reply: FastifyReply, loaded: Loaded) => reply.page(loaded.view, { status: loaded.status ?? 200, cache: 'public' });

  async function notFound(request: FastifyRequest, reply: FastifyReply) {
    // A new site's first import: the page may exist in a minute, so it is not a 404 (issue 25 item 11).
    if (app.contentStarting()) return reply.siteStarting();
    const moved = await redirectOf(request);
    if (moved) return reply.header('cache-control', 'public, max-age=3600').redirect(moved, 301);
    // No page here, but a route of its own for other methods (POST /feedback): a method the path does not have.
    const methods = app.methodsAt((request.originalUrl ?? request.url).split('?')[0] ?? '/');
    if (methods.length > 0 && !methods.includes(request.method)) {
      throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed here; use ${methods.join(' or ')}`, { allow: methods.join(', ') });
    }
    return sendShared(reply, await notFoundPage(ctx, request));
  }
  app.setNotFoundHandler(notFound);

  /** Where a moved page is now (redirects.ts), with the request's query passed on; undefined when it did not move. */
  async function redirectOf(request: FastifyRequest): Promise<string | undefined> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const [rawPath = '/', query = ''] = request.url.split(/\?(.*)/s);
    let path: string;
    try {
      path = normalPath(decodeURIComponent(rawPath));
    } catch {
      return undefined;
    }
    if (path.length > MAX_REDIRECT_PATH) return undefined;
    // Every redirect at once, once per content version: a miss costs a map lookup, whatever the path.
    const redirects = await app.content.memo('redirects', () => readRedirects(app.dbRead));
    const to = redirects.get(path);
    return to === undefined ? undefined : redirectLocation(to, query);
  }

  // Related resources of a product (spec §2): /{resourceSlug}/resources, with or without the trailing
  // slash, as every other page takes it (the card links of the spec end in one).
  const resources = async (request: FastifyRequest<{ Params: { slug: string } }>, reply: FastifyReply) => {
    const loaded = await resourcesPage(ctx, request, request.params.slug);
    return loaded ? send(reply, false, loaded) : notFound(request, reply);
  };
  app.get<{ Params: { slug: string } }>('/:slug/resources', resources);
  app.get<{ Params: { slug: string } }>('/:slug/resources/', resources);

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

  async function render(request: FastifyRequest, reply: FastifyReply, entry: RoutedEntry | undefined, preview: boolean) {
    const loader = entry ? loaders[entry.type] : undefined;
    if (!entry || !loader) return notFound(request, reply);
    return send(reply, preview, await loader(request, entry, preview));
  }

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
    return render(request, reply, await app.content.byPath(path, { preview }), preview);
  }
  app.get('/*', pageRoute);

  // The version selector's GET form: the same page in that version, or 'Unable to find page' (spec §8).
  app.get<{ Querystring: { entry?: string; version?: string; from?: string } }>('/version-switch', {
    schema: {
      querystring: {
        type: 'object', additionalProperties: true,
        properties: { entry: { type: 'string' }, version: { type: 'string' }, from: { type: 'string' } },
      },
    },
  }, async (request, reply) => {
    const answer = await versionSwitch(ctx, request, request.query);
    if (!answer) return notFound(request, reply);
    if ('redirect' in answer) return reply.redirect(answer.redirect, 303);
    return sendShared(reply, answer);
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
      if (routed && loaders[routed.type]) return render(request, reply, routed, true);
    }
    const loaded = await previewErrorPage(ctx, request, entry);
    return reply.page(loaded.view, { status: loaded.status ?? 422, cache: 'private' });
  });
}
