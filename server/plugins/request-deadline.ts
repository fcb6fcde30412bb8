import type { Server as HttpServer } from 'node:http';
import fp from 'fastify-plugin';

export interface RequestDeadlineOptions {
  /** REQUEST_TIMEOUT_MS: the time a client has to send a whole request, head and body. */
  timeoutMs: number;
}

/**
 * Every request is read within a deadline (issue 25 item 1): Node's http server answers a request
 * whose head and body have not all arrived by then with 408 and closes its connection, whatever the
 * route is waiting on. Fastify turns Node's own deadline off by default (its `requestTimeout` is 0),
 * and the value comes from the configuration, so it is set here on the server the app is registered
 * on rather than in each place that creates one. The server checks its connections every
 * `connectionsCheckingInterval` (Node's default is 30 s); a quarter of the deadline keeps a short
 * deadline close to its word. The head has its own, shorter deadline (Node's 60 s), never longer than
 * the whole.
 */
export default fp<RequestDeadlineOptions>(async (app, { timeoutMs }) => {
  // connectionsCheckingInterval is a createServer option Node keeps on the server and reads at listen time.
  const server = app.server as HttpServer & { connectionsCheckingInterval: number };
  server.requestTimeout = timeoutMs;
  server.headersTimeout = Math.min(server.headersTimeout || timeoutMs, timeoutMs);
  server.connectionsCheckingInterval = Math.max(25, Math.min(5_000, Math.floor(timeoutMs / 4)));
}, { name: 'request-deadline' });
