/**
 * Links and images as the source tool resolves them, rewritten for the new tree so that `content:check`
 * finds each one: links to documents become relative links to their topic files, images and files are
 * copied into the tree (each once) and linked relatively, search links go to the help centre's search,
 * and what leads nowhere is kept as text. Every change of meaning is a note of the report; a link that
 * simply follows its page is not news.
 *
 * Read as the tools read them: a relative path from the page's folder (`./part-3`, extension or not, a
 * folder's `index`/`README`), from the docs root (Docusaurus resolves `api/Store.md` from any folder),
 * or from the page's URL (MkDocs' `../configure/`); a site-absolute URL (`/reference/configuration/`,
 * with or without the base URL, trailing slash or locale) by the tool's URL of each page; `/img/x.png`
 * from the static folder. Code (fenced or inline) is never looked into.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileType, isImagePath } from '../../server/content/files.ts';
import { noteAt, type SourceDoc, type SourceSite } from './model.ts';
import { urlKey } from './source-urls.ts';

/** Where a link of one locale's pages leads, and where each page's topic file is. */
export interface LinkScope {
  /** The locale of the pages (undefined: the site's own). */
  locale?: string | undefined;
  docsDir: string;
  docs: Map<string, SourceDoc>;
  /** Source URL (urlKey form) → document path. */
  byUrl: Map<string, string>;
  /** The topic file a document of this scope is written to, or undefined if it is not written. */
  topicFile: (docPath: string) => string | undefined;
  /** A page of the site's own language when this scope has no such page (a page not translated). */
  fallback?: LinkScope | undefined;
  /** The other locales' scopes, for site-absolute links with their prefix (`/ja/guide/`). */
  others?: LinkScope[] | undefined;
  /** URLs (urlKey form) of pages in locales not carried over, with their locale. */
  leftOut?: Map<string, string> | undefined;
}

/** Copies files into the tree, each once, and says where. */
export class Assets {
  private copied = new Map<string, string>();
  readonly files: string[] = [];
  constructor(private site: SourceSite, private out: string, private product: string, private scopes: { dir: string; prefix: string }[]) {}

  /** The tree path of a source file, copying it on first use. */
  async place(absolute: string): Promise<string> {
    const known = this.copied.get(absolute);
    if (known) return known;
    const path = this.treePath(absolute);
    await mkdir(dirname(join(this.out, path)), { recursive: true });
    await copyFile(absolute, join(this.out, path));
    this.copied.set(absolute, path);
    this.files.push(path);
    return path;
  }

  get count() {
    return this.copied.size;
  }

  private treePath(absolute: string): string {
    // Files of a docs folder sit beside the topics, where the pages' relative links expect them.
    for (const scope of this.scopes) {
      const rel = relative(scope.dir, absolute);
      if (!rel.startsWith('..') && !rel.startsWith(sep)) return posix.join(scope.prefix, rel.split(sep).join('/'));
    }
    for (const dir of this.site.staticDirs) {
      const rel = relative(dir, absolute);
      if (!rel.startsWith('..')) return posix.join('assets', this.product, rel.split(sep).join('/'));
    }
    const rel = relative(this.site.root, absolute).split(sep).map((p) => (p === '..' ? 'up' : p)).join('/');
    return posix.join('assets', this.product, 'files', rel);
  }
}

export interface LinkStats {
  /** Links rewritten to another target (a topic file, a copied file, the search). */
  rewritten: number;
  /** Links and images kept as text, their target not found. */
  asText: number;
}

type Target =
  | { kind: 'keep' }
  | { kind: 'doc'; path: string; scope: LinkScope; fragment: string }
  | { kind: 'file'; absolute: string; fragment: string }
  | { kind: 'search'; query: string }
  | { kind: 'missing'; why: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The text of one page with its links and images rewritten; line numbers do not change. */
export async function rewriteLinks(doc: SourceDoc, scope: LinkScope, site: SourceSite, assets: Assets, notes: Map<string, string[]>,
  file: string, stats: LinkStats, origin?: string): Promise<string> {
  const lines = doc.body.split('\n');
  const from = scope.topicFile(doc.path) ?? `topics/${doc.path}`;
  const pageUrl = site.urlOf(doc, scope.locale);
  // A light/dark pair (`#gh-light-mode-only`, `#gh-dark-mode-only`): the light one is kept.
  const hasLight = /#(gh-light-mode-only|only-light|light-mode-only)\b/i.test(doc.body);

  const resolve = (raw: string): Target => {
    let url = raw.trim().replace(/^<|>$/g, '');
    if (url === '' ) return { kind: 'missing', why: 'an empty link' };
    if (origin && url.toLowerCase().startsWith(origin.toLowerCase())) url = url.slice(origin.length) || '/';
    if (url.startsWith('#') || url.startsWith('//') || SCHEME.test(url)) return { kind: 'keep' };
    const hashAt = url.indexOf('#');
    const fragment = hashAt >= 0 ? url.slice(hashAt) : '';
    const beforeHash = hashAt >= 0 ? url.slice(0, hashAt) : url;
    const queryAt = beforeHash.indexOf('?');
    const query = new URLSearchParams(queryAt >= 0 ? beforeHash.slice(queryAt + 1) : '');
    let path = decode(queryAt >= 0 ? beforeHash.slice(0, queryAt) : beforeHash).replace(/\/{2,}/g, '/');
    const term = query.get('q') ?? query.get('query') ?? query.get('search');
    if (term !== null && (path === '' || /(^|\/)search\/?$/i.test(path) || !findAny(path))) return { kind: 'search', query: term };
    if (path === '') return { kind: 'keep' };
    // Docusaurus' alias for the site's folder.
    if (path.startsWith('@site/')) {
      const absolute = join(site.root, path.slice('@site/'.length));
      const docPath = relative(scope.docsDir, absolute).split(sep).join('/');
      if (scope.docs.has(docPath) && scope.topicFile(docPath)) return { kind: 'doc', path: docPath, scope, fragment };
      return isFile(absolute) ? { kind: 'file', absolute, fragment } : { kind: 'missing', why: `no file ${path}` };
    }
    if (path.startsWith('/')) {
      path = stripBase(path);
      const byUrl = lookupUrl(path);
      if (byUrl) return { ...byUrl, fragment };
      for (const dir of [...site.staticDirs, scope.docsDir, site.docsDir]) {
        const absolute = join(dir, path);
        if (isFile(absolute)) return { kind: 'file', absolute, fragment };
      }
      // A file path from the repository's root, as GitHub reads `/docs/guide.md`, or from the docs root.
      if (/\.mdx?$/i.test(path)) {
        for (const base of [site.root, scope.docsDir]) {
          const inDocs = relative(scope.docsDir, join(base, path)).split(sep).join('/');
          if (!inDocs.startsWith('..')) {
            const found = findRelative(`/${inDocs}`);
            if (found) return { ...found, fragment };
          }
        }
      }
      const locale = (scope.leftOut ?? scope.fallback?.leftOut)?.get(urlKey(path));
      return { kind: 'missing', why: locale ? `a page in locale "${locale}", which is not carried over` : `no page or file of the source site at ${path}` };
    }
    // MkDocs and Starlight read a link without `.md` as a URL relative to the page's (`../configure/`);
    // Docusaurus and a `.md` link name a file, from the page's folder or the docs root.
    const byPageUrl = () => {
      const asUrl = new URL(path, `http://site${pageUrl}`).pathname;
      return lookupUrl(asUrl) ?? lookupUrl(new URL(path, `http://site${pageUrl.endsWith('/') ? pageUrl : `${pageUrl}/`}`).pathname);
    };
    const urlFirst = site.tool !== 'docusaurus' && !/\.mdx?$/i.test(path);
    const found = (urlFirst ? byPageUrl() : undefined) ?? findRelative(path) ?? byPageUrl();
    if (found) return { ...found, fragment };
    return { kind: 'missing', why: `no page or file ${path} from ${doc.path}` };
  };

  const findAny = (path: string) => (path.startsWith('/') ? lookupUrl(stripBase(path)) : findRelative(path));

  const stripBase = (path: string) => {
    let p = path;
    const base = site.baseUrl;
    if (base !== '/' && (`${p}/`).startsWith(base)) p = p.slice(base.length - 1) || '/';
    return p;
  };

  const lookupUrl = (path: string): Omit<Extract<Target, { kind: 'doc' }>, 'fragment'> | undefined => {
    const key = urlKey(path);
    // A locale prefix (`/fr/…`) picks that locale's pages; an untranslated page is the site's own, as the tools fall back.
    const prefixed = (s: LinkScope) => (s.locale && key.startsWith(`/${s.locale.toLowerCase()}/`) ? key.slice(s.locale.length + 1) : undefined);
    const candidates: [LinkScope, string][] = [];
    for (const s of [scope, ...(scope.others ?? [])]) {
      candidates.push([s, key]);
      const stripped = prefixed(s);
      if (stripped && s.fallback) candidates.push([s.fallback, stripped]);
    }
    if (scope.fallback) candidates.push([scope.fallback, key]);
    for (const [s, k] of candidates) {
      const hit = s.byUrl.get(k);
      if (hit && s.topicFile(hit)) return { kind: 'doc', path: hit, scope: s };
    }
    return undefined;
  };

  const findRelative = (path: string): Omit<Extract<Target, { kind: 'doc' }>, 'fragment'> | { kind: 'file'; absolute: string } | undefined => {
    const bases = path.startsWith('/') ? [''] : [posix.dirname(doc.path), ''];
    for (const s of [scope, scope.fallback].filter((x): x is LinkScope => Boolean(x))) {
      for (const base of bases) {
        const p = posix.normalize(posix.join(base === '.' ? '' : base, path)).replace(/^\/+|\/+$/g, '');
        if (!p.startsWith('../') && p !== '..') {
          const noExt = p.replace(/\.mdx?$/i, '');
          for (const candidate of [p, `${noExt}.md`, `${noExt}.mdx`, `${noExt}/index.md`, `${noExt}/index.mdx`, `${noExt}/README.md`, `${noExt}/readme.md`]) {
            if (s.docs.has(candidate) && s.topicFile(candidate)) return { kind: 'doc', path: candidate, scope: s };
          }
        }
        if (/\.mdx?$/i.test(p)) continue;
        const absolute = join(s.docsDir, p);
        if (isFile(absolute)) return { kind: 'file', absolute };
      }
    }
    return undefined;
  };

  const linkTo = async (target: Target): Promise<string | undefined> => {
    if (target.kind === 'doc') {
      const to = target.scope.topicFile(target.path) as string;
      // The title heading becomes the page's title, not a section: a link to it is a link to the page.
      const linked = target.scope.docs.get(target.path);
      const fragment = linked && target.fragment.length > 1 && decode(target.fragment.slice(1)).toLowerCase() === titleAnchor(linked) ? '' : target.fragment;
      return `${relativeLink(from, to)}${fragment}`;
    }
    if (target.kind === 'file') {
      if (!fileType(target.absolute)) return undefined;
      return `${relativeLink(from, await assets.place(target.absolute))}`;
    }
    if (target.kind === 'search') return `/search-results?searchTerm=${encodeURIComponent(target.query)}`;
    return undefined;
  };

  /** A link's new target, or undefined to keep the text only (noted). */
  const rewriteLink = async (raw: string, at: number, text: string): Promise<{ url?: string; changed: boolean }> => {
    const target = resolve(raw);
    if (target.kind === 'keep') return { url: raw, changed: false };
    if (target.kind === 'missing') {
      noteAt(notes, file, at, `link to ${raw}`, `kept as the text "${text}": ${target.why}`);
      stats.asText++;
      return { changed: true };
    }
    const url = await linkTo(target);
    if (url === undefined) {
      noteAt(notes, file, at, `link to ${raw}`, `kept as the text "${text}": files of type ${posix.extname(raw.split(/[?#]/)[0] ?? '') || '(none)'} are not served`);
      stats.asText++;
      return { changed: true };
    }
    if (target.kind === 'search') noteAt(notes, file, at, `search link ${raw}`, `links to the help centre's search for "${target.query}"`);
    if (url !== raw) stats.rewritten++;
    return { url, changed: url !== raw };
  };

  /** An image's new source (the copy), or a reason to keep its alt text only. */
  const rewriteImage = async (raw: string, at: number): Promise<{ url?: string; dark?: boolean; why?: string }> => {
    const clean = raw.trim().replace(/^<|>$/g, '');
    if (SCHEME.test(clean) || clean.startsWith('//')) return { url: raw };
    const [pathPart, ...rest] = clean.split(/(?=[?#])/);
    const suffix = rest.join('');
    // A light/dark pair shows one image in Signpost: the dark one is not copied.
    if (hasLight && /#(gh-dark-mode-only|only-dark|dark-mode-only)\b/i.test(suffix)) return { dark: true };
    const target = resolve(pathPart ?? '');
    if (target.kind !== 'file') return { why: target.kind === 'doc' ? 'it names a page, not an image' : 'no such file on the source site' };
    if (!fileType(target.absolute) || !isImagePath(target.absolute)) return { why: `files of type ${posix.extname(target.absolute)} are not images Signpost serves` };
    const url = relativeLink(from, await assets.place(target.absolute));
    if (suffix) noteAt(notes, file, at, `image ${clean}`, `copied as ${posix.basename(url)}; "${suffix}" dropped`);
    return { url };
  };

  // Reference definitions: resolved once, used by links and images alike.
  const definitions = new Map<string, { raw: string; line: number; index: number }>();
  const imageRefs = new Set<string>();
  let fence: string | undefined;
  const code: boolean[] = lines.map((line) => {
    const m = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (m && m[1]?.startsWith(fence)) fence = undefined;
      return true;
    }
    if (m) {
      fence = m[1];
      return true;
    }
    return false;
  });
  lines.forEach((line, i) => {
    if (code[i]) return;
    const def = /^ {0,3}\[([^\]]+)\]:\s*(\S+)/.exec(line);
    if (def && !def[1]?.startsWith('^')) definitions.set(normRef(def[1] as string), { raw: def[2] as string, line: doc.bodyLine + i, index: i });
    // `![alt][ref]`, or `![alt][]` whose alt names the definition.
    for (const m of maskCode(line).matchAll(/!\[([^\]]*)\]\[([^\]]*)\]/g)) imageRefs.add(normRef((m[2] || m[1]) as string));
  });
  const missingRefs = new Map<string, string>();
  for (const [name, def] of definitions) {
    const at = def.line;
    const line = lines[def.index] as string;
    if (imageRefs.has(name)) {
      const image = await rewriteImage(def.raw, at);
      if (image.url && image.url !== def.raw) lines[def.index] = line.replace(def.raw, image.url);
      if (!image.url) missingRefs.set(name, image.why ?? 'not found');
      continue;
    }
    const link = await rewriteLink(def.raw, at, name);
    if (link.url !== undefined && link.changed) lines[def.index] = line.replace(def.raw, link.url);
    else if (link.url === undefined) {
      missingRefs.set(name, 'not found');
      lines[def.index] = '';
    }
  }

  for (let i = 0; i < lines.length; i++) {
    if (code[i]) continue;
    const at = doc.bodyLine + i;
    let line = lines[i] as string;
    const masked = maskCode(line);
    const edits: { start: number; end: number; text: string }[] = [];

    // Inline links and images, an image inside a link's text included.
    for (const m of masked.matchAll(LINK)) {
      const start = m.index;
      // Matched on the masked line (code spans blank), read on the real one: a label may hold code.
      const real = new RegExp(`^${LINK.source}`).exec(line.slice(start)) ?? m;
      const [whole = '', bang, label = '', dest = '', title = ''] = real as unknown as string[];
      if (bang) {
        edits.push({ start, end: start + whole.length, text: await imageMarkdown(label, dest, title, at) });
      } else {
        const inner = await rewriteInlineImages(label, at);
        const link = await rewriteLink(dest, at, plain(label));
        edits.push({ start, end: start + whole.length, text: link.url === undefined ? inner : `[${inner}](${link.url}${title})` });
      }
    }
    // Reference-style uses whose definition leads nowhere: their text.
    for (const m of masked.matchAll(/(!?)\[([^\]]+)\](?:\[([^\]]*)\])?(?![(:])/g)) {
      const name = normRef(m[3] || m[2] || '');
      if (!missingRefs.has(name) || edits.some((e) => m.index >= e.start && m.index < e.end)) continue;
      const label = m[2] as string;
      if (m[1]) noteAt(notes, file, at, `image [${name}]`, `kept as the text "${label}": ${missingRefs.get(name)}`);
      edits.push({ start: m.index, end: m.index + m[0].length, text: label });
    }
    // Reference-style images with no alt text.
    for (const m of masked.matchAll(/!\[\]\[([^\]]*)\]/g)) {
      if (edits.some((e) => m.index >= e.start && m.index < e.end)) continue;
      const def = definitions.get(normRef(m[1] as string));
      const alt = altFromName(def?.raw ?? (m[1] as string));
      noteAt(notes, file, at, 'image without alt text', `alt text "${alt}" made from its file name: describe the image`);
      edits.push({ start: m.index, end: m.index + m[0].length, text: `![${alt}][${m[1]}]` });
    }
    // HTML links and images.
    for (const m of masked.matchAll(/<img\b[^>]*>/gi)) {
      edits.push({ start: m.index, end: m.index + m[0].length, text: await imgTag(line.slice(m.index, m.index + m[0].length), at) });
    }
    for (const m of masked.matchAll(/<a\b([^>]*?)\bhref=(["'])(.*?)\2([^>]*)>([\s\S]*?)<\/a>/gi)) {
      const raw = m[3] as string;
      const link = await rewriteLink(raw, at, plain(m[5] as string));
      if (!link.changed) continue;
      edits.push({ start: m.index, end: m.index + m[0].length, text: link.url === undefined ? (m[5] as string) : m[0].replace(`href=${m[2]}${raw}${m[2]}`, `href="${link.url}"`) });
    }
    // An empty `<a id="x"></a>` (or `name=`) is a link target: Signpost's anchor, so links to #x still land.
    for (const m of masked.matchAll(/<a\s+(?:id|name)=(["'])([A-Za-z0-9_:.-]+)\1\s*>\s*<\/a>/gi)) {
      const alone = line.trim() === m[0];
      edits.push({ start: m.index, end: m.index + m[0].length, text: `${alone ? '::' : ':'}anchor{id="${m[2]}"}` });
    }
    // Components' links (`<LinkCard href="/guides/x/">`) follow their pages too, for whatever they become.
    for (const m of masked.matchAll(/<[A-Z][\w.]*\b[^>]*?\b(?:href|link)=(["'])(.*?)\1/g)) {
      const raw = m[2] as string;
      const target = resolve(raw);
      if (target.kind !== 'doc' && target.kind !== 'search') continue;
      const url = await linkTo(target);
      const at0 = m.index + m[0].length - raw.length - 1;
      if (url && url !== raw) {
        edits.push({ start: at0, end: at0 + raw.length, text: url });
        stats.rewritten++;
      }
    }
    edits.sort((a, b) => b.start - a.start);
    let last = Infinity;
    for (const e of edits) {
      if (e.end > last) continue;
      line = line.slice(0, e.start) + e.text + line.slice(e.end);
      last = e.start;
    }
    lines[i] = line;
  }
  return lines.join('\n');

  async function rewriteInlineImages(text: string, at: number): Promise<string> {
    let result = text;
    for (const m of [...maskCode(text).matchAll(LINK)].reverse()) {
      if (!m[1]) continue;
      result = result.slice(0, m.index) + await imageMarkdown(m[2] ?? '', m[3] ?? '', m[4] ?? '', at) + result.slice(m.index + m[0].length);
    }
    return result;
  }

  async function imageMarkdown(alt: string, dest: string, title: string, at: number): Promise<string> {
    const image = await rewriteImage(dest, at);
    if (image.dark) {
      noteAt(notes, file, at, `image ${dest}`, 'the dark-mode variant: left out, Signpost shows the light one beside it');
      return '';
    }
    let text = alt;
    if (!image.url) {
      noteAt(notes, file, at, `image ${dest}`, `kept as its alt text "${alt}": ${image.why}`);
      stats.asText++;
      return alt;
    }
    if (text.trim() === '') {
      text = altFromName(dest);
      noteAt(notes, file, at, 'image without alt text', `alt text "${text}" made from its file name: describe the image`);
    }
    if (image.url !== dest) stats.rewritten++;
    return `![${text}](${image.url}${title})`;
  }

  async function imgTag(tag: string, at: number): Promise<string> {
    const src = /\bsrc=(["'])(.*?)\1/i.exec(tag);
    if (!src) return tag;
    const alt = /\balt=(["'])(.*?)\1/i.exec(tag)?.[2];
    const image = await rewriteImage(src[2] as string, at);
    if (image.dark) {
      noteAt(notes, file, at, `<img src="${src[2]}">`, 'the dark-mode variant: left out, Signpost shows the light one beside it');
      return '';
    }
    if (!image.url) {
      noteAt(notes, file, at, `<img src="${src[2]}">`, `kept as its alt text "${alt ?? ''}": ${image.why}`);
      stats.asText++;
      return alt ?? '';
    }
    let out = tag.replace(src[0], `src="${image.url}"`);
    if (image.url !== src[2]) stats.rewritten++;
    if (!alt || alt.trim() === '') {
      const made = altFromName(src[2] as string);
      noteAt(notes, file, at, '<img> without alt text', `alt text "${made}" made from its file name: describe the image`);
      out = /\balt=(["'])\1/i.test(out) ? out.replace(/\balt=(["'])\1/i, `alt="${made}"`) : out.replace(/^<img\b/i, `<img alt="${made}"`);
    }
    return out;
  }
}

/** `[text](dest "title")` and `![alt](dest)`: the text may hold one level of brackets (an image in a link). */
const LINK = /(!?)\[((?:[^[\]]|\[[^[\]]*\])*)\]\(\s*(<[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g;

/** The line with its inline code spans blanked out (same length), so nothing inside them is matched. */
export function maskCode(line: string): string {
  return line.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (m) => ' '.repeat(m.length));
}

function normRef(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

function plain(text: string): string {
  return text.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '').trim();
}

/** The id the tools give a page's leading `# Title` heading (lower case, dashes), or undefined. */
function titleAnchor(doc: SourceDoc): string | undefined {
  const heading = /^\s*#\s+(.+?)\s*#*\s*$/m.exec(doc.body.replace(/^\s+/, ''));
  if (!heading || doc.body.replace(/^\s+/, '').indexOf(heading[0].trim()) !== 0) return undefined;
  return (heading[1] as string).toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s+/g, '-');
}

/** `img/dashboard-dark_v2.png` → 'Dashboard dark v2'. */
export function altFromName(src: string): string {
  const name = posix.basename(src.split(/[?#]/)[0] ?? src).replace(/\.[a-z0-9]+$/i, '').replace(/[-_.]+/g, ' ').trim() || 'Image';
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** A relative link between tree files, written so Markdown reads it whole (spaces and parentheses encoded). */
function relativeLink(from: string, to: string): string {
  const rel = posix.relative(posix.dirname(from), to).replace(/[ ()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

function decode(value: string): string {
  try {
    return decodeURI(value);
  } catch {
    return value;
  }
}

function isFile(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isFile();
  } catch {
    return false;
  }
}
