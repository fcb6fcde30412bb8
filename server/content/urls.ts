/**
 * The one URL classifier: every link, image source and form URL that comes from content goes
 * through it, at import (refused there) and again when a view renders it (defence in depth for
 * preview mode, which renders stored documents at request time).
 *
 * It reads a URL the way a browser does (WHATWG URL): tabs and newlines anywhere are dropped,
 * leading and trailing C0 controls and spaces are trimmed, and in http(s) a backslash is a slash.
 * So `java\tscript:`, `\u0001javascript:`, `/\evil.example` and `\\evil.example` mean to us what
 * they mean to the browser. Schemes are allowed by name, never refused by a deny list.
 */

/** site: stays on this site; external: http(s) to another host; contact: mailto/tel; unsafe: anything else. */
export type UrlKind = 'site' | 'external' | 'contact' | 'unsafe';

export interface ClassifiedUrl {
  kind: UrlKind;
  /** What to put in href/src: the input as the browser reads it (or the parsed URL for absolute ones). '' when unsafe. */
  href: string;
  /** Why an unsafe URL is unsafe, for import problems. */
  reason?: string;
}

export interface ClassifyOptions {
  /** Image sources and form URLs allow http(s) and site paths only. */
  images?: boolean;
}

const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);
const IMAGE_SCHEMES = new Set(['http:', 'https:']);
// A placeholder origin: a reserved name that can never be a real host (RFC 6761).
const BASE = 'https://site.invalid/';
const BASE_HOST = 'site.invalid';

/** The string a browser's URL parser actually reads (WHATWG URL §4.4 basic URL parser, first steps). */
export function browserReading(raw: string): string {
  // eslint-disable-next-line no-control-regex
  return raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
}

export function classifyUrl(raw: unknown, options: ClassifyOptions = {}): ClassifiedUrl {
  if (typeof raw !== 'string') return { kind: 'unsafe', href: '', reason: 'not text' };
  const read = browserReading(raw);
  const allowed = options.images ? IMAGE_SCHEMES : LINK_SCHEMES;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(read)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    // An absolute URL, parsed without a base: `https:evil.example` is https://evil.example/ on a
    // page served over http, so a scheme never makes a URL relative to this site.
    if (!allowed.has(`${scheme}:`)) return { kind: 'unsafe', href: '', reason: `the ${scheme}: scheme is not allowed` };
    let url: URL;
    try {
      url = new URL(read);
    } catch {
      return { kind: 'unsafe', href: '', reason: 'not a valid URL' };
    }
    if (url.protocol === 'mailto:' || url.protocol === 'tel:') return { kind: 'contact', href: read };
    // As written when the browser reads it the same way on any page; `https:host` is spelled out,
    // because on an https page the browser would read it as a path of this site.
    return { kind: 'external', href: /^https?:\/\//i.test(read) ? read : url.href };
  }
  let url: URL;
  try {
    url = new URL(read, BASE);
  } catch {
    return { kind: 'unsafe', href: '', reason: 'not a valid URL' };
  }
  // `//host`, `/\host`, `\\host`, `\/host`: no scheme, but another host.
  if (url.host !== BASE_HOST) return { kind: 'external', href: url.href };
  // A path that decodes to `//host` is never written on purpose and turns into an off-site URL
  // wherever something decodes it before redirecting.
  let decoded = url.pathname;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    // Stray `%`: the browser sends it as written; nothing decodes to a host.
  }
  if (/^[/\\]{2}/.test(decoded)) return { kind: 'unsafe', href: '', reason: 'a path that decodes to another host' };
  return { kind: 'site', href: read };
}

/** True when a link leaves this site (and so opens in a new tab and says so). */
export function isExternalUrl(raw: string): boolean {
  return classifyUrl(raw).kind === 'external';
}

/** The href to render, or undefined when the URL must not be a link (render its text instead). */
export function safeHref(raw: string, options: ClassifyOptions = {}): string | undefined {
  const c = classifyUrl(raw, options);
  return c.kind === 'unsafe' ? undefined : c.href;
}

/** `"…"` with control characters shown, so a problem names the value an author can find. */
export function quoteUrl(raw: string): string {
  return JSON.stringify(raw);
}
