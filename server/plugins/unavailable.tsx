import { renderToString } from 'react-dom/server';
import fp from 'fastify-plugin';
import { UnavailablePage } from '../../views/pages/unavailable-page.tsx';
import { StartingPage } from '../../views/pages/starting-page.tsx';
import { isApiUrl } from '../http/http-error.ts';

declare module 'fastify' {
  interface FastifyReply {
    /** Answers a request that failed because the database is away (see below). */
    databaseUnavailable(error: unknown): FastifyReply;
    /** Answers a page that is not stored yet while the first import runs (see below). */
    siteStarting(): FastifyReply;
  }
}

/** Seconds a client is asked to wait: reconnecting is attempted at least every few seconds. */
export const RETRY_AFTER_SECONDS = 5;

/** The page has no scripts and needs nothing but the stylesheet. */
const CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'self'";

/** A same-site path to link back to; anything that a browser could read as another site becomes '/'. */
function sitePath(value: unknown): string {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) && !/[\u0000-\u001f\\]/.test(value) ? value : '/';
}

/**
 * DESIGN "Running safely": while the database is away, a page answered before is sent from its last
 * good copy; anything else gets 503 with Retry-After and no-store — a small page for visitors, JSON on
 * the API — never a 500 and never the database's own message. A form post is refused, never
 * acknowledged and then lost.
 */
export default fp(async (app) => {
  app.decorateReply('databaseUnavailable', function databaseUnavailable(error: unknown) {
    const request = this.request;
    if (this.sendPageCopy()) {
      request.log.warn({ err: error, url: request.url }, 'database unavailable; answered the last good copy');
      return this;
    }
    request.log.warn({ err: error, url: request.url }, 'database unavailable; answered 503');
    this.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).header('cache-control', 'no-store');
    if (isApiUrl(request.url)) {
      return this.send({
        statusCode: 503, error: 'SERVICE_UNAVAILABLE', message: 'The service is unavailable for a moment. Please try again shortly.',
      });
    }
    const read = request.method === 'GET' || request.method === 'HEAD';
    const retryHref = sitePath(read ? request.url : (request.body as { returnTo?: unknown } | undefined)?.returnTo);
    const html = renderToString(
      <UnavailablePage css={app.pageStylesheetsNow()} retryHref={retryHref} notSaved={!read} retryAfterSeconds={RETRY_AFTER_SECONDS} />,
    );
    return this.header('content-security-policy', CSP).header('x-content-type-options', 'nosniff')
      .type('text/html; charset=utf-8').send(`<!doctype html>${html}`);
  });

  /**
   * While a new site's first import runs, nothing is stored and every page would be a 404 saying it does
   * not exist: it is a 503 saying the site is starting instead, with Retry-After, and never kept by a
   * cache (the page may exist a minute later).
   */
  app.decorateReply('siteStarting', function siteStarting() {
    const request = this.request;
    this.code(503).header('retry-after', String(RETRY_AFTER_SECONDS)).header('cache-control', 'no-store');
    if (isApiUrl(request.url)) {
      return this.send({ statusCode: 503, error: 'STARTING', message: 'The help centre is starting. Please try again in a moment.' });
    }
    const retryHref = sitePath(request.method === 'GET' || request.method === 'HEAD' ? request.url : '/');
    const html = renderToString(<StartingPage css={app.pageStylesheetsNow()} retryHref={retryHref} retryAfterSeconds={RETRY_AFTER_SECONDS} />);
    return this.header('content-security-policy', CSP).header('x-content-type-options', 'nosniff')
      .type('text/html; charset=utf-8').send(`<!doctype html>${html}`);
  });
}, { name: 'unavailable', dependencies: ['page-cache', 'assets'] });
