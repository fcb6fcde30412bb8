/**
 * Fleet figures (npm run bench:cluster -- [--quick] [--runs 3] [--seconds 8] [--connections 20] [--dir DIR]):
 * the reference deployment of `npm run cluster` (scripts/cluster.ts: a PostgreSQL primary and streaming
 * replica, three instances of the production build, nginx in front), measured through the proxy:
 *  - throughput and latency of 1, 2 and 3 instances in rotation on a mix of nine page views to one
 *    search (a results page for a pair of words, distinct on every request, so never a cache hit), with
 *    the CPU time of the instances, PostgreSQL and nginx per second of wall time, and memory of each tier;
 *  - publish propagation: `npm run import` of a changed topic into the primary, then the time until every
 *    instance, asked directly, serves the new text;
 *  - kill -9 of one instance under load; a rolling restart under load; a restart of the primary under
 *    load with writers of feedback, support requests and analytics batches, whose acknowledged writes are
 *    then looked up in the database; the replica stopped and started again under load.
 * --quick: one run of 3 s for each figure, a smoke run of a few minutes. Medians of --runs otherwise.
 * All load comes from one address, so the per-client limits (RATE_LIMIT_MAX, REQUEST_RATE_LIMIT,
 * ANALYTICS_RATE_LIMIT) are raised for the run. The machine's load average is printed with each figure:
 * other work on it moves them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type autocannon from 'autocannon';
import pg from 'pg';
import { Cluster, parseOptions } from './cluster.ts';
import { freePort, getOnNewConnection, load, median, option, type Load } from './bench-http.ts';
import { CONTENT_CHANNEL } from '../server/content/import.ts';

const ROOT = join(import.meta.dirname, '..');
const args = process.argv.slice(2);
const QUICK = args.includes('--quick');
const RUNS = Number(option('--runs') ?? (QUICK ? 1 : 3));
const SECONDS = Number(option('--seconds') ?? (QUICK ? 3 : 8));
const CONNECTIONS = Number(option('--connections') ?? 20);
const keptDir = option('--dir');
/** Connections of the fault scenarios' readers: enough to keep every instance busy, few enough to count. */
const READERS = 8;
/** A topic page of the content and its Markdown file, found from the sitemap and the tree (not named). */
let TOPIC = '';
let TOPIC_FILE = '';

/** The first topic of the sitemap whose Markdown file (its slug's name under topics/) is in the tree. */
async function findTopic(base: string, paths: string[]): Promise<void> {
  const files = (readdirSync(join(ROOT, 'content', 'topics'), { recursive: true }) as string[]).filter((f) => f.endsWith('.md'));
  for (const path of paths) {
    const slug = path.split('/').pop() ?? '';
    const file = files.find((f) => f.split('/').pop() === `${slug}.md`);
    if (!file || !(await (await fetch(base + path)).text()).includes('<article class="topic">')) continue;
    TOPIC = path;
    TOPIC_FILE = join('topics', file);
    return;
  }
  throw new Error('no topic page of the sitemap has its Markdown file under content/topics');
}
/** A browser's: some user agents are bots, whose analytics are not counted. */
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
/** What a 5xx body must never show: a driver's error, an address, a stack. */
const INTERNALS = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|sqlstate|terminating connection|connection terminated|the database system is|postgres(?:ql)?:\/\/|127\.0\.0\.1:\d+|\n\s+at \S+ \(/i;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load1 = () => `load ${loadavg()[0]?.toFixed(1)}`;
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const say = (line = '') => process.stdout.write(`${line}\n`);
const counts = (m: Map<string | number, number>) => [...m].sort(([a], [b]) => String(a).localeCompare(String(b))).map(([k, n]) => `${k}×${n}`).join(' ') || 'none';

// ---- processes: CPU time and memory of a tier (a process and its descendants) -------------------------

const CLOCK_TICKS = 100;

interface Proc { ppid: number; ticks: number }

function processTable(): Map<number, Proc> {
  const table = new Map<number, Proc>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the fields start after its last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // ppid, then utime, stime, cutime, cstime (fields 4 and 14 to 17 of stat).
      const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
      table.set(Number(name), { ppid: Number(fields[1]), ticks });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

function tree(table: Map<number, Proc>, root: number | undefined): number[] {
  if (!root || !table.has(root)) return [];
  const found = [root];
  for (let i = 0; i < found.length; i++) for (const [pid, p] of table) if (p.ppid === found[i]) found.push(pid);
  return found;
}

type Tiers = { instances: number[]; primary: number[]; replica: number[]; nginx: number[] };

function tierRoots(cluster: Cluster): Tiers {
  const p = cluster.processes();
  return {
    instances: p.instances.flatMap((i) => (i.pid ? [i.pid] : [])),
    primary: p.primary ? [p.primary] : [],
    replica: p.replica ? [p.replica] : [],
    nginx: p.nginx ? [p.nginx] : [],
  };
}

/** CPU seconds used so far by each tier (live processes and the children they reaped). */
function cpuSeconds(roots: Tiers): Record<keyof Tiers, number> {
  const table = processTable();
  const sum = (list: number[]) => list.flatMap((r) => tree(table, r)).reduce((s, pid) => s + (table.get(pid)?.ticks ?? 0), 0) / CLOCK_TICKS;
  return { instances: sum(roots.instances), primary: sum(roots.primary), replica: sum(roots.replica), nginx: sum(roots.nginx) };
}

/** Proportional set size (shared pages split among their users, so a tier's processes add up) in MB. */
function pssMb(roots: (number | undefined)[]): number {
  const table = processTable();
  let kb = 0;
  for (const pid of roots.flatMap((r) => tree(table, r))) {
    try {
      kb += Number(/^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

// ---- load ---------------------------------------------------------------------------------------------

let pages: string[] = [];
let words: string[] = [];
let searchSeq = 0;
/** A results page never asked before: a page-cache and search-cache miss, as most searches are. */
const searchPath = () => {
  const n = searchSeq++;
  return `/search-results/?searchTerm=${encodeURIComponent(`${words[n % words.length]} ${words[Math.floor(n / words.length) % words.length]}`)}`;
};
/** Nine page views to one search. */
const mixPath = (i: number) => (i % 10 === 9 ? searchPath() : pages[i % pages.length] ?? '/');

/** The mix through autocannon: each connection its own sequence, searches distinct across them. */
function mixLoad(url: string, seconds: number): Promise<Load> {
  const perConnection = Math.max(200, Math.ceil((seconds * 400) / CONNECTIONS));
  let next = 0;
  return load(url, {
    seconds, connections: CONNECTIONS, headers: { 'user-agent': USER_AGENT },
    setupClient: (client) => {
      const c = next++;
      const requests: autocannon.Request[] = Array.from({ length: perConnection }, (_, i) => ({ method: 'GET', path: mixPath(i + c) }));
      client.setRequests(requests);
    },
  });
}

interface Outcomes {
  statuses: Map<string | number, number>;
  /** Connection errors sent again once, as a browser does on a keep-alive connection closed under it. */
  resent: number;
  failed: number;
  total: number;
  bodies: string[];
}

/**
 * Readers of the mix through the proxy until stopped, every answer counted: a status other than 2xx or
 * 3xx, or a connection error on the second try, is a failed request.
 */
function readers(url: string, n = READERS) {
  const out: Outcomes = { statuses: new Map(), resent: 0, failed: 0, total: 0, bodies: [] };
  let running = true;
  const get = (path: string) => fetch(url + path, { redirect: 'manual', headers: { 'user-agent': USER_AGENT }, signal: AbortSignal.timeout(60_000) })
    .then(async (res) => ({ status: res.status, body: await res.text() }));
  const loops = Array.from({ length: n }, async (_, w) => {
    for (let i = w; running; i += n) {
      const path = mixPath(i);
      let status: number | string;
      try {
        // Sent again on a new connection: the pool's other idle ones may be closing too (a reload).
        const res = await get(path).catch(() => (out.resent++, getOnNewConnection(url + path, { 'user-agent': USER_AGENT })));
        status = res.status;
        const body = res.body;
        if (status >= 500 && out.bodies.length < 200) out.bodies.push(`${status} ${body}`);
      } catch (error) {
        status = `error (${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message})`;
      }
      out.total++;
      out.statuses.set(status, (out.statuses.get(status) ?? 0) + 1);
      if (typeof status !== 'number' || status >= 400) out.failed++;
    }
  });
  return { out, stop: async () => { running = false; await Promise.all(loops); return out; } };
}

const outcomeLine = (o: Outcomes) => `${o.total} requests, failed ${o.failed} (${counts(o.statuses)}; ${o.resent} sent again on a new connection after a keep-alive one closed)`;

// ---- the scenarios --------------------------------------------------------------------------------------

async function throughput(cluster: Cluster, url: string) {
  say(`\nthroughput through nginx: ${CONNECTIONS} connections, ${SECONDS} s a run, ${RUNS} run(s) interleaved; mix: 9 page views (${pages.length} pages from the sitemap) to 1 search (a results page, distinct words each time)`);
  const results = new Map<number, { load: Load; cpu: Record<keyof Tiers, number>; avg: number }[]>();
  const setRotation = async (n: number) => {
    for (const i of cluster.processes().instances) cluster.drain(i.index, i.index > n);
    // nginx re-reads its upstream file on the reload: workers of the old configuration finish first.
    await sleep(1500);
  };
  await mixLoad(url, QUICK ? 2 : 4);
  for (let r = 0; r < RUNS; r++) {
    for (const n of [1, 2, 3]) {
      await setRotation(n);
      const roots = tierRoots(cluster);
      const before = cpuSeconds(roots);
      const started = performance.now();
      const result = await mixLoad(url, SECONDS);
      const wall = (performance.now() - started) / 1000;
      const after = cpuSeconds(roots);
      const cpu = Object.fromEntries((Object.keys(after) as (keyof Tiers)[]).map((k) => [k, (after[k] - before[k]) / wall])) as Record<keyof Tiers, number>;
      const list = results.get(n) ?? [];
      list.push({ load: result, cpu, avg: loadavg()[0] ?? 0 });
      results.set(n, list);
    }
  }
  await setRotation(3);
  say('instances   req/s  ratio  per instance  p50 ms  p97.5 ms  non-2xx   CPU cores used: instances  primary  replica  nginx   req/s per instance core   load avg');
  const base = median((results.get(1) ?? []).map((x) => x.load.rps));
  const perCore: number[] = [];
  for (const [n, list] of results) {
    const rps = median(list.map((x) => x.load.rps));
    const instCpu = median(list.map((x) => x.cpu.instances));
    perCore.push(...list.map((x) => x.load.rps / Math.max(0.01, x.cpu.instances)));
    say(`${String(n).padStart(9)} ${rps.toFixed(0).padStart(7)} ${(rps / base).toFixed(2).padStart(5)}x ${(rps / n).toFixed(0).padStart(13)} ${median(list.map((x) => x.load.p50)).toFixed(0).padStart(7)} ${median(list.map((x) => x.load.p95)).toFixed(0).padStart(9)}` +
      ` ${String(list.reduce((s, x) => s + x.load.non2xx, 0)).padStart(8)}   ${instCpu.toFixed(2).padStart(25)} ${median(list.map((x) => x.cpu.primary)).toFixed(2).padStart(8)} ${median(list.map((x) => x.cpu.replica)).toFixed(2).padStart(8)} ${median(list.map((x) => x.cpu.nginx)).toFixed(2).padStart(6)}` +
      `   ${median(list.map((x) => x.load.rps / Math.max(0.01, x.cpu.instances))).toFixed(0).padStart(23)}   ${median(list.map((x) => x.avg)).toFixed(1).padStart(8)}`);
  }
  const perReq = (tier: keyof Tiers) => (median([...results.values()].flat().map((x) => x.cpu[tier] / Math.max(1, x.load.rps))) * 1000).toFixed(2);
  say(`per instance: ${median(perCore).toFixed(0)} req/s of this mix for each CPU core an instance uses (${(1000 / median(perCore)).toFixed(1)} ms of instance CPU a request); the primary ${perReq('primary')} ms and the replica ${perReq('replica')} ms of CPU a request`);
  say(`(this machine has ${(await import('node:os')).cpus().length} cores shared with the load generator: the ratio is bounded by them)`);

  const p = cluster.processes();
  say(`\nmemory after the load (PSS: shared pages split among the processes that map them; RSS of the main process)`);
  for (const i of p.instances) say(`  instance ${i.index}     PSS ${pssMb([i.pid]).toFixed(0)} MB, RSS ${rssMb(i.pid).toFixed(0)} MB`);
  say(`  primary        PSS ${pssMb([p.primary]).toFixed(0)} MB (all its processes)`);
  say(`  replica        PSS ${pssMb([p.replica]).toFixed(0)} MB (all its processes)`);
  say(`  nginx          PSS ${pssMb([p.nginx]).toFixed(0)} MB (master and workers)`);
}

async function publish(cluster: Cluster, dir: string) {
  say(`\npublish: npm run import of the content with one topic changed, into the primary; from its commit (its NOTIFY, heard on the primary), each instance asked directly (${TOPIC}) until it serves the new text`);
  const copy = join(dir, 'content-copy');
  await cp(join(ROOT, 'content'), copy, { recursive: true });
  const original = await readFile(join(copy, TOPIC_FILE), 'utf8');
  const imports: number[] = [];
  const lasts: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const marker = `Propagation marker ${randomBytes(6).toString('hex')}`;
    await writeFile(join(copy, TOPIC_FILE), `${original.trimEnd()}\n\n${marker}.\n`);
    const instances = cluster.processes().instances;
    const seen = new Map<number, number>();
    let polling = true;
    // The import's commit is when its NOTIFY is delivered: the import goes on (a vacuum) after it.
    let committed = Number.NaN;
    const listener = new pg.Client({ connectionString: cluster.primaryUrl });
    await listener.connect();
    listener.on('notification', () => (committed = Number.isNaN(committed) ? performance.now() : committed));
    await listener.query(`listen ${CONTENT_CHANNEL}`);
    const started = performance.now();
    const pollers = instances.map(async (i) => {
      while (polling && !seen.has(i.index)) {
        const body = await fetch(i.url + TOPIC, { signal: AbortSignal.timeout(10_000) }).then((res) => res.text(), () => '');
        if (body.includes(marker)) seen.set(i.index, performance.now());
        else await sleep(20);
      }
    });
    await new Promise<void>((ok, fail) => {
      const child = spawn(process.execPath, ['--enable-source-maps', join(ROOT, 'dist/scripts/import.js'), copy], {
        cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, NODE_ENV: 'production', DATABASE_URL: cluster.primaryUrl, DATA_DIR: join(dir, 'import-data'), CONTENT_DIR: copy },
      });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.once('exit', (code) => (code === 0 ? ok() : fail(new Error(`import exited ${code}: ${err.slice(-2000)}`))));
    });
    const exited = performance.now();
    const deadline = exited + 60_000;
    while ((seen.size < instances.length || Number.isNaN(committed)) && performance.now() < deadline) await sleep(20);
    polling = false;
    await Promise.all(pollers);
    await listener.end();
    if (Number.isNaN(committed)) throw new Error('the import committed no content change (no NOTIFY)');
    const after = instances.map((i) => (seen.has(i.index) ? (seen.get(i.index) ?? 0) - committed : Infinity));
    imports.push(exited - started);
    lasts.push(Math.max(...after));
    say(`  run ${r + 1}: import ${secs(exited - started)}, committed ${secs(committed - started)} in; after the commit: ${instances.map((i, k) => `instance ${i.index} ${Number.isFinite(after[k]) ? `${Math.round(after[k] ?? 0)} ms` : 'not within 60 s'}`).join(', ')} (${load1()})`);
  }
  say(`  median: the last instance serves the new text ${Math.round(median(lasts))} ms after the import committed (goal ≤ 2000 ms); the whole import ${secs(median(imports))}`);
}

/** Times the upstream file put `index` out of, then back in, rotation after `since`. */
function rotationWatch(cluster: Cluster, index: number, since: number) {
  const times: { out?: number; in?: number } = {};
  const listener = (i: number, inRotation: boolean) => {
    if (i !== index) return;
    const now = performance.now();
    if (!inRotation && times.out === undefined) times.out = now - since;
    else if (inRotation && times.out !== undefined && times.in === undefined) times.in = now - since;
  };
  cluster.events.on('rotation', listener);
  return { times, done: () => cluster.events.off('rotation', listener) };
}

async function killOne(cluster: Cluster, url: string) {
  say(`\nkill -9 of instance 2 under load (${READERS} readers of the mix through nginx), ${RUNS} run(s)`);
  const outs: number[] = [];
  const ins: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const load = readers(url);
    await sleep(2000);
    const killedAt = performance.now();
    const watch = rotationWatch(cluster, 2, killedAt);
    cluster.kill(2);
    const deadline = killedAt + 180_000;
    while (watch.times.in === undefined && performance.now() < deadline) await sleep(50);
    await sleep(2000);
    watch.done();
    const o = await load.stop();
    if (watch.times.out !== undefined) outs.push(watch.times.out);
    if (watch.times.in !== undefined) ins.push(watch.times.in);
    say(`  run ${r + 1}: ${outcomeLine(o)}; out of rotation ${watch.times.out === undefined ? 'never' : `${Math.round(watch.times.out)} ms`} after the kill, back in ${watch.times.in === undefined ? 'not within 180 s' : secs(watch.times.in)} after it (${load1()})`);
  }
  say(`  median: out ${Math.round(median(outs))} ms, back in ${secs(median(ins))} (restarted after 1 s, then its start-up, then the next health check)`);
}

async function rollingRestart(cluster: Cluster, url: string) {
  say(`\nrolling restart under load: each instance in turn out of rotation, SIGTERM (it drains), started again, back in once ready`);
  const load = readers(url);
  await sleep(1000);
  const steps: string[] = [];
  for (const i of cluster.processes().instances) {
    const started = performance.now();
    await cluster.restartInstance(i.index);
    steps.push(`instance ${i.index} ${secs(performance.now() - started)}`);
  }
  await sleep(1000);
  const o = await load.stop();
  say(`  ${outcomeLine(o)} (goal 0 failed); ${steps.join(', ')} (${load1()})`);
}

interface Writer { name: string; acknowledged: string[]; statuses: Map<string | number, number>; bodies: string[]; stop: () => Promise<void> }

/** A loop of one kind of write through nginx until stopped: what each answered, and the keys of those acknowledged. */
function writer(name: string, write: (i: number) => Promise<{ status: number; body: string; key?: string | undefined }>): Writer {
  const w: Writer = { name, acknowledged: [], statuses: new Map(), bodies: [], stop: async () => undefined };
  let running = true;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      let status: number | string;
      try {
        const res = await write(i);
        status = res.status;
        if (res.key) w.acknowledged.push(res.key);
        if (status >= 500) w.bodies.push(`${status} ${res.body}`);
      } catch (error) {
        status = `error (${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message})`;
      }
      w.statuses.set(status, (w.statuses.get(status) ?? 0) + 1);
      await sleep(50);
    }
  })();
  w.stop = async () => { running = false; await loop; };
  return w;
}

/** The first option with a value of a form's select, as a visitor would pick one. */
const firstOption = (html: string, name: string) =>
  new RegExp(`<select[^>]*name="${name}"[^>]*>[\\s\\S]*?<option[^>]*value="([^"]+)"`).exec(html)?.[1] ?? '';

/**
 * A product and one of its versions, as the support form offers them: the version select groups each
 * product's versions under the product's name. A form without versions gets its first product.
 */
function productAndVersion(html: string): { product: string; version: string } {
  const group = /<select[^>]*name="version"[^>]*>[\s\S]*?<optgroup label="([^"]+)"><option[^>]*value="([^"]+)"/.exec(html);
  const product = group ? new RegExp(`<option value="([^"]+)">${group[1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</option>`).exec(html)?.[1] : undefined;
  return product && group ? { product, version: group[2]! } : { product: firstOption(html, 'product'), version: '' };
}

async function primaryRestart(cluster: Cluster, url: string) {
  say(`\nprimary restart under load (fast shutdown, as pg_ctl restart -m fast): ${READERS} readers of the mix, and writers of feedback, support requests and analytics batches`);
  const page = await (await fetch(url + TOPIC)).text();
  const csrf = /action="\/feedback"[\s\S]*?name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const entryId = /name="entryId" value="([^"]+)"/.exec(page)?.[1] ?? '';
  if (!csrf || !entryId) throw new Error(`${TOPIC} has no feedback form`);
  const run = randomBytes(4).toString('hex');
  const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(url + path, { method: 'POST', body, redirect: 'manual', headers: { origin: url, 'user-agent': USER_AGENT, ...headers }, signal: AbortSignal.timeout(60_000) });

  const feedback = writer('feedback', async () => {
    const res = await post('/feedback', new URLSearchParams({ _csrf: csrf, entryId, returnTo: TOPIC, helpful: 'yes' }), { 'content-type': 'application/x-www-form-urlencoded' });
    const body = await res.text();
    // A new visitor each time: its id, in the cookie the answer sets, is the row's key.
    const visitor = /sp_visitor=([A-Za-z0-9_-]{24})\./.exec(res.headers.getSetCookie().join('; '))?.[1];
    return { status: res.status, body, key: res.status === 303 ? visitor : undefined };
  });
  const support = writer('support request', async (i) => {
    const form = await fetch(`${url}/contact`, { headers: { 'user-agent': USER_AGENT } });
    const html = await form.text();
    if (form.status !== 200) return { status: form.status, body: html };
    const body = new URLSearchParams({
      _csrf: /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '', submission: /name="submission" value="([^"]+)"/.exec(html)?.[1] ?? '',
      email: 'bench.writer@customer.example', name: 'Bench Writer', ...productAndVersion(html), severity: firstOption(html, 'severity'),
      subject: `Bench ${run} request ${i}`, description: 'Written while the primary restarts; it must be stored if it was acknowledged.',
    });
    const res = await post('/contact', body, { 'content-type': 'application/x-www-form-urlencoded' });
    const answer = await res.text();
    return { status: res.status, body: answer, key: res.status === 303 ? /\/request-sent\/([A-Z]+-\d+)/.exec(res.headers.get('location') ?? '')?.[1] : undefined };
  });
  const analytics = writer('analytics batch', async (i) => {
    const sessionId = `bench${run}s${String(i).padStart(6, '0')}`;
    const res = await post('/api/events', JSON.stringify({ sessionId, events: [{ type: 'page_dwelled', path: TOPIC, key: '', value: 1000 + i }] }), { 'content-type': 'application/json' });
    const answer = await res.text();
    const accepted = res.status === 202 && (JSON.parse(answer) as { accepted?: number }).accepted === 1;
    return { status: res.status, body: answer, key: accepted ? sessionId : undefined };
  });
  const load = readers(url);
  await sleep(2000);
  const { downAt, upAt } = await cluster.restartPrimary();
  // A page that needs the database: a results page never asked before (through nginx, any instance).
  let firstOk = Number.NaN;
  while (Number.isNaN(firstOk) && performance.now() - upAt < 120_000) {
    const status = await fetch(url + searchPath()).then((r) => (void r.text(), r.status), () => 0);
    if (status === 200) firstOk = performance.now() - upAt;
    else await sleep(20);
  }
  await sleep(3000);
  const o = await load.stop();
  for (const w of [feedback, support, analytics]) await w.stop();
  const restarts = cluster.processes().instances.length;

  const writers = [feedback, support, analytics];
  // The site's own address (nginx's, here on 127.0.0.1) is in every page: not an internal.
  const leaks = [...o.bodies, ...writers.flatMap((w) => w.bodies)].flatMap((b) => INTERNALS.exec(b.replaceAll(url, ''))?.[0] ?? []);
  const other5xx = [...o.statuses, ...writers.flatMap((w) => [...w.statuses])].filter(([s]) => typeof s === 'number' && s >= 500 && s !== 503);
  const all503 = (o.statuses.get(503) ?? 0) + writers.reduce((n, w) => n + (w.statuses.get(503) ?? 0), 0);
  say(`  primary down for ${secs(upAt - downAt)} (fast shutdown to taking connections); first 200 of an uncached results page ${Number.isNaN(firstOk) ? 'not within 120 s' : `${Math.round(firstOk)} ms`} after it was back, with no instance restarted (${load1()})`);
  say(`  readers: ${outcomeLine(o)}`);
  say(`  readers and writers: 503s ${all503}, other 5xx ${other5xx.length ? counts(new Map(other5xx)) : 'none'}; 5xx bodies showing internals ${leaks.length}${leaks.length ? ` (${[...new Set(leaks)].join(', ')})` : ''}`);

  // Acknowledged writes, looked up on the primary. Analytics batches are buffered by each instance and
  // written every few seconds: given time to reach the database.
  const db = new pg.Client({ connectionString: cluster.primaryUrl });
  await db.connect();
  try {
    const stored = async (w: Writer): Promise<Set<string>> => {
      const query = w === feedback ? ['select visitor_key as key from feedback where visitor_key = any($1)', w.acknowledged]
        : w === support ? ['select reference as key from support_requests where reference = any($1)', w.acknowledged]
          : ['select distinct session_id as key from analytics_events where session_id = any($1)', w.acknowledged];
      const { rows } = await db.query<{ key: string }>(query[0] as string, [query[1]]);
      return new Set(rows.map((r) => r.key));
    };
    const deadline = performance.now() + 30_000;
    while ((await stored(analytics)).size < analytics.acknowledged.length && performance.now() < deadline) await sleep(500);
    for (const w of writers) {
      const found = await stored(w);
      const lost = w.acknowledged.filter((k) => !found.has(k)).length;
      say(`  ${w.name.padEnd(16)} answers ${counts(w.statuses)}; acknowledged ${w.acknowledged.length}, stored ${w.acknowledged.length - lost}, lost ${lost}`);
    }
  } finally {
    await db.end();
  }
  if (restarts !== cluster.processes().instances.length) say('  (an instance was restarted)');
}

async function replicaOutage(cluster: Cluster, url: string) {
  say(`\nreplica stopped under load (${READERS} readers of the mix), then started again`);
  const reads = async () => Promise.all(cluster.processes().instances.map((i) =>
    fetch(`${i.url}/readyz`).then((r) => r.json() as Promise<{ reads?: unknown }>).then((b) => JSON.stringify(b.reads ?? null), () => 'no answer')));
  const allOn = async (pattern: RegExp, deadline: number) => {
    const started = performance.now();
    while (performance.now() - started < deadline) {
      if ((await reads()).every((r) => pattern.test(r))) return performance.now() - started;
      await sleep(100);
    }
    return Number.NaN;
  };
  const before = await reads();
  const load = readers(url);
  await sleep(2000);
  const stoppedAt = performance.now();
  await cluster.stopReplica();
  const toPrimary = await allOn(/"from":\["primary"\]/, 60_000);
  const whileDown = await reads();
  await sleep(3000);
  await cluster.startReplica();
  const restartedAt = performance.now();
  const back = await allOn(/"from":\["replica/, 120_000);
  const after = await reads();
  await sleep(2000);
  const o = await load.stop();
  say(`  /readyz reads before ${before[0]}, replica down ${whileDown[0]}, after ${after[0]}`);
  say(`  every instance reading from the primary ${Number.isNaN(toPrimary) ? 'not within 60 s' : `${Math.round(toPrimary)} ms`} after the stop began (${secs(restartedAt - stoppedAt)} of outage); back on the replica ${Number.isNaN(back) ? 'not within 120 s' : secs(back)} after it took connections again`);
  say(`  readers: ${outcomeLine(o)} (goal 0 failed; ${load1()})`);
}

// ---- the run ------------------------------------------------------------------------------------------

const dir = keptDir ? resolve(keptDir) : await mkdtemp(join(tmpdir(), 'signpost-bench-cluster-'));
// PostgreSQL (as the postgres account when root) and nginx's workers go through it.
await chmod(dir, 0o755);
Object.assign(process.env, { RATE_LIMIT_MAX: '1000000', REQUEST_RATE_LIMIT: '1000000', ANALYTICS_RATE_LIMIT: '100000000', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
const port = await freePort();
const cluster = new Cluster(parseOptions(['--instances', '3', '--port', String(port), '--dir', dir]));
let interrupted = false;
const onSignal = () => {
  if (interrupted) return;
  interrupted = true;
  say('\nstopping the cluster');
  void cluster.stop().then(async () => {
    if (!keptDir) await rm(dir, { recursive: true, force: true });
    process.exit(130);
  });
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
const url = `http://127.0.0.1:${port}`;
let code = 0;
try {
  const started = performance.now();
  await cluster.start();
  say(`\nbench:cluster${QUICK ? ' --quick' : ''}: started in ${secs(performance.now() - started)} (${load1()}; the machine's 1-minute load average is printed with each figure)`);
  const sitemap = await (await fetch(`${url}/sitemap.xml`)).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '/').pathname);
  // Every fifth page of the sitemap, so that the mix spans the kinds of page without warming every one.
  pages = paths.filter((_, i) => i % 5 === 0).slice(0, 60);
  await findTopic(url, paths);
  words = [...new Set(paths.flatMap((p) => p.split(/[/-]/)).filter((w) => /^[a-z]{4,}$/.test(w)))];
  const scenarios = { throughput, publish: () => publish(cluster, dir), kill: killOne, rolling: rollingRestart, primary: primaryRestart, replica: replicaOutage };
  const only = option('--only')?.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = only?.filter((name) => !(name in scenarios)) ?? [];
  if (unknown.length) throw new Error(`--only: no scenario ${unknown.join(', ')} (there are ${Object.keys(scenarios).join(', ')})`);
  for (const [name, run] of Object.entries(scenarios)) if (!only || only.includes(name)) await run(cluster, url);
} catch (error) {
  console.error(`bench:cluster: ${(error as Error).stack ?? error}`);
  code = 1;
} finally {
  if (!interrupted) await cluster.stop();
  if (!keptDir) await rm(dir, { recursive: true, force: true });
}
process.exit(code);
