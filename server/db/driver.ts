import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { lockDataDir } from './data-dir-lock.ts';

/** Anything SQL can be sent to: the database itself or an open transaction. */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** The one driver seam: PGlite in-process by default, a PostgreSQL server with DATABASE_URL. */
export interface Db extends Queryable {
  readonly engine: 'pglite' | 'postgres';
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  listen(channel: string, onMessage: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** postgres://… selects a PostgreSQL server; otherwise PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; `memory://` keeps the database in memory (tests). */
  pgliteDir: string;
}

export async function openDb(options: DbOptions): Promise<Db> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.pgliteDir);
}

export function pgliteDirFor(dataDir: string): string {
  return join(dataDir, 'pglite');
}

async function openPglite(dir: string): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  let release = async () => {};
  if (!dir.startsWith('memory://')) {
    mkdirSync(dir, { recursive: true });
    // Every opener takes the directory's lock here, so no caller can forget it (DESIGN "Running safely").
    release = await lockDataDir(dir);
  }
  let pg: InstanceType<typeof PGlite>;
  try {
    pg = await PGlite.create(dir, { extensions: { pg_trgm } });
  } catch (error) {
    await release();
    throw error;
  }
  const wrap = (q: { query: PGliteQuery; exec: (sql: string) => Promise<unknown> }): Queryable => ({
    async query<R>(sql: string, params: unknown[] = []) {
      return (await q.query<R>(sql, params)).rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  const base = wrap(pg);
  return {
    engine: 'pglite',
    ...base,
    transaction: (work) => pg.transaction((tx) => work(wrap(tx))),
    async listen(channel, onMessage) {
      const unsubscribe = await pg.listen(channel, onMessage);
      let stopped = false;
      return async () => {
        if (stopped) return;
        stopped = true;
        await unsubscribe();
      };
    },
    async close() {
      try {
        await pg.close();
      } finally {
        await release();
      }
    },
  };
}
type PGliteQuery = <R>(sql: string, params?: unknown[]) => Promise<{ rows: R[] }>;

async function openPostgres(url: string): Promise<Db> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE || 10) });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on next use.
  });
  // Fail fast at start-up with the server's own message when it is unreachable.
  await pool.query('select 1');
  const asQueryable = (client: { query: (sql: string, params?: unknown[]) => Promise<{ rows: unknown[] }> }): Queryable => ({
    async query<R>(sql: string, params: unknown[] = []) {
      return (await client.query(sql, params)).rows as R[];
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  });
  return {
    engine: 'postgres',
    ...asQueryable(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work(asQueryable(client));
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async listen(channel, onMessage) {
      const client = await pool.connect();
      const handler = (msg: { channel: string; payload?: string }) => {
        if (msg.channel === channel) onMessage(msg.payload ?? '');
      };
      client.on('notification', handler);
      await client.query(`listen ${quoteIdent(channel)}`);
      let stopped = false;
      return async () => {
        if (stopped) return;
        stopped = true;
        client.off('notification', handler);
        await client.query(`unlisten ${quoteIdent(channel)}`).catch(() => undefined);
        client.release();
      };
    },
    close: () => pool.end(),
  };
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
