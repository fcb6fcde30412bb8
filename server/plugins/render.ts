import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import fp from 'fastify-plugin';
import { isPersonalRequest } from './cache-rules.ts';
import { SCRIPTS_CLASS_SCRIPT } from '../../views/layout/scripts-class.tsx';

export interface PageOptions {
  status?: number;
  /** 'public': the same for every visitor, shared-cacheable and kept by the page cache; 'private': neither. */
  cache?: 'public' | 'private';
  /** A region of a page for an htmx swap: the same view, without the document. */
  fragment?: boolean;
  /** How long the page cache may answer this page (ms); by default until the content changes. */
  lifetimeMs?: number;
  /**
   * Set by reply.page on a personal request's page that anonymous visitors share: rendered for one
   * visitor, but the same for every visitor of that role (server/identity/personal-pages.ts).
   */
  sharedByRole?: boolean;
}

declare module 'fastify' {
  interface FastifyReply {
    /** Renders a React view as the whole HTML response. */
    page(view: ReactElement, options?: PageOptions): FastifyReply;
  }
}

/**
 * The pages' Content-Security-Policy, the same for every response. The only script a page loads is
 * the external islands module, and the only inline script is the fixed one that marks the document
 * `js-enabled` (views/layout/scripts-class.tsx), allowed by its hash (island props are
 * `type="application/json"` data blocks, which are not executed), so the policy is as strict as a
 * per-response nonce and leaves the bytes of a page the same for every visitor. The one exception,
 * the private /requests page, adds its own nonce (server/support/requests/page-kit.tsx).
 */
export const SCRIPTS_CLASS_HASH = `'sha256-${createHash('sha256').update(SCRIPTS_CLASS_SCRIPT).digest('base64')}'`;
export const PAGE_CSP = [
  "default-src 'self'", `script-src 'self' ${SCRIPTS_CLASS_HASH}`, "style-src 'self'", "img-src 'self' data: https:",
  "font-src 'self'", "connect-src 'self'", "frame-src https:", "object-src 'none'", "base-uri 'self'",
  "form-action 'self'", "frame-ancestors 'self'",
].join('; ');

/**
 * The scripts of the islands a page hydrates at once (data-hydrate="load", or none), asked for with the
 * page (<link rel="modulepreload"> in its head): without them the browser learns of an island's module
 * only when the entry runs, and of React only when that module arrives, three round trips in a row.
 * Preloading never blocks rendering. Islands that wait (visible, idle, interaction) are not preloaded:
 * most visits never need them. The chunk the entry imports itself (esbuild's shared runtime, under a
 * kilobyte) is preloaded on every page that loads the entry, so it comes beside the entry, not after it.
 */
export function withIslandPreloads(html: string, app: FastifyInstance): string {
  if (!app.hasDecorator('assets')) return html;
  const head = html.indexOf('</head>');
  if (head < 0) return html;
  const files = new Set<string>(html.includes(`src="${app.assets.js}"`) ? app.assets.entryImports : []);
  for (const match of html.matchAll(/ data-island="([\w-]+)"([^>]*)>/g)) {
    const when = / data-hydrate="(\w+)"/.exec(match[2] ?? '')?.[1] ?? 'load';
    if (when !== 'load') continue;
    for (const file of app.assets.islands[match[1] ?? ''] ?? []) files.add(file);
  }
  if (files.size === 0) return html;
  const links = [...files].map((file) => `<link rel="modulepreload" href="${file}"/>`).join('');
  return html.slice(0, head) + links + html.slice(head);
}

const rendered = new WeakMap<FastifyRequest, PageOptions>();

/** A page every visitor gets: stored by browsers and shared caches, revalidated before each use. */
export const SHARED_PAGE_CACHE_CONTROL = 'public, no-cache';

/** The options of the page a request was answered with by reply.page(), if it was. */
export function pageOptionsOf(request: FastifyRequest): PageOptions | undefined {
  return rendered.get(request);
}

/**
 * @fastify/view has no React engine; React's own server renderer does the work. Public pages are
 * kept by the page cache (page-cache.ts) with their validator, so each is rendered and hashed once
 * per content version.
 */
export default fp(async (app) => {
  app.decorateReply('page', function page(view: ReactElement, options: PageOptions = {}) {
    const html = options.fragment ? renderToString(view) : withIslandPreloads(`<!doctype html>${renderToString(view)}`, app);
    // A signed-in visitor's page is theirs alone, whatever the route asked for (issue "Caching stays correct").
    // A page rendered with a flag's fallback (the flag service failed or timed out) is answered but kept by
    // neither the page cache nor the role templates: the next request evaluates again, so the service's
    // recovery shows at once rather than when the content next changes.
    if (this.request.flags?.fellBack()) options = { ...options, lifetimeMs: 0 };
    const shared = options.cache !== 'private' && !isPersonalRequest(this.request);
    rendered.set(this.request, shared ? options : { ...options, cache: 'private', sharedByRole: options.cache !== 'private' });
    if (shared) this.header('etag', `"${createHash('sha1').update(html).digest('base64url')}"`);
    this.header('content-security-policy', PAGE_CSP);
    // nosniff, the referrer policy and the other security headers come from @fastify/helmet (security-headers.ts).
    // Kept by every cache but asked again each time (a 304 from the page cache's validator): each view
    // and search reaches the server and is counted (docs/ 'Analytics'), which a max-age would hide.
    this.header('cache-control', shared ? SHARED_PAGE_CACHE_CONTROL : 'private, no-store');
    if (shared) {
      // The same URL is another page once the visitor signs in: a browser that kept the anonymous copy
      // must ask again when its cookies change.
      const vary = this.getHeader('vary');
      this.header('vary', vary ? `${String(vary)}, Cookie` : 'Cookie');
    }
    this.code(options.status ?? 200).type('text/html; charset=utf-8');
    return this.send(html);
  });
}, { name: 'render' });
