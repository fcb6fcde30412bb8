/**
 * Navigation of the documentation: page tree, sibling lists, guide order, deployment and version
 * selector. Trees are cached per context, version and mode until the content changes.
 */
import type { FastifyInstance } from 'fastify';
import type { StoredEntry } from '../content/store.ts';
import type { Product } from '../content/schemas.ts';
import { compareVersions } from '../content/resolve.ts';
import type {
  CardLink, DeploymentSelectorModel, NoticeModel, PageTreeModel, SiblingsModel, TreeNode, UpNextModel,
} from '../../views/view-model.ts';
import type { SafeHtml } from '../../views/rich-text/safe-html.tsx';

interface RawNode {
  id: string;
  title: string;
  href: string;
  children: RawNode[];
}

export interface DocsTree {
  home: { id: string; title: string; href: string };
  nodes: RawNode[];
  /** Collections of the home page with their entries, for guides and lists. */
  collections: { entry: StoredEntry; href: string; children: { entry: StoredEntry; href: string; topics: { entry: StoredEntry; href: string }[] }[] }[];
}

const childIds = (e: StoredEntry): string[] => [
  ...((e.fields.children as string[] | undefined) ?? []),
  ...((e.fields.topics as string[] | undefined) ?? []),
];

/** The tree of one documentation space: home -> collections -> topics and topic sets -> topics. */
export function docsTree(app: FastifyInstance, contextId: string, version: string | null, preview: boolean): Promise<DocsTree | null> {
  return app.content.memo(`tree:${contextId}:${version}:${preview}`, async () => {
    const homeRoute = await app.content.docsHome(contextId, version);
    const homes = await app.content.ofType('page', { preview, contextId });
    const home = homes.find((h) => h.fields.pageType === 'documentedProduct');
    if (!home || !homeRoute) return null;
    const collections = await app.content.byIds((home.fields.collections as string[] | undefined) ?? [], { preview });
    const level2 = await app.content.byIds(collections.flatMap(childIds), { preview });
    const level3 = await app.content.byIds(level2.flatMap(childIds), { preview });
    const all = [...collections, ...level2, ...level3];
    const paths = await app.content.exactPaths(all.map((e) => e.id), version);
    const byId = new Map(all.map((e) => [e.id, e]));
    const ordered = (ids: string[]) => ids.map((id) => byId.get(id)).filter((e): e is StoredEntry => !!e && paths.has(e.id));
    const orderedCollections = ordered((home.fields.collections as string[] | undefined) ?? []);
    const shaped = orderedCollections.map((c) => ({
      entry: c,
      href: paths.get(c.id) ?? '',
      children: ordered(childIds(c)).map((child) => ({
        entry: child,
        href: paths.get(child.id) ?? '',
        topics: ordered(childIds(child)).map((t) => ({ entry: t, href: paths.get(t.id) ?? '' })),
      })),
    }));
    const title = (e: StoredEntry) => String(e.fields.shortTitle ?? e.title ?? e.id);
    return {
      home: { id: home.id, title: homeRoute.title, href: homeRoute.path },
      collections: shaped,
      nodes: shaped.map((c) => ({
        id: c.entry.id, title: title(c.entry), href: c.href,
        children: c.children.map((child) => ({
          id: child.entry.id, title: title(child.entry), href: child.href,
          children: child.topics.map((t) => ({ id: t.entry.id, title: title(t.entry), href: t.href, children: [] })),
        })),
      })),
    };
  });
}

/** The tree with the current item and its parents open (spec §4). */
export function treeModel(tree: DocsTree, currentId: string): PageTreeModel {
  const mark = (node: RawNode): TreeNode => {
    const children = node.children.map(mark);
    const current = node.id === currentId;
    return { ...node, current, open: current || children.some((c) => c.open), children };
  };
  return { title: tree.home.title, href: tree.home.href, nodes: tree.nodes.map(mark) };
}

/** Where an entry sits: its parent's children, and the guide it belongs to if any. */
export function placeOf(tree: DocsTree, entryId: string) {
  for (const c of tree.collections) {
    const guide = c.entry.fields.pageType === 'Guide';
    const i = c.children.findIndex((ch) => ch.entry.id === entryId);
    if (i >= 0) return { parent: c.entry, siblings: c.children.map((ch) => ({ entry: ch.entry, href: ch.href })), index: i, guide: guide ? c : null };
    for (const child of c.children) {
      const j = child.topics.findIndex((t) => t.entry.id === entryId);
      if (j >= 0) return { parent: child.entry, siblings: child.topics, index: j, guide: guide ? c : null };
    }
  }
  return null;
}

/** The collection an entry belongs to, directly or through its topic set. */
export function collectionOf(tree: DocsTree, entryId: string) {
  return tree.collections.find((c) => c.entry.id === entryId
    || c.children.some((ch) => ch.entry.id === entryId || ch.topics.some((t) => t.entry.id === entryId)));
}

export function siblingsModel(place: NonNullable<ReturnType<typeof placeOf>>): SiblingsModel {
  const progress = !!place.guide;
  return {
    heading: place.parent.title ?? 'In this section',
    mode: progress ? 'progress' : 'window',
    items: place.siblings.map((s, i) => ({
      title: String(s.entry.fields.shortTitle ?? s.entry.title ?? s.entry.id),
      href: s.href,
      current: i === place.index,
      progress: progress ? (i < place.index ? 'visited' : i === place.index ? 'current' : 'upcoming') : undefined,
    })),
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

/** Spec §5: deployment buttons only when a cloud URL exists and a server URL or versions exist. */
export async function deploymentSelector(app: FastifyInstance, product: StoredEntry | undefined, entry: StoredEntry, version: string | null): Promise<DeploymentSelectorModel | null> {
  if (!product) return null;
  const f = product.fields as Product;
  const versions = [...(f.versions ?? [])].filter((v) => v.showInList !== false).map((v) => v.number).sort(compareVersions).reverse();
  const cloudHref = f.deploymentUrls?.cloud;
  const dataCenterHref = f.deploymentUrls?.server;
  if (!cloudHref || (!dataCenterHref && versions.length === 0)) return null;
  const isCloud = f.deployment === 'Cloud';
  return {
    current: isCloud ? 'cloud' : 'data-center',
    cloudHref,
    dataCenterHref,
    versions: isCloud ? [] : versions.map((number) => ({ number, selected: number === version })),
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
