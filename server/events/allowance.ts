/**
 * ANALYTICS_RATE_LIMIT: events per client network and minute, counted in the database's `rate_limits`
 * (as the other limits are, server/plugins/rate-limit.ts) so that every instance enforces one limit.
 *
 * Asking the database on every batch would put a round trip in front of every beacon, so each instance
 * keeps a pre-count in memory. Per network and window, an instance
 * - asks the database the first time it sees the network in a window, and whenever what it has accepted
 *   since it last heard from the database would pass its slack (or the limit): it adds what it has
 *   accepted and what the batch asks for, and the database's count says how much of the batch fits;
 * - otherwise accepts at once, and adds what it accepted to the database's count within `flushMs`.
 * The slack is `unsynced` events (50, the most one batch holds), or a sixteenth of what is left of the
 * limit as last heard when that is more (so a high limit does not mean a round trip every other batch).
 * The database's count is the one order of events: a batch gets the part of its span that falls below
 * the limit. At any moment an instance holds at most its slack of accepted events the database has not
 * counted, and stops on its next answer from the database once the count has reached the limit, so one
 * network gets at most `max + 2 × max(unsynced, max / 16) × instances` events a window (the default 600
 * and 3 instances: 600 + 300), and never more than `max` from one instance alone.
 *
 * Windows are fixed minutes of each instance's clock (instances' clocks agree to well within a minute).
 * When the database cannot count (it is away), each instance counts on alone in memory until it can
 * again: the limit then holds per instance, and nothing waits for the database meanwhile.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/driver.ts';

interface Network {
  window: number;
  /** The database's count for this network and window, as last heard (including this instance's part). */
  seen: number;
  /** Whether `seen` was heard from the database in this window. */
  heard: boolean;
  /** Accepted here and not yet sent to the database. */
  pending: number;
  /** Sent to the database, its answer not yet back. */
  sending: number;
}

export interface AllowanceOptions {
  /** Events one network may send a window (ANALYTICS_RATE_LIMIT). */
  max: number;
  windowMs?: number;
  /** Events an instance may accept for one network before the database has counted them. */
  unsynced?: number;
  /** How often accepted events are added to the database's counts. */
  flushMs?: number;
  /** Networks held in memory at most. */
  networks?: number;
  clock?: () => number;
}

/** Rows of `rate_limits` this allowance owns: the prefix keeps them apart from the other limits' keys. */
const PREFIX = 'analytics-events:';
const DAY_MS = 24 * 3600 * 1000;

export class NetworkAllowance {
  readonly #networks = new Map<string, Network>();
  readonly #max: number;
  readonly #windowMs: number;
  readonly #unsynced: number;
  readonly #limit: number;
  readonly #clock: () => number;
  readonly #flushMs: number;
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> | null = null;
  #failing = false;
  #closed = false;
  #flushes = 0;

  constructor(private readonly db: () => Db, private readonly log: FastifyBaseLogger, options: AllowanceOptions) {
    this.#max = options.max;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#unsynced = Math.min(options.max, options.unsynced ?? 50);
    this.#limit = options.networks ?? 10_000;
    this.#clock = options.clock ?? Date.now;
    this.#flushMs = options.flushMs ?? 1000;
  }

  /** How many of `wanted` events the network may send now (and counts them as sent). */
  async take(network: string, wanted: number): Promise<number> {
    const now = this.#clock();
    const window = Math.floor(now / this.#windowMs) * this.#windowMs;
    const entry = this.#entry(network, window);
    // The database's count only grows within a window: once it has reached the limit, nothing more fits.
    if (entry.heard && entry.seen >= this.#max) return 0;
    const local = entry.pending + entry.sending;
    const slack = Math.max(this.#unsynced, Math.floor((this.#max - entry.seen) / 16));
    if (!this.#failing && (!entry.heard || local + wanted > slack || entry.seen + local + wanted > this.#max)) {
      try {
        return await this.#ask(network, entry, wanted);
      } catch (error) {
        this.#failed(error);
      }
    }
    // Counted here: between two answers from the database, or while it cannot count.
    const allowed = Math.max(0, Math.min(wanted, this.#max - entry.seen - entry.pending - entry.sending));
    if (allowed > 0) {
      entry.pending += allowed;
      this.#schedule();
    }
    return allowed;
  }

  /** Sends every pending count to the database now (tests, close). */
  async flush(): Promise<void> {
    if (this.#timer) { clearTimeout(this.#timer); this.#timer = null; }
    while (this.#flushing) await this.#flushing;
    this.#flushing = this.#send().finally(() => { this.#flushing = null; });
    await this.#flushing;
  }

  /** Sends what is pending; nothing is scheduled after (the database closes next). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush().catch(() => undefined);
  }

  #entry(network: string, window: number): Network {
    let entry = this.#networks.get(network);
    if (entry && entry.window !== window) {
      // A new window: what the last one still had to send is of no use any more.
      entry = undefined;
      this.#networks.delete(network);
    }
    if (!entry) {
      if (this.#networks.size >= this.#limit) this.#evict(window);
      entry = { window, seen: 0, heard: false, pending: 0, sending: 0 };
    } else {
      this.#networks.delete(network);
    }
    // Most recently used last: eviction takes the oldest first.
    this.#networks.set(network, entry);
    return entry;
  }

  /** Ended windows first, then networks with nothing to send, oldest first. */
  #evict(window: number) {
    for (const [key, entry] of this.#networks) if (entry.window !== window) this.#networks.delete(key);
    for (const [key, entry] of this.#networks) {
      if (this.#networks.size < this.#limit) break;
      if (entry.pending === 0 && entry.sending === 0) this.#networks.delete(key);
    }
  }

  /** Adds what this instance accepted and what the batch asks for; the batch gets its part below the limit. */
  async #ask(network: string, entry: Network, wanted: number): Promise<number> {
    // A flush of this network still under way may be counted after this statement: its events were
    // accepted already, so they are taken off what the batch may have (at worst twice, never not at all).
    const inFlight = entry.sending;
    const accepted = entry.pending;
    entry.pending = 0;
    entry.sending += accepted;
    try {
      const [row] = await this.#add([network], [entry.window], [accepted + wanted]);
      if (!row) throw new Error('the analytics rate-limit count returned nothing');
      this.#heard(entry, row.count);
      this.#recovered();
      return Math.max(0, Math.min(wanted, this.#max - (row.count - wanted) - inFlight));
    } catch (error) {
      entry.pending += accepted;
      throw error;
    } finally {
      entry.sending -= accepted;
    }
  }

  #heard(entry: Network, count: number) {
    entry.seen = Math.max(entry.seen, count);
    entry.heard = true;
  }

  #schedule() {
    if (this.#timer || this.#flushing || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#flushing = this.#send().finally(() => {
        this.#flushing = null;
        if ([...this.#networks.values()].some((e) => e.pending > 0)) this.#schedule();
      });
    }, this.#flushMs);
    this.#timer.unref();
  }

  /** Every network's pending count in one statement. */
  async #send(): Promise<void> {
    const batch = [...this.#networks].filter(([, e]) => e.pending > 0);
    if (batch.length === 0) return;
    const counts = batch.map(([, e]) => e.pending);
    for (const [, e] of batch) { e.sending += e.pending; e.pending = 0; }
    try {
      const rows = await this.#add(batch.map(([k]) => k), batch.map(([, e]) => e.window), counts);
      const seen = new Map(rows.map((r) => [r.key, r.count]));
      for (const [key, entry] of batch) {
        const count = seen.get(PREFIX + key);
        if (count !== undefined && this.#networks.get(key) === entry) this.#heard(entry, count);
      }
      this.#recovered();
      this.#flushes += 1;
      // Ended windows of this limit are cleared now and then, not on every flush.
      if (this.#flushes % 500 === 0) {
        await this.db().query('delete from rate_limits where key like $1 and window_start < $2', [`${PREFIX}%`, this.#clock() - DAY_MS]);
      }
    } catch (error) {
      // Kept to be sent with the next flush.
      batch.forEach(([, entry], i) => { entry.pending += counts[i] ?? 0; });
      this.#failed(error);
    } finally {
      batch.forEach(([, entry], i) => { entry.sending -= counts[i] ?? 0; });
    }
  }

  /**
   * Adds to each network's count in its window (a row of an older window starts again); a count from an
   * instance still in an older window is not added to a newer one.
   */
  #add(networks: string[], windows: number[], counts: number[]) {
    return this.db().query<{ key: string; count: number }>(
      `insert into rate_limits as r (key, window_start, count)
         select $1 || u.key, u.window_start, u.count from unnest($2::text[], $3::bigint[], $4::int[]) as u(key, window_start, count)
       on conflict (key) do update set
         count = case when r.window_start = excluded.window_start then r.count + excluded.count
                      when r.window_start < excluded.window_start then excluded.count else r.count end,
         window_start = greatest(r.window_start, excluded.window_start)
       returning key, count`,
      [PREFIX, networks, windows, counts],
    );
  }

  #failed(error: unknown) {
    if (!this.#failing) this.log.error({ err: error }, 'analytics rate limit: the database cannot count, counting in this instance\'s memory');
    this.#failing = true;
    // Tried again with the next flush; until then every batch is counted here.
    this.#schedule();
  }

  #recovered() {
    if (this.#failing) this.log.info('analytics rate limit: counted in the database again');
    this.#failing = false;
  }
}
