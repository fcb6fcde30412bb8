import { getHeapStatistics } from 'node:v8';
import fp from 'fastify-plugin';
import underPressure from '@fastify/under-pressure';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isApiUrl } from '../http/http-error.ts';
import { ShedLog } from '../http/shed-log.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The log lines of shed requests: the first of a run, then a count every ten seconds (server/http/shed-log.ts). */
    shedLog: ShedLog;
  }
  interface FastifyReply {
    /** The load-shedding answer (503, Retry-After, no-store) for work refused past a bound (server/http/gate.ts). */
    overloaded(): FastifyReply;
  }
  interface FastifyContextConfig {
    /** Answer even when the server is overloaded (liveness, readiness). */
    exemptFromShedding?: boolean;
    /**
     * New work that costs much whether or not a copy is kept (the search API): shed first when the
     * server is overloaded, whatever the method.
     */
    expensive?: boolean;
    /**
     * The route's database work waits in a queue of its own (searches: SEARCH_MAX_CONCURRENT), not also
     * in the one for other requests (DB_MAX_CONCURRENT, server/plugins/database-gate.ts).
     */
    ownQueue?: boolean;
  }
}

export interface LoadSheddingOptions {
  /** Mean event-loop delay over a one-second sample above which requests are shed; 0 turns it off. */
  maxEventLoopDelayMs: number;
  /** Event-loop utilisation (0–1) over a one-second sample above which requests are shed; 0 turns it off. */
  maxEventLoopUtilization: number;
  /** Heap in use above which requests are shed; unset: 90 % of the V8 heap limit; 0 turns it off. */
  maxHeapUsedMb?: number | undefined;
  /** Seconds a shed client is asked to wait (`Retry-After`). */
  retryAfterS: number;
  /** Where sign-in lives (IDENTITY_URL): its steps are never shed, so a sign-in under way completes. */
  identityUrl: string;
}

/**
 * What overload does to a request. 'never': static files (answered from memory or disk, no render),
 * the steps of a sign-in and form posts (work a person has already begun: shedding one strands them
 * half-way, on a 503 page); 'now': new expensive work; 'if-uncached': a page, answered from the page
 * cache if a copy is kept (that costs next to nothing) and shed only when it would be rendered.
 */
export type Policy = 'never' | 'now' | 'if-uncached';

export function policyOf(request: FastifyRequest, identityUrl: string): Policy {
  const config = request.routeOptions.config;
  if (config.exemptFromShedding) return 'never';
  if (config.expensive) return 'now';
  const route = request.routeOptions.url ?? '';
  if (route.startsWith('/assets/') || route === '/favicon.ico') return 'never';
  if (route === identityUrl || route.startsWith(`${identityUrl}/`)) return 'never';
  if (request.method !== 'GET' && request.method !== 'HEAD') return 'never';
  return 'if-uncached';
}

/**
 * Load shedding: when the process is overloaded, requests are answered at once with
 * 503 and `Retry-After` instead of queueing without bound behind the work already accepted.
 */
export default fp<LoadSheddingOptions>(async (app, opts) => {
  const shedLog = new ShedLog(app.log);
  app.decorate('shedLog', shedLog);
  app.addHook('onClose', async () => shedLog.close());
  const heapLimit = getHeapStatistics().heap_size_limit;
  const maxHeapUsedBytes = opts.maxHeapUsedMb === undefined ? Math.floor(heapLimit * 0.9) : opts.maxHeapUsedMb * 1024 * 1024;
  const answer = (request: FastifyRequest, reply: FastifyReply) => {
    reply.code(503).header('retry-after', String(opts.retryAfterS)).header('cache-control', 'no-store');
    if (isApiUrl(request.url)) {
      return { statusCode: 503, error: 'OVERLOADED', message: 'The service is busy. Please try again in a moment.' };
    }
    reply.type('text/plain; charset=utf-8');
    return 'The help centre is busy. Please try again in a moment.';
  };
  /** Pages admitted under pressure pending the page cache: the pressure seen, shed if they reach a handler. */
  const pending = new WeakMap<FastifyRequest, string>();
  const shed = (request: FastifyRequest, reply: FastifyReply, type: string) => {
    const policy = policyOf(request, opts.identityUrl);
    if (policy === 'never') return undefined;
    if (policy === 'if-uncached') {
      pending.set(request, type);
      return undefined;
    }
    shedLog.shed(type, request.url, request.log);
    return answer(request, reply);
  };
  // The page cache answers a kept copy from its onRequest hook (server/plugins/page-cache.ts), so a page
  // that gets this far is about to be rendered: that is the work shed.
  app.addHook('preHandler', async (request, reply) => {
    const type = pending.get(request);
    if (type === undefined) return;
    shedLog.shed(type, request.url, request.log);
    return reply.send(answer(request, reply));
  });
  app.decorateReply('overloaded', function overloaded(this: FastifyReply) {
    return this.send(answer(this.request, this));
  });
  await app.register(underPressure, {
    maxEventLoopDelay: opts.maxEventLoopDelayMs,
    maxEventLoopUtilization: opts.maxEventLoopUtilization,
    // Utilisation over the last sample, not since start: a busy minute long ago is not overload now.
    eventLoopUtilizationMode: 'interval',
    maxHeapUsedBytes,
    retryAfter: opts.retryAfterS,
    // A returned body is sent as the answer (the plugin's code does so; its types only say void).
    pressureHandler: shed as unknown as (request: FastifyRequest, reply: FastifyReply, type: string) => void,
  });
}, { name: 'load-shedding' });
