import fp from 'fastify-plugin';
import { redactUrl } from '../log-redact.ts';

export type AccessLogLevel = 'info' | 'debug' | 'off';

/**
 * One line per request (ACCESS_LOG): Fastify's own two request lines are turned off in serverOptions
 * (AccessLogController, server/logger.ts), and this hook writes one when the response is sent, with what an operator
 * looks for: method, URL (secrets and e-mail-like text masked, server/log-redact.ts), status, time,
 * body bytes, client address, and `cache` when the response says whether a cache answered it
 * (an `x-cache` header). The request id ties it to an error's own line.
 */
export default fp<{ level: AccessLogLevel }>(async (app, opts) => {
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
    const cache = reply.getHeader('x-cache');
    if (typeof cache === 'string') line.cache = cache.toLowerCase();
    log[level](line, 'request');
  });
}, { name: 'access-log' });
