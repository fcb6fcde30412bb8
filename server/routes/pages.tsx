import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { RoutedEntry, StoredEntry } from '../content/store.ts';
import type { KbArticle, KbPlatform } from '../content/schemas.ts';
import type { Chrome, Crumb } from '../../views/view-model.ts';
import type { BodyProps } from '../../views/parts/body.tsx';
import type { SafeHtml } from '../../views/rich-text/safe-html.tsx';
import { TopicPage } from '../../views/pages/topic-page.tsx';
import { KbArticlePage } from '../../views/pages/kb-article-page.tsx';
import { NotFoundPage } from '../../views/pages/not-found-page.tsx';
import { GenericPage } from '../../views/pages/generic-page.tsx';

/** Products that never had a Server edition: their notices leave out Server end of support (spec §2). */
const NO_SERVER_EDITION = new Set(['pagerline', 'plotline']);

export interface PagesOptions {
  config: Pick<Config, 'publicUrl' | 'previewToken'>;
}

export default async function pages(app: FastifyInstance, opts: PagesOptions) {
  const { publicUrl, previewToken } = opts.config;

  const isPreview = (request: FastifyRequest): boolean => {
    if (!previewToken) return false;
    const given = (request.query as { preview?: unknown }).preview ?? request.headers['x-preview-token'];
    if (typeof given !== 'string' || given.length !== previewToken.length) return false;
    return timingSafeEqual(Buffer.from(given), Buffer.from(previewToken));
  };

  const chromeFor = async (request: FastifyRequest, entry: Pick<StoredEntry, 'title' | 'path' | 'language' | 'fields'>, preview: boolean): Promise<Chrome> => {
    const site = (await app.content.singleton('metadata'))?.fields ?? {};
    const lang = entry.language === 'ja-JP' ? 'ja' : 'en';
    return {
      siteName: String(site.siteName ?? 'Support'),
      logoUrl: String(site.logo ?? '/assets/content/fernhollow-logo.svg'),
      lang,
      localePrefix: entry.language === 'ja-JP' ? '/ja' : '',
      preview,
      assets: app.assets,
      nonce: request.cspNonce,
      canonicalUrl: `${publicUrl}${entry.path ?? request.url.split('?')[0]}`,
      title: entry.title ?? String(site.siteName ?? 'Support'),
      description: typeof entry.fields.metaDescription === 'string' ? entry.fields.metaDescription : undefined,
      year: new Date().getUTCFullYear(),
    };
  };

  const bodyOf = (entry: StoredEntry, preview: boolean): BodyProps | null => {
    if (preview && entry.document) return { document: entry.document.document, links: entry.document.links };
    return entry.html === null ? null : { html: entry.html as SafeHtml };
  };

  const send = (reply: FastifyReply, preview: boolean, view: Parameters<FastifyReply['page']>[0], status = 200) =>
    reply.page(view, { status, cache: preview ? 'private' : 'public' });

  async function notFound(request: FastifyRequest, reply: FastifyReply) {
    const entry = await app.content.pageOfType('notFound');
    const fallback = { title: 'Page not found', path: null, language: 'en-US', fields: {} };
    const chrome = await chromeFor(request, entry ?? fallback, false);
    chrome.canonicalUrl = `${publicUrl}${request.url.split('?')[0]}`;
    return reply.page(<NotFoundPage chrome={chrome} title={entry?.title ?? fallback.title} body={entry ? bodyOf(entry, false) : null} />,
      { status: 404, cache: 'public' });
  }
  app.setNotFoundHandler(notFound);

  async function topicCrumbs(entry: RoutedEntry, preview: boolean): Promise<Crumb[]> {
    const crumbs: Crumb[] = [{ label: 'Support', href: '/' }];
    if (entry.contextId) {
      const home = await app.content.docsHome(entry.contextId, entry.routeVersion);
      if (home) crumbs.push({ label: home.title, href: home.path });
    }
    const chain: StoredEntry[] = [];
    let parentId = entry.fields.parentId as string | undefined;
    while (parentId && chain.length < 3) {
      const parent = await app.content.byId(parentId, { preview });
      if (!parent) break;
      chain.unshift(parent);
      parentId = parent.fields.parentId as string | undefined;
    }
    const paths = await app.content.pathsFor(chain.map((c) => c.id), entry.routeVersion);
    for (const c of chain) {
      const href = paths.get(c.id);
      if (href) crumbs.push({ label: c.title ?? c.id, href });
    }
    return crumbs;
  }

  app.get('/*', async (request, reply) => {
    const rawPath = decodeURIComponent(request.url.split('?')[0] ?? '/');
    const path = rawPath.length > 1 ? rawPath.replace(/\/+$/, '') : rawPath;
    const preview = isPreview(request);
    const entry = await app.content.byPath(path, { preview });
    if (!entry) return notFound(request, reply);
    const chrome = await chromeFor(request, entry, preview);
    const lastPublished = entry.lastPublished ? new Date(entry.lastPublished).toISOString() : null;

    switch (entry.type) {
      case 'topic':
        return send(reply, preview, (
          <TopicPage chrome={chrome} breadcrumbs={await topicCrumbs(entry, preview)} title={entry.title ?? ''}
            body={bodyOf(entry, preview)} lastPublished={lastPublished} version={entry.routeVersion}
            toc={(entry.fields.tableOfContents as TopicPageToc | undefined) ?? []} />
        ));
      case 'kbArticle': {
        const f = entry.fields as unknown as KbArticle & { productVersions?: KbArticle['productVersions'] };
        const ctx = entry.contextId ? await app.content.byId(entry.contextId, { preview }) : undefined;
        const productNameId = String(ctx?.fields.productNameId ?? '');
        const kbHome = ctx?.fields.kbHomePage ? await app.content.pathsFor([String(ctx.fields.kbHomePage)], null) : new Map<string, string>();
        const crumbs: Crumb[] = [{ label: 'Support', href: '/' }];
        const kbPath = kbHome.get(String(ctx?.fields.kbHomePage));
        if (kbPath) crumbs.push({ label: `${String(ctx?.fields.productName ?? '')} Knowledge Base`, href: kbPath });
        const productIds = [...new Set((f.productVersions ?? []).map((p) => p.product))];
        const products = new Map((await app.content.byIds(productIds, { preview })).map((p) => [p.id, p]));
        return send(reply, preview, (
          <KbArticlePage chrome={chrome} breadcrumbs={crumbs} title={entry.title ?? ''} body={bodyOf(entry, preview)}
            lastPublished={lastPublished}
            notice={f.platform ? { platform: f.platform as KbPlatform, showServerEndOfSupport: !NO_SERVER_EDITION.has(productNameId) } : null}
            products={(f.productVersions ?? []).map((p) => ({
              name: String(products.get(p.product)?.title ?? p.product), platform: p.platform,
              version: [p.versionNumber, p.versionModifier].filter(Boolean).join(' '),
            }))} />
        ));
      }
      default: {
        const childIds = [
          ...((entry.fields.children as string[] | undefined) ?? []),
          ...((entry.fields.topics as string[] | undefined) ?? []),
          ...((entry.fields.collections as string[] | undefined) ?? []),
        ];
        const children = await app.content.byIds(childIds, { preview });
        const paths = await app.content.pathsFor(children.map((c) => c.id), entry.routeVersion);
        const order = new Map(childIds.map((id, i) => [id, i]));
        const links = children
          .filter((c) => paths.has(c.id))
          .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
          .map((c) => ({ title: c.title ?? c.id, href: paths.get(c.id) ?? '/', description: c.fields.description as string | undefined }));
        return send(reply, preview, (
          <GenericPage chrome={chrome} breadcrumbs={entry.path === '/' ? [] : [{ label: 'Support', href: '/' }]}
            title={entry.title ?? ''} tagline={entry.fields.tagline as string | undefined} body={bodyOf(entry, preview)} links={links} />
        ));
      }
    }
  });
}

type TopicPageToc = { id: string; text: string; level: 2 | 3 }[];
