import { Server as NetServer } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** True from the start of a graceful close: readiness says so, so no new traffic is sent here. */
    isDraining(): boolean;
  }
}

export interface ShutdownOptions {
  /** How long in-flight requests may take to finish once closing starts. */
  timeoutMs: number;
}

/** Time given to busy keep-alive connections to receive one more response, which carries `connection: close`. */
const GRACE_MS = 1000;
const POLL_MS = 50;

/**
 * Graceful close (DESIGN "Running safely"). On close, before Fastify closes the server:
 * stop accepting connections; let every request in flight finish; answer requests arriving on open
 * keep-alive connections normally but with `connection: close` (Fastify adds it while closing; the app
 * sets `return503OnClosing: false`), so clients end those connections themselves; only then close the
 * connections that stay idle, and at the deadline whatever is left. Closing an idle keep-alive socket
 * at once (what `server.close()` does) resets a client that was sending on it at that moment.
 */
export default fp<ShutdownOptions>(async (app, opts) => {
  let draining = false;
  app.decorate('isDraining', () => draining);

  app.addHook('preClose', async () => {
    draining = true;
    const server = app.server as HttpServer;
    if (!server.listening) return;
    const drained = new Promise<void>((resolve) => server.once('close', () => resolve()));
    // net.Server's close stops accepting without touching open connections (http.Server's also drops
    // the idle ones at once). Fastify's own server.close() afterwards finds the listener closed.
    NetServer.prototype.close.call(server);
    const started = Date.now();
    let done = false;
    void drained.then(() => (done = true));
    while (!done) {
      const elapsed = Date.now() - started;
      if (elapsed >= opts.timeoutMs) {
        const open = await new Promise<number>((resolve) => server.getConnections((_e, n) => resolve(n ?? 0)));
        app.log.warn({ connections: open, timeoutMs: opts.timeoutMs }, 'shutdown deadline reached; closing the connections left');
        server.closeAllConnections();
        break;
      }
      if (elapsed >= Math.min(GRACE_MS, opts.timeoutMs / 2)) server.closeIdleConnections();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    await drained;
  });
}, { name: 'shutdown' });
