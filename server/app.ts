import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import formbody from '@fastify/formbody';
import cookie from '@fastify/cookie';
import etag from '@fastify/etag';
import compress from '@fastify/compress';
import type { Config } from './config.ts';
import type { Db } from './db/driver.ts';
import dbPlugin from './plugins/db.ts';
import contentPlugin from './plugins/content.ts';
import assetsPlugin from './plugins/assets.ts';
import themePlugin from './plugins/theme.ts';
import contentFiles from './plugins/content-files.ts';
import renderPlugin from './plugins/render.ts';
import secretsPlugin from './plugins/secrets.ts';
import sameOrigin from './plugins/same-origin.ts';
import rateLimits from './plugins/rate-limit.ts';
import { Refusal, sendRefusal } from './plugins/refusal.ts';
import pageCachePlugin from './plugins/page-cache.ts';
import unavailablePlugin from './plugins/unavailable.tsx';
import { DatabaseUnavailableError } from './db/unavailable.ts';
import { Overloaded } from './http/gate.ts';
import feedback from './routes/feedback.ts';
import searchApi from './routes/search-api.ts';
import searchPage from './routes/search-page.tsx';
import swagger from '@fastify/swagger';
import pages from './routes/pages.tsx';
import sitemap from './routes/sitemap.ts';
import securityHeaders from './plugins/security-headers.ts';
import requestGuard from './plugins/request-guard.ts';
import cacheRules, { personalResponses } from './plugins/cache-rules.ts';
import { rewriteUrl } from './http/bad-url.ts';
import { clientErrorHandler } from './http/client-error.ts';
import { isApiUrl } from './http/http-error.ts';
import { sendErrorPage } from './http/error-page.tsx';
import health from './routes/health.ts';
import adminPlugin from './plugins/admin.ts';
import shutdownPlugin from './plugins/shutdown.ts';
import requestDeadline from './plugins/request-deadline.ts';
import loadShedding from './plugins/load-shedding.ts';
import searchGate from './plugins/search-gate.ts';
import databaseGate from './plugins/database-gate.ts';
import accessLog from './plugins/access-log.ts';
import identity from './identity/plugin.ts';
import support from './support/plugin.ts';
import type { ThrottleOptions } from './identity/accounts.ts';
import { AccessLogController } from './logger.ts';
import flags from './flags/plugin.ts';
import assistantRoutes from './assistant/routes.tsx';
import insights from './insights/plugin.tsx';
import events from './events/plugin.ts';
import misses from './events/misses.ts';
import { configurationSummary } from './config-summary.ts';
import { buildValidator, schemaErrorFormatter } from './http/validation.ts';

/**
 * Options for the Fastify instance that hosts the app: request bodies keep unknown fields so the
 * schemas can refuse them with a 400 naming the field, rather than dropping them silently.
 */
export const serverOptions = {
  ajv: { customOptions: { removeAdditional: false as const } },
  // JSON bodies are checked without type coercion, and a list of allowed values is named once (http/validation.ts).
  schemaController: { compilersFactory: { buildValidator } },
  schemaErrorFormatter,
  bodyLimit: 1024 * 1024,
  // A path that does not percent-decode reaches the app (and its headers) as a 400, not the router's bare answer.
  rewriteUrl,
  // Route parameters are bounded by the request line (16 KB headers), not cut short with a bare 414.
  routerOptions: { maxParamLength: 16 * 1024 },
  // Parser-level errors (431, 400) are answered without a body, so HEAD and keep-alive clients stay in step.
  clientErrorHandler,
  // Plugin start-up is fixed work only (database open, migrations, asset build, demo accounts' password
  // hashes): the content import runs in the background. No timer bounds it: on a slow, busy machine any
  // bound is exceeded sooner or later, and a start stopped half-way helps no one (Fastify's default is 10 s).
  pluginTimeout: 0,
  // While closing, requests on open keep-alive connections are served (with `connection: close`) rather
  // than refused with 503; server/plugins/shutdown.ts drains them (DESIGN "Running safely").
  return503OnClosing: false,
  // One access-log line per request instead of Fastify's two (server/plugins/access-log.ts, ACCESS_LOG).
  logController: new AccessLogController(),
};

export interface AppOptions {
  config: Config;
  /** An open database to use instead of opening one from the configuration (tests). */
  db?: Db;
  /** The clock form tokens and the page cache's token windows follow (tests); Date.now by default. */
  clock?: (() => number) | undefined;
  /** Failed sign-in throttling: shorter delays and locks in tests. */
  signInThrottle?: Partial<ThrottleOptions> | undefined;
  /** A flag provider instead of the configured one (tests: one that throws). */
  flagProvider?: import('@openfeature/server-sdk').Provider | undefined;
}

/**
 * The whole help centre as one Fastify plugin; server/main.ts only starts it. Not encapsulated, so the
 * server that registers it sees its decorators (`contentReady`, `db`, …) and hooks.
 */
export default fp(app, { name: 'signpost' });

async function app(fastify: FastifyInstance, opts: AppOptions) {
  const { config } = opts;

  fastify.setErrorHandler((error: FastifyError & { headers?: Record<string, string> }, request, reply) => {
    if (error instanceof Refusal) return sendRefusal(request, reply, error);
    // The database is away: the last good copy of the page, or 503 with Retry-After (not a 500).
    if (error instanceof DatabaseUnavailableError) return reply.databaseUnavailable(error);
    // Past a bound on waiting work (SEARCH_MAX_CONCURRENT, SEARCH_QUEUE_*, DB_*): shed like any overload.
    if (error instanceof Overloaded) {
      fastify.shedLog.shed(error.message, request.originalUrl ?? request.url, request.log);
      return reply.overloaded();
    }
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    const url = request.originalUrl ?? request.url;
    if (status >= 500) request.log.error({ err: error, url }, 'request failed');
    else request.log.info({ err: error, url }, 'bad request');
    const message = status >= 500 ? 'Something went wrong on our side. Please try again in a moment.' : error.message;
    reply.code(status).header('cache-control', 'no-store');
    if (status < 500 && error.headers) reply.headers(error.headers);
    // A 5xx names no internal code (a database error code is not the client's business).
    if (isApiUrl(url)) return reply.send({ statusCode: status, error: status >= 500 ? STATUS_CODES[status] : error.code ?? 'ERROR', message });
    if (status < 500) return sendErrorPage(reply, status, message, fastify.pageStylesheetsNow());
    return reply.type('text/plain; charset=utf-8').send(message);
  });

  // Where the site answers and whom it trusts, once at start (addresses only, no secret).
  fastify.log.info(configurationSummary(config), 'configuration');
  // One access line for every response, whatever answers it (ACCESS_LOG).
  await fastify.register(accessLog, { level: config.accessLog });
  // First, so every response below carries them: security headers, input no route should see, cache rules.
  await fastify.register(securityHeaders, { publicUrl: config.publicUrl });
  await fastify.register(requestGuard);
  await fastify.register(cacheRules);

  // A deadline for reading each request (REQUEST_TIMEOUT_MS), so a body that stops cannot hold a connection.
  await fastify.register(requestDeadline, { timeoutMs: config.requestTimeoutMs });
  await fastify.register(shutdownPlugin, { timeoutMs: config.shutdownTimeoutMs });
  await fastify.register(loadShedding, {
    maxEventLoopDelayMs: config.overloadMaxEventLoopDelayMs, maxEventLoopUtilization: config.overloadMaxEventLoopUtilization,
    maxHeapUsedMb: config.overloadMaxHeapUsedMb, retryAfterS: config.overloadRetryAfterS, identityUrl: config.identityUrl,
  });
  await fastify.register(searchGate, { max: config.searchMaxConcurrent, queueMax: config.searchQueueMax, timeoutMs: config.searchQueueTimeoutMs });
  // Other requests that reach the database (pages not in the page cache, …): DB_MAX_CONCURRENT, DB_QUEUE_*.
  await fastify.register(databaseGate, {
    max: config.dbMaxConcurrent, queueMax: config.dbQueueMax, timeoutMs: config.dbQueueTimeoutMs, identityUrl: config.identityUrl,
  });
  await fastify.register(dbPlugin, {
    databaseUrl: config.databaseUrl, dataDir: config.dataDir, readUrls: config.databaseReadUrls, readMaxLagMs: config.databaseReadMaxLagMs,
    readTimeoutMs: config.databaseReadTimeoutMs, pgliteSharedBuffersMb: config.pgliteSharedBuffersMb,
    ...(opts.db ? { db: opts.db } : {}),
  });
  await fastify.register(contentPlugin, { contentDir: config.contentDir, importOnStart: config.importOnStart });
  // The API's schemas, published as OpenAPI at /gateway/api/help-content/v2/openapi.json: registered before
  // the plugins whose routes it describes, since it sees only routes declared after it.
  await fastify.register(swagger, {
    openapi: {
      info: { title: 'Signpost help content API', version: '2' },
      tags: [
        { name: 'search', description: 'Search the published help content: what the results page and other clients call.' },
        { name: 'assistant', description: "The assistant's answers as server-sent events, for the widget and the results' summary." },
        { name: 'helpdesk', description: 'For the helpdesk that receives support requests: read a request, change its status. Every call needs `HELPDESK_TOKEN` as a bearer token.' },
        { name: 'analytics', description: 'Events from the analytics script of the pages.' },
        { name: 'session', description: "The signed-in visitor, for the pages' scripts (the session cookie)." },
        { name: 'operations', description: 'Health checks for load balancers and orchestrators, and what crawlers read.' },
      ],
      components: { securitySchemes: { helpdeskToken: { type: 'http', scheme: 'bearer', description: 'the value of `HELPDESK_TOKEN`' } } },
    },
    hideUntagged: true,
  });
  // First-party analytics (docs/ 'Analytics'): page views as pages go out, POST /api/events, the roll-up.
  await fastify.register(events, { config, clock: opts.clock });
  // Pages not found: logged, and counted per path and day for staff insights.
  await fastify.register(misses, { clock: opts.clock });
  // PGlite opened here holds the data directory's lock: other commands go through this server.
  if (!opts.db && !config.databaseUrl) await fastify.register(adminPlugin, { dataDir: config.dataDir, contentDir: config.contentDir });
  await fastify.register(secretsPlugin, { clock: opts.clock });
  // Before compression and ETags: the page cache keeps pages as rendered, with their own compressed forms.
  await fastify.register(renderPlugin);
  await fastify.register(pageCachePlugin, { clock: opts.clock });
  await fastify.register(formbody, { bodyLimit: 16 * 1024 });
  await fastify.register(cookie);
  // Routes marked config.stateChanging: refused from other sites, rate-limited per client.
  await fastify.register(sameOrigin, { publicUrl: config.publicUrl });
  await fastify.register(rateLimits, { max: config.rateLimitMax, windowSeconds: config.rateLimitWindow });
  // Sessions, sign-in (OIDC_ISSUER or the embedded provider), roles, the spec §7 customer-context calls.
  await fastify.register(identity, { config, clock: opts.clock, throttle: opts.signInThrottle });
  // Feature flags and experiments through OpenFeature (spec §7, §8): request.flags for pages.
  await fastify.register(flags, { config, provider: opts.flagProvider });
  // Pages go out gzip- or brotli-compressed when the client accepts it; static assets are compressed once
  // at start and their routes opt out (server/plugins/assets.ts).
  // Bodies up to 64 KB (every page) are compressed in one synchronous call at the quick level, so the
  // answer carries its Content-Length; the library's default bound depends on the machine's core count.
  await fastify.register(compress, { threshold: 1024, syncThreshold: 64 * 1024, encodings: ['br', 'gzip'] });
  await fastify.register(etag);
  // After ETags and the session cookie: a personal response or one setting a cookie is private, no-store, no ETag.
  await fastify.register(personalResponses);
  await fastify.register(assetsPlugin);
  await fastify.register(themePlugin);
  await fastify.register(contentFiles);
  await fastify.register(unavailablePlugin);

  fastify.get('/gateway/api/help-content/v2/openapi.json', { schema: { hide: true } }, async () => fastify.swagger());

  await fastify.register(health);
  await fastify.register(searchApi);
  await fastify.register(sitemap, { publicUrl: config.publicUrl });
  await fastify.register(feedback);
  // Contact forms, my requests, named contacts, the helpdesk's status endpoint, delivery to the helpdesk.
  await fastify.register(support, { config });
  await fastify.register(searchPage, { config });
  // The AI assistant: its no-JS page and the answers the widget and the summary dialog stream.
  await fastify.register(assistantRoutes, { config });
  // Insights for staff: searches and pages from the analytics events, with charts and CSV.
  await fastify.register(insights, { config });
  await fastify.register(pages, { config });
}
