import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PageCopies } from '../pages/page-copies.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The last good copy of public pages, answered while the database is away. */
    pageCopies: PageCopies;
  }
  interface FastifyReply {
    /** Answers the last good copy of the requested page, if one is kept; false when there is none. */
    sendPageCopy(): boolean;
  }
}

/** Per-response headers that must not be replayed with a kept copy. */
const NOT_KEPT = new Set(['cache-control', 'etag', 'last-modified', 'content-length', 'set-cookie', 'date', 'x-query-id']);

/** A page and its htmx region are different bodies at one URL (they vary on HX-Request). */
const keyOf = (request: FastifyRequest) => `${request.headers['hx-request'] === 'true' ? 'hx ' : ''}${request.url}`;

/**
 * DESIGN "Running safely": cached pages keep serving while the database is away. Every public,
 * successful HTML page sent is kept (bounded); when a later GET of that URL fails because the database is
 * unavailable, the copy is answered instead, marked no-store so no cache holds it past the outage. Only
 * pages marked public are kept: they are the same for every visitor. Copies go when the content changes.
 *
 * Registered before compression and ETags, so the hook sees the page as rendered.
 */
export default fp(async (app) => {
  const copies = new PageCopies();
  app.decorate('pageCopies', copies);
  app.content.onInvalidate(() => copies.clear());

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    const cache = String(reply.getHeader('cache-control') ?? '');
    if (!type.startsWith('text/html') || !cache.startsWith('public') || reply.hasHeader('set-cookie')) return payload;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined && !NOT_KEPT.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    copies.keep(keyOf(request), { body: payload, nonce: request.cspNonce, headers });
    return payload;
  });

  app.decorateReply('sendPageCopy', function sendPageCopy() {
    const request = this.request;
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const copy = copies.get(keyOf(request));
    if (!copy) return false;
    // The page's scripts carry the nonce of the response that rendered it; this response has its own.
    const renonce = (text: string) => (copy.nonce ? text.replaceAll(copy.nonce, request.cspNonce) : text);
    for (const [name, value] of Object.entries(copy.headers)) this.header(name, renonce(value));
    this.code(200).header('cache-control', 'no-store').send(renonce(copy.body));
    return true;
  });
}, { name: 'stale-pages', dependencies: ['content'] });
