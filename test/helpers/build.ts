import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { loadConfig, trustProxyOption } from '../../server/config.ts';
import { openDb, type Db } from '../../server/db/driver.ts';
import { migrate } from '../../server/db/migrate.ts';
import { DatabaseUnavailableError } from '../../server/db/unavailable.ts';
import app, { serverOptions, type AppOptions } from '../../server/app.ts';
import { loggerOptions } from '../../server/logger.ts';

type Test = { teardown: (fn: () => unknown) => void };

export const FIXTURE = join(import.meta.dirname, '../fixtures/minimal');
export const SAMPLE_CONTENT = join(import.meta.dirname, '../../content');
export const PREVIEW_TOKEN = 'preview-token-for-tests-0123456789abcdef';

/**
 * A fresh, migrated database for one test: in-memory PGlite, or with DATABASE_URL a new database
 * on that PostgreSQL server, dropped afterwards.
 */
export async function testDb(t: Test): Promise<Db> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = await openDb({ pgliteDir: 'memory://' });
    t.teardown(() => db.close());
    await migrate(db);
    return db;
  }
  const testUrl = await scratchDatabase(t, url);
  const db = await openDb({ databaseUrl: testUrl, pgliteDir: '' });
  // Closed before the database is dropped (teardowns run last-registered first).
  t.teardown(() => db.close());
  await migrate(db);
  return db;
}

/** The real database, refusing every statement while `down()` says so (as the pool does when the server is away). */
export function failing(db: Db, down: () => boolean): Db {
  return new Proxy(db, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      if (down() && (name === 'query' || name === 'exec' || name === 'transaction')) {
        return () => Promise.reject(new DatabaseUnavailableError(new Error('connect ECONNREFUSED')));
      }
      return value.bind(target);
    },
  });
}

/**
 * A new database on the PostgreSQL server `url` names, dropped when the test ends: its URL.
 */
export async function scratchDatabase(t: Test, url: string, prefix = 'signpost_test'): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const testUrl = new URL(url);
  testUrl.pathname = `/${name}`;
  t.teardown(async () => {
    const cleanup = new pg.Client({ connectionString: url });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  });
  return testUrl.toString();
}

/** A copy of a content tree in a temporary folder, to change without touching the original. */
export async function tempContent(t: Test, from = FIXTURE): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'signpost-content-'));
  await cp(from, dir, { recursive: true });
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Replaces text in a file of a content tree; fails loudly when the text is not there. */
export async function editFile(file: string, from: string | RegExp, to: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`edit did not apply to ${file}`);
  await writeFile(file, next);
}

export interface BuildOptions {
  contentDir?: string;
  db?: Db;
  env?: Record<string, string>;
  /** Where the app's log lines go (the app's own logger options, LOG_LEVEL from env); none by default. */
  logStream?: NodeJS.WritableStream;
  /** The app's clock (form tokens, the page cache's token windows); Date.now by default. */
  clock?: () => number;
  /** Failed sign-in throttling of the embedded identity provider (shorter delays and locks). */
  signInThrottle?: AppOptions['signInThrottle'];
  /** A flag provider instead of the configured one (server/flags/). */
  flagProvider?: AppOptions['flagProvider'];
  /** Adds to the app before it starts (a route of the test's own). */
  extend?: (app: FastifyInstance) => void;
}

/** The whole app on a test database, closed when the test ends. */
export async function build(t: Test, options: BuildOptions = {}): Promise<FastifyInstance> {
  const db = options.db ?? (await testDb(t));
  const config = loadConfig({
    CONTENT_DIR: options.contentDir ?? FIXTURE, PREVIEW_TOKEN, PUBLIC_URL: 'https://help.example.test', LOG_LEVEL: 'silent',
    // A long PGlite statement in one test must not shed the next test's requests (test/server/load-shedding.test.ts turns it on).
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...options.env,
  });
  const logger = options.logStream ? { ...loggerOptions(config.logLevel, options.logStream), stream: options.logStream } : { level: config.logLevel };
  const server = Fastify({ ...serverOptions, logger, trustProxy: trustProxyOption(config.trustProxy) });
  t.teardown(() => server.close());
  await server.register(app, { config, db, clock: options.clock, signInThrottle: options.signInThrottle, flagProvider: options.flagProvider });
  options.extend?.(server);
  await server.ready();
  // The import at start runs in the background; tests expect its content once build() resolves.
  await server.contentReady;
  return server;
}
