/**
 * Pages not found: every request the not-found page answers is logged (its path only: a query can hold
 * what a visitor typed) and counted per path and UTC day in `page_misses`, which staff insights read
 * (server/insights, 'Missing pages') to see which old links still bring visitors, and where to send them.
 *
 * Anyone can ask for any path, so what is kept is bounded as the analytics events are (store.ts): counts
 * wait in memory, at most MAX_PENDING distinct paths between flushes (further new paths are dropped and
 * counted), and go out in one statement per flush; a day takes at most MAX_ROWS_PER_DAY paths (new paths
 * beyond are dropped, the ones already there keep counting); a path is cut to MAX_MISS_PATH characters;
 * days older than MISS_RETENTION_DAYS are deleted.
 * Counting follows the analytics' rules (ANALYTICS on, no Do-Not-Track, not a bot); logging does not.
 */
import fp from 'fastify-plugin';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/driver.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { clean } from './plugin.ts';

export const MAX_MISS_PATH = 300;
export const MAX_PENDING = 1000;
export const MAX_ROWS_PER_DAY = 2000;
/** Days of counts kept: a year and a little, so a year-long insights range has them all (at most 400 × MAX_ROWS_PER_DAY rows). */
export const MISS_RETENTION_DAYS = 400;
const FLUSH_EVERY_MS = 10_000;

declare module 'fastify' {
  interface FastifyInstance {
    misses: MissCounter;
  }
}

/** The path of a missed request as logged and counted: decoded, no query or fragment, bounded, e-mail-like text masked. */
export function missPath(url: string): string {
  const raw = url.split(/[?#]/)[0] ?? '/';
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    path = raw;
  }
  // eslint-disable-next-line no-control-regex
  path = path.replace(/[\u0000-\u001f\u007f]/g, '');
  if (path.length > 1) path = path.replace(/\/+$/, '') || '/';
  return clean(path, MAX_MISS_PATH);
}

export class MissCounter {
  private pending = new Map<string, number>();
  private pendingDay = '';
  private flushing: Promise<void> = Promise.resolve();
  private prunedDay = '';
  /** Misses not kept: new paths past the buffer or a day's rows, or lost with a failed write. */
  dropped = 0;

  constructor(private readonly db: () => Db, private readonly log: FastifyBaseLogger, private readonly clock: () => number,
    private readonly retentionDays: number) {}

  count(path: string): void {
    const day = new Date(this.clock()).toISOString().slice(0, 10);
    // A flush writes one day: misses of a new day wait for the next one.
    if (day !== this.pendingDay && this.pending.size > 0) void this.flush();
    this.pendingDay = day;
    const n = this.pending.get(path);
    if (n === undefined && this.pending.size >= MAX_PENDING) {
      this.dropped += 1;
      return;
    }
    this.pending.set(path, (n ?? 0) + 1);
  }

  /** Writes what is pending (and prunes past the retention once a day); resolves once it is stored. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const day = this.pendingDay;
    const rows = [...this.pending].map(([path, count]) => ({ path, count }));
    this.pending = new Map();
    try {
      const [kept] = await this.db().query<{ n: number }>(
        `with incoming as (select path, count from jsonb_to_recordset($2::jsonb) as x(path text, count bigint)),
           updated as (update page_misses m set count = m.count + i.count from incoming i
                        where m.day = $1::date and m.path = i.path returning m.path),
           room as (select greatest(0, $3 - (select count(*) from page_misses where day = $1::date)) as n),
           fresh as (select i.path, i.count from incoming i where not exists (select 1 from updated u where u.path = i.path)
                      order by i.count desc, i.path limit (select n from room)),
           inserted as (insert into page_misses (day, path, count) select $1::date, path, count from fresh
                        on conflict (day, path) do update set count = page_misses.count + excluded.count returning 1)
         select ((select count(*) from updated) + (select count(*) from inserted))::int as n`,
        [day, JSON.stringify(rows), MAX_ROWS_PER_DAY],
      );
      const lost = rows.length - (kept?.n ?? 0);
      if (lost > 0) this.dropped += lost;
      if (this.prunedDay !== day) {
        this.prunedDay = day;
        await this.db().query(`delete from page_misses where day < $1::date - $2::int`, [day, this.retentionDays]);
      }
    } catch (error) {
      this.dropped += rows.reduce((sum, r) => sum + r.count, 0);
      if (!isDatabaseUnavailable(error)) this.log.error({ err: error }, 'missed pages: counts not stored');
    }
  }
}

export interface MissesOptions {
  clock?: (() => number) | undefined;
}

export default fp<MissesOptions>(async (app: FastifyInstance, opts) => {
  const counter = new MissCounter(() => app.db, app.log as FastifyBaseLogger, opts.clock ?? Date.now, MISS_RETENTION_DAYS);
  app.decorate('misses', counter);

  const isPageMiss = (request: FastifyRequest, status: number, type: unknown) =>
    status === 404 && (request.method === 'GET' || request.method === 'HEAD') && String(type ?? '').startsWith('text/html')
    && request.headers['hx-request'] === undefined;

  // As the answer goes out, from the page cache too (a kept not-found page answers many misses).
  app.addHook('onResponse', async (request, reply) => {
    if (!isPageMiss(request, reply.statusCode, reply.getHeader('content-type'))) return;
    const path = missPath(request.originalUrl ?? request.url);
    request.log.info({ miss: { path } }, 'page not found');
    if (app.analytics.counts(request)) counter.count(path);
  });

  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => void counter.flush(), FLUSH_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await counter.flush();
  });
}, { name: 'signpost-misses', dependencies: ['db', 'signpost-events'] });
