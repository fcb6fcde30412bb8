/**
 * Where each tool serves a document, so that links written as the old site's URLs can be followed and
 * the old URLs redirected: the tools' own slug rules, read from their documentation, never by running them.
 */
import { posix } from 'node:path';
import type { SourceDoc } from './model.ts';

/** Docusaurus strips `01-`, `1.`, `02_` number prefixes from file and folder names in ids and URLs. */
export function stripNumberPrefix(name: string): string {
  const match = /^\d+\s*[-_.]+\s*([^-_.\s].*)$/.exec(name);
  return match ? match[1] as string : name;
}

/** A site path in one form: one leading slash, no doubled slashes. */
export function cleanPath(path: string): string {
  const joined = `/${path}`.replace(/\/{2,}/g, '/');
  return joined;
}

/** The form URLs are compared in: no trailing slash, no `.html` or `/index.html`, lower case. */
export function urlKey(path: string): string {
  let p = cleanPath(path).replace(/\/index\.html?$/i, '/').replace(/\.html?$/i, '').replace(/\.mdx?$/i, '');
  if (p.length > 1) p = p.replace(/\/+$/, '');
  return p.toLowerCase();
}

/**
 * Docusaurus: `routeBasePath` + the folders (number prefixes stripped) + the file's id; `slug` front
 * matter replaces that (absolute from the route base, or relative to the folder); `index`, `README` and
 * a file named like its folder are the folder's page.
 */
export function docusaurusUrl(doc: SourceDoc, routeBasePath: string): string {
  const segments = doc.path.replace(/\.mdx?$/, '').split('/');
  const fileName = segments.pop() ?? '';
  const folders = segments.map(stripNumberPrefix);
  const dir = folders.join('/');
  const slug = typeof doc.frontMatter.slug === 'string' ? doc.frontMatter.slug.trim() : undefined;
  let path: string;
  if (slug) {
    path = slug.startsWith('/') ? slug : `${dir}/${slug}`;
  } else {
    const name = stripNumberPrefix(fileName);
    const isIndex = /^(index|readme)$/i.test(name) || (folders.length > 0 && name.toLowerCase() === folders.at(-1)?.toLowerCase());
    const id = typeof doc.frontMatter.id === 'string' ? doc.frontMatter.id : name;
    path = isIndex && typeof doc.frontMatter.id !== 'string' ? dir : `${dir}/${id}`;
  }
  const url = cleanPath(`${routeBasePath}/${path}`);
  return url.length > 1 ? url.replace(/\/+$/, '') : url;
}

/** MkDocs: `use_directory_urls` (the default) serves `a/b.md` at `/a/b/`, otherwise at `/a/b.html`; `index.md` and `README.md` are the folder's page. */
export function mkdocsUrl(doc: SourceDoc, directoryUrls: boolean): string {
  const noExt = doc.path.replace(/\.md$/i, '');
  const isIndex = /(^|\/)(index|readme)$/i.test(noExt);
  const dir = noExt.includes('/') ? noExt.slice(0, noExt.lastIndexOf('/')) : '';
  if (isIndex) return directoryUrls ? cleanPath(dir ? `${dir}/` : '') : cleanPath(dir ? `${dir}/index.html` : 'index.html');
  return cleanPath(directoryUrls ? `${noExt}/` : `${noExt}.html`);
}

/** Starlight: the `slug` front matter, else the path lower-cased with spaces as dashes, `index` being the folder's page; served with a trailing slash. */
export function starlightUrl(doc: SourceDoc): string {
  const slug = typeof doc.frontMatter.slug === 'string' ? doc.frontMatter.slug
    : doc.path.replace(/\.mdx?$/, '').replace(/(^|\/)index$/i, '').split('/').map((s) => s.toLowerCase().replace(/\s+/g, '-')).join('/');
  const path = slug.replace(/^\/+|\/+$/g, '');
  return cleanPath(path ? `${path}/` : '');
}

/** A base URL as a path with one slash at each end (`/`, `/docs/`), from `baseUrl`, Astro's `base` or the path of MkDocs' `site_url`. */
export function basePath(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') return '/';
  let path = value.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return '/';
    }
  }
  return posix.normalize(`/${path}/`).replace(/\/{2,}/g, '/');
}

/** `https://docs.example.com/x/` → `https://docs.example.com`. */
export function originOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    return new URL(value).origin;
  } catch {
    return undefined;
  }
}
