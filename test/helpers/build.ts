import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { loadConfig, trustProxyOption } from '../../server/config.ts';
import { openDb, type Db } from '../../server/db/driver.ts';
import { migrate } from '../../server/db/migrate.ts';
import { migrations } from '../../server/db/migrations.ts';
import type { PgliteDb } from '../../server/db/pglite.ts';
import { DatabaseUnavailableError } from '../../server/db/unavailable.ts';
import app, { serverOptions, type AppOptions } from '../../server/app.ts';
import { loggerOptions } from '../../server/logger.ts';
import { compressedForms, keepCompressedForms } from '../../server/plugins/assets.ts';
import { compress, compressAll } from '../../server/http/encoding.ts';

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
    const db = idle.pop() ?? (await freshPglite());
    t.teardown(() => giveBack(db));
    await migrate(db);
    return db;
  }
  const testUrl = await scratchDatabase(t, url, 'signpost_test', await migratedPgTemplate(url));
  const db = await openDb({ databaseUrl: testUrl, pgliteDir: '' });
  // Closed before the database is dropped (teardowns run last-registered first).
  t.teardown(() => db.close());
  await migrate(db);
  return db;
}

/**
 * In-memory databases of tests that have ended, emptied, for the next test of the process: starting
 * PGlite costs seconds of CPU even from the template, emptying its tables a few milliseconds.
 */
const idle: PgliteDb[] = [];
/** What the migrations made (tables, columns, functions, indexes, sequences, views), to compare against. */
const SCHEMA_FINGERPRINT = `select md5(coalesce(string_agg(x, ',' order by x), '')) as fingerprint from (
  select 'c:' || table_name || '.' || column_name || ':' || data_type || ':' || coalesce(column_default, '') as x
    from information_schema.columns where table_schema = 'public'
  union all select 'f:' || p.oid::regprocedure::text || ':' || md5(p.prosrc)
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'
  union all select 'i:' || indexdef from pg_indexes where schemaname = 'public'
  union all select 's:' || sequencename from pg_sequences where schemaname = 'public'
  union all select 'v:' || viewname || ':' || md5(definition) from pg_views where schemaname = 'public'
  union all select 't:' || tgname from pg_trigger t join pg_class c on c.oid = t.tgrelid
    join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and not t.tgisinternal
) parts`;
const EMPTY_TABLES = `do $$
declare
  tables text;
  sequence record;
begin
  select string_agg(format('%I', tablename), ', ') into tables from pg_tables
    where schemaname = 'public' and tablename <> 'schema_migrations';
  if tables is not null then
    execute 'truncate table ' || tables || ' restart identity cascade';
  end if;
  for sequence in select sequencename from pg_sequences where schemaname = 'public' loop
    execute format('alter sequence %I restart', sequence.sequencename);
  end loop;
end $$`;
let fingerprint: Promise<string> | undefined;

/**
 * A new in-memory database from the migrated template. The first of a process also gives the schema's
 * fingerprint, taken before any test has touched it: cheaper than opening another database for it later.
 */
async function freshPglite(): Promise<PgliteDb> {
  const db = await openDb({ pgliteDir: 'memory://', pgliteTemplate: await migratedTemplate() }) as PgliteDb;
  fingerprint ??= db.query<{ fingerprint: string }>(SCHEMA_FINGERPRINT).then((rows) => rows[0]!.fingerprint);
  await fingerprint;
  return db;
}

/**
 * Empties a database a test has finished with and keeps it for the next one, when it is as the
 * migrations left it (a test may have closed it, changed its schema or left it busy): otherwise it is
 * closed. A database that does not answer within the limit is closed too.
 */
async function giveBack(db: PgliteDb): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const reset = async () => {
    if (db.busy > 0) return false;
    await db.exec('unlisten *; reset all; select pg_advisory_unlock_all()');
    if (!fingerprint) return false;
    const [now] = await db.query<{ fingerprint: string }>(SCHEMA_FINGERPRINT);
    if (now?.fingerprint !== (await fingerprint)) return false;
    await db.exec(EMPTY_TABLES);
    return true;
  };
  const kept = await Promise.race([
    reset().catch(() => false),
    new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), 10_000))),
  ]);
  clearTimeout(timer);
  if (kept) idle.push(db);
  else await db.close();
}

/**
 * What the migrated templates depend on: the migrations this process runs (as loaded, not as the files
 * on disk now, which may have been edited since the tests were built) and, for PGlite, its version.
 */
async function migrationsHash(files: string[]): Promise<string> {
  const root = join(import.meta.dirname, '../..');
  const hash = createHash('sha256');
  hash.update(JSON.stringify(migrations.map((m) => [m.version, m.sql])));
  hash.update(migrate.toString());
  for (const file of files) hash.update(await readFile(join(root, file)));
  return hash.digest('hex').slice(0, 16);
}

const pgTemplates = new Map<string, Promise<string>>();

/**
 * A database on the PostgreSQL server with every migration applied, made once per server and kept,
 * named by the migrations' hash: each test's database is a copy of it (`create database … template`,
 * a fraction of a second) instead of running the migrations again. Made under an advisory lock and
 * renamed into place once complete, so concurrent test processes wait for it and never copy half of it.
 */
function migratedPgTemplate(url: string): Promise<string> {
  let made = pgTemplates.get(url);
  if (!made) {
    made = (async () => {
      const name = `signpost_tpl_${await migrationsHash([])}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        await admin.query("select pg_advisory_lock(hashtext('signpost migrated test template'))");
        const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
        if (found.rowCount === 0) {
          const partial = `${name}_partial`;
          await admin.query(`drop database if exists ${partial} with (force)`);
          await admin.query(`create database ${partial}`);
          const building = new URL(url);
          building.pathname = `/${partial}`;
          const db = await openDb({ databaseUrl: building.toString(), pgliteDir: '' });
          try {
            await migrate(db);
          } finally {
            await db.close();
          }
          await admin.query(`alter database ${partial} rename to ${name}`);
        }
      } finally {
        await admin.end(); // ends the session, and with it the advisory lock
      }
      return name;
    })();
    made.catch(() => pgTemplates.delete(url)); // a failure is not remembered: the next test tries again
    pgTemplates.set(url, made);
  }
  return made;
}

let template: Promise<Uint8Array> | undefined;

/**
 * An in-memory PGlite database with every migration applied, as a data-directory tarball: made once
 * (PGlite's initdb and the migrations take seconds) and kept in the system's temporary folder under a
 * name that changes with the migrations and the PGlite version, so every test process starts its
 * databases from it. Shared memory, so each database's worker reads it without a copy.
 */
function migratedTemplate(): Promise<Uint8Array> {
  template ??= (async () => {
    const file = join(tmpdir(), `signpost-migrated-${await migrationsHash(['node_modules/@electric-sql/pglite/package.json'])}.tar`);
    let tarball = await readFile(file).catch(() => undefined);
    if (!tarball) {
      const db = await openDb({ pgliteDir: 'memory://' });
      try {
        await migrate(db);
        tarball = Buffer.from(await (db as PgliteDb).dump());
      } finally {
        await db.close();
      }
      // Written aside and renamed, so a process starting at the same time never reads half a file.
      const partial = `${file}.${process.pid}`;
      await writeFile(partial, tarball);
      await rename(partial, file);
    }
    const shared = new Uint8Array(new SharedArrayBuffer(tarball.byteLength));
    shared.set(tarball);
    return shared;
  })();
  return template;
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
export async function scratchDatabase(t: Test, url: string, prefix = 'signpost_test', template?: string): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  } finally {
    await admin.end();
  }
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

/**
 * Where the brotli and gzip forms of the files an app prepares at start (islands, stylesheet, content
 * files) are kept for every test process: one file per body, named by the body's SHA-256 (the key of
 * `compressedForms`), in a folder named by how they are made (the compression code and zlib's
 * versions). Brotli at its highest level costs every test process seconds of CPU on the same bytes.
 */
const formsDir = (() => {
  const how = createHash('sha256').update(compress.toString()).update(compressAll.toString())
    .update(`${process.versions.zlib} ${process.versions.brotli}`).digest('hex').slice(0, 16);
  return join(tmpdir(), `signpost-compressed-${how}`);
})();
const formsOnDisk = new Set<string>();
let formsLoaded: Promise<void> | undefined;

/**
 * The kept forms, into this process's `compressedForms` before its first app starts. A form is taken
 * only when it decompresses to bytes of the digest it is filed under, so a damaged file is made again.
 */
function loadCompressedForms(): Promise<void> {
  formsLoaded ??= (async () => {
    const names = await readdir(formsDir).catch(() => [] as string[]);
    // Bodies change as the sources are edited; a folder that has gathered many old ones starts afresh.
    if (names.length > 1024) {
      await rm(formsDir, { recursive: true, force: true });
      return;
    }
    for (const name of names) {
      if (!name.endsWith('.forms')) continue;
      const digest = name.slice(0, -'.forms'.length);
      const file = await readFile(join(formsDir, name)).catch(() => undefined);
      if (!file || file.length < 4) continue;
      const brLength = file.readUInt32BE(0);
      const br = file.subarray(4, 4 + brLength);
      const gzip = file.subarray(4 + brLength);
      try {
        const sha = (body: Buffer) => createHash('sha256').update(body).digest('base64url');
        if (sha(brotliDecompressSync(br)) !== digest || sha(gunzipSync(gzip)) !== digest) continue;
      } catch {
        continue;
      }
      formsOnDisk.add(digest);
      if (!compressedForms.has(digest)) keepCompressedForms(digest, { br: Buffer.from(br), gzip: Buffer.from(gzip) });
    }
  })();
  return formsLoaded;
}

/** Files the forms this process made and the folder does not have yet, each written aside and renamed. */
async function saveCompressedForms(): Promise<void> {
  const made = [...compressedForms].filter(([digest]) => !formsOnDisk.has(digest));
  if (made.length === 0) return;
  await mkdir(formsDir, { recursive: true });
  for (const [digest, { br, gzip }] of made) {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(br.length);
    const file = join(formsDir, `${digest}.forms`);
    const partial = `${file}.${process.pid}`;
    await writeFile(partial, Buffer.concat([length, br, gzip]));
    await rename(partial, file);
    formsOnDisk.add(digest);
  }
}

/** The whole app on a test database, closed when the test ends. */
export async function build(t: Test, options: BuildOptions = {}): Promise<FastifyInstance> {
  await loadCompressedForms();
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
  await saveCompressedForms();
  return server;
}
