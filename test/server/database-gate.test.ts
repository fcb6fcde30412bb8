/**
 * The queue in front of the database for requests other than searches (issue 29 item 4): past
 * DB_MAX_CONCURRENT and DB_QUEUE_MAX a page the page cache does not hold is answered 503 with
 * Retry-After at once; cached pages, static files and liveness are never queued.
 */
import t from 'tap';
import { build, testDb } from '../helpers/build.ts';
import type { Db } from '../../server/db/driver.ts';

/** Waits for a state of the app with a generous deadline (a loaded machine is slow, never this slow). */
async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * Keeps every read of the content waiting in the database: a transaction holds exclusive locks on the
 * content tables until `release()` (on PGlite, whose one session runs one transaction at a time, the
 * open transaction alone holds everything behind it).
 */
async function holdContent(db: Db) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const done = db.transaction(async (tx) => {
    await tx.query('lock table content_routes, content_entries in access exclusive mode');
    locked();
    await released;
  });
  await isLocked;
  return { release: async () => { release(); await done; } };
}

t.test('pages past the bound are answered 503 at once; cached pages and static files are not', async (t) => {
  const db = await testDb(t);
  const app = await build(t, { db, env: { DB_MAX_CONCURRENT: '1', DB_QUEUE_MAX: '0', OVERLOAD_RETRY_AFTER_S: '7' } });
  const paths = (await db.query<{ path: string }>('select distinct path from content_routes order by path limit 8')).map((r) => r.path);
  t.ok(paths.length >= 4, `pages to ask for: ${paths.join(' ')}`);
  const [cachedPath, heldPath, ...others] = paths as [string, string, ...string[]];
  const cachedPage = await app.inject(cachedPath);
  t.equal(cachedPage.statusCode, 200, 'rendered once: kept by the page cache');
  const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(cachedPage.body)?.[1];
  t.ok(stylesheet, 'the page links its stylesheet');

  const hold = await holdContent(db);
  const held = app.inject(heldPath);
  await until(() => app.databaseGate.active === 1, 'the held page to take the one place');

  for (const res of await Promise.all([...others, '/no/such/page'].map((path) => app.inject(path)))) {
    t.equal(res.statusCode, 503, 'shed at once, not queued behind the held page');
    t.equal(res.headers['retry-after'], '7');
    t.equal(res.headers['cache-control'], 'no-store');
    t.match(res.body, 'The help centre is busy');
    t.notMatch(res.body, /gate|database|queue/i, 'no internals');
  }
  t.equal((await app.inject(cachedPath)).statusCode, 200, 'a page the page cache holds is answered');
  t.equal((await app.inject(stylesheet!)).statusCode, 200, 'a static file is answered');
  t.equal((await app.inject('/healthz')).statusCode, 200, 'liveness answers');
  t.equal(app.databaseGate.active, 1, 'the held page keeps its place');

  await hold.release();
  const heldStatus = (await held).statusCode;
  // PostgreSQL's statement time limit (3 s) counts the wait for the lock: on a slow machine the held
  // page may be answered 503 by it instead, which is still a clean answer (not the queue shedding it).
  if (db.engine === 'pglite') t.equal(heldStatus, 200, 'the request already in progress is answered, not shed');
  else t.ok(heldStatus === 200 || heldStatus === 503, `the request already in progress is answered (${heldStatus})`);
  await until(() => app.databaseGate.active === 0, 'the place to be given back');
  t.equal((await app.inject(others[0]!)).statusCode, 200, 'served again once the database frees up');
});

t.test('every answer gives its place back: a page, a 404, a refused query', async (t) => {
  const db = await testDb(t);
  const app = await build(t, { db, env: { DB_MAX_CONCURRENT: '1', DB_QUEUE_MAX: '0' } });
  const [path] = (await db.query<{ path: string }>('select path from content_routes order by path desc limit 1')).map((r) => r.path);
  for (const url of ['/search-results?page=x', '/no/such/page', path!, '/version-switch?entry=nope']) await app.inject(url);
  t.equal(app.databaseGate.active, 0);
  t.equal(app.databaseGate.queued, 0);
});
