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

/** The session cookie's name (server/identity/session.ts). */
export const SESSION_COOKIE = 'sp_session';
const CARRIES_SESSION = new RegExp(`(?:^|;)\\s*${SESSION_COOKIE}=`);

/**
 * A personal request: it carries the session cookie, valid or not (issue "Caching stays correct"). Read
 * from the raw header, so it holds in hooks that run before cookies are parsed (the page cache's).
 */
export function isPersonalRequest(request: FastifyRequest): boolean {
  const cookie = request.headers.cookie;
  return typeof cookie === 'string' && CARRIES_SESSION.test(cookie);
}

/**
 * The last word on responses that belong to one visitor (registered after compression and ETags): a
 * response to a personal request, or one that sets a cookie, is `private, no-store` and carries no ETag,
 * so no shared cache keeps it and no browser revalidates it against the anonymous page. Personal
 * requests also lose If-None-Match on arrival, so nothing before this answers them with a 304.
 */
export const personalResponses = fp(async (app) => {
  app.addHook('onRequest', async (request) => {
    if (isPersonalRequest(request)) delete request.headers['if-none-match'];
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (isPersonalRequest(request) || reply.hasHeader('set-cookie')) {
      reply.header('cache-control', 'private, no-store');
      reply.removeHeader('etag');
    }
    return payload;
  });
}, { name: 'personal-responses' });
