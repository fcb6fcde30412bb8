/**
 * Analytics ingest (npm run bench:events [-- --seconds 5 --repeats 3 --rate 1000 --content DIR]).
 *
 * The production build on a fresh database (file-backed PGlite, or a new database on DATABASE_URL).
 * 1. Ingest: 10 connections post a fixed number of batches of 50 events (`--events-per-second` ×
 *    `--seconds`) to POST /api/events as fast as they can; the events accepted per second, per repeat
 *    and as the median. After the server has stopped (it flushes on close), the rows in analytics_events are counted against the events accepted: no loss
 *    means every accepted event is stored and none was dropped for a full buffer.
 * 2. A topic page's throughput (10 connections, full speed) alone, and while events arrive at a fixed
 *    `--rate` per second beside it: the ratio of the two, per repeat and as the median.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { freePort, option, waitFor } from './bench-http.ts';
import { freshDb } from './bench-db.ts';
import { openDb } from '../server/db/driver.ts';

const contentDir = resolve(option('--content') ?? 'content');
const SECONDS = Number(option('--seconds') ?? 5);
const REPEATS = Number(option('--repeats') ?? 3);
const RATE = Number(option('--rate') ?? 1000);
const BATCH = 50;
/** Events a full-speed run sends: about `--seconds` of ingest at this rate. */
const FULL_SPEED_GUESS = Number(option('--events-per-second') ?? 10_000);
const CONNECTIONS = 10;
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] ?? 0 : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

function batchFor(path: string, n: number): string {
  const events = Array.from({ length: BATCH }, (_, i) => (i % 2
    ? { type: 'page_scrolled', path, key: '50', value: 0.5 }
    : { type: 'page_dwelled', path, key: '', value: 5000 + i }));
  return JSON.stringify({ sessionId: `bench-session-${n}`, persistentId: `bench-visitor-${n}`, events });
}

interface Tally { accepted: number; refused: number; requests: number; non2xx: number; statuses: Record<number, number> }

/** Posts batches for `seconds`, at full speed or at `eventsPerSecond`; counts what the server accepted. */
function ingest(base: string, path: string, seconds: number, eventsPerSecond?: number): Promise<Tally & { seconds: number }> {
  const tally: Tally = { accepted: 0, refused: 0, requests: 0, non2xx: 0, statuses: {} };
  // A fixed number of batches, so every one sent is answered (a timed run leaves some in flight).
  const amount = Math.round(((eventsPerSecond ?? FULL_SPEED_GUESS) * seconds) / BATCH);
  const started = performance.now();
  return new Promise((done, reject) => {
    autocannon({
      url: `${base}/api/events`, amount, connections: CONNECTIONS,
      ...(eventsPerSecond ? { overallRate: Math.max(1, Math.round(eventsPerSecond / BATCH)) } : {}),
      requests: [{
        method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': UA }, body: batchFor(path, 1),
        onResponse: (status: number, body: string) => {
          tally.requests += 1;
          tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
          if (status !== 202) { tally.non2xx += 1; return; }
          const answer = JSON.parse(body) as { accepted: number; refused: Record<string, number> };
          tally.accepted += answer.accepted;
          tally.refused += Object.values(answer.refused).reduce((a, b) => a + b, 0);
        },
      }],
    }, (error) => (error ? reject(error) : done({ ...tally, seconds: (performance.now() - started) / 1000 })));
  });
}

function pageLoad(url: string, seconds: number): Promise<number> {
  return new Promise((done, reject) => {
    autocannon({ url, duration: seconds, connections: CONNECTIONS, headers: { 'accept-encoding': 'br, gzip', 'user-agent': UA } },
      (error, result) => (error ? reject(error) : done(result.requests.average)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function stop(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

const target = await freshDb();
const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
// The server opens the same PGlite files: this process lets go of them until the server has stopped.
if (!process.env.DATABASE_URL) await target.db.close();
let server: ChildProcess | undefined;
let totalAccepted = 0;
try {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'ignore' });
  const port = await freePort();
  server = spawn(process.execPath, ['dist/server/main.js'], {
    // The production defaults, access log included: its cost is part of serving a request.
    env: { ...process.env, ...target.env, PORT: String(port), HOST: '127.0.0.1', CONTENT_DIR: contentDir, ANALYTICS_RATE_LIMIT: '1000000000' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/readyz`);
  const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
  let topic: string | undefined;
  for (const m of sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const path = new URL(m[1] ?? '/').pathname;
    if ((await (await fetch(`${base}${path}`)).text()).includes('<article class="topic">')) { topic = path; break; }
  }
  if (!topic) throw new Error('the sitemap has no topic');
  console.log(`engine          ${engine}\ncontent         ${contentDir}\ntopic           ${topic}\n`);

  const rates: number[] = [];
  let refused = 0;
  let failed = 0;
  for (let i = 0; i < REPEATS; i++) {
    const run = await ingest(base, topic, SECONDS);
    totalAccepted += run.accepted;
    refused += run.refused;
    failed += run.non2xx;
    rates.push(run.accepted / run.seconds);
    console.log(`ingest #${i + 1}       ${Math.round(run.accepted / run.seconds)} events/s accepted in ${run.seconds.toFixed(1)} s (${run.requests} batches of ${BATCH}, refused ${run.refused}, non-2xx ${run.non2xx}: ${JSON.stringify(run.statuses)})`);
    await sleep(1500);
  }
  console.log(`ingest median   ${Math.round(median(rates))} events/s (goal on PostgreSQL >= 5000)`);

  // A warm-up of both, so the first 'alone' run is not the one that warms the page's code.
  await Promise.all([pageLoad(`${base}${topic}`, 2), ingest(base, topic, 2, RATE)]).then(([, events]) => { totalAccepted += events.accepted; });
  const ratios: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const alone = await pageLoad(`${base}${topic}`, SECONDS);
    const [beside, events] = await Promise.all([pageLoad(`${base}${topic}`, SECONDS), ingest(base, topic, SECONDS, RATE)]);
    totalAccepted += events.accepted;
    refused += events.refused;
    ratios.push(beside / alone);
    console.log(`page #${i + 1}         ${Math.round(alone)} req/s alone, ${Math.round(beside)} req/s with ${Math.round(events.accepted / events.seconds)} events/s beside: ratio ${(beside / alone).toFixed(2)}`);
  }
  console.log(`page ratio      median ${median(ratios).toFixed(2)} (goal >= 0.9)`);

  await stop(server);
  server = undefined;
  const db = process.env.DATABASE_URL ? target.db : await openDb({ pgliteDir: join(target.env.DATA_DIR ?? '', 'pglite') });
  const [row] = await db.query<{ n: number }>(`select count(*)::int as n from analytics_events where source = 'client'`);
  if (!process.env.DATABASE_URL) await db.close();
  const stored = row?.n ?? 0;
  console.log(`stored          ${stored} of ${totalAccepted} accepted events (${stored === totalAccepted && refused === 0 && failed === 0 ? 'no loss' : `LOSS: ${totalAccepted - stored} missing, ${refused} refused, ${failed} failed batches`})`);
} finally {
  await stop(server);
  await target.done().catch(() => undefined);
}
