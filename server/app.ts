import type { FastifyInstance, FastifyError } from 'fastify';
import formbody from '@fastify/formbody';
import cookie from '@fastify/cookie';
import etag from '@fastify/etag';
import compress from '@fastify/compress';
import type { Config } from './config.ts';
import type { Db } from './db/driver.ts';
import dbPlugin from './plugins/db.ts';
import contentPlugin from './plugins/content.ts';
import assetsPlugin from './plugins/assets.ts';
import renderPlugin from './plugins/render.ts';
import secretsPlugin from './plugins/secrets.ts';
import stalePagesPlugin from './plugins/stale-pages.ts';
import unavailablePlugin from './plugins/unavailable.tsx';
import { DatabaseUnavailableError } from './db/unavailable.ts';
import feedback from './routes/feedback.ts';
import searchApi from './routes/search-api.ts';
import searchPage from './routes/search-page.tsx';
import swagger from '@fastify/swagger';
import pages from './routes/pages.tsx';
import sitemap from './routes/sitemap.ts';

/**
 * Options for the Fastify instance that hosts the app: request bodies keep unknown fields so the
 * schemas can refuse them with a 400 naming the field, rather than dropping them silently.
 */
export const serverOptions = {
  ajv: { customOptions: { removeAdditional: false as const } },
  bodyLimit: 1024 * 1024,
};

export interface AppOptions {
  config: Config;
  /** An open database to use instead of opening one from the configuration (tests). */
  db?: Db;
}

/** The whole help centre as one Fastify plugin; server/main.ts only starts it. */
export default async function app(fastify: FastifyInstance, opts: AppOptions) {
  const { config } = opts;

  fastify.setErrorHandler((error: FastifyError, request, reply) => {
    // The database is away: the last good copy of the page, or 503 with Retry-After (not a 500).
    if (error instanceof DatabaseUnavailableError) return reply.databaseUnavailable(error);
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error, url: request.url }, 'request failed');
    else request.log.info({ err: error, url: request.url }, 'bad request');
    const message = status >= 500 ? 'Something went wrong on our side. Please try again in a moment.' : error.message;
    reply.code(status).header('cache-control', 'no-store');
    if (request.url.startsWith('/gateway/api/')) return reply.send({ statusCode: status, error: error.code ?? 'ERROR', message });
    return reply.type('text/plain; charset=utf-8').send(message);
  });

  await fastify.register(dbPlugin, { databaseUrl: config.databaseUrl, dataDir: config.dataDir, ...(opts.db ? { db: opts.db } : {}) });
  await fastify.register(contentPlugin, { contentDir: config.contentDir, importOnStart: config.importOnStart });
  await fastify.register(secretsPlugin);
  // Before compression and ETags: it keeps pages as rendered, to answer while the database is away.
  await fastify.register(stalePagesPlugin);
  await fastify.register(formbody, { bodyLimit: 16 * 1024 });
  await fastify.register(cookie);
  // Pages and assets go out gzip- or brotli-compressed when the client accepts it.
  await fastify.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] });
  await fastify.register(etag);
  await fastify.register(assetsPlugin);
  await fastify.register(renderPlugin);
  await fastify.register(unavailablePlugin);

  // The API's schemas, published as OpenAPI at /gateway/api/help-content/v2/openapi.json.
  await fastify.register(swagger, {
    openapi: { info: { title: 'Signpost help content API', version: '2' } },
    hideUntagged: true,
  });
  fastify.get('/gateway/api/help-content/v2/openapi.json', { schema: { hide: true } }, async () => fastify.swagger());

  fastify.get('/healthz', async () => ({ status: 'ok' }));
  await fastify.register(searchApi);
  await fastify.register(sitemap, { publicUrl: config.publicUrl });
  await fastify.register(feedback);
  await fastify.register(searchPage, { config });
  await fastify.register(pages, { config });
}
