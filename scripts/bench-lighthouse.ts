/**
 * Lighthouse's mobile profile (its default: a mid-range phone on a slow 4G link, simulated) on four page
 * types of the production build: home, a topic, a knowledge-base article and a results page, each run
 * --runs times (default 3), medians of the performance score, total blocking time, first and largest
 * contentful paint and the bytes transferred. Pages are found from the sitemap, not named.
 *
 * Lighthouse is not a dependency of the project: it is run with `npx lighthouse@12.2.3` (the last release
 * that runs on Node 20), fetched once into npm's cache, or from LIGHTHOUSE (a path to its CLI) when set.
 * Chromium is Debian's (CHROMIUM, default /usr/bin/chromium).
 *
 * Lighthouse slows the host's CPU by a fixed factor (4), calibrated for a high-end desktop; the work it
 * observes on a slower or busier host is multiplied by the same factor. Each run's benchmark index (the
 * host's speed as Lighthouse measured it during the run) is printed beside its score, so a score can be
 * read against the machine it came from; --cpu-slowdown N runs with another factor, as Lighthouse's
 * throttling guide recommends for hosts outside the desktop class (the default run stays the reference).
 * Usage: npm run bench:lighthouse [-- --runs 3 --content DIR --cpu-slowdown N]
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, median, option, waitFor } from './bench-http.ts';

const RUNS = Number(option('--runs') ?? 3);
const contentDir = resolve(option('--content') ?? 'content');
const chromium = process.env.CHROMIUM ?? '/usr/bin/chromium';
const slowdown = option('--cpu-slowdown');
if (slowdown !== undefined && !(Number(slowdown) > 0)) throw new Error(`--cpu-slowdown wants a positive number, not "${slowdown}"`);

interface Figures { score: number; tbt: number; fcp: number; lcp: number; bytes: number; benchmarkIndex: number }

/** One Lighthouse run of a URL, performance only, as JSON on stdout; undefined when the run failed. */
function lighthouse(url: string): Figures | undefined {
  try {
    return lighthouseRun(url);
  } catch (error) {
    console.error(`  a run of ${url} failed: ${String((error as Error).message).split('\n')[0]}`);
    return undefined;
  }
}

function lighthouseRun(url: string): Figures {
  const flags = [url, '--only-categories=performance', '--output=json', '--output-path=stdout', '--quiet',
    `--chrome-path=${chromium}`, '--chrome-flags=--headless --no-sandbox --disable-gpu --disable-background-networking',
    ...(slowdown === undefined ? [] : [`--throttling.cpuSlowdownMultiplier=${slowdown}`])];
  const [command, args] = process.env.LIGHTHOUSE ? [process.env.LIGHTHOUSE, flags] : ['npx', ['--yes', 'lighthouse@12.2.3', ...flags]];
  const out = execFileSync(command, args, { maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  const report = JSON.parse(out) as {
    categories: { performance: { score: number } }; audits: Record<string, { numericValue?: number }>; environment?: { benchmarkIndex?: number };
  };
  const audit = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round(report.categories.performance.score * 100), tbt: audit('total-blocking-time'),
    fcp: audit('first-contentful-paint'), lcp: audit('largest-contentful-paint'), bytes: audit('total-byte-weight'),
    benchmarkIndex: report.environment?.benchmarkIndex ?? Number.NaN,
  };
}

let server: ChildProcess | undefined;
const dataDir = await mkdtemp(join(tmpdir(), 'signpost-bench-lighthouse-'));
try {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'ignore' });
  const port = await freePort();
  server = spawn(process.execPath, ['dist/server/main.js'], {
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, CONTENT_DIR: contentDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/readyz`);

  // The first topic and knowledge-base article of the sitemap, told apart by their article's class.
  const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
  const found: Record<string, string> = { home: '/' };
  for (const m of sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    if (found.topic && found['KB article']) break;
    const path = new URL(m[1] ?? '/').pathname;
    const html = await (await fetch(base + path)).text();
    if (html.includes('<article class="topic">')) found.topic ??= path;
    else if (html.includes('<article class="kb-article">')) found['KB article'] ??= path;
    found['search results'] ??= `/search-results/?searchTerm=${encodeURIComponent(/<h1[^>]*>\s*([A-Za-z]{4,})/.exec(html)?.[1] ?? 'help')}`;
  }

  console.log(`Lighthouse ${process.env.LIGHTHOUSE ? `(${process.env.LIGHTHOUSE})` : '12.2.3'}, mobile profile${slowdown === undefined ? '' : `, CPU slowdown ${slowdown} (not the default 4)`}, performance; median of ${RUNS} run(s) (load ${loadavg()[0]?.toFixed(1)})`);
  console.log('benchmark index: the host\'s speed during each run as Lighthouse measured it (the default slowdown is meant for 1500–2000)');
  console.log('page             path                                              score   TBT ms   FCP ms   LCP ms   transfer');
  for (const [what, path] of Object.entries(found)) {
    const runs = Array.from({ length: RUNS }, () => lighthouse(base + path)).filter((f): f is Figures => f !== undefined);
    if (runs.length === 0) {
      console.log(`${what.padEnd(16)} ${path.slice(0, 48).padEnd(49)} every run failed`);
      continue;
    }
    const m = (pick: (f: Figures) => number) => median(runs.map(pick));
    console.log(`${what.padEnd(16)} ${path.slice(0, 48).padEnd(49)} ${String(m((f) => f.score)).padStart(5)} ${m((f) => f.tbt).toFixed(0).padStart(8)} ${m((f) => f.fcp).toFixed(0).padStart(8)} ${m((f) => f.lcp).toFixed(0).padStart(8)} ${(m((f) => f.bytes) / 1024).toFixed(1).padStart(7)} KB   (scores ${runs.map((f) => f.score).join(', ')}; benchmark index ${runs.map((f) => f.benchmarkIndex.toFixed(0)).join(', ')})`);
  }
} finally {
  // The server's data directory goes once the server has let go of it.
  if (server && server.exitCode === null) {
    const exited = new Promise((done) => server?.once('exit', done));
    server.kill('SIGTERM');
    await exited;
  }
  await rm(dataDir, { recursive: true, force: true });
}
