/**
 * The analytics writer: events wait in a bounded in-process buffer and go to `analytics_events` in
 * batches, one multi-row INSERT per flush (when a batch is full, or every `intervalMs`). Recording
 * never waits for the database: when the buffer is full, new events are dropped and counted; when the
 * database fails, the batch is dropped and counted, the failure logged once, and the next flush tries
 * again (no restart needed). Closing flushes what is left.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/driver.ts';
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
}

/** Why events were not stored, and how many: what the log and the tests read. */
export type DropReason = 'buffer_full' | 'database';

export class EventWriter {
  private buffer: EventRow[] = [];
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failing = false;
  private closed = false;
  readonly dropped: Record<DropReason, number> = { buffer_full: 0, database: 0 };
  /** Events written so far. */
  written = 0;
  private readonly maxBuffer: number;
  private readonly batchSize: number;
  private readonly intervalMs: number;

  constructor(private readonly db: () => Db, private readonly log: FastifyBaseLogger, options: WriterOptions = {}) {
    this.maxBuffer = options.maxBuffer ?? 20_000;
    this.batchSize = options.batchSize ?? 1000;
    this.intervalMs = options.intervalMs ?? 1000;
  }

  /** Queues an event; false when it was dropped (buffer full, or the writer is closed). */
  record(row: EventRow): boolean {
    if (this.closed || this.buffer.length >= this.maxBuffer) {
      this.dropped.buffer_full += 1;
      return false;
    }
    this.buffer.push(row);
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

  private async drain(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, this.batchSize);
      await this.write(batch);
    }
  }

  /** Writes everything queued so far (tests, close). */
  async flush(): Promise<void> {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    while (this.flushing || this.buffer.length > 0) {
      this.kick();
      await this.flushing;
    }
  }

  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
  }

  private async write(batch: EventRow[]): Promise<void> {
    try {
      await insertEvents(this.db(), batch);
      this.written += batch.length;
      if (this.failing) {
        this.failing = false;
        this.log.info({ dropped: this.dropped.database }, 'analytics events are written again');
      }
    } catch (error) {
      this.dropped.database += batch.length;
      // Logged once per outage, not once per batch.
      if (!this.failing) {
        this.failing = true;
        this.log.warn({ err: error, events: batch.length }, 'analytics events dropped: the database refused them');
      }
    }
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
