import t from 'tap';
import { build, failing, scratchDatabase, testDb } from '../helpers/build.ts';
import { openDb, type Db } from '../../server/db/driver.ts';
import { migrate } from '../../server/db/migrate.ts';
import { RequestStore } from '../../server/support/store.ts';
import { listDeliveries, Outbox } from '../../server/support/delivery/outbox.ts';
import { deliveryEnv, logTap, newRequest, startReceiver } from './delivery-peers.ts';

type Test = Parameters<typeof testDb>[0];

/** Two handles on one database: two pools on PostgreSQL (as two instances have), one PGlite otherwise. */
async function sharedDb(t: Test): Promise<[Db, Db]> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = await testDb(t);
    return [db, db];
  }
  const testUrl = await scratchDatabase(t, url);
  const one = await openDb({ databaseUrl: testUrl, pgliteDir: '' });
  t.teardown(() => one.close());
  await migrate(one);
  const two = await openDb({ databaseUrl: testUrl, pgliteDir: '' });
  t.teardown(() => two.close());
  return [one, two];
}

// One database for the file: each test's instances are closed when it ends, leaving nothing pending.
const [dbA, dbB] = await sharedDb(t);

t.test('two instances working one outbox never deliver the same request twice', async (t) => {
  const receiver = await startReceiver(t);
  const logA = logTap();
  const logB = logTap();
  const appA = await build(t, { db: dbA, logStream: logA.stream, env: deliveryEnv({ receiver }) });
  await build(t, { db: dbB, logStream: logB.stream, env: deliveryEnv({ receiver }) });
  const created = await Promise.all(Array.from({ length: 40 }, (_, i) =>
    appA.supportRequests.create(newRequest({ subject: `Request ${i}` }))));
  const references = created.map((c) => c.reference);
  const received = await receiver.requests(40);
  // Every delivery is recorded by one of the two, then nothing more arrives.
  await Promise.all(references.map((reference) => Promise.race([
    logA.waitFor('request delivered', (l) => l.reference === reference),
    logB.waitFor('request delivered', (l) => l.reference === reference),
  ])));
  t.equal(received.length, 40, 'forty posts');
  t.same([...new Set(received.map((r) => r.key))].sort(), [...references].sort(), 'one per request');
  t.equal(logA.count('request delivered') + logB.count('request delivered'), 40);
  t.comment(`instance A delivered ${logA.count('request delivered')}, instance B ${logB.count('request delivered')}`);
  const [row] = await dbA.query<{ delivered: number; attempts: number }>(
    `select count(*)::int as delivered, sum(attempts)::int as attempts from support_deliveries where state = 'delivered'`,
  );
  t.same(row, { delivered: 40, attempts: 40 });
});

t.test('an instance closed mid-delivery hands the request back; the next one delivers it once', async (t) => {
  // The first post is never answered (the instance is closed while it waits); later ones are.
  const receiver = await startReceiver(t, (_r, index) => (index === 0 ? 'hang' : 200));
  const logA = logTap();
  const appA = await build(t, { db: dbA, logStream: logA.stream, env: deliveryEnv({ receiver }) });
  const { reference } = await appA.supportRequests.create(newRequest());
  await receiver.requests(1, reference);
  await appA.close();
  t.match(await logA.waitFor('delivery interrupted by shutdown'), { reference, channel: 'webhook', released: true });
  t.match(await listDeliveries(dbB, reference), [{ state: 'pending', attempts: 0 }], 'handed back, the attempt not counted');

  const logB = logTap();
  await build(t, { db: dbB, logStream: logB.stream, env: deliveryEnv({ receiver }) });
  await logB.waitFor('request delivered', (l) => l.reference === reference);
  t.equal(receiver.received.length, 2, 'posted again, with the same idempotency key');
  t.same(receiver.received.map((r) => r.key), [reference, reference]);
  t.equal(receiver.accepted.get(reference), 1, 'accepted once');
  t.match(await listDeliveries(dbB, reference), [{ channel: 'webhook', state: 'delivered', attempts: 1 }]);
});

t.test('a claim left by a crashed worker is taken again when its lease runs out', async (t) => {
  const receiver = await startReceiver(t);
  // An instance that stores requests but runs no worker.
  const appA = await build(t, { db: dbA, env: deliveryEnv({ receiver }, { DELIVERY_WORKER: 'false', LOG_LEVEL: 'silent' }) });
  const { reference } = await appA.supportRequests.create(newRequest());
  // A worker claims it for 600 ms, then dies without a word.
  const [claim] = await new Outbox(dbA).claim(['webhook'], 10, 600);
  t.match(claim, { reference, channel: 'webhook', attempts: 1 });
  const [lease] = await dbA.query<{ until: Date }>(`select leased_until as until from support_deliveries where reference = $1`, [reference]);

  const logB = logTap();
  await build(t, { db: dbB, logStream: logB.stream, env: deliveryEnv({ receiver }) });
  const line = await logB.waitFor('request delivered', (l) => l.reference === reference);
  t.ok(receiver.received[0]!.at >= new Date(lease!.until).getTime() - 5, 'not before the lease ran out');
  t.match(line, { attempts: 2 });
  t.equal(receiver.received.length, 1);
  t.match(await listDeliveries(dbB, reference), [{ state: 'delivered', attempts: 2 }]);
});

t.test('the worker rides out a database failure and carries on without a restart', async (t) => {
  const db = dbA;
  let down = false;
  const receiver = await startReceiver(t, (_r, index) => {
    if (index === 0) {
      // The database fails just as the first delivery is answered: its outcome waits to be recorded.
      down = true;
      setTimeout(() => (down = false), 600);
    }
    return 200;
  });
  const log = logTap();
  const app = await build(t, { db: failing(db, () => down), logStream: log.stream, env: deliveryEnv({ receiver }) });
  const first = await app.supportRequests.create(newRequest());
  await log.waitFor('delivery outcome not recorded: the database failed; retrying', (l) => l.reference === first.reference);
  await log.waitFor('request delivered', (l) => l.reference === first.reference);
  t.equal(receiver.received.length, 1, 'recorded once the database was back, not sent again');

  // Down while a new request arrives (stored by another instance): claims fail, then succeed.
  const from = log.lines.length;
  down = true;
  const store = new RequestStore(db, { prefix: 'SR', channels: () => ['webhook'] });
  const second = await store.create(newRequest());
  await log.waitFor('delivery worker: a database call failed; backing off', undefined, from);
  down = false;
  await log.waitFor('delivery worker: the database answers again', undefined, from);
  await log.waitFor('request delivered', (l) => l.reference === second.reference);
  t.equal(receiver.received.length, 2);
  t.same(receiver.received.map((r) => r.key), [first.reference, second.reference]);
  t.match(await listDeliveries(db, second.reference), [{ state: 'delivered', attempts: 1 }]);
});
