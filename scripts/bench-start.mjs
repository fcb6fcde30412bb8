// Start-up figures: `npm start` on an empty data directory (build, create PGlite, migrate, import the
// sample content, listen) to the first 200 response, then a restart with the data already there.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const port = Number(process.env.BENCH_PORT || 3999);
const dataDir = await mkdtemp(join(tmpdir(), 'signpost-bench-'));

async function timeToFirst200(label) {
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'], detached: true,
  });
  const deadline = started + 60_000;
  while (performance.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const ms = performance.now() - started;
  process.kill(-child.pid, 'SIGTERM');
  await new Promise((r) => child.once('exit', r));
  console.log(`${label.padEnd(28)} ${(ms / 1000).toFixed(2)} s to the first 200`);
  return ms;
}

try {
  const first = await timeToFirst200('first start (fresh data)');
  const again = await timeToFirst200('restart (existing data)');
  console.log(`restart / first start = ${(again / first).toFixed(2)}`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
