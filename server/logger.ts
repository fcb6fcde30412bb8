import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';
import pino from 'pino';
import { redactError, redactUrl } from './log-redact.ts';

interface LoggedRequest {
  method?: string;
  url?: string;
  originalUrl?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}

/**
 * Never a secret or an e-mail address in a log line: the request URL is logged with `preview=` and
 * e-mail-like text masked (spec §5), error messages likewise, and secret headers are redacted
 * wherever headers are logged.
 */
export const logSerializers = {
  req(req: LoggedRequest) {
    return {
      method: req.method,
      // A URL rewritten before routing (a malformed path) is logged as it arrived.
      url: redactUrl(req.originalUrl ?? req.url),
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    };
  },
  /** Any `url` a log call names (the error handler's, a route's). */
  url: (url: unknown) => (typeof url === 'string' ? redactUrl(url) : url),
  err(err: Error) {
    return redactError(pino.stdSerializers.err(err));
  },
};

const SECRET_HEADERS = ['cookie', 'authorization', 'x-preview-token', 'set-cookie'];

/** pino JSON everywhere; human-readable only when a person is watching a terminal. */
export function loggerOptions(level: string, stream: NodeJS.WriteStream | NodeJS.WritableStream = process.stdout): LoggerOptions {
  const options: LoggerOptions = {
    level,
    serializers: logSerializers,
    redact: {
      paths: SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`, `res.headers["${h}"]`]),
      censor: '[redacted]',
    },
  };
  if ((stream as NodeJS.WriteStream).isTTY) {
    options.transport = { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } };
  }
  return options;
}

/**
 * Fastify's request lines, less the two it writes for every request ('incoming request', 'request
 * completed') and its 'Route … not found': server/plugins/access-log.ts writes one line per request
 * instead (ACCESS_LOG). A request that ends in an error still gets Fastify's error line, and stream,
 * header and serializer failures keep theirs.
 */
export class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) super.requestCompleted(error, request, reply);
  }

  override routeNotFound(): void {}
}
