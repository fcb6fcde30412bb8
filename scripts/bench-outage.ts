/**
 * Figures for a PostgreSQL outage (issue 8 item 1): the app runs against a new database on DATABASE_URL
 * through a TCP proxy; the proxy cuts every connection and refuses new ones for OUTAGE_MS, then lets
 * them through again. Prints what visitors got during the outage, how long after the server was back
 * the first uncached page answered 200 and the listener was back, and acknowledged versus stored writes.
 *
 *   DATABASE_URL=postgres://… npm run bench:outage
 */
import { buildOpen, feedbackPoster, proxiedDb, listenerPid } from '../test/helpers/proxied-db.ts';

const OUTAGE_MS = 10_000;
const PAGE = '/acme-cloud/docs/first-steps';
const KB = '/acme/kb/widget-crash';
const NEVER_SERVED = '/acme-data-center/2.0/docs/upgrade';
const SEARCH = '/gateway/api/help-content/v2/search';

if (!process.env.DATABASE_URL) {
  console.error('bench:outage needs DATABASE_URL (a PostgreSQL server where it may create and drop a database)');
  process.exit(1);
}
const teardowns: (() => unknown)[] = [];
const t = { teardown: (fn: () => unknown) => void teardowns.push(fn) };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

const pdb = await proxiedDb(t);
const app = await buildOpen(t, pdb.db);
let invalidations = 0;
app.content.onInvalidate(() => invalidations++);
await app.inject(KB);
const post = await feedbackPoster(app, PAGE, 'acme-cloud-first-steps');

// Writes all along, one every 20 ms: every 303 must be stored.
let writing = true;
const acknowledged: string[] = [];
const writeStatuses = new Map<number, number>();
const writer = (async () => {
  for (let i = 0; writing; i++) {
    const visitor = `bench-visitor-${String(i).padStart(8, '0')}`;
    const res = await post(visitor);
    writeStatuses.set(res.statusCode, (writeStatuses.get(res.statusCode) ?? 0) + 1);
    if (res.statusCode === 303) acknowledged.push(visitor);
    await sleep(20);
  }
})();
await sleep(500);

/** Status counts and worst latency of repeated requests during the outage. */
const during: Record<string, { statuses: Map<number, number>; maxMs: number }> = {};
const probe = async (name: string, run: () => Promise<{ statusCode: number }>) => {
  const started = performance.now();
  const res = await run();
  const entry = (during[name] ??= { statuses: new Map(), maxMs: 0 });
  entry.statuses.set(res.statusCode, (entry.statuses.get(res.statusCode) ?? 0) + 1);
  entry.maxMs = Math.max(entry.maxMs, performance.now() - started);
};

await pdb.proxy.cut();
const cutAt = performance.now();
for (let i = 0; performance.now() - cutAt < OUTAGE_MS - 200; i++) {
  await probe('topic page served before', () => app.inject(PAGE));
  await probe('kb page served before (kept copy)', () => app.inject(KB));
  await probe('page never served', () => app.inject(NEVER_SERVED));
  await probe('search API', () => app.inject({ method: 'POST', url: SEARCH, payload: { query: `outage ${i}` } }));
  await sleep(100);
}
await sleep(OUTAGE_MS - (performance.now() - cutAt));
const seen = invalidations;
await pdb.proxy.open();
const openedAt = performance.now();
let firstPageMs = NaN;
let listenerMs = NaN;
while (Number.isNaN(firstPageMs) || Number.isNaN(listenerMs)) {
  if (Number.isNaN(firstPageMs) && (await app.inject(NEVER_SERVED)).statusCode === 200) firstPageMs = performance.now() - openedAt;
  if (Number.isNaN(listenerMs) && invalidations > seen && (await listenerPid(pdb.direct, pdb.name))) listenerMs = performance.now() - openedAt;
  if (performance.now() - openedAt > 30_000) break;
  await sleep(10);
}
await sleep(500);
writing = false;
await writer;
const { rows } = await pdb.direct.query<{ visitor_key: string }>(`select visitor_key from feedback`);
const stored = new Set(rows.map((r) => r.visitor_key));
const lost = acknowledged.filter((v) => !stored.has(post.idOf(v))).length;

const fmt = (m: Map<number, number>) => [...m].sort().map(([s, n]) => `${s}×${n}`).join(' ');
console.log(`PostgreSQL outage of ${OUTAGE_MS / 1000} s (all connections cut, new ones refused)`);
for (const [name, entry] of Object.entries(during)) console.log(`  during: ${name.padEnd(36)} ${fmt(entry.statuses).padEnd(12)} slowest ${Math.round(entry.maxMs)} ms`);
console.log(`  after: first 200 of a page never served ${Math.round(firstPageMs)} ms after the server was reachable again`);
console.log(`  after: listener back (LISTEN re-issued, caches dropped ${invalidations - seen}×) ${Math.round(listenerMs)} ms after`);
console.log(`  writes: ${fmt(writeStatuses)}; acknowledged ${acknowledged.length}, stored ${acknowledged.length - lost} (lost ${lost}); rows stored ${stored.size}`);
for (const fn of teardowns) await fn();
process.exit(0);
