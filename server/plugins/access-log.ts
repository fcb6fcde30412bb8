import fp from 'fastify-plugin';
import { redactUrl } from '../log-redact.ts';

export type AccessLogLevel = 'info' | 'debug' | 'off';

/**
 * How a cache took part in a response, for its access line: `hit`, answered from a kept copy; `miss`,
 * rendered where a kept copy could have answered; `stale`, a kept copy answered because the database is
 * away (DESIGN "Running safely"). Null where no cache had a say.
 */
export type CacheStatus = 'hit' | 'miss' | 'stale';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by a cache that answered or could have answered the request (server/plugins/page-cache.ts). */
    cacheStatus: CacheStatus | null;
  }
}

/**
 * One line per request (ACCESS_LOG): Fastify's own two request lines are turned off in serverOptions
 * (AccessLogController, server/logger.ts), and this hook writes one when the response is sent, with what an operator
 * looks for: method, URL (secrets and e-mail-like text masked, server/log-redact.ts), status, time,
 * body bytes, client address, and `cache` where a cache had a say (`request.cacheStatus`: no response
 * header tells clients). The request id ties it to an error's own line.
 */
export default fp<{ level: AccessLogLevel }>(async (app, opts) => {
  // Declared whatever the level, so caches may mark any request; null keeps every request one shape.
  app.decorateRequest('cacheStatus', null);
  if (opts.level === 'off') return;
  const level = opts.level;
  app.addHook('onResponse', async (request, reply) => {
    const log = request.log;
    // Nothing is built for a line the logger would drop (ACCESS_LOG=debug under LOG_LEVEL=info).
    if ((log as { isLevelEnabled?: (l: string) => boolean }).isLevelEnabled?.(level) === false) return;
    const status = reply.statusCode;
    // HEAD, 204 and 304 carry no body whatever Content-Length says; a streamed body of unknown length is left out.
    const length = Number(reply.getHeader('content-length'));
    const noBody = request.method === 'HEAD' || status === 204 || status === 304 || status < 200;
    const line: Record<string, unknown> = {
      method: request.method,
      url: redactUrl(request.originalUrl ?? request.url),
      status,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ...(noBody ? { bytes: 0 } : Number.isFinite(length) ? { bytes: length } : {}),
      ip: request.ip,
    };
    if (request.cacheStatus) line.cache = request.cacheStatus;
    log[level](line, 'request');
  });
}, { name: 'access-log' });
