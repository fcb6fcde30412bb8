import t from 'tap';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { build, failing, testDb } from '../helpers/build.ts';
import { NetworkAllowance } from '../../server/events/allowance.ts';
import { EVENTS_PATH } from '../../server/events/plugin.ts';
import { MAX_BATCH_EVENTS } from '../../server/events/schemas.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const batch = JSON.stringify({ events: Array.from({ length: MAX_BATCH_EVENTS }, () => ({ type: 'reset', path: '/search-results/' })) });

/** A full batch from `address`, as a proxy in front (TRUST_PROXY) reports it: the events accepted. */
async function from(app: FastifyInstance, address: string): Promise<number> {
  const res = await app.inject({
    method: 'POST', url: EVENTS_PATH, payload: batch,
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': BROWSER, 'x-forwarded-for': address },
  });
  if (res.statusCode !== 202) throw new Error(`${res.statusCode} ${res.body}`);
  return (res.json() as { accepted: number }).accepted;
}

const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);

t.test('ANALYTICS_RATE_LIMIT', async (t) => {
  const db = await testDb(t);
  // Larger than what two instances may accept unknown to each other (2 × 50 × 2): one limit per instance
  // (600 in all) would break the bound (300 + 200).
  const limit = 300;
  const env = { TRUST_PROXY: 'true', ANALYTICS_RATE_LIMIT: String(limit) };
  // Two instances of the site on one database.
  const apps = [await build(t, { db, env }), await build(t, { db, env })] as const;
  const [app] = apps;

  t.test('holds per client network: a /24, a /64, IPv4-mapped addresses with their IPv4 network', async (t) => {
    const one24: number[] = [];
    // Twenty addresses of one /24, one batch each: 1000 events asked for.
    for (let host = 1; host <= 20; host++) one24.push(await from(app, `198.51.100.${host}`));
    t.equal(sum(one24), limit, 'the network gets the limit, however many addresses it uses');
    t.same(one24.slice(-10), Array(10).fill(0), 'and nothing once it is used up');
    t.equal(await from(app, '::ffff:198.51.100.200'), 0, 'an IPv4-mapped address of that /24 is the same network');
    t.equal(await from(app, '198.51.101.7'), MAX_BATCH_EVENTS, 'a neighbouring /24 is not held back');

    const one64: number[] = [];
    for (let host = 1; host <= 10; host++) one64.push(await from(app, `2001:db8:1:2:${host.toString(16)}::${host}`));
    t.equal(sum(one64), limit, 'an IPv6 /64 is one network');
    t.equal(await from(app, '2001:db8:1:3::1'), MAX_BATCH_EVENTS, 'the next /64 is another');

    await app.analytics.writer.flush();
    const [stored] = await db.query<{ n: number }>(`select count(*)::int as n from analytics_events where type = 'reset'`);
    t.equal(stored?.n, 2 * limit + 2 * MAX_BATCH_EVENTS, 'what was accepted, and nothing more, is stored');
    await app.analytics.allowance.flush();
    const keys = await db.query<{ key: string }>(`select key from rate_limits where key like 'analytics-events:%'`);
    t.equal(keys.length, 4, 'one count per network');
    t.notMatch(JSON.stringify(keys), /198\.51|2001:db8/, 'keyed hashes, not addresses');
  });

  t.test('is one limit for all instances on a database', async (t) => {
    const accepted = [0, 0];
    // Batches alternate between the instances, from addresses of one /24: 1000 events asked for.
    for (let round = 0; round < 10; round++) {
      for (const [i, one] of apps.entries()) accepted[i] = (accepted[i] ?? 0) + await from(one, `203.0.113.${2 * round + i + 1}`);
    }
    const total = sum(accepted);
    t.ok(total >= limit, `the network gets its limit (${accepted.join(' + ')})`);
    // Each instance may accept up to 50 events the database has not counted yet (server/events/allowance.ts).
    t.ok(total <= limit + 2 * MAX_BATCH_EVENTS * apps.length, `and at most the stated bound over it, not one limit per instance (${total})`);
    t.ok(accepted.every((n) => n > 0), 'both instances took part');

    // Once both have told the database what they accepted, neither takes more this window.
    for (const one of apps) await one.analytics.allowance.flush();
    for (const [i, one] of apps.entries()) t.equal(await from(one, `203.0.113.${100 + i}`), 0, `instance ${i + 1} refuses the network`);
    t.equal(await from(apps[1], '192.0.2.1'), MAX_BATCH_EVENTS, 'another network is not held back');
  });

  t.test('fixed windows; while the database cannot count, each instance counts alone and nothing waits', async (t) => {
    let now = 1_800_000_000_000;
    let down = false;
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => { lines.push(line); } });
    const allowance = new NetworkAllowance(() => failing(db, () => down), log, { max: 100, clock: () => now });
    t.teardown(() => allowance.close());
    t.equal(await allowance.take('net-a', 60), 60);
    t.equal(await allowance.take('net-a', 60), 40, 'what is left of the window');
    t.equal(await allowance.take('net-a', 1), 0);
    now += 60_000;
    t.equal(await allowance.take('net-a', 60), 60, 'a new window');
    await allowance.flush();
    const [row] = await db.query<{ count: number }>(`select count from rate_limits where key = 'analytics-events:net-a'`);
    t.equal(row?.count, 60, "the database counts the new window's events");

    down = true;
    t.equal(await allowance.take('net-a', 60), 40, 'the database away: counted on in memory from what was last heard');
    t.equal(await allowance.take('net-b', 60), 60, 'a network first seen now');
    t.equal(await allowance.take('net-b', 60), 40);
    t.equal(await allowance.take('net-b', 60), 0, 'the limit holds on this instance');
    t.equal(lines.filter((l) => /cannot count/.test(l)).length, 1, 'logged once');
    down = false;
    await allowance.flush();
    const counts = await db.query<{ key: string; count: number }>(`select key, count from rate_limits where key like 'analytics-events:net-_' order by key`);
    t.same(counts, [{ key: 'analytics-events:net-a', count: 100 }, { key: 'analytics-events:net-b', count: 100 }], 'what was counted meanwhile reaches the database');
    t.ok(lines.some((l) => /counted in the database again/.test(l)));
  });
});
