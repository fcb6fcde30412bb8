import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDb, type Db } from '../server/db/driver.ts';

/** A fresh database for a benchmark: file-backed PGlite, or a new database on DATABASE_URL; dropped by done(). */
export async function freshDb(): Promise<{ db: Db; done: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const name = `signpost_bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const db = await openDb({ databaseUrl: target.toString(), pgliteDir: '' });
    return { db, done: async () => { await db.close(); await admin.query(`drop database ${name} with (force)`); await admin.end(); } };
  }
  const dir = await mkdtemp(join(tmpdir(), 'signpost-bench-'));
  const db = await openDb({ pgliteDir: join(dir, 'pglite') });
  return { db, done: async () => { await db.close(); await rm(dir, { recursive: true, force: true }); } };
}
