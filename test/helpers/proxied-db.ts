import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { build } from './build.ts';
import { openDb, type Db } from '../../server/db/driver.ts';
import { tcpProxy, type TcpProxy } from './tcp-proxy.ts';

type Test = { teardown: (fn: () => unknown) => void };

export interface ProxiedDb {
  /** The app's database, reached through the proxy. */
  db: Db;
  proxy: TcpProxy;
  /** A direct connection to the same database, which the proxy never cuts (to look and to kill). */
  direct: pg.Client;
  name: string;
}

/**
 * A new database on the DATABASE_URL server (dropped afterwards), opened through a TCP proxy the test
 * can cut. The caller checks DATABASE_URL is set.
 */
export async function proxiedDb(t: Test, url = process.env.DATABASE_URL as string): Promise<ProxiedDb> {
  const name = `signpost_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const proxy = await tcpProxy(dbUrl.toString());
  const db = await openDb({ databaseUrl: proxy.url, pgliteDir: '' });
  const direct = new pg.Client({ connectionString: dbUrl.toString() });
  await direct.connect();
  t.teardown(async () => {
    await db.close().catch(() => undefined);
    await direct.end().catch(() => undefined);
    await proxy.close();
    const cleanup = new pg.Client({ connectionString: url });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  });
  return { db, proxy, direct, name };
}

/** Polls `check` until it returns a value other than undefined, or fails after `ms`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The backend pid of the app's LISTEN connection, if it is connected. */
export async function listenerPid(direct: pg.Client, name: string): Promise<number | undefined> {
  const { rows } = await direct.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = $1 and query ilike 'listen%' and pid <> pg_backend_pid()`, [name]);
  return rows[0]?.pid;
}

/**
 * The whole app on `db`, registered without encapsulation so the test can watch its content store
 * (caches dropped) and kept page copies; otherwise as build() in build.ts.
 */
export function buildOpen(t: Test, db: Db, env: Record<string, string> = {}): Promise<FastifyInstance> {
  // Fault tests post from one client far faster than the per-client rate limit allows.
  return build(t, { db, env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL || 'silent', RATE_LIMIT_MAX: '1000000', ...env } });
}

/**
 * Posts was-this-helpful answers to a page with its form token, each from an established visitor (a
 * signed cookie of its own); idOf gives the visitor id a post's row is stored under.
 */
export async function feedbackPoster(app: FastifyInstance, page: string, entryId: string) {
  const token = /name="_csrf" value="([^"]+)"/.exec((await app.inject(page)).body)?.[1] ?? '';
  const ids = new Map<string, string>();
  const post = (label: string) => {
    const visitor = app.visitorIds.create();
    ids.set(label, visitor.id);
    return app.inject({
      method: 'POST', url: '/feedback',
      payload: new URLSearchParams({ _csrf: token, entryId, returnTo: page, helpful: 'yes' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'localhost', cookie: `sp_visitor=${visitor.cookie}` },
    }).then((r) => r);
  };
  return Object.assign(post, { idOf: (label: string) => ids.get(label) ?? label });
}
