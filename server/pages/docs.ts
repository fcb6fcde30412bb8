/**
 * Navigation of the documentation: page tree, sibling lists, guide order, deployment and version
 * selector. Trees are cached per context, version and mode until the content changes; what one page
 * shows of them is bounded (treeModel).
 */
import type { FastifyInstance } from 'fastify';
import type { Outline, StoredEntry } from '../content/store.ts';
import type { Product } from '../content/schemas.ts';
import { isCloud } from '../content/deployments.ts';
import { compareVersions } from '../content/resolve.ts';
import { productHref } from './chrome.ts';
import type {
  CardLink, DeploymentSelectorModel, MoreLink, NoticeModel, PageTreeModel, SiblingsModel, TreeNode, UpNextModel,
} from '../../views/view-model.ts';
import type { SafeHtml } from '../../views/rich-text/safe-html.tsx';

export interface DocsTree {
  /** The documentation home; its icon heads the page tree (spec §9). */
  home: { id: string; title: string; href: string; iconUrl?: string | undefined };
  /** Collections of the home page with their entries, for the page tree, guides and lists. */
  collections: { entry: Outline; href: string; children: { entry: Outline; href: string; topics: { entry: Outline; href: string }[] }[] }[];
}

const childIds = (e: Outline): string[] => [...(e.fields.children ?? []), ...(e.fields.topics ?? [])];

/**
 * The tree of one documentation space: home -> collections -> topics and topic sets -> topics. Built
 * from outlines (no bodies) once per context, version and mode until the content changes.
 */
export function docsTree(app: FastifyInstance, contextId: string, version: string | null, preview: boolean): Promise<DocsTree | null> {
  return app.content.memo(`tree:${contextId}:${version}:${preview}`, async () => {
    const homeRoute = await app.content.docsHome(contextId, version);
    const homes = await app.content.ofType('page', { preview, contextId });
    const home = homes.find((h) => h.fields.pageType === 'documentedProduct');
    if (!home || !homeRoute) return null;
    const collectionIds = (home.fields.collections as string[] | undefined) ?? [];
    const collections = await app.content.outlines(collectionIds, { preview });
    const level2 = await app.content.outlines(collections.flatMap(childIds), { preview });
    const level3 = await app.content.outlines(level2.flatMap(childIds), { preview });
    const all = [...collections, ...level2, ...level3];
    const paths = await app.content.exactPaths(all.map((e) => e.id), version);
    const byId = new Map(all.map((e) => [e.id, e]));
    const ordered = (ids: string[]) => ids.map((id) => byId.get(id)).filter((e): e is Outline => !!e && paths.has(e.id));
    return {
      home: { id: home.id, title: homeRoute.title, href: homeRoute.path, iconUrl: (home.fields.icon as { url?: string } | undefined)?.url },
      collections: ordered(collectionIds).map((c) => ({
        entry: c,
        href: paths.get(c.id) ?? '',
        children: ordered(childIds(c)).map((child) => ({
          entry: child,
          href: paths.get(child.id) ?? '',
          topics: ordered(childIds(child)).map((t) => ({ entry: t, href: paths.get(t.id) ?? '' })),
        })),
      })),
    };
  });
}

const treeTitle = (e: Outline) => String(e.fields.shortTitle ?? e.title ?? e.id);

/** Items one list of the page tree shows at most: the current one's neighbours in a long list. */
export const TREE_LIST_MAX = 10;
/** Siblings a section's list carries at most: the window of five and a few more on each side (spec §4). */
export const SIBLINGS_MAX = 15;

/** At most `max` items around index `at` (the first ones when `at` is -1). */
export function windowOf<T>(items: T[], at: number, max: number): T[] {
  if (items.length <= max) return items;
  const start = at < 0 ? 0 : Math.min(Math.max(at - Math.floor(max / 2), 0), items.length - max);
  return items.slice(start, start + max);
}

/**
 * The page tree of one page (spec §3, §4): the collections, then only the current branch: the current
 * page's ancestors with their children, and its own children, open; every other collection or topic set
 * is a link to its page, which lists its children. A list longer than TREE_LIST_MAX shows the items
 * around the current one and links to the page that lists them all. So neither the tree's size nor the
 * time to render it grows with the site. The documentation home has no current item: the collections.
 */
export function treeModel(tree: DocsTree, currentId: string): PageTreeModel {
  const leaf = (entry: Outline, href: string): TreeNode => ({ id: entry.id, title: treeTitle(entry), href, current: entry.id === currentId, open: false, children: [] });
  const more = (count: number, href: string, title: string): MoreLink | undefined =>
    count > TREE_LIST_MAX ? { href, count, title } : undefined;
  const inSet = (ch: DocsTree['collections'][number]['children'][number]) =>
    ch.entry.id === currentId || ch.topics.some((t) => t.entry.id === currentId);
  const branchAt = tree.collections.findIndex((c) => c.entry.id === currentId || c.children.some(inSet));
  const nodes = windowOf(tree.collections, branchAt, TREE_LIST_MAX).map((c): TreeNode => {
    if (c !== tree.collections[branchAt]) return leaf(c.entry, c.href);
    const childAt = c.children.findIndex(inSet);
    const children = windowOf(c.children, childAt, TREE_LIST_MAX).map((ch): TreeNode => {
      if (ch !== c.children[childAt] || ch.topics.length === 0) return leaf(ch.entry, ch.href);
      const topicAt = ch.topics.findIndex((t) => t.entry.id === currentId);
      return {
        ...leaf(ch.entry, ch.href), open: true,
        children: windowOf(ch.topics, topicAt, TREE_LIST_MAX).map((t) => leaf(t.entry, t.href)),
        more: more(ch.topics.length, ch.href, treeTitle(ch.entry)),
      };
    });
    return { ...leaf(c.entry, c.href), open: children.length > 0, children, more: more(c.children.length, c.href, treeTitle(c.entry)) };
  });
  return {
    title: tree.home.title, href: tree.home.href, iconUrl: tree.home.iconUrl, nodes,
    more: more(tree.collections.length, tree.home.href, tree.home.title),
  };
}

/** Where an entry sits: its parent's children, and the guide it belongs to if any. */
export function placeOf(tree: DocsTree, entryId: string) {
  for (const c of tree.collections) {
    const guide = c.entry.fields.pageType === 'Guide';
    const i = c.children.findIndex((ch) => ch.entry.id === entryId);
    if (i >= 0) return { parent: c.entry, parentHref: c.href, siblings: c.children.map((ch) => ({ entry: ch.entry, href: ch.href })), index: i, guide: guide ? c : null };
    for (const child of c.children) {
      const j = child.topics.findIndex((t) => t.entry.id === entryId);
      if (j >= 0) return { parent: child.entry, parentHref: child.href, siblings: child.topics, index: j, guide: guide ? c : null };
    }
  }
  return null;
}

/** The collection an entry belongs to, directly or through its topic set. */
export function collectionOf(tree: DocsTree, entryId: string) {
  return tree.collections.find((c) => c.entry.id === entryId
    || c.children.some((ch) => ch.entry.id === entryId || ch.topics.some((t) => t.entry.id === entryId)));
}

/**
 * The section's other pages (spec §4). Window mode carries at most SIBLINGS_MAX around the current page
 * and links to the section's page for the rest; progress mode (guides) marks every part of the guide.
 */
export function siblingsModel(place: NonNullable<ReturnType<typeof placeOf>>): SiblingsModel {
  const progress = !!place.guide;
  const heading = place.parent.title ?? 'In this section';
  const items = place.siblings.map((s, i) => ({
    title: String(s.entry.fields.shortTitle ?? s.entry.title ?? s.entry.id),
    href: s.href,
    current: i === place.index,
    progress: progress ? (i < place.index ? 'visited' as const : i === place.index ? 'current' as const : 'upcoming' as const) : undefined,
  }));
  if (progress || items.length <= SIBLINGS_MAX) return { heading, mode: progress ? 'progress' : 'window', items };
  return {
    heading, mode: 'window', items: windowOf(items, place.index, SIBLINGS_MAX),
    more: { href: place.parentHref, count: items.length, title: heading },
  };
}

/** Guide previous/next from the reading order of the whole guide, and its other topic sets (spec §4). */
export function upNextModel(tree: DocsTree, entryId: string): UpNextModel | null {
  const place = placeOf(tree, entryId);
  if (!place?.guide) return null;
  const order: CardLink[] = [];
  for (const set of place.guide.children) {
    if (set.entry.type === 'topicSet') {
      for (const t of set.topics) order.push({ title: t.entry.title ?? t.entry.id, href: t.href, description: set.entry.title ?? undefined });
    } else order.push({ title: set.entry.title ?? set.entry.id, href: set.href });
  }
  // A topic set's overview comes just before its first topic in the reading order: its next is that topic.
  const set = place.guide.children.find((ch) => ch.entry.id === entryId && ch.entry.type === 'topicSet');
  const firstTopic = set?.topics[0];
  const i = firstTopic
    ? order.findIndex((o) => o.href === firstTopic.href)
    : order.findIndex((o) => place.siblings.some((s) => s.href === o.href && s.entry.id === entryId));
  const index = i >= 0 ? i : order.findIndex((o) => o.href === place.siblings[place.index]?.href);
  const ownSet = set ? set.entry.id : place.parent.id;
  return {
    previous: index > 0 ? order[index - 1] : undefined,
    next: set ? order[index] : index >= 0 && index < order.length - 1 ? order[index + 1] : undefined,
    otherSets: place.guide.children
      .filter((s) => s.entry.type === 'topicSet' && s.entry.id !== ownSet)
      .map((s) => ({ title: s.entry.title ?? s.entry.id, href: s.href, description: s.entry.fields.description as string | undefined })),
  };
}

/**
 * Where a visitor may look when this page has no version `version` (spec §8 'Unable to find page'): the
 * search results for the page's title in that product version, and that version's documentation home
 * (else the product's page). The version modal and the no-script page offer the same two.
 */
export async function versionAlternatives(app: FastifyInstance, product: StoredEntry | undefined, entry: StoredEntry, version: string): Promise<{ searchHref: string; browseHref: string }> {
  const home = entry.contextId ? await app.content.docsHome(entry.contextId, version) : undefined;
  const search = new URLSearchParams({ searchTerm: entry.title ?? '', deployment: 'data_center', version });
  if (product) search.set('product', String(product.fields.productNameId));
  return { searchHref: `/search-results/?${search}`, browseHref: home?.path ?? (product ? productHref(product) : '/') };
}

/** Spec §5: deployment buttons only when a cloud URL exists and a server URL or versions exist. */
export async function deploymentSelector(app: FastifyInstance, product: StoredEntry | undefined, entry: StoredEntry, version: string | null): Promise<DeploymentSelectorModel | null> {
  if (!product) return null;
  const f = product.fields as Product;
  const versions = [...(f.versions ?? [])].filter((v) => v.showInList !== false).map((v) => v.number).sort(compareVersions).reverse();
  const cloudHref = f.deploymentUrls?.cloud;
  const dataCenterHref = f.deploymentUrls?.server;
  if (!cloudHref || (!dataCenterHref && versions.length === 0)) return null;
  const cloud = isCloud(f);
  // This page in each version, where it exists; elsewhere where to look instead (the version modal).
  const routes = cloud ? [] : await app.content.routesOf(entry.id);
  return {
    current: cloud ? 'cloud' : 'data-center',
    cloudHref,
    dataCenterHref,
    versions: cloud ? [] : await Promise.all(versions.map(async (number) => {
      const href = routes.find((r) => r.version === number)?.path;
      return { number, selected: number === version, ...(href ? { href } : await versionAlternatives(app, product, entry, number)) };
    })),
    versionAction: '/version-switch',
    versionFields: { entry: entry.id, ...(version ? { from: version } : {}) },
  };
}

export async function noticeOf(app: FastifyInstance, contextOrProduct: StoredEntry | undefined): Promise<NoticeModel | null> {
  const id = contextOrProduct?.fields.notice;
  if (typeof id !== 'string') return null;
  const notice = await app.content.byId(id, { preview: false });
  if (!notice?.html) return null;
  const appearance = String(notice.fields.appearance);
  return {
    title: notice.title ?? '',
    appearance: appearance === 'Announcement' ? 'info' : (appearance as NoticeModel['appearance']),
    message: { html: notice.html as SafeHtml },
  };
}
