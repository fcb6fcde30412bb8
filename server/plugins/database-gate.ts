import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { Gate, type GateOptions } from '../http/gate.ts';
import { policyOf } from './load-shedding.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The bound on other requests reaching the database, running and waiting (DB_MAX_CONCURRENT, DB_QUEUE_*). */
    databaseGate: Gate;
  }
}

export interface DatabaseGateOptions extends GateOptions {
  /** Where sign-in lives (IDENTITY_URL): its steps are never shed (server/plugins/load-shedding.ts). */
  identityUrl: string;
}

/**
 * The queue in front of the database for the requests that are not searches (those have their own,
 * server/plugins/search-gate.ts): pages the page cache does not hold, the sitemap, other reads. A flood
 * of distinct addresses is as many renders and as many queries; bounded, the excess is answered 503
 * with Retry-After at once instead of waiting behind work it cannot overtake (issue 29 item 4).
 * What overload never sheds is never queued here either: a page answered from the page cache (its
 * onRequest hook answers before this one runs), static files, sign-in steps and form posts; and a
 * request that has its place keeps it until its answer is made.
 */
export default fp<DatabaseGateOptions>(async (app, opts) => {
  const gate = new Gate('database requests', opts);
  app.decorate('databaseGate', gate);
  const places = new WeakMap<FastifyRequest, () => void>();
  const release = (request: FastifyRequest) => {
    places.get(request)?.();
    places.delete(request);
  };

  app.addHook('preHandler', async (request, reply) => {
    const config = request.routeOptions.config;
    if (config.ownQueue || policyOf(request, opts.identityUrl) !== 'if-uncached') return;
    // Overloaded (a full queue, or a wait past DB_QUEUE_TIMEOUT_MS) goes to the app's error handler: 503.
    const place = await gate.acquire();
    if (reply.sent || request.raw.destroyed) return place();
    places.set(request, place);
    // However the request ends (answered, streamed, hijacked, the client gone), its place is given back.
    reply.raw.once('close', () => release(request));
  });
  // The answer is made: whatever is left is writing it out, which holds no database work.
  app.addHook('onSend', async (request) => release(request));
  app.addHook('onResponse', async (request) => release(request));
  app.addHook('onRequestAbort', async (request) => release(request));
}, { name: 'database-gate', dependencies: ['load-shedding'] });
