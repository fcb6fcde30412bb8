import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDb, type Db } from '../server/db/driver.ts';

export interface BenchDb {
  /** The database; close() may be called early (a server process opens the same PGlite files). */
  db: Db;
  /** The settings a server process needs to open the same database. */
  env: Record<string, string>;
  /** Closes the database if still open and drops it. */
  done: () => Promise<void>;
}

/** Close is safe to call more than once. */
export function closeOnce(db: Db): Db {
  let closing: Promise<void> | undefined;
  const close = db.close.bind(db);
  return Object.assign(db, { close: () => (closing ??= close()) });
}

/** A fresh database for a benchmark: file-backed PGlite, or a new database on DATABASE_URL. */
export async function freshDb(): Promise<BenchDb> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `signpost_bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const db = closeOnce(await openDb({ databaseUrl: target.toString(), pgliteDir: '' }));
    return {
      db,
      env: { DATABASE_URL: target.toString() },
      done: async () => { await db.close(); await admin.query(`drop database ${name} with (force)`); await admin.end(); },
    };
  }
  const dir = await mkdtemp(join(tmpdir(), 'signpost-bench-'));
  const db = closeOnce(await openDb({ pgliteDir: join(dir, 'pglite') }));
  return { db, env: { DATA_DIR: dir }, done: async () => { await db.close(); await rm(dir, { recursive: true, force: true }); } };
}
