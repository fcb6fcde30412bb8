/**
 * What every page loader shares: the chrome, the entry's product, breadcrumbs of the documentation, and
 * lists read once per content version. A loader gathers plain view props from the content cache
 * (server/content/store.ts); after a page type has been rendered once, it asks the database nothing.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReactElement } from 'react';
import type { Config } from '../../config.ts';
import type { RoutedEntry, StoredEntry } from '../../content/store.ts';
import type { ResourceCard } from '../../content/schemas.ts';
import { buildChrome, type ChromeInput } from '../chrome.ts';
import { docsTree } from '../docs.ts';
import type { Chrome, Crumb, EditKind } from '../../../views/view-model.ts';
import { stringsFor } from '../../../views/i18n/catalogue.tsx';

export type PagesConfig = Pick<Config, 'publicUrl' | 'previewToken' | 'identityUrl' | 'staffDomain' | 'partnerHosts'
  | 'attachmentMaxFiles' | 'attachmentMaxBytes' | 'attachmentTypes'>;

export interface Loaded {
  view: ReactElement;
  status?: number;
  /** 'private': this render is for one visitor only (a form with its own submission key), never shared. */
  cache?: 'private';
}

export type Loader = (request: FastifyRequest, entry: RoutedEntry, preview: boolean) => Promise<Loaded>;

export interface LoaderContext {
  app: FastifyInstance;
  config: PagesConfig;
  chrome(request: FastifyRequest, input: ChromeInput): Promise<Chrome>;
  /** The chrome of a stored page: its title, path, language and description. */
  chromeOf(request: FastifyRequest, entry: StoredEntry, preview: boolean, extra?: Partial<ChromeInput>): Promise<Chrome>;
  productOf(entry: StoredEntry, preview: boolean): Promise<StoredEntry | undefined>;
  /** Published single pages of some page types, read once per content version. */
  pagesOfTypes(types: readonly string[]): Promise<StoredEntry[]>;
  /** Every published resource card, read once per content version. */
  resourceCards(): Promise<ResourceCard[]>;
  docsCrumbs(entry: RoutedEntry, preview: boolean): Promise<Crumb[]>;
}

export function loaderContext(app: FastifyInstance, config: PagesConfig): LoaderContext {
  const chrome = (request: FastifyRequest, input: ChromeInput) => buildChrome(app, request, config, input);
  return {
    app,
    config,
    chrome,
    chromeOf: (request, entry, preview, extra = {}) => chrome(request, {
      title: entry.title ?? '', path: entry.path, language: entry.language, preview,
      metaDescription: entry.fields.metaDescription as string | undefined,
      editable: { entryId: entry.id, confluencePageId: entry.fields.confluencePageId as string | undefined, kind: editKindOf(entry) }, ...extra,
    }),
    productOf: async (entry, preview) => entry.productId ? app.content.byId(entry.productId, { preview }) : undefined,
    pagesOfTypes: (types) => app.content.memo(`pages:${types.join(',')}`, async () =>
      (await app.content.ofType('page', { preview: false })).filter((p) => types.includes(String(p.fields.pageType)))),
    resourceCards: () => app.content.memo('resourceCards', async () =>
      (await app.content.ofType('resourceCard', { preview: false })).map((e) => e.fields as ResourceCard)),
    async docsCrumbs(entry, preview) {
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
    },
  };
}

/** What 'Edit this …' calls an entry (spec §6): its type, a guide for a collection of pageType Guide. */
export function editKindOf(entry: StoredEntry): EditKind {
  switch (entry.type) {
    case 'topic': case 'topicSet': case 'kbArticle': return entry.type;
    case 'collection': return entry.fields.pageType === 'Guide' ? 'guide' : 'collection';
    default: return 'page';
  }
}

/** The request's path without its query. */
export const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? '/';

export const isoDate = (date: Date | null) => date ? new Date(date).toISOString() : null;
