/**
 * Where the links and images of a body lead, checked at import once every entry's page is known
 * (resolve.ts): relative links to Markdown files become the target entry's page URL, images and files
 * beside the Markdown (or in the tree's `assets/` folder) become content-hashed file URLs, and a site
 * path that no page or route serves is an error. External links are not fetched.
 *
 * The parsed body is never changed (live preview keeps it and checks it again after each save): a body
 * with something to rewrite is copied first.
 */
import { posix } from 'node:path';
import type { Problem } from './problems.ts';
import type { LoadedEntry } from './load.ts';
import type { Document, EmbeddedEntry } from './rich-text.ts';
import { INLINES } from './rich-text.ts';
import { classifyUrl } from './urls.ts';
import { FILE_TYPES, appContentFileDimensions, appContentFileExists, fileType, fileUrl, isImagePath, maxFileBytes, type ContentFile } from './files.ts';
import { distance } from './suggest.ts';
import { isRuntimePath } from './runtime-paths.ts';

export interface BodyLinkContext {
  /** Entries by the path of their file in the tree. */
  byFile: Map<string, LoadedEntry>;
  /** Every file path of the tree (entries that did not load included: their own problems say why). */
  treeFiles: Set<string>;
  /** The page of an entry, if it has one. */
  urlOf: (id: string) => string | undefined;
  /** Site paths pages answer on. */
  known: Set<string>;
  contentFiles: Map<string, ContentFile>;
  /** Heading and anchor ids of an entry's body. */
  anchorsOf: (entry: LoadedEntry) => Set<string>;
  /** Files bodies use, by hash: what the import stores. */
  used: Map<string, ContentFile>;
  problems: Problem[];
}

export interface Body {
  document: Document;
  embedded: Record<string, EmbeddedEntry>;
}

type Kind = 'link' | 'image';
interface Site {
  kind: Kind;
  url: string;
  line: number | undefined;
  column: number | undefined;
  set: (url: string) => void;
  /** A block image's box: its file's intrinsic size, written beside its URL. */
  size?: (width: number, height: number) => void;
}

/** What a site becomes: its new URL, and an image's size. */
interface Resolved { url?: string | undefined; width?: number; height?: number }

const copies = new WeakMap<Document, { key: string; embedded: Body['embedded']; copy: Body }>();

/** Checks every link and image of a body; returns the body with its URLs rewritten (a copy when any is). */
export function resolveBodyLinks(entry: LoadedEntry, body: Body, field: string, ctx: BodyLinkContext): Body {
  const rewrites: Resolved[] = [];
  let any = false;
  for (const site of sitesOf(body)) {
    const resolved = resolveOne(entry, site, field, ctx);
    if (!site.size) delete resolved.width;
    rewrites.push(resolved);
    if (resolved.url !== undefined || resolved.width !== undefined) any = true;
  }
  if (!any) return body;
  // The same body rewritten the same way is the same copy, so what is cached per document (its
  // rendering, resolve.ts) holds across imports and live-preview saves.
  const key = JSON.stringify(rewrites);
  const kept = copies.get(body.document);
  if (kept && kept.key === key && kept.embedded === body.embedded) return kept.copy;
  const copy = structuredClone(body);
  copies.set(body.document, { key, embedded: body.embedded, copy });
  sitesOf(copy).forEach((site, i) => {
    const { url, width, height } = rewrites[i] ?? {};
    if (url !== undefined) site.set(url);
    if (width !== undefined && height !== undefined) site.size?.(width, height);
  });
  return copy;
}

/** The links and images of a body, in a fixed order. */
function sitesOf(body: Body): Site[] {
  const sites: Site[] = [];
  const walk = (node: unknown, lines?: { list: number[] | undefined; columns: number[] | undefined; at: number; fallback: number | undefined }) => {
    if (Array.isArray(node)) {
      for (const child of node) walk(child, lines);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (n.nodeType === INLINES.HYPERLINK) {
      const data = n.data as { uri?: unknown; line?: number; column?: number };
      if (typeof data.uri === 'string') sites.push({ kind: 'link', url: data.uri, line: data.line, column: data.column, set: (u) => { data.uri = u; } });
    } else if (n.type === 'kbImage') {
      const image = n.image as { url?: unknown; width?: number; height?: number } | undefined;
      if (image && typeof image.url === 'string') {
        sites.push({
          kind: 'image', url: image.url, line: n.line as number | undefined, column: n.column as number | undefined,
          set: (u) => { image.url = u; },
          size: (width, height) => { image.width = width; image.height = height; },
        });
      }
    } else if (n.type === 'html' && n.tree) {
      const list = n.lines as number[] | undefined;
      const state = { list, columns: n.columns as number[] | undefined, at: 0, fallback: list?.[0] };
      walk(n.tree, state);
      walk(n.slots);
      return;
    } else if (n.type === 'element' && lines) {
      const props = n.properties as Record<string, unknown> | undefined;
      const attr = n.tagName === 'a' ? 'href' : n.tagName === 'img' ? 'src' : undefined;
      if (props && attr && typeof props[attr] === 'string') {
        const column = lines.columns?.[lines.at] || undefined;
        const line = lines.list?.[lines.at++] ?? lines.fallback;
        sites.push({ kind: attr === 'src' ? 'image' : 'link', url: props[attr] as string, line, column, set: (u) => { props[attr] = u; } });
      }
    }
    for (const [key, value] of Object.entries(n)) {
      if (key === 'data' && n.nodeType !== undefined) continue;
      if (value && typeof value === 'object') walk(value, n.type === 'element' || n.type === 'root' ? lines : undefined);
    }
  };
  walk(body.document);
  for (const id of Object.keys(body.embedded).sort()) walk(body.embedded[id]);
  return sites;
}

/** The URL to put instead of the site's (none: keep it) and an image's size; reports what is wrong. */
function resolveOne(entry: LoadedEntry, site: Site, field: string, ctx: BodyLinkContext): Resolved {
  const url = resolveUrl(entry, site, field, ctx);
  return typeof url === 'object' ? url : { url };
}

function resolveUrl(entry: LoadedEntry, site: Site, field: string, ctx: BodyLinkContext): string | undefined | Resolved {
  const report = (reason: string, hint?: string, warning = false) => ctx.problems.push({
    file: entry.file, line: site.line ?? entry.line, ...(site.column ? { column: site.column } : {}), field, reason,
    ...(hint ? { hint } : {}), ...(warning ? { severity: 'warning' as const } : {}),
  });
  const raw = site.url.trim();
  if (raw === '' || raw.startsWith('#')) return undefined;
  const classified = classifyUrl(raw, site.kind === 'image' ? { images: true } : {});
  // External, mailto and tel addresses are not fetched; unsafe ones are reported where URLs are classified.
  if (classified.kind !== 'site') return undefined;
  const hashAt = raw.search(/[?#]/);
  const pathPart = hashAt < 0 ? raw : raw.slice(0, hashAt);
  const suffix = hashAt < 0 ? '' : raw.slice(hashAt);
  const what = site.kind === 'image' ? 'image' : 'link';

  if (pathPart.startsWith('/')) {
    if (pathPart.startsWith('/assets/')) {
      const inTree = `assets/${decode(pathPart.slice('/assets/'.length))}`;
      if (ctx.contentFiles.has(inTree)) return useFile(inTree, suffix);
      const appFile = decode(pathPart.slice('/assets/content/'.length));
      if (pathPart.startsWith('/assets/content/') && appContentFileExists(appFile)) return site.kind === 'image' ? appContentFileDimensions(appFile) : undefined;
      report(`${what} to ${pathPart}: no file ${inTree} in the content tree`, nearestHint([...ctx.contentFiles.keys()], inTree, (p) => `/${p}`));
      return undefined;
    }
    const clean = pathPart.length > 1 ? pathPart.replace(/\/+$/, '') : pathPart;
    if (ctx.known.has(clean) || ctx.known.has(encodePath(clean)) || isRuntimePath(clean)) return undefined;
    report(`${what} to ${pathPart}: no page at ${pathPart}`, nearestHint([...ctx.known], clean, (p) => p));
    return undefined;
  }

  // Relative to the Markdown file.
  const target = posix.normalize(posix.join(posix.dirname(entry.file), decode(pathPart)));
  if (target.startsWith('../') || target === '..') {
    report(`${what} to ${pathPart} leads outside the content tree`);
    return undefined;
  }
  if (site.kind === 'link' && /\.md$/i.test(target)) {
    const linked = ctx.byFile.get(target);
    if (!linked) {
      // A file that is there but did not load has its own problems.
      if (!ctx.treeFiles.has(target)) {
        report(`link to ${pathPart}: no file ${target}`, nearestHint([...ctx.byFile.keys()], target, (p) => relativeTo(entry.file, p)));
      }
      return undefined;
    }
    const url = ctx.urlOf(linked.id);
    if (!url) {
      report(`link to ${pathPart}: "${linked.id}" (a ${linked.kind}) has no page to link to`, 'link to a topic, topic set, collection, article or page; embed a fragment with ::fragment{id="…"}');
      return undefined;
    }
    const fragment = suffix.startsWith('#') ? decode(suffix.slice(1)) : '';
    if (fragment && !ctx.anchorsOf(linked).has(fragment)) {
      const anchors = [...ctx.anchorsOf(linked)];
      report(`link to ${pathPart}${suffix}: ${target} has no heading or anchor "${fragment}"`, nearestHint(anchors, fragment, (a) => `#${a}`), true);
    }
    return `${url}${suffix.startsWith('#') ? suffix : ''}`;
  }
  if (ctx.contentFiles.has(target)) return useFile(target, suffix);
  if (!fileType(target)) {
    const ext = posix.extname(target);
    report(ext
      ? `${what} to ${pathPart}: files of type ${ext} are not served`
      : `${what} to ${pathPart}: a relative ${what} leads to a Markdown file or a file of the tree`,
    ext ? `allowed types: ${Object.keys(FILE_TYPES).join(' ')}` : site.kind === 'link' ? 'write the .md file name (sso.md) or a site path (/…)' : undefined);
    return undefined;
  }
  report(`${what} ${pathPart}: no file ${target}`, nearestHint([...ctx.contentFiles.keys()], target, (p) => relativeTo(entry.file, p)));
  return undefined;

  function useFile(path: string, rest: string): Resolved | undefined {
    const file = ctx.contentFiles.get(path) as ContentFile;
    if (file.size > maxFileBytes() || !file.hash) {
      report(`${what} ${pathPart}: ${path} is ${megabytes(file.size)}, over the limit of ${megabytes(maxFileBytes())}`, 'make it smaller, or raise CONTENT_FILE_MAX_BYTES');
      return undefined;
    }
    if (site.kind === 'image' && !isImagePath(path)) {
      report(`image ${pathPart}: ${path} is not an image`, `images are ${[...Object.keys(FILE_TYPES)].filter((e) => isImagePath(e)).join(' ')}; link other files with [text](${pathPart})`);
      return undefined;
    }
    ctx.used.set(file.hash, file);
    const url = `${fileUrl(file)}${rest.startsWith('#') ? rest : ''}`;
    return file.width && file.height ? { url, width: file.width, height: file.height } : { url };
  }
}

/**
 * Structural fields (a logo, a favicon, an icon) naming a file of the tree's `assets/` folder, as bodies
 * may (`/assets/brand/logo.svg` is `assets/brand/logo.svg`): the fields with the file's content-hashed URL,
 * the file stored with the bodies' ones; undefined when no field names one. `/assets/content/…` with no
 * such file in the tree still names the application's own folder.
 */
export function resolveFieldFiles(entry: LoadedEntry, fields: Record<string, unknown>, ctx: BodyLinkContext): Record<string, unknown> | undefined {
  let changed = false;
  const walk = (value: unknown, path: (string | number)[]): unknown => {
    if (typeof value === 'string') {
      if (!value.startsWith('/assets/')) return value;
      const cut = value.search(/[?#]/);
      const pathPart = cut < 0 ? value : value.slice(0, cut);
      const inTree = `assets/${decode(pathPart.slice('/assets/'.length))}`;
      const file = ctx.contentFiles.get(inTree);
      const report = (reason: string, hint?: string) => ctx.problems.push({ file: entry.file, line: entry.lineOf(path), field: path.join('.'), reason, ...(hint ? { hint } : {}) });
      if (!file) {
        if (pathPart.startsWith('/assets/content/') && appContentFileExists(decode(pathPart.slice('/assets/content/'.length)))) return value;
        report(`${pathPart}: no file ${inTree} in the content tree`, nearestHint([...ctx.contentFiles.keys()], inTree, (p) => `/${p}`));
        return value;
      }
      if (file.size > maxFileBytes() || !file.hash) {
        report(`${pathPart}: ${inTree} is ${megabytes(file.size)}, over the limit of ${megabytes(maxFileBytes())}`, 'make it smaller, or raise CONTENT_FILE_MAX_BYTES');
        return value;
      }
      ctx.used.set(file.hash, file);
      changed = true;
      return fileUrl(file);
    }
    if (Array.isArray(value)) return value.map((v, i) => walk(v, [...path, i]));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, [...path, k])]));
    return value;
  };
  const out = walk(fields, []) as Record<string, unknown>;
  return changed ? out : undefined;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function encodePath(path: string): string {
  return path.split('/').map((part) => encodeURIComponent(decode(part))).join('/');
}

function megabytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function relativeTo(from: string, path: string): string {
  return posix.relative(posix.dirname(from), path);
}

/** 'did you mean …' with the nearest candidates (by edit distance), or undefined when none is near. */
export function nearestHint(candidates: string[], wanted: string, show: (c: string) => string): string | undefined {
  const near = nearest(candidates, wanted);
  return near.length > 0 ? `did you mean ${near.map((c) => show(c)).join(', ')}?` : undefined;
}

export function nearest(candidates: string[], wanted: string, count = 3): string[] {
  const base = posix.basename(wanted);
  const dir = posix.dirname(wanted);
  const limit = Math.max(2, Math.floor(base.length / 3));
  const scored: { c: string; d: number }[] = [];
  for (const c of candidates) {
    const d = distance(base, posix.basename(c), limit) + (posix.dirname(c) === dir ? 0 : 1);
    if (d <= limit) scored.push({ c, d });
  }
  scored.sort((a, b) => a.d - b.d || a.c.localeCompare(b.c));
  return scored.slice(0, count).map((s) => s.c);
}
