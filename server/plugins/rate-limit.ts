import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { Db } from '../db/driver.ts';
import { Refusal } from './refusal.ts';

export interface RateLimitOptions {
  /** State-changing requests one client may send to one route per window (RATE_LIMIT_MAX). */
  max: number;
  /** The window, in seconds (RATE_LIMIT_WINDOW). */
  windowSeconds: number;
}

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;

/**
 * Fixed-window counters in the database, so every instance sharing it enforces one limit (DESIGN
 * "Scale": per-instance state moves to the shared store). One upsert per request, on the database's
 * clock so instances agree on windows. Keys are hashes: no client address is stored.
 *
 * If the database cannot count (it is away, or slow to answer), the limiter falls back to counters
 * in this instance's memory rather than failing the request or letting everything through: the
 * limit then holds per instance (N instances allow N times the limit) until the database answers
 * again, and a line is logged. A refusal never becomes a 5xx because of the limiter.
 */
export function databaseStore(db: Db, log: FastifyBaseLogger) {
  const memory = new Map<string, { start: number; count: number }>();
  let calls = 0;
  let failing = false;
  const inMemory = (key: string, windowMs: number): Counted => {
    const now = Date.now();
    const start = Math.floor(now / windowMs) * windowMs;
    const row = memory.get(key);
    const next = row && row.start === start ? { start, count: row.count + 1 } : { start, count: 1 };
    memory.delete(key);
    memory.set(key, next);
    // Bounded: the oldest keys go first.
    while (memory.size > 10_000) memory.delete(memory.keys().next().value as string);
    return { current: next.count, ttl: start + windowMs - now };
  };
  const counted = async (key: string, windowMs: number): Promise<Counted> => {
    const [row] = await db.query<{ count: number; ttl: number }>(
      `with now as (select (extract(epoch from clock_timestamp()) * 1000)::bigint as ms)
       insert into rate_limits as r (key, window_start, count)
         select $1, (ms / $2) * $2, 1 from now
       on conflict (key) do update set
         count = case when r.window_start = excluded.window_start then r.count + 1 else 1 end,
         window_start = excluded.window_start
       returning count, (window_start + $2 - (select ms from now))::int as ttl`,
      [key, windowMs],
    );
    if (!row) throw new Error('rate limit upsert returned nothing');
    calls += 1;
    // Expired windows are cleared now and then, not on every request.
    if (calls % 500 === 0) {
      await db.query('delete from rate_limits where window_start < (extract(epoch from clock_timestamp()) * 1000)::bigint - $1', [24 * 3600 * 1000]);
    }
    return { current: row.count, ttl: Math.max(0, row.ttl) };
  };
  return class DatabaseStore {
    incr(raw: string, callback: Callback, timeWindow: number) {
      const key = createHash('sha256').update(raw).digest('base64url').slice(0, 32);
      counted(key, timeWindow).then(
        (result) => {
          if (failing) log.info('rate limits are counted in the database again');
          failing = false;
          callback(null, result);
        },
        (error: unknown) => {
          if (!failing) log.error({ err: error }, 'rate limits: the database cannot count, using this instance\'s memory');
          failing = true;
          callback(null, inMemory(key, timeWindow));
        },
      );
    }

    child() {
      return this;
    }
  };
}

/**
 * Rate limits for every route marked `config: { stateChanging: true }`: a route
 * opts in with that flag and nothing else; a route may still give its own `config.rateLimit`.
 * Refusals are 429 with Retry-After and a short page in the site's words (refusal.ts).
 */
export default fp(async (app, opts: RateLimitOptions) => {
  const timeWindow = opts.windowSeconds * 1000;
  // Runs before @fastify/rate-limit's own onRoute hook (registered below), which reads config.rateLimit.
  app.addHook('onRoute', (route) => {
    if (!route.config?.stateChanging || route.config.rateLimit !== undefined) return;
    route.config = {
      ...route.config,
      rateLimit: {
        max: opts.max,
        timeWindow,
        // Per route and client: one form's limit does not use up another's.
        keyGenerator: (request) => `${request.method} ${request.routeOptions.url}|${request.ip}`,
      },
    };
  });
  await app.register(rateLimit, {
    global: false,
    store: databaseStore(app.db, app.log),
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new Refusal(429, `You've sent this form many times in a short while. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`, seconds);
    },
  });
}, { name: 'rate-limit', dependencies: ['db'] });
