/**
 * Read replicas (issue 28 item 1): a real PostgreSQL primary and a streaming replica made from it with
 * pg_basebackup -R, started by this file on free ports in a temporary folder and shared by its tests.
 * The replica logs every statement, so a read that reached it is seen there by its parameters.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, chown } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import pg from 'pg';
import { InMemoryProvider } from '@openfeature/server-sdk';
import type { FastifyInstance } from 'fastify';
import { loadConfig, ConfigError } from '../../server/config.ts';
import { openDb } from '../../server/db/driver.ts';
import { migrate } from '../../server/db/migrate.ts';
import { build, editFile, tempContent } from '../helpers/build.ts';
import { feedbackPoster, waitFor } from '../helpers/proxied-db.ts';
import { tcpProxy } from '../helpers/tcp-proxy.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';
import { INSIGHTS_PATH } from '../../server/insights/site-pages.ts';

const run = promisify(execFile);
/** Debian's newest PostgreSQL, as .ci/run picks it. */
const PG_BIN = (() => {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v)) : [];
  return `/usr/lib/postgresql/${versions.sort((x, y) => Number(x) - Number(y)).at(-1) ?? '15'}/bin`;
})();
const PAGE = '/acme-cloud/docs/first-steps';
const ENTRY = 'acme-cloud-first-steps';
const SEARCH = '/gateway/api/help-content/v2/search';
/** Short, so that lagging is seen within seconds; the default is 5 s. */
const MAX_LAG_MS = 1500;

t.test('DATABASE_READ_URL: PostgreSQL URLs, and only with DATABASE_URL', async (t) => {
  const primary = 'postgres://signpost@db:5432/help';
  const config = loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://r1:5432/help, postgres://r2:5432/help' });
  t.same(config.databaseReadUrls, ['postgres://r1:5432/help', 'postgres://r2:5432/help']);
  t.equal(config.databaseReadMaxLagMs, 5000);
  t.equal(config.databaseReadTimeoutMs, 2000);
  t.same(loadConfig({}).databaseReadUrls, []);
  t.throws(() => loadConfig({ DATABASE_READ_URL: 'postgres://r1/help' }), { message: /DATABASE_READ_URL: replicas need DATABASE_URL/ });
  t.throws(() => loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'mysql://r1/help' }), ConfigError);
  t.throws(() => loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://r1/help', DATABASE_READ_MAX_LAG_MS: 'soon' }), { message: /DATABASE_READ_MAX_LAG_MS/ });
  t.throws(() => loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: 'postgres://r1/help', DATABASE_READ_TIMEOUT_MS: '0' }), { message: /DATABASE_READ_TIMEOUT_MS/ });
});

const skip = !process.env.DATABASE_URL ? 'needs PostgreSQL: the replica pair is started from its binaries (run with DATABASE_URL, as CI does)'
  : !existsSync(join(PG_BIN, 'pg_basebackup')) ? `no PostgreSQL binaries in ${PG_BIN}` : false;

t.test('reads from a streaming replica', { skip }, async (t) => {
  const pair = await startPair(t);
  const primaryDb = await openDb({ databaseUrl: pair.primaryUrl, pgliteDir: '' });
  t.teardown(() => primaryDb.close());
  await migrate(primaryDb);
  const content = await tempContent(t);
  // A second replica, away until the last test: the same server through a proxy of the test's, which
  // refuses connections while cut. Reads use the one that is there.
  const second = await tcpProxy(pair.replicaUrl);
  await second.cut();
  const env = {
    LOG_LEVEL: process.env.TEST_LOG_LEVEL || 'silent', DATABASE_URL: pair.primaryUrl, DATABASE_READ_URL: `${pair.replicaUrl},${second.url}`,
    DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS), RATE_LIMIT_MAX: '1000000', SESSION_SECRET, STAFF_EMAIL_DOMAIN: 'fernhollow.example',
  };
  // The assistant for ADA's account, whose passages are read like search.
  const assistantOn = { variants: { on: true, off: false }, defaultVariant: 'on', disabled: false };
  const a = await build(t, { db: primaryDb, contentDir: content, env, flagProvider: new InMemoryProvider({ 'csm-ai-agent-on-sac': assistantOn }) });
  // A second instance on the same pair, to hear the first one's imports by NOTIFY.
  const otherDb = await openDb({ databaseUrl: pair.primaryUrl, pgliteDir: '' });
  t.teardown(() => otherDb.close());
  const b = await build(t, { db: otherDb, contentDir: content, env });
  // Registered after the apps, so it runs before they close (teardowns run last first): a hung
  // connection is reset rather than waited for.
  t.teardown(() => second.close());
  let bDropped = 0;
  b.content.onInvalidate(() => bDropped++);

  const readsFrom = async (app: FastifyInstance) => (await readyz(app)).reads?.from.join(',');
  let probes = 0;
  /** A read no cache answers (a path no page has): true when the replica ran it. */
  const probeReachesReplica = async (app: FastifyInstance) => {
    const path = `/probe-${process.pid}-${++probes}`;
    if ((await app.inject(path)).statusCode !== 404) throw new Error(`${path} did not answer 404`);
    return waitFor('the statement log', async () => ((await pair.replicaLog()).includes(`'${path}'`) ? true : undefined), 5000).catch(() => false);
  };

  t.test('published reads and search go to the replica; /readyz says so, with no address', async (t) => {
    await waitFor('both replicas checked', async () => ((await readsFrom(a)) === 'replica 1' && (await readsFrom(b)) === 'replica 1'
      && (await readyz(a)).reads?.replicas[1]?.state === 'unavailable' ? true : undefined));
    const res = await a.inject('/readyz');
    t.equal(res.statusCode, 200);
    const body = res.json<Ready>();
    t.equal(body.status, 'ready');
    t.same(body.reads?.replicas.map(({ replica, state }) => ({ replica, state })), [{ replica: 1, state: 'in use' }, { replica: 2, state: 'unavailable' }]);
    t.type(body.reads?.replicas[0]?.lagMs, 'number');
    t.notMatch(res.body, new RegExp(`127\\.0\\.0\\.1|${pair.replicaPort}|signpost@`), 'no host, port or user');

    t.ok(await probeReachesReplica(a), 'a page lookup ran on the replica');
    const term = `replicaword${process.pid}`;
    t.equal((await a.inject({ method: 'POST', url: SEARCH, payload: { query: term } })).statusCode, 200);
    await waitFor('the search on the replica', async () => ((await pair.replicaLog()).includes(term) ? true : undefined));
    t.pass('a search ran on the replica');
    const question = `passageword${process.pid}`;
    const asked = await a.inject({ url: `/assistant?q=how+do+I+${question}`, headers: { cookie: sealed(a, ADA) } });
    t.equal(asked.statusCode, 200);
    await waitFor('the passages on the replica', async () => ((await pair.replicaLog()).includes(question) ? true : undefined));
    t.pass('the assistant\'s passages were read on the replica');
    t.equal((await a.inject(PAGE)).statusCode, 200);

    // A standby cannot make the temporary copy of the counts a section's tables share: they read the view.
    t.notMatch(await pair.replicaLog(), 'analytics_counts');
    const staff = sealed(a, { ...ADA, sub: 'acct-sam', email: 'sam@fernhollow.example', name: 'Sam Staff' });
    const insights = await a.inject({ url: `${INSIGHTS_PATH}/pages`, headers: { cookie: staff } });
    t.equal(insights.statusCode, 200);
    t.match(insights.body, 'Pages by views');
    t.match(await pair.replicaLog(), 'analytics_counts', 'insights read on the replica');
  });

  t.test('a content change is read from the primary until the replica has replayed it', async (t) => {
    t.match((await b.inject(PAGE)).body, 'Welcome to Acme.', 'the other instance has the page cached');
    await pair.replica.query('select pg_wal_replay_pause()');
    await editFile(join(content, 'topics/acme-cloud/first-steps.md'), 'Welcome to Acme.', 'Welcome to Acme, now from the new import.');
    const dropped = bDropped;
    t.ok((await a.importContentTree(content)).imported, 'imported on the first instance');
    t.match((await a.inject(PAGE)).body, 'now from the new import', 'the importing instance reads its own import');
    await waitFor('the NOTIFY on the other instance', () => (bDropped > dropped ? true : undefined));
    const [stored] = (await pair.replica.query<{ html: string }>('select html from content_entries where id = $1', [ENTRY])).rows;
    t.notMatch(stored?.html ?? '', 'now from the new import', 'the replica still has the old text');
    t.match((await b.inject(PAGE)).body, 'now from the new import', 'the other instance serves the new text, not the replica\'s old one');
    t.equal(await readsFrom(b), 'primary');
    t.notOk(await probeReachesReplica(b), 'reads stay off the replica while it is behind the import');

    const resumed = performance.now();
    await pair.replica.query('select pg_wal_replay_resume()');
    await waitFor('the replica back in use', async () => ((await readsFrom(b)) === 'replica 1' ? true : undefined));
    t.comment(`reads back on the replica ${Math.round(performance.now() - resumed)} ms after its replay resumed`);
    t.ok(await probeReachesReplica(b), 'reads return to the replica once it has replayed the import');
    t.match((await b.inject(PAGE)).body, 'now from the new import');
  });

  t.test('a replica lagging past DATABASE_READ_MAX_LAG_MS is skipped until it catches up; writes go to the primary', async (t) => {
    await pair.replica.query('select pg_wal_replay_pause()');
    // Writes and what a visitor reads back of them are on the primary, replica or not.
    const post = await feedbackPoster(a, PAGE, ENTRY);
    t.equal((await post('while lagging')).statusCode, 303);
    const rows = async (c: pg.Client) => (await c.query<{ n: number }>('select count(*)::int as n from feedback where entry_id = $1', [ENTRY])).rows[0]?.n;
    t.equal(await rows(pair.primary), 1, 'stored on the primary');
    t.equal(await rows(pair.replica), 0, 'not yet replayed by the replica');

    const lagging = await waitFor('the replica skipped for its lag', async () => {
      const r = (await readyz(a)).reads?.replicas[0];
      return r?.state === 'lagging' ? r : undefined;
    });
    t.ok((lagging.lagMs ?? 0) > MAX_LAG_MS, `lag ${lagging.lagMs} ms measured past the bound`);
    t.equal(await readsFrom(a), 'primary');
    t.notOk(await probeReachesReplica(a), 'reads go to the primary');
    t.equal((await a.inject('/readyz')).statusCode, 200, 'still ready: the primary serves the reads');

    await pair.replica.query('select pg_wal_replay_resume()');
    await waitFor('the replica back in use', async () => ((await readsFrom(a)) === 'replica 1' ? true : undefined));
    t.ok(await probeReachesReplica(a), 'back on the replica');
    // Back in use means within the lag bound, not caught up to the last write: wait for the row itself.
    t.equal(await waitFor('the write replayed', async () => ((await rows(pair.replica)) === 1 ? 1 : undefined), 60_000), 1, 'the write replayed');
  });

  t.test('a replica stopped under load: reads move to the primary, no request fails', async (t) => {
    await waitFor('the replica in use', async () => ((await readsFrom(a)) === 'replica 1' ? true : undefined));
    const statuses = new Map<number, number>();
    let stop = false;
    let n = 0;
    const worker = async () => {
      while (!stop) {
        const i = n++;
        const res = i % 3 === 0 ? await a.inject({ method: 'POST', url: SEARCH, payload: { query: `load ${i} widget` } })
          : i % 3 === 1 ? await a.inject(`/acme-cloud/docs/missing-${i}`)
          : await a.inject(PAGE);
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      }
    };
    const load = Promise.all([worker(), worker(), worker(), worker()]);
    await waitFor('requests under way', () => (n > 20 ? true : undefined));
    const stopped = performance.now();
    await pair.stopReplica();
    await waitFor('the replica skipped', async () => ((await readyz(a)).reads?.replicas[0]?.state === 'unavailable' ? true : undefined));
    t.comment(`replica skipped ${Math.round(performance.now() - stopped)} ms after the stop began`);
    const after = n;
    await waitFor('more requests with the replica gone', () => (n > after + 100 ? true : undefined));
    stop = true;
    await load;
    const failed = [...statuses].filter(([code]) => code >= 500).reduce((sum, [, count]) => sum + count, 0);
    t.equal(failed, 0, `no failed request of ${n} (${JSON.stringify(Object.fromEntries(statuses))})`);
    t.equal(await readsFrom(a), 'primary');
    t.equal((await a.inject('/readyz')).statusCode, 200);

    await pair.startReplica();
    const started = performance.now();
    await waitFor('the replica back in use', async () => ((await readsFrom(a)) === 'replica 1' ? true : undefined), 30_000);
    t.comment(`restarted replica in use ${Math.round(performance.now() - started)} ms after it accepted connections`);
    t.ok(await probeReachesReplica(a), 'reads return to the restarted replica');
  });

  t.test('a replica that hangs holds a read for DATABASE_READ_TIMEOUT_MS at most: it goes to the primary', async (t) => {
    await second.open();
    await waitFor('both replicas in use', async () => ((await readsFrom(a)) === 'replica 1,replica 2' ? true : undefined), 30_000);
    // The proxy stops passing bytes but keeps every connection open and accepts new ones, as a stopped
    // or wedged server does: no reset, no refusal, nothing for keep-alive to notice.
    second.hang();
    const started = performance.now();
    // Reads take the replicas in turn: of two searches' reads, some go to the hung one.
    const searches = [];
    for (let i = 0; i < 2; i++) searches.push((await a.inject({ method: 'POST', url: SEARCH, payload: { query: `hungword${process.pid} ${i}` } })).statusCode);
    t.same(searches, [200, 200], 'searches are answered, the hung replica\'s reads by the primary');
    t.comment(`two searches in ${Math.round(performance.now() - started)} ms with a replica hung (DATABASE_READ_TIMEOUT_MS 2000)`);
    t.equal((await a.inject(`/acme-cloud/docs/not-here-${process.pid}`)).statusCode, 404, 'a page lookup is answered');
    const down = await waitFor('the hung replica skipped', async () => {
      const reads = (await readyz(a)).reads;
      return reads?.replicas[1]?.state === 'unavailable' ? reads : undefined;
    }, 30_000);
    t.same(down.from, ['replica 1'], '/readyz: reads from the other replica, the hung one down');
    t.equal((await a.inject('/readyz')).statusCode, 200, 'still ready');
    await second.cut();
  });
});

interface Ready {
  status: string;
  reads?: { from: string[]; replicas: { replica: number; state: string; lagMs?: number }[] };
}

async function readyz(app: FastifyInstance): Promise<Ready> {
  return (await app.inject('/readyz')).json<Ready>();
}

type Test = { teardown: (fn: () => unknown) => void };

/**
 * A primary and its streaming replica (pg_basebackup -R), as the postgres user when run as root, on
 * free ports, in a temporary folder removed at the end with both servers stopped.
 */
async function startPair(t: Test) {
  const dir = await mkdtemp(join(tmpdir(), 'signpost-replica-'));
  const root = process.getuid?.() === 0;
  const asPg = (command: string) => (root ? run('su', ['postgres', '-s', '/bin/sh', '-c', command]) : run('/bin/sh', ['-c', command]));
  if (root) await chown(dir, uidOf('postgres'), gidOf('postgres'));
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primaryDir = join(dir, 'primary');
  const replicaDir = join(dir, 'replica');
  const replicaLogFile = join(dir, 'replica.log');
  const settings = `-k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const ctl = (data: string, args: string) => asPg(`${PG_BIN}/pg_ctl -D ${data} ${args}`);
  const startReplica = () => ctl(replicaDir, `-l ${replicaLogFile} -w -o '-p ${replicaPort} ${settings} -c log_statement=all' start`);
  const stopReplica = () => ctl(replicaDir, '-m immediate -w stop');
  const clients: pg.Client[] = [];
  t.teardown(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await stopReplica().catch(() => undefined);
    await ctl(primaryDir, '-m immediate -w stop').catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });
  await asPg(`${PG_BIN}/initdb -D ${primaryDir} -A trust -U signpost --no-sync >/dev/null`);
  await ctl(primaryDir, `-l ${join(dir, 'primary.log')} -w -o '-p ${primaryPort} ${settings}' start`);
  await asPg(`${PG_BIN}/pg_basebackup -h 127.0.0.1 -p ${primaryPort} -U signpost -D ${replicaDir} -R -X stream --no-sync`);
  await startReplica();
  const connect = async (port: number) => {
    const client = new pg.Client({ connectionString: `postgres://signpost@127.0.0.1:${port}/postgres` });
    client.on('error', () => undefined); // the replica is stopped on purpose
    await client.connect();
    clients.push(client);
    return client;
  };
  return {
    primaryUrl: `postgres://signpost@127.0.0.1:${primaryPort}/postgres`,
    replicaUrl: `postgres://signpost@127.0.0.1:${replicaPort}/postgres`,
    replicaPort,
    primary: await connect(primaryPort),
    replica: await connect(replicaPort),
    replicaLog: () => readFile(replicaLogFile, 'utf8'),
    stopReplica,
    startReplica,
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user]).toString().trim());
}

function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user]).toString().trim());
}
