/**
 * Raw HTML in Markdown bodies: parsed with hast-util-raw, passed through an allowlist sanitiser
 * (hast-util-sanitize, GitHub's schema with the additions below), and kept as a sanitised hast tree.
 * Whatever the sanitiser removes is reported as a warning with its line. Markdown between an opening
 * and a closing tag (`<details>` … blank line … Markdown … `</details>`) stays Markdown: it is converted
 * on its own and put back in the place of a slot element.
 *
 * Text that only looks like a tag (`<id>`, `<your-server>`) is not HTML: a tag whose name is not an HTML
 * element is kept as text.
 */
import { raw } from 'hast-util-raw';
import { sanitize, defaultSchema, type Schema } from 'hast-util-sanitize';
import { htmlTagNames } from 'html-tag-names';
import type { Root as HastRoot, RootContent as HastContent, Element, Properties } from 'hast';

/** The element that marks where converted Markdown goes; its name is not an HTML tag name, so no author can write one. */
export const SLOT_TAG = 'signpost-slot';

const KNOWN_TAGS = new Set(htmlTagNames);
const VOID_TAGS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
/** Removed with their content. */
const STRIP = ['script', 'style', 'iframe', 'object', 'embed', 'template', 'noscript', 'textarea', 'select', 'title', 'head', 'frame', 'frameset'];

/**
 * The allowlist: GitHub's (hast-util-sanitize's default) plus figures, captions, abbreviations and
 * marks; links may be http(s), mailto, tel or relative; images http(s) or relative. Iframes only from
 * the video hosts the site lists (`videoHosts` in site.yaml).
 */
function schemaFor(videoHosts: readonly string[]): Schema {
  const base = defaultSchema;
  const hostPattern = videoHosts === ANY_HOST ? /^https:\/\//i : videoHosts.length > 0
    ? new RegExp(`^https://(?:${videoHosts.map((h) => h.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})/`, 'i')
    : null;
  return {
    ...base,
    tagNames: [...(base.tagNames ?? []).filter((t) => t !== 'input'), 'figure', 'figcaption', 'caption', 'abbr', 'mark', 'u', 'small', 'cite', 'dfn', SLOT_TAG,
      ...(hostPattern ? ['iframe'] : [])],
    attributes: {
      ...base.attributes,
      img: [...(base.attributes?.img ?? []), 'title', 'loading'],
      abbr: ['title'],
      [SLOT_TAG]: ['dataSlot'],
      ...(hostPattern ? { iframe: [['src', hostPattern], 'title', 'allow', 'allowFullScreen', 'width', 'height', 'loading'] } : {}),
    },
    protocols: { ...base.protocols, href: ['http', 'https', 'mailto', 'tel'], src: ['http', 'https'] },
    strip: STRIP.filter((t) => !(hostPattern && t === 'iframe')),
    // A stored tree had its ids prefixed at import already.
    ...(videoHosts === ANY_HOST ? { clobber: [] } : {}),
  };
}

/** Rendering a stored tree again: its iframes' hosts were checked at import. */
const ANY_HOST: readonly string[] = ['*'];

const schemas = new Map<string, { schema: Schema; allowed: Map<string, Set<string>> }>();

function schemaInfo(videoHosts: readonly string[]) {
  const key = videoHosts === ANY_HOST ? '\0any' : videoHosts.join(' ');
  let info = schemas.get(key);
  if (!info) {
    const schema = schemaFor(videoHosts);
    const allowed = new Map<string, Set<string>>();
    for (const [tag, defs] of Object.entries(schema.attributes ?? {})) {
      allowed.set(tag, new Set(defs.map((d) => (typeof d === 'string' ? d : d[0]))));
    }
    info = { schema, allowed };
    schemas.set(key, info);
  }
  return info;
}

export interface HtmlWarning {
  line: number;
  /** Where the removed tag or attribute is written (1-based column; the end, just past it), when found. */
  column?: number;
  endLine?: number;
  endColumn?: number;
  reason: string;
}

/** A tag at the start of a raw HTML string: its name, whether it closes or closes itself. */
export function tagOf(value: string): { name: string; closing: boolean; selfClosing: boolean } | 'comment' | undefined {
  if (value.startsWith('<!--')) return 'comment';
  const m = /^<(\/?)([A-Za-z][A-Za-z0-9-]*)[^>]*?(\/?)>/.exec(value);
  if (!m) return undefined;
  return { name: (m[2] as string).toLowerCase(), closing: m[1] === '/', selfClosing: m[3] === '/' };
}

export function isHtmlTag(name: string): boolean {
  return KNOWN_TAGS.has(name.toLowerCase());
}

export function isVoid(name: string): boolean {
  return VOID_TAGS.has(name);
}

const TAG = /<(\/?)([A-Za-z][A-Za-z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;

/** Whether a raw HTML string holds at least one real HTML tag or comment. */
export function hasHtml(value: string): boolean {
  if (value.includes('<!--')) return true;
  for (const m of value.matchAll(TAG)) if (isHtmlTag(m[2] as string)) return true;
  return false;
}

/** Tags left open by a raw HTML string (a stack of names), given the ones already open. */
export function openTags(value: string, stack: string[]): string[] {
  const out = [...stack];
  for (const m of value.replace(/<!--[\s\S]*?-->/g, '').matchAll(TAG)) {
    const name = (m[2] as string).toLowerCase();
    if (!isHtmlTag(name) || VOID_TAGS.has(name) || m[4] === '/') continue;
    if (m[1] === '/') {
      const at = out.lastIndexOf(name);
      if (at >= 0) out.length = at;
    } else out.push(name);
  }
  return out;
}

/** Writes a tag that is not an HTML element as text, so the parser keeps it as written. */
function escapeUnknownTags(value: string): string {
  return value.replace(TAG, (whole, _c: string, name: string) => (isHtmlTag(name) ? whole : whole.replace(/</g, '&lt;')));
}

export type HtmlPart = { raw: string; line: number; column?: number } | { slot: number; line: number; column?: number };

/**
 * For scripts/bench-import.ts --unsanitised only, which measures what the sanitiser costs: raw HTML is
 * then parsed but neither checked nor sanitised. No configuration or environment reaches it.
 */
export const sanitiserBenchmark = { bypass: false };

/**
 * Parses raw HTML pieces and slots into one sanitised tree. `inline` pieces are phrasing content.
 * Returns the tree and what the sanitiser removed.
 */
/** Where something in raw HTML is written: its line, and when found its column and end (as HtmlWarning). */
export type HtmlPosition = Omit<HtmlWarning, 'reason'>;

export function sanitiseHtml(parts: HtmlPart[], videoHosts: readonly string[]): { tree: HastRoot; warnings: HtmlWarning[]; imagesWithoutAlt: HtmlPosition[]; urls: HtmlPosition[] } {
  const { schema, allowed } = schemaInfo(videoHosts);
  const children: HastContent[] = parts.map((part) => ('raw' in part
    ? { type: 'raw', value: escapeUnknownTags(part.raw), position: { start: { line: part.line, column: 1 }, end: { line: part.line, column: 1 } } } as unknown as HastContent
    : { type: 'element', tagName: SLOT_TAG, properties: { dataSlot: String(part.slot) }, children: [], position: { start: { line: part.line, column: 1 }, end: { line: part.line, column: 1 } } }));
  const parsed = raw({ type: 'root', children }) as HastRoot;
  if (sanitiserBenchmark.bypass) {
    stripPositions(parsed);
    delete parsed.data;
    return { tree: parsed, warnings: [], imagesWithoutAlt: [], urls: [] };
  }
  const firstLine = parts[0]?.line ?? 1;
  const warnings: Located<HtmlWarning>[] = [];
  const imagesWithoutAlt: Located<HtmlPosition>[] = [];
  /** Where the links and images kept are written, in document order (the import checks where they lead). */
  const urls: Located<HtmlPosition>[] = [];
  /**
   * How many of each tag, and of each tag with a URL attribute, came before in document order: the nth
   * element is the nth `<img` (or `src` of an `<img`) written, which is how it is found in the source.
   */
  const seen = new Map<string, number>();
  const next = (key: string) => {
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return n;
  };
  const count = (el: Element) => {
    next(el.tagName);
    for (const attr of ['href', 'src']) if (el.properties[attr] !== undefined) next(`${el.tagName} ${attr}`);
  };
  // A removed element's descendants are written in the source too.
  const countWithin = (node: Element) => {
    for (const child of node.children) if (child.type === 'element') (count(child), countWithin(child));
  };
  const hostPattern = (schema.attributes?.iframe?.find((d) => Array.isArray(d) && d[0] === 'src') as [string, RegExp] | undefined)?.[1];

  const walk = (node: HastRoot | Element, inherited: number) => {
    const kept: HastContent[] = [];
    for (const child of node.children as HastContent[]) {
      const line = child.position?.start.line ?? inherited;
      if (child.type === 'comment') continue;
      if (child.type !== 'element') {
        kept.push(child);
        continue;
      }
      const tag = child.tagName;
      const nth = seen.get(tag) ?? 0;
      count(child);
      if (tag === 'iframe') {
        const src = String(child.properties.src ?? '');
        if (!hostPattern || !hostPattern.test(src)) {
          warnings.push({ line, at: openTag('iframe'), nth, reason: `removed <iframe>${src ? ` from ${hostOf(src)}` : ''}: only videos from the site's videoHosts may be embedded` });
          countWithin(child);
          continue;
        }
      }
      if (!schema.tagNames?.includes(tag)) {
        if (schema.strip?.includes(tag)) {
          warnings.push({ line, at: openTag(tag), nth, reason: `removed <${tag}> and its content: it is not allowed in a body` });
          countWithin(child);
          continue;
        }
        warnings.push({ line, at: openTag(tag), nth, reason: `removed the <${tag}> tag (its content is kept): it is not allowed in a body` });
      } else {
        const ok = new Set([...(allowed.get('*') ?? []), ...(allowed.get(tag) ?? [])]);
        for (const [prop, value] of Object.entries(child.properties as Properties)) {
          if (!ok.has(prop)) {
            warnings.push({ line, at: attribute(tag, attributeName(prop)), reason: `removed the ${attributeName(prop)} attribute of <${tag}>: ${/^on/i.test(prop) ? 'scripts are' : prop === 'style' ? 'inline styles are' : 'it is'} not allowed in a body` });
          } else if ((prop === 'href' || prop === 'src') && typeof value === 'string' && !urlAllowed(value, schema.protocols?.[prop] ?? [])) {
            warnings.push({ line, at: attribute(tag, prop), reason: `removed the ${prop} ${JSON.stringify(value.slice(0, 60))} of <${tag}>: only ${prop === 'href' ? 'http(s), mailto, tel and site' : 'http(s) and site'} addresses are allowed` });
          }
        }
        if (tag === 'img' && String(child.properties.alt ?? '').trim() === '') imagesWithoutAlt.push({ line, at: openTag('img'), nth });
        const url = tag === 'a' ? 'href' : tag === 'img' ? 'src' : undefined;
        if (url && child.properties[url] !== undefined) urls.push({ line, at: attribute(tag, url), nth: (seen.get(`${tag} ${url}`) ?? 1) - 1 });
      }
      walk(child, line);
      kept.push(child);
    }
    node.children = kept as typeof node.children;
  };
  walk(parsed, firstLine);
  locate(parts, warnings);
  locate(parts, imagesWithoutAlt);
  locate(parts, urls);
  const tree = sanitize(parsed, schema) as HastRoot;
  stripPositions(tree);
  delete tree.data;
  return { tree, warnings, imagesWithoutAlt, urls };
}

function attributeName(prop: string): string {
  if (prop === 'className') return 'class';
  if (prop.startsWith('data') && /[A-Z]/.test(prop[4] ?? '')) return `data-${prop.slice(4).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).slice(1)}`;
  return prop.toLowerCase();
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url.slice(0, 40);
  } catch {
    return JSON.stringify(url.slice(0, 40));
  }
}

/** The sanitiser's rule: a relative URL, or one of the listed protocols (case and control characters ignored). */
function urlAllowed(value: string, protocols: readonly string[]): boolean {
  const clean = value.replace(/[\u0000-\u0020\u007f]/g, '');
  const colon = clean.indexOf(':');
  const end = Math.min(...['?', '#', '/'].map((c) => clean.indexOf(c)).filter((i) => i >= 0), Infinity);
  if (colon < 0 || colon > end) return true;
  return protocols.includes(clean.slice(0, colon).toLowerCase());
}

function stripPositions(node: { position?: unknown; children?: unknown[] }) {
  delete node.position;
  if (Array.isArray(node.children)) for (const child of node.children) stripPositions(child as typeof node);
}

/**
 * Sanitises a stored tree again before it is rendered (a preview renders stored documents at request
 * time): the same allowlist, with any https iframe (the hosts were checked at import).
 */
export function resanitise(tree: HastRoot): HastRoot {
  return sanitize(tree, schemaInfo(ANY_HOST).schema) as HastRoot;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Where an opening tag is written: `<name`. */
const openTag = (name: string) => new RegExp(`<${escapeRe(name)}(?=[\\s/>])`, 'gi');
/** Where an attribute of a tag is written: its name, inside the tag. */
const attribute = (tag: string, name: string) => new RegExp(`(?<=<${escapeRe(tag)}\\s(?:[^>"']|"[^"]*"|'[^']*')*?)\\b${escapeRe(name)}\\b(?:\\s*=\\s*(?:"[^"]*"|'[^']*'|[^\\s>]+))?`, 'gi');

/** Something to find in the raw HTML: a pattern, and which of its matches (`nth`, from 0) when known. */
type Located<T> = T & { at?: RegExp; nth?: number };

/**
 * Gives each item the line and column of what it is about, found in the raw HTML as written (the
 * parser keeps no positions for it): the nth match when the item says which, else each match once, in order.
 */
function locate(parts: HtmlPart[], items: Located<HtmlPosition>[]) {
  const used = new Map<string, number>();
  const texts = new Map<HtmlPart, string>();
  for (const part of parts) if ('raw' in part) texts.set(part, unparsed(part.raw));
  for (const w of items) {
    const at = w.at;
    const nth = w.nth;
    delete w.at;
    delete w.nth;
    if (!at) continue;
    let skip = nth ?? used.get(at.source) ?? 0;
    if (nth === undefined) used.set(at.source, skip + 1);
    for (const part of parts) {
      if (!('raw' in part)) continue;
      let m: RegExpExecArray | null = null;
      at.lastIndex = 0;
      const text = texts.get(part) as string;
      while ((m = at.exec(text)) && skip > 0) skip -= 1;
      if (!m) continue;
      const point = (index: number) => {
        const before = part.raw.slice(0, index);
        const nl = before.lastIndexOf('\n');
        const lines = before.split('\n').length - 1;
        return { line: part.line + lines, column: nl < 0 ? (part.column ?? 1) + index : index - nl };
      };
      const start = point(m.index);
      const end = point(m.index + m[0].length);
      Object.assign(w, { line: start.line, column: start.column, endLine: end.line, endColumn: end.column });
      break;
    }
  }
}

/**
 * Raw HTML with what the parser reads as text blanked out (comments, and the content of <script>, <style>,
 * <noscript>, <textarea>, <title> and the like), lines and columns kept: a tag written there is no element.
 */
function unparsed(raw: string): string {
  const blank = (m: string) => m.replace(/[^\n]/g, ' ');
  return raw
    .replace(/<!--[\s\S]*?(?:-->|$)/g, blank)
    .replace(/(<(script|style|noscript|textarea|title|xmp|iframe|noembed|noframes)\b(?:[^>"']|"[^"]*"|'[^']*')*>)([\s\S]*?)(?=<\/\2\s*>|$)/gi,
      (_m, open: string, _name: string, inner: string) => open + blank(inner));
}
