import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';

/** A request that carries a preview token, valid or not: `?preview=` or `X-Preview-Token`. */
export function carriesPreviewToken(request: FastifyRequest): boolean {
  const query = request.query as Record<string, unknown> | undefined;
  return (query !== undefined && query !== null && Object.hasOwn(query, 'preview')) || request.headers['x-preview-token'] !== undefined;
}

/**
 * The last word on Cache-Control, whatever a route set (DESIGN 'Safety by construction'):
 * - an error (4xx, 5xx) is never stored: a shared cache would keep serving a failure (a 503 during an
 *   outage) or a 404 after the page is published. 404s of unknown paths therefore reach the server; the
 *   not-found page itself is cached in memory, so that costs a render, not a database round trip.
 * - a request carrying a preview token is never shared, whatever the page (a 404, the search page,
 *   a redirect): its answer may show unpublished content, and the token must not key a shared cache.
 */
export default fp(async (app) => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (carriesPreviewToken(request)) reply.header('cache-control', 'private, no-store');
    else if (reply.statusCode >= 400) reply.header('cache-control', 'no-store');
    return payload;
  });
}, { name: 'cache-rules' });
