/**
 * PGlite runs in a worker thread behind the `Db` seam (DESIGN "Running safely"): the event loop keeps
 * turning while a statement runs, transactions keep PGlite's isolation, errors and values come back as
 * in-process, and a worker that dies is replaced without a restart of the server.
 */
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDb, pgliteDirFor, type Db } from '../../server/db/driver.ts';
import { migrate } from '../../server/db/migrate.ts';
import { PgliteDb } from '../../server/db/pglite.ts';
import { DatabaseUnavailableError } from '../../server/db/unavailable.ts';
import { build } from '../helpers/build.ts';
import { ROOT, tempDataDir } from '../helpers/server-process.ts';

// One in-memory database for the tests that do not stop or close it (each uses its own tables).
const shared = await openDb({ pgliteDir: 'memory://' });
t.teardown(() => shared.close());

const settledYet = async (p: Promise<unknown>) => {
  let settled = false;
  p.then(() => (settled = true), () => (settled = true));
  await new Promise((r) => setTimeout(r, 50));
  return settled;
};

const until = async (what: string, check: () => Promise<boolean> | boolean, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

t.test('a long statement does not stall the event loop', async (t) => {
  const db = shared;
  await db.query('select 1');
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const started = performance.now();
  await db.query('select pg_sleep(1.5)');
  const took = performance.now() - started;
  clearInterval(timer);
  delay.disable();
  // In-process, the loop would stand still for the whole statement: no tick, one delay as long as it.
  // The bounds leave room for a busy machine that deschedules this thread now and then.
  t.ok(took >= 1400, `the statement ran in the worker (${Math.round(took)} ms)`);
  // Counts, not rates: a machine under load fires fewer ticks, but an in-process statement fires none.
  t.ok(ticks >= 3, `timers kept firing meanwhile (${ticks} ticks of 10 ms)`);
  t.ok(delay.max / 1e6 < took * 0.9, `the longest event-loop delay was ${Math.round(delay.max / 1e6)} ms, not the statement's`);
});

t.test('values keep their types both ways', async (t) => {
  const db = shared;
  const when = new Date('2024-05-06T07:08:09.123Z');
  const [row] = await db.query<Record<string, unknown>>(
    `select $1::timestamptz as at, $2::jsonb as doc, array['a', 'b'] as list, '\\x0102'::bytea as bytes,
            3::int as n, null::text as nothing, true as yes`,
    [when, JSON.stringify({ a: [1, { b: 'c' }] })],
  );
  t.ok(row?.at instanceof Date, 'timestamptz is a Date');
  t.equal((row?.at as Date).toISOString(), when.toISOString(), 'a Date parameter goes in as it was');
  t.same(row?.doc, { a: [1, { b: 'c' }] }, 'JSON comes back parsed');
  t.same(row?.list, ['a', 'b'], 'arrays are arrays');
  t.ok(row?.bytes instanceof Uint8Array, 'bytea is bytes');
  t.same([...(row?.bytes as Uint8Array)], [1, 2]);
  t.equal(row?.n, 3);
  t.equal(row?.nothing, null);
  t.equal(row?.yes, true);
});

t.test('bytes go in and come back whole, alone and in arrays', async (t) => {
  const all = Uint8Array.from({ length: 256 }, (_, i) => i);
  // A view into a larger buffer: only its own bytes are sent.
  const part = Buffer.from(all.buffer).subarray(10, 20);
  const [row] = await shared.query<{ one: Uint8Array; many: Uint8Array[]; n: number }>(
    'select $1::bytea as one, $2::bytea[] as many, octet_length($3::bytea) as n', [all, [part, new Uint8Array()], part]);
  t.same([...(row?.one ?? [])], [...all], 'every byte value');
  t.same(row?.many.map((b) => [...b]), [[...part], []], 'bytea[] element by element');
  t.equal(row?.n, 10);
});

t.test('SQL errors come back with PostgreSQL\'s fields', async (t) => {
  const db = shared;
  await db.exec('create table items (id int primary key, name text not null)');
  await db.query('insert into items values (1, $1)', ['one']);
  const unique = await db.query('insert into items values (1, $1)', ['again']).catch((e: unknown) => e);
  t.ok(unique instanceof Error, 'an Error');
  t.match(unique, { code: '23505', constraint: 'items_pkey', table: 'items', severity: 'ERROR', detail: /Key \(id\)=\(1\) already exists/ });
  t.match((unique as Error).message, /duplicate key value violates unique constraint "items_pkey"/);
  const syntax = await db.query('select * form items').catch((e: unknown) => e);
  t.match(syntax, { code: '42601', position: '10' }, 'syntax errors say where');
  const inTx = await db.transaction(async (tx) => tx.query('insert into items values (2, null)')).catch((e: unknown) => e);
  t.match(inTx, { code: '23502', column: 'name' }, 'inside a transaction too');
  t.same(await db.query('select id from items order by id'), [{ id: 1 }], 'and that transaction was rolled back');
  const exec = await db.exec('select 1; select nope').catch((e: unknown) => e);
  t.match(exec, { code: '42703' }, 'exec reports the failing statement\'s error');
  t.same(await db.query('select 1 as ok'), [{ ok: 1 }], 'the database answers after errors');
});

t.test('transactions: isolation, commit and rollback', async (t) => {
  const db = shared;
  await db.exec('create table notes (id int primary key)');

  let outside: Promise<{ n: number }[]> | undefined;
  let waited = false;
  await db.transaction(async (tx) => {
    await tx.query('insert into notes values (1)');
    outside = db.query<{ n: number }>('select count(*)::int as n from notes');
    // A statement from outside waits for the transaction, as PGlite does in-process (one session).
    waited = !(await settledYet(outside));
    t.same(await tx.query('select count(*)::int as n from notes'), [{ n: 1 }], 'the transaction sees its own row');
    await tx.query('insert into notes values (2)');
  });
  t.ok(waited, 'the outside statement waited while the transaction was open');
  t.same(await outside, [{ n: 2 }], 'and then saw the committed rows, never a part of them');

  const boom = new Error('boom');
  const failed = await db.transaction(async (tx) => {
    await tx.query('insert into notes values (3)');
    throw boom;
  }).catch((e: unknown) => e);
  t.equal(failed, boom, 'the work\'s own error comes back');
  t.same(await db.query('select id from notes order by id'), [{ id: 1 }, { id: 2 }], 'its row was rolled back');

  const value = await db.transaction(async (tx) => {
    await tx.query('insert into notes values (4)');
    return 'done';
  });
  t.equal(value, 'done', 'the work\'s value comes back');

  // Two transactions asked for at once run one after the other.
  const order: string[] = [];
  await Promise.all(['a', 'b'].map((name, i) => db.transaction(async (tx) => {
    order.push(`${name} begin`);
    await tx.query('insert into notes values ($1)', [10 + i]);
    await new Promise((r) => setTimeout(r, 30));
    order.push(`${name} end`);
  })));
  t.same(order, ['a begin', 'a end', 'b begin', 'b end'], 'transactions never interleave');

  let kept: { query: Db['query'] } | undefined;
  await db.transaction(async (tx) => {
    kept = tx;
  });
  const late = await kept?.query('select 1').catch((e: unknown) => e);
  t.match(late, { message: /Transaction is closed/ }, 'a transaction used after it ended is refused');
});

t.test('listen and notify', async (t) => {
  const db = shared;
  const heard: string[] = [];
  const unlisten = await db.listen('changes', (payload) => heard.push(payload));
  await db.query(`select pg_notify('changes', 'one')`);
  await db.transaction(async (tx) => {
    await tx.query(`select pg_notify('changes', 'two')`);
  });
  await db.transaction(async (tx) => {
    await tx.query(`select pg_notify('changes', 'never')`);
    throw new Error('rolled back');
  }).catch(() => undefined);
  await db.query(`select pg_notify('elsewhere', 'other channel')`);
  await until('the notifications', () => heard.length >= 2);
  await unlisten();
  await db.query(`select pg_notify('changes', 'after unlisten')`);
  await db.query('select 1');
  t.same(heard, ['one', 'two'], 'committed notifications on the channel, nothing else');
});

/** A database in a data directory with a table `kept`, listening on 'changes': what it heard, and its connection events. */
async function listeningDb(t: Test) {
  const db = await openDb({ pgliteDir: pgliteDirFor(await tempDataDir(t)) });
  t.teardown(() => db.close());
  if (!(db instanceof PgliteDb)) throw new Error('expected PGlite');
  await db.exec('create table kept (id int)');
  const events: string[] = [];
  const heard: string[] = [];
  await db.listen('changes', (payload) => heard.push(payload), {
    onDisconnect: () => events.push('disconnect'),
    onReconnect: () => events.push('reconnect'),
  });
  return { db, events, heard };
}

t.test('a worker that dies: its requests get DatabaseUnavailableError and a new worker takes over', async (t) => {
  const { db, events, heard } = await listeningDb(t);
  await db.query('insert into kept values (1)');

  const first = db.worker;
  const slow = db.query('select pg_sleep(5)').catch((e: unknown) => e);
  const queued = db.transaction((tx) => tx.query('select 1')).catch((e: unknown) => e);
  await until('the requests to reach the worker', () => db.busy >= 2);
  await first?.terminate();
  t.ok(await slow instanceof DatabaseUnavailableError, 'the running statement fails as unavailable (a 503)');
  t.ok(await queued instanceof DatabaseUnavailableError, 'so does a transaction waiting behind it');

  await until('a new worker', async () => (await db.query('select 1 as ok').catch(() => [])).length === 1);
  t.not(db.worker, first, 'another worker serves');
  t.same(await db.query('select id from kept'), [{ id: 1 }], 'with the data on disk');
  await until('the listener to be back', () => events.includes('reconnect'));
  t.same(events, ['disconnect', 'reconnect'], 'listeners hear they may have missed a notification');
  await db.query(`select pg_notify('changes', 'after')`);
  await until('the notification', () => heard.length > 0);
  t.same(heard, ['after'], 'and hear new ones');
});

t.test('the app answers 503 while the worker is replaced, then serves again', async (t) => {
  const dataDir = await tempDataDir(t);
  const db = await openDb({ pgliteDir: pgliteDirFor(dataDir) });
  t.teardown(() => db.close());
  if (!(db instanceof PgliteDb)) throw new Error('expected PGlite');
  await migrate(db);
  const app = await build(t, { db });
  const search = (query: string) => app.inject({ method: 'POST', url: '/gateway/api/help-content/v2/search', payload: { query } });

  const slow = db.query('select pg_sleep(5)').catch(() => undefined);
  const answer = search('widget during restart');
  await until('the search to reach the worker', () => db.busy >= 2);
  await db.worker?.terminate();
  const res = await answer;
  await slow;
  t.equal(res.statusCode, 503, 'a clean 503');
  t.ok(res.headers['retry-after'], 'with Retry-After');
  t.notMatch(res.body, /worker|exit code|PGlite/i, 'and nothing of the cause');

  await until('the search to answer again', async () => (await search('widget after restart')).statusCode === 200);
  t.equal((await app.inject('/readyz')).statusCode, 200, 'ready again');
});

t.test('reopen: a new worker opens the database; open work finishes first, work sent meanwhile waits and none fails', async (t) => {
  const { db, events, heard } = await listeningDb(t);

  const first = db.worker;
  let reopened: Promise<void> | undefined;
  let meanwhile: Promise<unknown>[] = [];
  await db.transaction(async (tx) => {
    await tx.query('insert into kept values (1)');
    reopened = db.reopen();
    t.equal(db.reopen(), reopened, 'a second call joins the reopen under way');
    meanwhile = [
      db.query<{ n: number }>('select count(*)::int as n from kept'),
      db.transaction((other) => other.query('insert into kept values (2) returning id')),
      db.query(`select pg_notify('changes', 'meanwhile')`),
    ];
    t.notOk(await settledYet(Promise.race(meanwhile)), 'requests sent meanwhile wait');
    t.equal(db.worker, first, 'the open transaction keeps its worker');
    await tx.query('insert into kept values (3)');
  });
  await reopened;
  const [count, inserted] = await Promise.all(meanwhile);
  t.not(db.worker, first, 'a new worker serves');
  t.same(count, [{ n: 2 }], 'a request sent meanwhile runs after the open transaction committed');
  t.same(inserted, [{ id: 2 }], 'a transaction begun meanwhile runs on the new worker');
  t.same(await db.query('select id from kept order by id'), [{ id: 1 }, { id: 2 }, { id: 3 }], 'everything is kept');
  await until('the notification', () => heard.length > 0);
  t.same(heard, ['meanwhile'], 'listeners keep hearing, on the new worker');
  t.same(events, [], 'and lost nothing: no disconnect to report');

  const memory = await openDb({ pgliteDir: 'memory://' });
  t.teardown(() => memory.close());
  const worker = (memory as PgliteDb).worker;
  await (memory as PgliteDb).reopen();
  t.equal((memory as PgliteDb).worker, worker, 'an in-memory database is not reopened (it would be lost)');
});

t.test('close during a reopen: work sent is answered or refused as unavailable, the lock is released', async (t) => {
  const dir = pgliteDirFor(await tempDataDir(t));
  const db = await openDb({ pgliteDir: dir }) as PgliteDb;
  const reopened = db.reopen();
  const held = db.query('select 1 as ok').catch((e: unknown) => e);
  const closed = db.close();
  await Promise.all([reopened, closed]);
  const answer = await held;
  t.ok(answer instanceof DatabaseUnavailableError || JSON.stringify(answer) === '[{"ok":1}]', 'the held request settles');
  t.notOk(existsSync(`${dir}.lock`), 'the lock is released');
  t.equal(db.worker, undefined, 'no worker is left');
});

t.test('close: work sent finishes, later work is refused, the lock is released', async (t) => {
  const dir = pgliteDirFor(await tempDataDir(t));
  const db = await openDb({ pgliteDir: dir });
  await db.exec('create table done (id int)');
  let closed: Promise<void> | undefined;
  const committed = db.transaction(async (tx) => {
    await tx.query('insert into done values (1)');
    closed = db.close();
    // The open transaction still finishes its statements.
    await tx.query('insert into done values (2)');
  });
  const sentBefore = db.query('select 1 as ok');
  await committed;
  t.same(await sentBefore, [{ ok: 1 }], 'a statement sent before close is answered');
  const refused = await db.query('select 1').catch((e: unknown) => e);
  t.ok(refused instanceof DatabaseUnavailableError, 'a statement after close is refused as unavailable');
  await closed;
  t.notOk(existsSync(`${dir}.lock`), 'the lock is released');
  t.equal((db as PgliteDb).worker, undefined, 'the worker is gone');
  const again = await openDb({ pgliteDir: dir });
  t.same(await again.query('select id from done order by id'), [{ id: 1 }, { id: 2 }], 'the transaction committed before the close');
  await again.close();
});

t.test('a script that forgets to close still ends', async (t) => {
  const child = spawn(process.execPath, ['--import', 'tsx', '-e',
    `const { openDb } = await import(${JSON.stringify(join(ROOT, 'server/db/driver.ts'))});
     const db = await openDb({ pgliteDir: 'memory://' }); console.log(JSON.stringify(await db.query('select 2 as n')));`],
  { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  // Only a guard against a hang: a loaded machine takes tens of seconds to start PGlite.
  const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
  const code = await new Promise((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  t.equal(code, 0, 'exits by itself');
  t.match(out, '[{"n":2}]', 'after its query was answered');
});

t.test('the buffer cache is PGLITE_SHARED_BUFFERS_MB, 16 MB unless set; a bad value stops start-up naming it', async (t) => {
  const { loadConfig } = await import('../../server/config.ts');
  t.equal(loadConfig({}).pgliteSharedBuffersMb, 16);
  t.equal(loadConfig({ PGLITE_SHARED_BUFFERS_MB: '64' }).pgliteSharedBuffersMb, 64);
  for (const bad of ['0', 'lots', '4096']) t.throws(() => loadConfig({ PGLITE_SHARED_BUFFERS_MB: bad }), { message: /PGLITE_SHARED_BUFFERS_MB/ }, bad);
  const small = await openDb({ pgliteDir: 'memory://', pgliteSharedBuffersMb: 8 });
  t.teardown(() => small.close());
  t.same(await small.query(`select current_setting('shared_buffers') as size`), [{ size: '8MB' }], 'the worker starts PostgreSQL with it');
  t.same(await shared.query(`select current_setting('shared_buffers') as size`), [{ size: '128MB' }], "without it, PGlite's own default");
});
