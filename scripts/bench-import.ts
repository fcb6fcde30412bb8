/**
 * Import figures for a content tree, into a fresh file-backed PGlite (default) or a fresh database on
 * DATABASE_URL: the wall and CPU time of each phase (reading, hashing the images, parsing, checking,
 * rendering, each part of the write, the commit and the vacuum), the total and the rate. CPU time is
 * the process's, PGlite's worker thread included: on a busy machine it is the steadier figure. Also the
 * longest the event loop was blocked during the import (what a server importing while it serves would
 * make a request wait).
 * Usage: npm run bench:import -- [dir] [--unsanitised]
 * --unsanitised parses raw HTML in bodies without checking or sanitising it (a benchmark-only switch),
 * to compare the sanitiser's cost.
 */
import { resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { freshDb } from './bench-db.ts';
import { migrate } from '../server/db/migrate.ts';
import { importContent } from '../server/content/import.ts';
import { PhaseClock } from '../server/content/phases.ts';
import { sanitiserBenchmark } from '../server/content/markdown/html.ts';

const args = process.argv.slice(2);
sanitiserBenchmark.bypass = args.includes('--unsanitised');
const dir = resolve(args.find((a) => !a.startsWith('--')) ?? 'content');
const { db, done: cleanup } = await freshDb();
try {
  await migrate(db);
  const memBefore = process.memoryUsage().rss;
  const cpuBefore = process.cpuUsage();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const clock = new PhaseClock();
  // Which phase the longest block ended in: a 10 ms timer that fires late was held up by it.
  let longest = { ms: 0, phase: '' };
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    if (now - last - 10 > longest.ms) longest = { ms: now - last - 10, phase: clock.current ?? 'between phases' };
    last = now;
  }, 10);
  loop.enable();
  const result = await importContent(db, dir, { force: true, clock });
  loop.disable();
  clearInterval(probe);
  const cpu = process.cpuUsage(cpuBefore);
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`.padStart(8);
  console.log(`engine         ${db.engine}`);
  console.log(`content        ${dir}${sanitiserBenchmark.bypass ? ' (raw HTML not sanitised)' : ''}`);
  console.log(`entries        ${result.entries} (${result.routes} page routes)`);
  console.log('phase              wall       cpu');
  for (const phase of result.phases) console.log(`${phase.name.padEnd(16)} ${s(phase.ms)}  ${s(phase.cpuMs)}`);
  console.log(`${'total'.padEnd(16)} ${s(result.ms.total)}  ${s((cpu.user + cpu.system) / 1000)}`);
  console.log(`rate           ${Math.round(result.entries / (result.ms.total / 1000))} entries/s, ${Math.round(result.routes / (result.ms.total / 1000))} pages/s`);
  console.log(`longest block  ${Math.round(loop.max / 1e6)} ms (event loop, p99 ${Math.round(loop.percentile(99) / 1e6)} ms; ${Math.round(longest.ms)} ms in ${longest.phase})`);
  console.log(`rss growth     ${Math.round((process.memoryUsage().rss - memBefore) / 1e6)} MB`);
} finally {
  await cleanup();
}
