// Start-up figures: `npm start` on an empty data directory (build, create PGlite, migrate, listen, then
// import the content tree in the background) to the first 200 of /healthz (serving) and of /readyz
// (content imported), then a restart with the data already there. A page (--page, `/` by default) is
// asked for from the first 200 of /healthz on: what it answers until the import is stored (503 'starting')
// and when it first answers 200.
//
//   npm run bench:start [-- --content /tmp/corpus-3k] [--page /some/page]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const port = Number(process.env.BENCH_PORT || 3999);
// How long each start may take to be ready (a 10 000-document first import on a loaded machine takes minutes).
const deadlineMs = Number(process.env.BENCH_DEADLINE_S || 600) * 1000;
const contentArg = process.argv.indexOf('--content');
const contentDir = contentArg > 0 ? resolve(process.argv[contentArg + 1]) : undefined;
const pageArg = process.argv.indexOf('--page');
const pagePath = pageArg > 0 ? process.argv[pageArg + 1] : '/';
const dataDir = await mkdtemp(join(tmpdir(), 'signpost-bench-'));

async function until200(path, started, deadline) {
  while (performance.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      if (res.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return NaN;
}

/** The statuses a path answered (with how often) until its first 200, and when that was. */
async function pageUntil200(path, started, deadline) {
  const seen = new Map();
  while (performance.now() < deadline) {
    const res = await fetch(`http://127.0.0.1:${port}${path}`).catch(() => undefined);
    if (res) {
      await res.arrayBuffer();
      if (res.status === 200) return { ms: performance.now() - started, seen };
      const key = `${res.status}${res.headers.get('retry-after') ? ' (Retry-After)' : ''}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { ms: NaN, seen };
}

async function timeToFirst200(label) {
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...(contentDir ? { CONTENT_DIR: contentDir } : {}) },
    stdio: ['ignore', 'ignore', 'inherit'], detached: true,
  });
  const deadline = started + deadlineMs;
  const serving = await until200('/healthz', started, deadline);
  const [page, ready] = await Promise.all([pageUntil200(pagePath, started, deadline), until200('/readyz', started, deadline)]);
  process.kill(-child.pid, 'SIGTERM');
  await new Promise((r) => child.once('exit', r));
  // npm exits before the server has closed: wait until it let go of the data directory's lock.
  for (let i = 0; i < 1200 && existsSync(join(dataDir, 'pglite.lock')); i++) await new Promise((r) => setTimeout(r, 50));
  console.log(`${label.padEnd(28)} ${(serving / 1000).toFixed(2)} s to the first 200 (/healthz), ${(ready / 1000).toFixed(2)} s to ready (/readyz: content stored)`);
  const before = [...page.seen].map(([status, n]) => `${n}× ${status}`).join(', ') || 'nothing else';
  console.log(`${''.padEnd(28)} ${(page.ms / 1000).toFixed(2)} s to the first 200 of ${pagePath}; before it: ${before}`);
  return serving;
}

try {
  if (contentDir) console.log(`content: ${contentDir}`);
  const first = await timeToFirst200('first start (fresh data)');
  const again = await timeToFirst200('restart (existing data)');
  console.log(`restart / first start = ${(again / first).toFixed(2)}`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
