import { createHash, randomBytes } from 'node:crypto';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** Per-response CSP nonce for scripts. */
    cspNonce: string;
  }
  interface FastifyReply {
    /** Renders a React view as the whole HTML response. */
    page(view: ReactElement, options?: { status?: number; cache?: 'public' | 'private'; fragment?: boolean }): FastifyReply;
  }
}

/**
 * @fastify/view has no React engine; React's own server renderer does the work, with a
 * per-response nonce in the Content-Security-Policy.
 */
export default fp(async (app) => {
  app.decorateRequest('cspNonce', '');
  app.addHook('onRequest', async (request) => {
    request.cspNonce = randomBytes(16).toString('base64');
  });
  app.decorateReply('page', function page(view, options = {}) {
    const nonce = this.request.cspNonce;
    // The validator covers the page, not its per-response nonce, so unchanged pages revalidate.
    // A fragment is a region of a page for an htmx swap: the same view, without the document.
    const rendered = options.fragment ? renderToString(view) : `<!doctype html>${renderToString(view)}`;
    this.header('etag', `"${createHash('sha1').update(rendered.replaceAll(nonce, '')).digest('base64url')}"`);
    const html = rendered;
    this.header('content-security-policy', [
      "default-src 'self'", `script-src 'self' 'nonce-${nonce}'`, "style-src 'self'", "img-src 'self' data: https:",
      "font-src 'self'", "connect-src 'self'", "frame-src https:", "object-src 'none'", "base-uri 'self'",
      "form-action 'self'", "frame-ancestors 'self'",
    ].join('; '));
    // nosniff, the referrer policy and the other security headers come from @fastify/helmet (security-headers.ts).
    this.header('cache-control', options.cache === 'private' ? 'private, no-store' : 'public, max-age=300, stale-while-revalidate=60');
    this.code(options.status ?? 200).type('text/html; charset=utf-8');
    return this.send(html);
  });
}, { name: 'render' });
