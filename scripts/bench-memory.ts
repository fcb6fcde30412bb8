/**
 * Resident memory of the production server (npm run bench:memory [-- --runs 3] [--content dir]
 * [--node-flags "--flag …"]): builds once, then per run starts `dist/server/main.js` with the node flags
 * and environment of `npm run start:built` on a fresh data directory (first start: the import runs in the server) and
 * again on the stored data (restart). Each start is measured when /readyz first answers 200 and after a
 * load: every page of the sitemap, then 20 searches. Figures are VmRSS and VmHWM (peak) from
 * /proc/PID/status, and the part of the resident set in WebAssembly memories (mappings of 1 GB or more
 * reserved: PGlite's heap), from /proc/PID/smaps; medians over the runs, each run's figures in brackets.
 * The load is timed too (pages, then searches), so a setting that saves memory shows what it costs.
 * Linux only.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, median, option } from './bench-http.ts';
import { startSettings, type StartSettings } from './start-settings.ts';

const runs = Number(option('--runs') ?? 3);
const contentDir = option('--content');
const SEARCHES = 20;
/** How long one start may take to be ready (a first import on a loaded machine). */
const READY_DEADLINE_MS = Number(process.env.BENCH_DEADLINE_S || 600) * 1000;

/**
 * The settings `npm run start:built` starts the server with (scripts/start-settings.ts); --node-flags
 * replaces the flags, --env the variables (`--env "" --node-flags ""`: plain `node dist/server/main.js`, to compare).
 */
function startCommand(): StartSettings {
  const built = startSettings(process.cwd());
  const env = option('--env');
  const flags = option('--node-flags');
  return {
    env: env !== undefined ? Object.fromEntries(env.split(/\s+/).filter(Boolean).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)])) : built.env,
    flags: flags !== undefined ? flags.split(/\s+/).filter(Boolean) : built.flags,
  };
}

interface Memory {
  rssMb: number;
  hwmMb: number;
  wasmMb: number;
}

function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  // A WebAssembly memory is a readable mapping followed by the rest of its reservation (guard pages
  // included), gigabytes with no access: the only such pairs in a Node process.
  let wasmKb = 0;
  let last: { end: bigint; rssKb: number; readable: boolean } | undefined;
  let current: { start: bigint; end: bigint; sizeKb: number; rssKb: number; readable: boolean } | undefined;
  const close = () => {
    if (current && last?.readable && last.end === current.start && !current.readable && current.sizeKb >= 1024 * 1024) wasmKb += last.rssKb;
    if (current) last = current;
  };
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) (\S+)/.exec(line);
    if (range) {
      close();
      current = { start: BigInt(`0x${range[1]}`), end: BigInt(`0x${range[2]}`), sizeKb: 0, rssKb: 0, readable: range[3]?.startsWith('r') ?? false };
      continue;
    }
    const size = /^Size:\s+(\d+) kB/.exec(line);
    if (size && current) current.sizeKb = Number(size[1]);
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) current.rssKb = Number(rss[1]);
  }
  close();
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024, wasmMb: wasmKb / 1024 };
}

async function untilReady(base: string, child: ChildProcess): Promise<void> {
  const deadline = performance.now() + READY_DEADLINE_MS;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server stopped (exit code ${child.exitCode})`);
    const res = await fetch(`${base}/readyz`).catch(() => undefined);
    await res?.arrayBuffer();
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server was not ready in time');
}

interface Load { pages: number; searches: number; failed: Map<number, number>; pagesMs: number; searchesMs: number }

/**
 * Every page of the sitemap, one after another, then distinct searches; answers other than 200 are
 * counted by status. Each part is timed: a setting that saves memory must not slow the pages rendered.
 */
async function load(base: string): Promise<Load> {
  const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '/').pathname);
  const failed = new Map<number, number>();
  const check = (status: number) => {
    if (status !== 200) failed.set(status, (failed.get(status) ?? 0) + 1);
  };
  const started = performance.now();
  for (const path of paths) {
    const res = await fetch(`${base}${path}`);
    await res.arrayBuffer();
    check(res.status);
  }
  const pagesMs = performance.now() - started;
  // Search words come from the site's own page names, so the searches find something on any content.
  const words = [...new Set(paths.flatMap((p) => p.split(/[/-]/)).filter((w) => /^[a-z]{4,}$/.test(w)))].slice(0, SEARCHES);
  for (const word of words) {
    const res = await fetch(`${base}/search-results?q=${encodeURIComponent(word)}`);
    await res.arrayBuffer();
    check(res.status);
  }
  return { pages: paths.length, searches: words.length, failed, pagesMs, searchesMs: performance.now() - started - pagesMs };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

type Figures = Record<'afterStart' | 'afterLoad', Memory> & { load: Load };

async function measure(dataDir: string, { env, flags }: ReturnType<typeof startCommand>): Promise<Figures> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...flags, 'dist/server/main.js'], {
    env: {
      ...process.env, ...env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn',
      DATABASE_URL: '', DATABASE_READ_URL: '', ...(contentDir ? { CONTENT_DIR: resolve(contentDir) } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await untilReady(base, child);
    const afterStart = memoryOf(child.pid!);
    const loaded = await load(base);
    const failed = [...loaded.failed].map(([status, n]) => `${n} × ${status}`).join(', ');
    if (failed) console.log(`  of ${loaded.pages + loaded.searches} requests, ${failed} (not 200)`);
    return { afterStart, afterLoad: memoryOf(child.pid!), load: loaded };
  } finally {
    await stop(child);
  }
}

const start = startCommand();
execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
console.log(`${Object.entries(start.env).map(([k, v]) => `${k}=${v} `).join('')}node ${[...start.flags, 'dist/server/main.js'].join(' ')}, ${runs} run${runs === 1 ? '' : 's'}, content ${contentDir ?? 'content (the sample)'}`);
const results: Record<'first' | 'restart', Figures[]> = { first: [], restart: [] };
for (let run = 0; run < runs; run++) {
  const dataDir = await mkdtemp(join(tmpdir(), 'signpost-bench-memory-'));
  try {
    results.first.push(await measure(dataDir, start));
    results.restart.push(await measure(dataDir, start));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const mb = (n: number) => `${n.toFixed(0)} MB`;
for (const [start, label] of [['first', 'first start (fresh data)'], ['restart', 'restart (stored data)']] as const) {
  console.log(label);
  for (const [when, name] of [['afterStart', 'after /readyz'], ['afterLoad', 'after the load']] as const) {
    const list = results[start].map((figures) => figures[when]);
    const field = (key: keyof Memory) => `${mb(median(list.map((m) => m[key])))} [${list.map((m) => m[key].toFixed(0)).join(', ')}]`;
    console.log(`  ${name.padEnd(15)} VmRSS ${field('rssMb')}, of it WebAssembly ${field('wasmMb')}; VmHWM ${field('hwmMb')}`);
  }
  const loads = results[start].map((figures) => figures.load);
  const ms = (list: number[]) => `${median(list).toFixed(0)} ms [${list.map((n) => n.toFixed(0)).join(', ')}]`;
  console.log(`  the load: ${loads[0]?.pages ?? 0} pages in ${ms(loads.map((l) => l.pagesMs))}, ${loads[0]?.searches ?? 0} searches in ${ms(loads.map((l) => l.searchesMs))}`);
}
