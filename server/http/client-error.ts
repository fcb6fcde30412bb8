import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

const STATUS_OF: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_HEADERS_TIMEOUT: 408,
};

/**
 * Errors the HTTP parser finds before there is a request (headers too large, a malformed request
 * line). The request may have been a HEAD, whose answer must not have a body: a body there is read
 * as the start of the next response and desynchronises keep-alive clients. So the answer never has
 * one, states `content-length: 0`, and closes the connection, since what follows on it cannot be
 * trusted either. It carries the same security headers as every other answer (security-headers.ts).
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status = STATUS_OF[err.code ?? ''] ?? 400;
  this.log.debug({ code: err.code, status }, 'client error');
  if (socket.writable) {
    const security = this.hasDecorator('securityHeaderLines') ? this.securityHeaderLines : '';
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-length: 0\r\ncache-control: no-store\r\n${security}connection: close\r\n\r\n`);
  }
  socket.destroySoon?.();
}
