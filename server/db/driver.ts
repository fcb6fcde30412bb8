import { join } from 'node:path';
import { Listener, quoteIdent, type ListenOptions } from './listener.ts';
import { openPglite, type PgliteEvents } from './pglite.ts';
import { classify, DatabaseUnavailableError } from './unavailable.ts';

export { quoteIdent, type ListenOptions };

/** Anything SQL can be sent to: the database itself or an open transaction. */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** The one driver seam: PGlite in a worker thread by default, a PostgreSQL server with DATABASE_URL. */
export interface Db extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Calls `onMessage` for each NOTIFY on the channel until the returned function is called. On
   * PostgreSQL the connection comes back by itself after it drops, then `onReconnect` runs; with PGlite
   * the same happens when its worker thread dies and a new one opens the database.
   */
  listen(channel: string, onMessage: (payload: string) => void, options?: ListenOptions): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /**
   * PGlite only: closes the database and opens it again, giving back the memory a large import grew it
   * to. Requests made meanwhile wait for it; none fails.
   */
  reopen?(): Promise<void>;
}

export interface DbOptions {
  /** postgres://… selects a PostgreSQL server; otherwise PGlite is used. */
  databaseUrl?: string | undefined;
  /**
   * PGlite data directory; `memory://` keeps the database in memory (tests and benchmarks; a worker
   * that dies takes an in-memory database with it, and its replacement starts empty).
   */
  pgliteDir: string;
  /** PostgreSQL's shared_buffers for PGlite, in MB (PGlite's default when not given). */
  pgliteSharedBuffersMb?: number | undefined;
  /** What happens to PGlite's worker thread, for the log. */
  pglite?: PgliteEvents;
  /** With `memory://`: a data directory (`PgliteDb.dump()`) the database starts as. */
  pgliteTemplate?: Uint8Array;
}

export async function openDb(options: DbOptions): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.pgliteDir, options.pglite, options.pgliteTemplate, { sharedBuffersMb: options.pgliteSharedBuffersMb });
}

export function pgliteDirFor(dataDir: string): string {
  return join(dataDir, 'pglite');
}

/**
 * How long a request waits for a connection before it is told the database is unavailable (a 503),
 * rather than hanging while the server is away.
 */
export const CONNECT_TIMEOUT_MS = 5000;
/** TCP keep-alive notices a server that vanished without closing the connection. */
const KEEPALIVE_DELAY_MS = 10_000;

type PgQueryable = { query: (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }> };

/**
 * A pool on a PostgreSQL server. `checkAtStart: false` (read replicas) opens it without a first query:
 * a replica that is down must not stop the instance, which reads from the primary meanwhile.
 * `queryTimeoutMs` (read replicas) fails a statement with no answer in that time as unavailable and
 * closes its connection: a server that hangs (stopped, wedged, a network that drops packets) keeps
 * acknowledging TCP, so neither keep-alive nor a reset would ever free it.
 */
export async function openPostgres(url: string, options: { checkAtStart?: boolean; queryTimeoutMs?: number | undefined } = {}): Promise<Db> {
  const { default: pg } = await import('pg');
  const settings = {
    connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true, keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  };
  const pool = new pg.Pool({
    ...settings, max: Number(process.env.DATABASE_POOL_SIZE || 10),
    ...(options.queryTimeoutMs ? { query_timeout: options.queryTimeoutMs } : {}),
  });
  pool.on('error', () => {
    // An idle client lost its connection: the pool has removed it and opens a new one on next use.
  });
  // Fail fast at start-up with the server's own message when it is unreachable.
  if (options.checkAtStart !== false) await pool.query('select 1');
  // Connection failures become DatabaseUnavailableError (a 503); pool.query releases a client whose
  // query failed with an error, so a dead connection never goes back to the pool.
  const asQueryable = (client: PgQueryable): Queryable => ({
    async query<R>(sql: string, params: unknown[] = []) {
      try {
        return (await client.query(sql, params)).rows as R[];
      } catch (error) {
        throw classify(error);
      }
    },
    async exec(sql: string) {
      try {
        await client.query(sql);
      } catch (error) {
        throw classify(error);
      }
    },
  });
  const listeners = new Set<Listener>();
  return {
    engine: 'postgres',
    ...asQueryable(pool),
    async transaction(work) {
      const client = await pool.connect().catch((error: unknown) => {
        throw classify(error);
      });
      // A checked-out client has no 'error' listener of the pool's: without this one, a connection
      // dropped mid-transaction would be an unhandled 'error' event and end the process.
      let broken: Error | undefined;
      const onError = (error: Error) => {
        broken = error;
      };
      client.on('error', onError);
      try {
        await client.query('begin');
        const result = await work(asQueryable(client));
        await client.query('commit');
        return result;
      } catch (error) {
        const failure = classify(error);
        // A connection that failed is never asked for a rollback (a query sent on a closing connection may
        // wait for ever) nor handed out again: it is released with the failure, and the pool drops it.
        if (failure instanceof DatabaseUnavailableError) broken ??= failure;
        if (!broken) await client.query('rollback').catch((e: Error) => { broken = e; });
        throw failure;
      } finally {
        // Released with an error (or with its connection dead), the pool closes the client instead of
        // handing it out again.
        client.release(broken);
        client.off('error', onError);
      }
    },
    async listen(channel, onMessage, options = {}) {
      const listener = new Listener({ ...options, channel, onMessage, newClient: () => new pg.Client(settings) });
      await listener.start();
      listeners.add(listener);
      return async () => {
        listeners.delete(listener);
        await listener.stop();
      };
    },
    async close() {
      await Promise.all([...listeners].map((l) => l.stop()));
      listeners.clear();
      await pool.end();
    },
  };
}
