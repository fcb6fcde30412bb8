/**
 * Cross-entry checks and derived data: duplicate ids and paths, references between entries,
 * URLs of every page, the link list of each body, and the rendered HTML.
 */
import type { Problem } from './problems.ts';
import { LinkOptionsError, RichTextError } from './problems.ts';
import { buildLink } from './links.ts';
import { textOf, plainText, type Document } from './rich-text.ts';
import type { LoadedEntry } from './load.ts';
import type { Context, Product, Page, EntryKind, Form } from './schemas.ts';
import { formProblems } from './forms.ts';
import { checkSite } from './site-checks.ts';
import { deploymentValue, storedDeployment } from './deployments.ts';
import { checkDocument, headingAnchors, renderRichText, type LinkList, type LinkedEntry } from '../../views/rich-text/rich-text.tsx';
import { resolveBodyLinks, resolveFieldFiles, type Body, type BodyLinkContext } from './body-links.ts';
import type { ContentFile, StoredFileRow } from './files.ts';
import { fileType } from './files.ts';
import { isRuntimePath } from './runtime-paths.ts';
import type { PhaseClock } from './phases.ts';
import { runAtOnce, type Steps } from './slices.ts';

export interface EntryRow {
  id: string;
  type: EntryKind;
  published: boolean;
  source: string;
  source_line: number;
  path: string | null;
  title: string | null;
  context_id: string | null;
  product_id: string | null;
  deployment: string | null;
  versions: string[];
  language: string;
  last_published: string | null;
  fields: Record<string, unknown>;
  document: { document: Document; links: LinkList } | null;
  html: string | null;
  /** Search: a short description, the body as text, and the product family. */
  description: string | null;
  search_text: string | null;
  product_name_id: string | null;
}

/** Page types the search covers. */
export const SEARCHABLE_TYPES: EntryKind[] = ['topic', 'topicSet', 'collection', 'kbArticle'];

export interface RouteRow {
  path: string;
  entry_id: string;
  version: string | null;
}

export interface ImportPlan {
  entries: EntryRow[];
  routes: RouteRow[];
  /** Images and files the bodies use (files.ts), stored with the entries. */
  files: StoredFileRow[];
}

export interface ResolveOptions {
  /** Images and other files of the tree, by path. */
  contentFiles?: Map<string, ContentFile> | undefined;
  /** Every entry file of the tree, loaded or not. */
  treeFiles?: string[] | undefined;
  /** Times the rendering of bodies apart from the rest of the check (bench:import). */
  clock?: PhaseClock | undefined;
}

const PAGE_KINDS = new Set<EntryKind>(['topic', 'topicSet', 'collection', 'kbArticle', 'page']);

/** Fixed paths of page types that live at one place on the site. */
export const FIXED_PATHS: Partial<Record<Page['pageType'], string>> = {
  home: '/', searchResults: '/search-results', contact: '/contact', hotContact: '/hot-contact',
  partnerContact: '/partnercontact', statusPageContact: '/statuspage-contact', myRequests: '/requests',
  fileDownload: '/file-download',
};

/** Page types that may carry a built-in support form (server/support/forms/). */
export const FORM_PAGE_TYPES: readonly string[] = ['contact', 'hotContact', 'partnerContact', 'statusPageContact', 'fileDownload'];

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export function resolveContent(loaded: LoadedEntry[], problems: Problem[], options: ResolveOptions = {}): ImportPlan {
  return runAtOnce(resolveSteps(loaded, problems, options));
}

/** resolveContent as steps, one per entry in each pass over the tree (slices.ts runs them in slices). */
export function* resolveSteps(loaded: LoadedEntry[], problems: Problem[], options: ResolveOptions = {}): Steps<ImportPlan> {
  const fail = (entry: LoadedEntry, path: (string | number)[], reason: string, line?: number, hint?: string) =>
    problems.push({
      file: entry.file, ...(line !== undefined ? { line } : entry.positionOf?.(path) ?? { line: entry.lineOf(path) }),
      field: path.join('.') || 'entry', reason, ...(hint ? { hint } : {}),
    });
  const warn = (entry: LoadedEntry, path: (string | number)[], reason: string, hint?: string) =>
    problems.push({
      file: entry.file, ...(entry.positionOf?.(path) ?? { line: entry.lineOf(path) }),
      field: path.join('.') || 'entry', reason, ...(hint ? { hint } : {}), severity: 'warning',
    });

  // Ids are unique across the tree.
  const byId = new Map<string, LoadedEntry>();
  for (const entry of loaded) {
    const first = byId.get(entry.id);
    if (first) fail(entry, ['id'], `duplicate id "${entry.id}", already used in ${first.file}:${first.line}`);
    else byId.set(entry.id, entry);
  }

  const ref = (entry: LoadedEntry, path: (string | number)[], kinds: EntryKind[], what: string): LoadedEntry | undefined => {
    let value: unknown = entry.fields;
    for (const key of path) value = (value as Record<string | number, unknown> | undefined)?.[key];
    if (typeof value !== 'string') return undefined;
    const target = byId.get(value);
    if (!target) fail(entry, path, `${what} "${value}" does not exist`);
    else if (!kinds.includes(target.kind)) fail(entry, path, `"${value}" is a ${target.kind}, expected ${kinds.join(' or ')}`);
    else return target;
    return undefined;
  };
  const refs = (entry: LoadedEntry, key: string, kinds: EntryKind[], what: string) => {
    const list = entry.fields[key];
    return Array.isArray(list) ? list.map((_, i) => ref(entry, [key, i], kinds, what)).filter((e): e is LoadedEntry => !!e) : [];
  };

  // What site.yaml says of the whole tree: deployment labels, end-of-support notices, brand colours.
  const deployments = checkSite(loaded, fail);
  const valueOf = (product: { deployment?: unknown }) => deploymentValue(deployments, product.deployment) ?? 'data_center';

  // References every entry type makes.
  const contextOf = new Map<string, LoadedEntry>();
  const parentOf = new Map<string, string>();
  for (const entry of loaded) {
    if (byId.get(entry.id) !== entry) continue;
    const f = entry.fields;
    switch (entry.kind) {
      case 'context': {
        if (f.type === 'product' || (f.type === 'app' && f.product)) ref(entry, ['product'], ['product'], 'product');
        if (f.type === 'knowledgeBase') {
          const home = ref(entry, ['kbHomePage'], ['page'], 'page');
          if (home && home.fields.pageType !== 'kbHome') fail(entry, ['kbHomePage'], `"${home.id}" is not a kbHome page`);
          if (f.kbArticlePage) ref(entry, ['kbArticlePage'], ['kbArticle'], 'article');
        }
        if ((f.type === 'hub' || f.type === 'app') && !f.basePath) fail(entry, ['basePath'], `is required for ${f.type} contexts`);
        if (f.notice) ref(entry, ['notice'], ['notice'], 'notice');
        break;
      }
      case 'topic': case 'topicSet': case 'collection': case 'kbArticle': case 'page': {
        if (f.context) {
          const ctx = ref(entry, ['context'], ['context', 'product'], 'context');
          if (ctx) contextOf.set(entry.id, ctx);
          if (ctx && entry.kind === 'kbArticle' && ctx.fields.type !== 'knowledgeBase') {
            fail(entry, ['context'], `knowledge-base articles need a knowledgeBase context; "${ctx.id}" is a ${ctx.kind === 'product' ? 'product' : String(ctx.fields.type)} context`);
          }
        }
        if (entry.kind === 'topicSet') for (const t of refs(entry, 'topics', ['topic'], 'topic')) if (!parentOf.has(t.id)) parentOf.set(t.id, entry.id);
        if (entry.kind === 'collection') for (const c of refs(entry, 'children', ['topic', 'topicSet'], 'child')) if (!parentOf.has(c.id)) parentOf.set(c.id, entry.id);
        if (entry.kind === 'page') {
          refs(entry, 'collections', ['collection'], 'collection');
          refs(entry, 'resourceCards', ['resourceCard'], 'resource card');
          refs(entry, 'relatedApps', ['product'], 'product');
          if (f.featuredContent) ref(entry, ['featuredContent'], ['featuredContent'], 'featured content');
          }
          const pageType = f.pageType as Page['pageType'];
          if (f.form) {
            ref(entry, ['form'], ['form'], 'form');
            // A form posts to its page's own path, and the form routes answer at these shapes only.
            const fixed = FORM_PAGE_TYPES.includes(pageType) ? FIXED_PATHS[pageType] : undefined;
            const path = typeof f.path === 'string' ? f.path : fixed;
            if (!fixed) fail(entry, ['form'], `only ${FORM_PAGE_TYPES.join(', ')} pages carry a form, not ${pageType}`);
            else if (path !== fixed && !new RegExp(`^/[a-z0-9_-]+${fixed}$`).test(path ?? '')) {
              fail(entry, ['path'], `a ${pageType} page with a form lives at ${fixed}, or under one language segment (/ja${fixed})`);
            }
          const needsContext = ['productLanding', 'productSupport', 'documentedProduct', 'kbHome'].includes(pageType);
          if (needsContext && !f.context) fail(entry, ['context'], `is required for ${pageType} pages`);
          if (pageType === 'legal' && !f.path) fail(entry, ['path'], 'is required for legal pages');
        }
        if (entry.kind === 'kbArticle' && Array.isArray(f.productVersions)) {
          f.productVersions.forEach((_, i) => ref(entry, ['productVersions', i, 'product'], ['product'], 'product'));
        }
        break;
      }
      case 'header':
        refs(entry, 'resources', ['resourceCard'], 'resource card');
        for (const key of ['cloudProducts', 'serverProducts']) {
          const list = f[key];
          if (Array.isArray(list)) list.forEach((_, i) => ref(entry, [key, i, 'product'], ['product'], 'product'));
        }
        break;
      case 'product':
        if (f.notice) ref(entry, ['notice'], ['notice'], 'notice');
        break;
      case 'resourceCard':
        refs(entry, 'relatedApps', ['product'], 'product');
        break;
      case 'form':
        // Checked further only once its shape is right (the schema's problems are reported already).
        if (Array.isArray(f.fields) && f.fields.every((x) => x && typeof x === 'object' && typeof (x as { name?: unknown }).name === 'string'
          && (!(x as { options?: unknown }).options || Array.isArray((x as { options?: unknown }).options)))) {
          for (const p of formProblems(f as unknown as Form)) (p.warning ? warn : fail)(entry, p.path, p.reason);
        }
        break;
      default:
        break;
    }
    yield;
  }

  // Two entries that would share one URL: reported at both files, once per pair.
  const collisions = new Set<string>();
  function reportCollision(entry: LoadedEntry, owner: LoadedEntry, path: string) {
    const at = (e: LoadedEntry) => (e.fields.slug ? ['slug'] : e.fields.path ? ['path'] : ['id']);
    const what = `a ${entry.kind} and a ${owner.kind} collide: they would share the URL ${path}`;
    fail(entry, at(entry), `duplicate path ${path}, already used by "${owner.id}" in ${owner.file}:${owner.line}: ${what}`);
    const pair = `${owner.id}\0${entry.id}`;
    if (collisions.has(pair)) return;
    collisions.add(pair);
    fail(owner, at(owner), `duplicate path ${path}, also wanted by "${entry.id}" in ${entry.file}:${entry.line}: ${what}`);
  }

  // Where each page lives.
  const productOfContext = (ctx: LoadedEntry | undefined): LoadedEntry | undefined => {
    if (ctx?.kind === 'product') return ctx;
    return ctx && typeof ctx.fields.product === 'string' ? byId.get(ctx.fields.product) : undefined;
  };
  const basesOf = (ctx: LoadedEntry): { base: unknown; version: string | null }[] => {
    const c = (ctx.kind === 'product' ? { type: 'product', product: ctx.id } : ctx.fields) as Context;
    if (c.type === 'knowledgeBase') return [{ base: c.basePath ?? `/${c.productNameId}`, version: null }];
    if (c.type === 'hub' || c.type === 'app') return [{ base: c.basePath, version: null }];
    const product = productOfContext(ctx)?.fields as Product | undefined;
    if (!product) return [];
    if (product.versions && valueOf(product) !== 'cloud') {
      return product.versions.map((v) => ({ base: `/${product.id}/${v.number}`, version: v.number }));
    }
    return [{ base: `/${product.id}`, version: null }];
  };

  const routes: RouteRow[] = [];
  const routeOwner = new Map<string, LoadedEntry>();
  const urlOf = new Map<string, string>();
  const routesOf = new Map<string, RouteRow[]>();
  for (const entry of loaded) {
    if (byId.get(entry.id) !== entry || !PAGE_KINDS.has(entry.kind)) continue;
    const f = entry.fields;
    const ctx = contextOf.get(entry.id);
    let mine: RouteRow[] = [];
    try {
      if (entry.kind === 'page') {
        const page = f as Page;
        const fixed = page.path ?? FIXED_PATHS[page.pageType];
        if (fixed) mine = [{ path: fixed, entry_id: entry.id, version: null }];
        else if (ctx && page.pageType === 'documentedProduct') {
          mine = basesOf(ctx).map((b) => ({ path: `${buildLink('base', { basePath: b.base })}/docs`, entry_id: entry.id, version: b.version }));
        } else if (ctx && page.pageType === 'kbHome') {
          mine = basesOf(ctx).map((b) => ({ path: buildLink('kbHome', { basePath: b.base }), entry_id: entry.id, version: null }));
        } else if (ctx && (page.pageType === 'productLanding' || page.pageType === 'productSupport')) {
          const product = productOfContext(ctx);
          const base = product ? `/${product.id}` : (ctx.fields as Context).basePath;
          mine = [{ path: buildLink('base', { basePath: base }), entry_id: entry.id, version: null }];
        }
      } else if (ctx) {
        const shape = entry.kind === 'kbArticle' ? 'kb' : 'docs';
        let bases = basesOf(ctx);
        const wanted = f.versions as string[] | undefined;
        if (wanted) {
          const known = bases.map((b) => b.version).filter((v): v is string => v !== null);
          wanted.forEach((v, i) => {
            if (!known.includes(v)) fail(entry, ['versions', i], known.length ? `version ${v} is not one of the product's versions (${known.join(', ')})` : 'versions apply only to data center products');
          });
          bases = bases.filter((b) => b.version === null || wanted.includes(b.version));
        }
        mine = bases.map((b) => ({ path: buildLink(shape, { basePath: b.base, slug: f.slug }), entry_id: entry.id, version: b.version }));
      }
    } catch (error) {
      if (!(error instanceof LinkOptionsError)) throw error;
      fail(entry, ['slug'], error.message);
    }
    for (const route of mine) {
      const owner = routeOwner.get(route.path);
      if (owner) {
        reportCollision(entry, owner, route.path);
        continue;
      }
      routeOwner.set(route.path, entry);
      routes.push(route);
    }
    const kept = mine.filter((r) => routeOwner.get(r.path) === entry);
    routesOf.set(entry.id, kept);
    const latest = [...kept].sort((a, b) => compareVersions(a.version ?? '0', b.version ?? '0')).at(-1);
    if (latest) urlOf.set(entry.id, latest.path);
    // An entry that lost its URL to another is reported once, at both files; links to it are not blamed too.
    else if (mine[0]) urlOf.set(entry.id, mine[0].path);
    yield;
  }

  // Site paths written in structural fields must lead to a page.
  const known = new Set(routes.map((r) => r.path));
  const hasJapanese = loaded.some((e) => PAGE_KINDS.has(e.kind) && e.fields.language === 'ja-JP');
  const checkSitePath = (entry: LoadedEntry, path: (string | number)[]) => {
    let value: unknown = entry.fields;
    for (const key of path) value = (value as Record<string | number, unknown> | undefined)?.[key];
    if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('/assets/')) return;
    const clean = value.split(/[?#]/)[0]?.replace(/(.)\/+$/, '$1') ?? value;
    if (!known.has(clean) && !isRuntimePath(clean)) fail(entry, path, `no page at ${value}`);
  };
  for (const entry of loaded) {
    if (byId.get(entry.id) !== entry) continue;
    const f = entry.fields;
    const lists: (string | number)[][] = [];
    if (entry.kind === 'header') {
      for (const key of ['guides', 'documentation']) (f[key] as unknown[] | undefined)?.forEach((_, i) => lists.push([key, i, 'url']));
    }
    if (entry.kind === 'featuredContent') (f.featuredEntries as unknown[] | undefined)?.forEach((_, i) => lists.push(['featuredEntries', i, 'url']));
    if (entry.kind === 'resourceCard') lists.push(['buttonLink']);
    if (entry.kind === 'metadata') (f.footerLinks as unknown[] | undefined)?.forEach((_, i) => lists.push(['footerLinks', i, 'href']));
    for (const path of lists) checkSitePath(entry, path);
    // Footer links are prefixed with /ja on Japanese pages (spec §2), so a site with Japanese pages needs both.
    if (entry.kind === 'metadata' && hasJapanese) {
      (f.footerLinks as { href: string }[] | undefined)?.forEach((link, i) => {
        if (link.href.startsWith('/') && !link.href.startsWith('//') && !known.has(`/ja${link.href}`)) {
          fail(entry, ['footerLinks', i, 'href'], `no Japanese page at /ja${link.href}`);
        }
      });
    }
  }

  // Links and images of every body: relative links and files resolved, site paths checked.
  const byFile = new Map<string, LoadedEntry>();
  for (const entry of loaded) if (byId.get(entry.id) === entry) byFile.set(entry.file, entry);
  const anchors = new Map<string, Set<string>>();
  const used = new Map<string, ContentFile>();
  const linkContext: BodyLinkContext = {
    byFile,
    treeFiles: new Set(options.treeFiles ?? loaded.map((e) => e.file)),
    urlOf: (id) => urlOf.get(id),
    known,
    contentFiles: options.contentFiles ?? new Map(),
    anchorsOf: (target) => {
      let ids = anchors.get(target.id);
      if (!ids) {
        ids = new Set(target.document ? headingAnchors(target.document, target.embedded as LinkList).ids.values() : []);
        for (const e of Object.values(target.embedded)) if (e.type === 'anchor') ids.add(e.id);
        anchors.set(target.id, ids);
      }
      return ids;
    },
    used,
    problems,
  };
  const bodies = new Map<string, Body>();
  for (const entry of loaded) {
    if (byId.get(entry.id) !== entry) continue;
    const doc = entry.document ?? entry.fieldDocuments?.message;
    if (doc) bodies.set(entry.id, resolveBodyLinks(entry, { document: doc, embedded: entry.embedded }, entry.document ? 'body' : 'message', linkContext));
    yield;
  }

  // A notice that names a page in emphasis ('Read **Install X**') means a link its reader cannot follow.
  const pageByTitle = new Map<string, string>();
  for (const entry of loaded) {
    const title = entry.fields.title;
    if (typeof title === 'string' && urlOf.has(entry.id) && byId.get(entry.id) === entry) pageByTitle.set(title.trim().toLowerCase(), entry.id);
  }
  for (const entry of loaded) {
    const message = entry.kind === 'notice' ? entry.fieldDocuments?.message : undefined;
    if (!message || byId.get(entry.id) !== entry) continue;
    for (const named of emphasisedTexts(message)) {
      const id = pageByTitle.get(named.trim().toLowerCase());
      if (id) warn(entry, ['message'], `"${named}" names a page but does not link to it`, `write :link[${named.trim()}]{to="${id}"}`);
    }
  }

  // The link list of a body: its own embedded entries, and the entries it references.
  const linkedEntry = (id: string): LinkedEntry | undefined => {
    const target = byId.get(id);
    if (!target) return undefined;
    const f = target.fields;
    if (target.kind === 'media') return { type: 'media', image: f.image as { url: string }, altTag: String(f.altTag ?? '') };
    if (target.kind === 'fragment' && target.document) return { type: 'fragment', document: bodies.get(id)?.document ?? target.document };
    const url = urlOf.get(id);
    if (url) return { type: 'page', entryType: target.kind, url, title: String(f.title ?? id) };
    return { type: 'unrenderable', entryType: target.kind };
  };
  const linksFor = (entry: LoadedEntry, doc: Document): LinkList => {
    const links: LinkList = {};
    const visit = (d: Document, embedded: LoadedEntry['embedded'], seen: Set<string>) => {
      Object.assign(links, embedded);
      for (const id of referencedIdsOf(d, embedded)) {
        if (links[id]) continue;
        const linked = linkedEntry(id);
        if (!linked) continue;
        links[id] = linked;
        const inner = bodies.get(id);
        if (linked.type === 'fragment' && inner && !seen.has(id)) visit(inner.document, inner.embedded, new Set([...seen, id]));
      }
    };
    visit(doc, bodies.get(entry.id)?.embedded ?? entry.embedded, new Set([entry.id]));
    return links;
  };

  const entries: EntryRow[] = [];
  for (const entry of loaded) {
    if (byId.get(entry.id) !== entry) continue;
    // A logo or icon from the tree's assets/ folder is served like a body's image.
    const f = resolveFieldFiles(entry, entry.fields, linkContext) ?? entry.fields;
    const ctx = contextOf.get(entry.id);
    const product = productOfContext(ctx)?.fields as Product | undefined;
    let html: string | null = null;
    let stored: EntryRow['document'] = null;
    const derived: Record<string, unknown> = {};
    const doc = bodies.get(entry.id)?.document;
    if (doc) {
      const links = linksFor(entry, doc);
      // The entry's own body has its contents listed, whether or not its links were rewritten into a copy.
      const render = () => renderedBody(doc, links, entry.document !== undefined, typeof f.language === 'string' ? f.language : undefined);
      const body = options.clock ? options.clock.timeSync('render', render) : render();
      for (const issue of body.issues) {
        // A message's columns count in its YAML string, not the file.
        if (entry.document && issue.line !== undefined && issue.column !== undefined) {
          problems.push({ file: entry.file, line: issue.line, column: issue.column, field: entry.document ? 'body' : 'message', reason: issue.reason });
        } else fail(entry, [entry.document ? 'body' : 'message'], issue.reason, issue.line);
      }
      if (body.error) fail(entry, ['body'], body.error.message, body.error.line);
      html = body.html;
      stored = { document: doc, links };
      if (entry.document) derived.tableOfContents = body.toc;
    }
    if (Object.keys(entry.sections).length > 0) {
      derived.sections = Object.fromEntries(Object.entries(entry.sections).map(([k, d]) => [k, textOf(d).trim()]));
    }
    const entryRoutes = routesOf.get(entry.id) ?? [];
    if (entryRoutes.length > 1) derived.routes = entryRoutes.map((r) => ({ path: r.path, version: r.version }));
    if (parentOf.has(entry.id)) derived.parentId = parentOf.get(entry.id);
    // The product's label is the vendor's; the stored column and `deploymentValue` say which edition it is.
    const ownProduct = product ?? (entry.kind === 'product' ? f : undefined);
    const deployment = ownProduct ? storedDeployment(valueOf(ownProduct)) : null;
    if (entry.kind === 'product') derived.deploymentValue = valueOf(f);
    // A KB article names the deployments it covers in productVersions (one context, several editions):
    // search lists and counts it under each of them, not only its context's.
    if (entry.kind === 'kbArticle' && Array.isArray(f.productVersions)) {
      const covered = new Set((f.productVersions as { platform?: unknown }[]).map((p) => deploymentValue(deployments, p.platform)).filter((v) => v !== undefined));
      if (covered.size > 0) derived.deployments = [...covered].sort();
    }
    const searchable = SEARCHABLE_TYPES.includes(entry.kind);
    const bodyText = searchable && entry.document ? bodyTextOf(entry.document, entry.embedded) : null;
    const summary = (derived.sections as Record<string, string> | undefined)?.summary;
    const firstLine = bodyText?.split('\n').find((l) => l.length > 40);
    const description = searchable
      ? String(f.metaDescription ?? f.description ?? summary ?? firstLine ?? '').slice(0, 400) || null
      : null;
    const family = product?.productNameId ?? (ctx?.fields.productNameId as string | undefined) ?? null;
    entries.push({
      id: entry.id,
      type: entry.kind,
      published: f.published !== false,
      source: entry.file,
      source_line: entry.line,
      path: urlOf.get(entry.id) ?? null,
      title: typeof f.title === 'string' ? f.title : typeof f.productName === 'string' ? f.productName : null,
      context_id: ctx?.id ?? null,
      product_id: product?.id ?? (entry.kind === 'product' ? entry.id : null),
      deployment,
      versions: entryRoutes.map((r) => r.version).filter((v): v is string => v !== null),
      language: typeof f.language === 'string' ? f.language : 'en-US',
      last_published: typeof f.lastPublished === 'string' ? f.lastPublished : null,
      fields: { ...f, ...derived },
      document: stored,
      html,
      description,
      search_text: bodyText,
      product_name_id: family,
    });
    yield;
  }
  const files = [...used.values()].map((f) => ({ hash: f.hash, name: f.path.split('/').pop() ?? f.path, type: fileType(f.path) ?? 'application/octet-stream', size: f.size, abs: f.abs }));
  return { entries, routes, files };
}

/**
 * A body's problems, HTML and table of contents, kept per parsed document and link list. Rendering is
 * most of the whole-tree check (React, 10 000 bodies); live preview keeps the tree parsed and re-parses
 * only saved files, so a save renders again only the bodies that changed or whose links did.
 */
interface RenderedBody {
  key: string;
  issues: ReturnType<typeof checkDocument>;
  html: string | null;
  error?: { message: string; line: number | undefined };
  withToc: boolean;
  toc?: unknown;
}
const renderedBodies = new WeakMap<Document, RenderedBody>();
const bodyTexts = new WeakMap<Document, string>();

function renderedBody(doc: Document, links: LinkList, withToc: boolean, language?: string): RenderedBody {
  const key = `${language ?? ''}\n${JSON.stringify(links)}`;
  const kept = renderedBodies.get(doc);
  if (kept?.key === key && kept.withToc === withToc) return kept;
  const body: RenderedBody = { key, issues: checkDocument(doc, links), html: null, withToc };
  if (body.issues.length === 0) {
    try {
      body.html = renderRichText(doc, links, language);
    } catch (error) {
      if (!(error instanceof RichTextError)) throw error;
      body.error = { message: error.message, line: error.line };
    }
  }
  if (withToc) body.toc = headingAnchors(doc, links).toc;
  renderedBodies.set(doc, body);
  return body;
}

function bodyTextOf(doc: Document, embedded: LoadedEntry['embedded']): string {
  let text = bodyTexts.get(doc);
  if (text === undefined) bodyTexts.set(doc, (text = plainText(doc, embedded)));
  return text;
}

function referencedIdsOf(doc: Document, embedded: LoadedEntry['embedded']): string[] {
  const ids: string[] = [];
  const walk = (node: { data?: unknown; content?: unknown }) => {
    const id = (node.data as { target?: { sys?: { id?: unknown } } } | undefined)?.target?.sys?.id;
    if (typeof id === 'string') {
      ids.push(id);
      const inner = embedded[id];
      if (inner?.type === 'callout') walk(inner.body);
    }
    if (Array.isArray(node.content)) for (const child of node.content) walk(child as { data?: unknown });
  };
  walk(doc);
  return ids;
}

/** Runs of bold or italic text in a document, outside links, each joined into one string. */
function emphasisedTexts(document: Document): string[] {
  const found: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const n = node as { nodeType?: string; content?: unknown[] };
    if (typeof n.nodeType === 'string' && n.nodeType.includes('hyperlink')) return;
    let run = '';
    for (const child of n.content ?? []) {
      const t = child as { nodeType?: string; value?: string; marks?: { type: string }[] };
      if (t.nodeType === 'text' && t.marks?.some((m) => m.type === 'bold' || m.type === 'italic')) {
        run += t.value ?? '';
        continue;
      }
      if (run.trim()) found.push(run);
      run = '';
      walk(child);
    }
    if (run.trim()) found.push(run);
  };
  walk(document);
  return found;
}
