/**
 * The analytics writer: events wait in a bounded in-process buffer and go to `analytics_events` in
 * batches, one multi-row INSERT per flush (when a batch is full, or every `intervalMs`). Recording
 * never waits for the database: when the buffer is full, new events are dropped and counted. An
 * accepted event is not lost to an outage (a primary restarting, a network cut): when the database
 * fails, the unwritten rows go back to the front of the buffer and are tried again after a back-off
 * that grows to `maxRetryMs`, the failure logged once (no restart needed). The buffer's bound still
 * holds, so a long outage drops the newest events beyond it, counted. Closing flushes what is left and
 * counts what an outage at that moment keeps from being written.
 *
 * A batch holds many visitors' events, so one row whose values the database refuses (a data exception)
 * must not take the others with it: the batch is split in halves and each written again, down to the
 * rows that fail alone, which are dropped and counted ('refused'). With k such rows in a batch of n that
 * costs about 2k·log2(n) more statements, and none when every row is good.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/driver.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { EventType } from './catalogue.ts';

export interface EventRow {
  occurredAt: Date;
  type: EventType;
  source: 'client' | 'server';
  sessionId?: string | null | undefined;
  persistentId?: string | null | undefined;
  path: string;
  entryId?: string | null | undefined;
  product?: string | undefined;
  term?: string | undefined;
  queryId?: string | null | undefined;
  key?: string | undefined;
  value?: number | null | undefined;
  data?: Record<string, unknown> | undefined;
}

export interface WriterOptions {
  /** Events held at most; beyond, new events are dropped ('buffer_full'). */
  maxBuffer?: number;
  /** Events per INSERT; a full batch is written at once. */
  batchSize?: number;
  /** The longest an event waits in the buffer. */
  intervalMs?: number;
  /** The longest wait between tries while the database is failing. */
  maxRetryMs?: number;
}

/** Why events were not stored, and how many: what the log and the tests read. */
export type DropReason = 'buffer_full' | 'database' | 'refused';

/**
 * The database refused the values of a row, not the statement or the connection: SQLSTATE class 22
 * (data exception: a NUL in text, an escape jsonb cannot hold, a date out of range) or 23 (a constraint).
 */
export function isDataError(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return false;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23][0-9A-Z]{3}$/.test(code);
}

export class EventWriter {
  private buffer: EventRow[] = [];
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failing = false;
  private closed = false;
  readonly dropped: Record<DropReason, number> = { buffer_full: 0, database: 0, refused: 0 };
  /** Events written so far. */
  written = 0;
  private readonly maxBuffer: number;
  private readonly batchSize: number;
  private readonly intervalMs: number;
  private readonly maxRetryMs: number;
  private retryMs = 0;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(private readonly db: () => Db, private readonly log: FastifyBaseLogger, options: WriterOptions = {}) {
    this.maxBuffer = options.maxBuffer ?? 20_000;
    this.batchSize = options.batchSize ?? 1000;
    this.intervalMs = options.intervalMs ?? 1000;
    this.maxRetryMs = options.maxRetryMs ?? 10_000;
  }

  /** Queues an event; false when it was dropped (buffer full, or the writer is closed). */
  record(row: EventRow): boolean {
    if (this.closed || this.buffer.length >= this.maxBuffer) {
      this.dropped.buffer_full += 1;
      return false;
    }
    this.buffer.push(row);
    // While the database is failing, the retry timer decides when to try again.
    if (this.retryTimer) return true;
    if (this.buffer.length >= this.batchSize) this.kick();
    else if (!this.timer) {
      this.timer = setTimeout(() => { this.timer = null; this.kick(); }, this.intervalMs);
      this.timer.unref();
    }
    return true;
  }

  /** Events waiting to be written. */
  get pending(): number {
    return this.buffer.length;
  }

  private kick(): void {
    if (!this.flushing) this.flushing = this.drain().finally(() => { this.flushing = null; });
  }

  /** Writes batches until the buffer is empty, or until the database fails: then a retry is due. */
  private async drain(): Promise<void> {
    if (this.retryTimer) { clearTimeout(this.retryTimer); this.retryTimer = null; }
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, this.batchSize);
      if (!(await this.write(batch))) {
        this.retryMs = Math.min(this.maxRetryMs, this.retryMs > 0 ? this.retryMs * 2 : Math.min(this.intervalMs, 250));
        if (!this.closed) {
          this.retryTimer = setTimeout(() => { this.retryTimer = null; this.kick(); }, this.retryMs);
          this.retryTimer.unref();
        }
        return;
      }
    }
    this.retryMs = 0;
  }

  /** Tries once to write everything queued so far (tests, close); an outage leaves it queued. */
  async flush(): Promise<void> {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    while (this.flushing) await this.flushing;
    if (this.buffer.length === 0) return;
    this.kick();
    await this.flushing;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
    if (this.retryTimer) { clearTimeout(this.retryTimer); this.retryTimer = null; }
    if (this.buffer.length > 0) {
      const lost = this.buffer.length;
      this.dropped.database += lost;
      this.buffer = [];
      this.log.warn({ events: lost }, 'analytics events dropped at shut-down: the database could not take them');
    }
  }

  /** Writes a batch; false when the database failed and its unwritten rows went back to the buffer. */
  private async write(batch: EventRow[]): Promise<boolean> {
    const refused = { rows: 0, codes: new Set<string>() };
    let written = 0;
    try {
      written = await this.isolating(batch, refused);
      if (this.failing) {
        this.failing = false;
        this.log.info({ dropped: this.dropped.database, pending: this.buffer.length }, 'analytics events are written again');
      }
      return true;
    } catch (error) {
      // What was written before the failure stays written; the rest goes back to the front of the
      // buffer, in order, within its bound.
      const rest = (error as Partial<Unwritten>).rest ?? batch;
      written = batch.length - rest.length - refused.rows;
      this.buffer.unshift(...rest);
      const over = this.buffer.length - this.maxBuffer;
      if (over > 0) {
        this.buffer.length = this.maxBuffer;
        this.dropped.database += over;
      }
      // Logged once per outage, not once per batch.
      if (!this.failing) {
        this.failing = true;
        this.log.warn({ err: (error as Partial<Unwritten>).cause ?? error, events: this.buffer.length }, 'analytics events held: the database is not taking them; trying again');
      }
      return false;
    } finally {
      this.written += written;
      if (refused.rows > 0) {
        this.dropped.refused += refused.rows;
        // The count and the SQLSTATE only: the database's message and detail can quote the values.
        this.log.warn({ events: refused.rows, batch: batch.length, codes: [...refused.codes] }, 'analytics events dropped: the database refused their values');
      }
    }
  }

  /**
   * Writes the rows, halving around rows whose values the database refuses; how many were written.
   * Any other failure is thrown as Unwritten, with the rows not yet written nor refused, in order.
   */
  private async isolating(rows: EventRow[], refused: { rows: number; codes: Set<string> }): Promise<number> {
    try {
      await insertEvents(this.db(), rows);
      return rows.length;
    } catch (error) {
      if (!isDataError(error)) throw new Unwritten(error, rows.slice());
      if (rows.length === 1) {
        refused.rows += 1;
        refused.codes.add(String((error as { code: string }).code));
        return 0;
      }
      const half = Math.ceil(rows.length / 2);
      const first = await this.isolating(rows.slice(0, half), refused).catch((failure: unknown) => {
        if (failure instanceof Unwritten) failure.rest.push(...rows.slice(half));
        throw failure;
      });
      return first + await this.isolating(rows.slice(half), refused);
    }
  }
}

/** A failure other than refused values, part-way through a batch: `rest` is what is left to write. */
class Unwritten extends Error {
  constructor(override readonly cause: unknown, readonly rest: EventRow[]) {
    super('analytics batch not written', { cause });
  }
}

/**
 * One INSERT for the whole batch: each column as an array, unnested. The page's entry and product
 * come from the route of its path when the event does not name them.
 */
export async function insertEvents(db: Pick<Db, 'query'>, rows: EventRow[]): Promise<void> {
  if (rows.length === 0) return;
  const col = <T>(pick: (r: EventRow) => T) => rows.map(pick);
  await db.query(
    `insert into analytics_events (occurred_at, type, source, session_id, persistent_id, path, entry_id, product, term, query_id, key, value, data)
     select u.occurred_at, u.type, u.source, u.session_id, u.persistent_id, u.path, coalesce(u.entry_id, r.entry_id),
            case when u.product <> '' then u.product else coalesce(e.product_id, '') end, u.term, u.query_id, u.key, u.value, u.data::jsonb
     from unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                 $10::text[], $11::text[], $12::float8[], $13::text[])
       with ordinality as u(occurred_at, type, source, session_id, persistent_id, path, entry_id, product, term, query_id, key, value, data, n)
     left join content_routes r on r.path = u.path
     left join content_entries e on e.id = coalesce(u.entry_id, r.entry_id)
     order by u.n`,
    [
      col((r) => r.occurredAt.toISOString()), col((r) => r.type), col((r) => r.source), col((r) => r.sessionId ?? null),
      col((r) => r.persistentId ?? null), col((r) => r.path), col((r) => r.entryId ?? null), col((r) => r.product ?? ''),
      col((r) => r.term ?? ''), col((r) => r.queryId ?? null), col((r) => r.key ?? ''), col((r) => r.value ?? null),
      col((r) => JSON.stringify(r.data ?? {})),
    ],
  );
}
