import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Refusal, sendRefusal } from './refusal.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route that changes state (a form POST): it is refused from other sites (this plugin) and
     * rate-limited per client (rate-limit.ts). `{ crossSiteMessage }` words the refusal.
     */
    stateChanging?: boolean | { crossSiteMessage?: string };
  }
}

/**
 * This request's own origin as Fastify sees it: scheme, host and port. Behind a proxy these come
 * from X-Forwarded-Proto and X-Forwarded-Host only when the app trusts proxies (Fastify
 * `trustProxy`, set from configuration); otherwise from the connection and the Host header.
 */
export function requestOrigin(request: FastifyRequest): string | undefined {
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * Spec §4 Feedback: a forged cross-site POST is refused. Fetch Metadata first (a browser that sends
 * it says cross-site outright), then the Origin header, compared whole — scheme, host and port —
 * with the request's own origin or the configured public origin (PUBLIC_URL). A request without
 * either header is not a browser's cross-site form post (browsers send Origin on every POST).
 */
export function isCrossSite(request: FastifyRequest, publicOrigin: string | undefined): boolean {
  if (request.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  if (origin === 'null') return true;
  let given: string;
  try {
    given = new URL(origin).origin;
  } catch {
    return true;
  }
  return given !== requestOrigin(request) && given !== publicOrigin;
}

export default fp(async (app, opts: { publicUrl: string }) => {
  const publicOrigin = new URL(opts.publicUrl).origin;
  app.addHook('onRequest', async (request, reply) => {
    const marked = request.routeOptions.config?.stateChanging;
    if (!marked || !isCrossSite(request, publicOrigin)) return;
    request.log.warn({ origin: request.headers.origin, fetchSite: request.headers['sec-fetch-site'], route: request.routeOptions.url }, 'cross-site post refused');
    const message = (typeof marked === 'object' && marked.crossSiteMessage) || 'This form can only be sent from this site.';
    return sendRefusal(request, reply, new Refusal(403, message));
  });
}, { name: 'same-origin' });
