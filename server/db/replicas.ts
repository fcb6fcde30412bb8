/**
 * Reads from streaming replicas (DATABASE_READ_URL): what only reads and may be a moment old (published
 * page data, search, insights) goes through `ReadDb`; writes, LISTEN and everything a person must see
 * right after writing it stay on the primary (`Db`). A replica is used while a background check finds it
 * answering, a standby, and within DATABASE_READ_MAX_LAG_MS of the primary; otherwise reads go to the
 * primary until it recovers. No request waits on a check. A read a replica does not answer within
 * DATABASE_READ_TIMEOUT_MS is given to the primary and the replica skipped, so one that hangs (accepts
 * connections and never answers, or stops mid-query) holds a read for that long at most.
 *
 * Caches filled from a replica must not keep content older than what dropped them: `fence()` (called
 * when the content changes, on a NOTIFY or an import of this instance) sends reads to the primary until
 * the primary's WAL position taken after the call has been replayed by the replica.
 */
import { openPostgres, type Db, type Queryable } from './driver.ts';
import { DatabaseUnavailableError } from './unavailable.ts';

/** As DATABASE_READ_MAX_LAG_MS's default (server/config.ts). */
const DEFAULT_MAX_LAG_MS = 5000;
/** As DATABASE_READ_TIMEOUT_MS's default (server/config.ts). */
const DEFAULT_READ_TIMEOUT_MS = 2000;
/** How often replicas (and the primary's WAL position) are checked. */
export const CHECK_MS = 1000;
/** While reads wait for a replica to pass a fence, it is checked this often, so they return to it quickly. */
const CATCH_UP_MS = 100;
/** A check with no answer in this time finds the server unavailable. */
const CHECK_TIMEOUT_MS = 2000;
/** The primary's positions kept to date a replica's by: a replica further behind is lagging anyway. */
const HISTORY_MS = 60_000;
const HISTORY_MAX = 1000;
/**
 * Errors of a replica a read is retried on the primary for: the server is away, or the standby
 * cancelled the statement because replay needed what it read (recovery conflicts).
 */
const RETRY_ON_PRIMARY = new Set(['40001', '40P01', '57P04']);

/** Where reads go: the primary's own `Db`, or one that picks a replica. */
export interface ReadDb extends Db {
  /**
   * Something was written that reads from now on must see (a content import): replicas are skipped
   * until they have replayed the primary's position as of this call.
   */
  fence(): void;
  /** Which servers reads use now, for /readyz; undefined without replicas. */
  status(): ReadStatus | undefined;
}

export type ReplicaState = 'checking' | 'in use' | 'catching up' | 'lagging' | 'unavailable' | 'not a standby';

/** Replicas are named by their place in DATABASE_READ_URL: readiness is public, hosts stay in the log. */
export interface ReadStatus {
  from: string[];
  replicas: { replica: number; state: ReplicaState; lagMs?: number }[];
}

export interface ReplicaOptions {
  maxLagMs?: number;
  /** A read with no answer from its replica in this time runs on the primary instead. */
  readTimeoutMs?: number;
  checkMs?: number;
  /** A replica's state changed (for the log): `at` is its host, port and database, never credentials. */
  onChange?: (change: { replica: number; at: string; state: ReplicaState; lagMs?: number | undefined; reason?: string | undefined }) => void;
}

/** Reads on the primary itself: no replicas configured (and always with PGlite). */
export function primaryReads(db: Db): ReadDb {
  return {
    engine: db.engine,
    query: (sql, params) => db.query(sql, params),
    exec: (sql) => db.exec(sql),
    transaction: (work) => db.transaction(work),
    listen: (channel, onMessage, options) => db.listen(channel, onMessage, options),
    // The primary is closed by its owner.
    close: async () => undefined,
    fence: () => undefined,
    status: () => undefined,
  };
}

export async function openReplicas(primary: Db, urls: string[], options: ReplicaOptions = {}): Promise<ReadDb> {
  const queryTimeoutMs = options.readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  const replicas = await Promise.all(urls.map(async (url, i) => new Replica(i + 1, placeOf(url), await openPostgres(url, { checkAtStart: false, queryTimeoutMs }))));
  return new Replicas(primary, replicas, options);
}

/** Host, port and database of a URL: what the log may say of it. */
export function placeOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'unparsable URL';
  }
}

/** A WAL position ('16/B374D848') as a number. */
export function parseLsn(text: string): bigint {
  const [high = '0', low = '0'] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

class Replica {
  state: 'checking' | 'ok' | 'lagging' | 'unavailable' | 'not a standby' = 'checking';
  lagMs: number | undefined;
  replayed = -1n;
  constructor(readonly number: number, readonly at: string, readonly db: Db) {}
}

interface Sample { at: number; lsn: bigint }

class Replicas implements ReadDb {
  readonly engine = 'postgres' as const;
  private readonly maxLagMs: number;
  private readonly readTimeoutMs: number;
  private readonly checkMs: number;
  /** The primary's WAL positions and when they were read, oldest first. */
  private history: Sample[] = [];
  /** fence() calls so far, and how many of them a primary position read after them covers. */
  private fencesAsked = 0;
  private fencesSet = 0;
  private fenceLsn = 0n;
  private turn = 0;
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private again = false;
  private closed = false;

  constructor(private readonly primary: Db, private readonly replicas: Replica[], private readonly options: ReplicaOptions) {
    this.maxLagMs = options.maxLagMs ?? DEFAULT_MAX_LAG_MS;
    this.readTimeoutMs = options.readTimeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
    this.checkMs = options.checkMs ?? CHECK_MS;
    void this.check();
  }

  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]> {
    return this.read((db) => db.query<R>(sql, params));
  }

  exec(sql: string): Promise<void> {
    return this.read((db) => db.exec(sql));
  }

  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.read((db) => db.transaction(work));
  }

  listen(...args: Parameters<Db['listen']>): ReturnType<Db['listen']> {
    return this.primary.listen(...args);
  }

  fence(): void {
    this.fencesAsked++;
    void this.check();
  }

  status(): ReadStatus {
    const usable = new Set(this.usable());
    const replicas = this.replicas.map((r) => ({
      replica: r.number,
      state: this.stateOf(r, usable),
      ...(r.lagMs === undefined || r.state === 'unavailable' ? {} : { lagMs: Math.round(r.lagMs) }),
    }));
    return { from: usable.size > 0 ? [...usable].map((r) => `replica ${r.number}`) : ['primary'], replicas };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await Promise.all(this.replicas.map((r) => r.db.close()));
  }

  private stateOf(r: Replica, usable: Set<Replica>): ReplicaState {
    if (usable.has(r)) return 'in use';
    return r.state === 'ok' ? 'catching up' : r.state;
  }

  /** Replicas a read may go to now: checked, within the lag bound, and past the last fence. */
  private usable(): Replica[] {
    if (this.fencesSet < this.fencesAsked) return [];
    return this.replicas.filter((r) => r.state === 'ok' && r.replayed >= this.fenceLsn);
  }

  /**
   * On a replica in turn; one that fails with the server away (or a recovery conflict), or gives no
   * answer within the read timeout, gives the read to the primary, so a replica going down or hanging
   * fails no request. Reads are safe to run again.
   */
  private async read<T>(work: (db: Db) => Promise<T>): Promise<T> {
    const usable = this.usable();
    const replica = usable[this.turn++ % Math.max(usable.length, 1)];
    if (!replica) return work(this.primary);
    try {
      // The pool's query_timeout frees a statement's connection; this deadline also covers the wait for
      // a connection (CONNECT_TIMEOUT_MS is longer) and a transaction's several statements.
      return await within(work(replica.db), this.readTimeoutMs, () => new DatabaseUnavailableError(new Error(`no answer within ${this.readTimeoutMs} ms`)));
    } catch (error) {
      if (!retryOnPrimary(error)) throw error;
      if (error instanceof DatabaseUnavailableError) this.set(replica, 'unavailable', replica.lagMs, reasonOf(error));
      return work(this.primary);
    }
  }

  /** One round of checks; a call while one runs asks for another right after it. */
  private async check(): Promise<void> {
    if (this.closed) return;
    if (this.checking) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.checking = true;
    const primaryAnswered = await this.round().catch(() => false);
    this.checking = false;
    if (this.closed) return;
    // Quickly again while reads wait for a replica to reach a fence; at the usual pace otherwise
    // (and while the primary is away: nothing can be decided without its position).
    const waiting = this.fencesSet < this.fencesAsked || this.replicas.some((r) => r.state === 'ok' && r.replayed < this.fenceLsn);
    const soon = this.again || (primaryAnswered && waiting);
    this.again = false;
    this.timer = setTimeout(() => void this.check(), soon ? CATCH_UP_MS : this.checkMs);
    this.timer.unref();
  }

  private async round(): Promise<boolean> {
    const asked = this.fencesAsked;
    const at = Date.now();
    // Read after the fence() calls counted in `asked`: every write they are about is at or before it.
    const primaryLsn = await within(this.primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn'))
      .then((rows) => parseLsn(rows[0]!.lsn), () => undefined);
    if (primaryLsn !== undefined) {
      this.history.push({ at, lsn: primaryLsn });
      while (this.history.length > HISTORY_MAX || (this.history.length > 1 && this.history[0]!.at < at - HISTORY_MS)) this.history.shift();
      if (asked > this.fencesSet) {
        if (primaryLsn > this.fenceLsn) this.fenceLsn = primaryLsn;
        this.fencesSet = asked;
      }
    }
    await Promise.all(this.replicas.map((r) => this.checkReplica(r, at, primaryLsn)));
    return primaryLsn !== undefined;
  }

  private async checkReplica(r: Replica, at: number, primaryLsn: bigint | undefined): Promise<void> {
    let row: { standby: boolean; replayed: string | null; sinceReplayMs: number | null } | undefined;
    try {
      [row] = await within(r.db.query<NonNullable<typeof row>>(`select pg_is_in_recovery() as standby,
        pg_last_wal_replay_lsn()::text as replayed,
        (extract(epoch from now() - pg_last_xact_replay_timestamp()) * 1000)::float8 as "sinceReplayMs"`));
    } catch (error) {
      return this.set(r, 'unavailable', r.lagMs, reasonOf(error));
    }
    // A server out of recovery (promoted, or a primary named by mistake) may have parted from ours.
    if (!row?.standby) return this.set(r, 'not a standby', undefined);
    r.replayed = row.replayed ? parseLsn(row.replayed) : 0n;
    // Without the primary's position the last lag known stands.
    if (primaryLsn === undefined) return r.lagMs === undefined ? this.set(r, r.state, undefined) : this.set(r, r.lagMs > this.maxLagMs ? 'lagging' : 'ok', r.lagMs);
    const lagMs = this.lagOf(r.replayed, primaryLsn, at, row.sinceReplayMs);
    this.set(r, lagMs > this.maxLagMs ? 'lagging' : 'ok', lagMs);
  }

  /**
   * How old the replica's view may be: nothing when it has replayed the primary's position of now;
   * otherwise the smaller of two bounds, the age of the latest primary position it has replayed and the
   * time since the last commit it replayed (the second alone overstates after an idle spell, the first
   * alone is only as fine as the checks).
   */
  private lagOf(replayed: bigint, primaryLsn: bigint, at: number, sinceReplayMs: number | null): number {
    if (replayed >= primaryLsn) return 0;
    let reached: Sample | undefined;
    for (let i = this.history.length - 1; i >= 0 && !reached; i--) if (this.history[i]!.lsn <= replayed) reached = this.history[i];
    const bounds = [...(reached ? [at - reached.at] : []), ...(sinceReplayMs === null ? [] : [Math.max(0, sinceReplayMs)])];
    return bounds.length > 0 ? Math.min(...bounds) : at - this.history[0]!.at;
  }

  private set(r: Replica, state: Replica['state'], lagMs: number | undefined, reason?: string): void {
    const before = r.state;
    r.state = state;
    r.lagMs = lagMs;
    if (state === before) return;
    const measured = state === 'ok' || state === 'lagging' ? lagMs : undefined;
    this.options.onChange?.({ replica: r.number, at: r.at, state: state === 'ok' ? 'in use' : state, lagMs: measured, reason });
  }
}

function retryOnPrimary(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRY_ON_PRIMARY.has(code);
}

/** What the log says of a failure: the SQLSTATE or socket code, else the message (pg's name no password). */
function reasonOf(error: unknown): string {
  const failure = error instanceof DatabaseUnavailableError && error.cause ? error.cause : error;
  const code = (failure as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : failure instanceof Error ? failure.message : String(failure);
}

function within<T>(work: Promise<T>, ms = CHECK_TIMEOUT_MS, failure = () => new Error(`no answer within ${ms} ms`)): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(failure()), ms);
  });
  work.catch(() => undefined); // a late failure after the timeout is not unhandled
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
