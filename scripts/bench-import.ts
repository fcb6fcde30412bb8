/**
 * Import figures for a content tree: read, check and write times and entries per second, into a
 * fresh file-backed PGlite (default) or a fresh database on DATABASE_URL.
 * Usage: npm run bench:import -- [dir] [--unsanitised]
 * --unsanitised parses raw HTML in bodies without checking or sanitising it (a benchmark-only switch),
 * to compare the sanitiser's cost.
 */
import { resolve } from 'node:path';
import { freshDb } from './bench-db.ts';
import { migrate } from '../server/db/migrate.ts';
import { importContent } from '../server/content/import.ts';
import { sanitiserBenchmark } from '../server/content/markdown/html.ts';

const args = process.argv.slice(2);
sanitiserBenchmark.bypass = args.includes('--unsanitised');
const dir = resolve(args.find((a) => !a.startsWith('--')) ?? 'content');
const { db, done: cleanup } = await freshDb();
try {
  await migrate(db);
  const memBefore = process.memoryUsage().rss;
  const result = await importContent(db, dir, { force: true });
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`engine         ${db.engine}`);
  console.log(`content        ${dir}${sanitiserBenchmark.bypass ? ' (raw HTML not sanitised)' : ''}`);
  console.log(`entries        ${result.entries} (${result.routes} page routes)`);
  console.log(`read+parse     ${s(result.ms.read)}`);
  console.log(`check+render   ${s(result.ms.check)}`);
  console.log(`write (1 tx)   ${s(result.ms.write)}`);
  console.log(`total          ${s(result.ms.total)}  (${Math.round(result.entries / (result.ms.total / 1000))} entries/s)`);
  console.log(`rss growth     ${Math.round((process.memoryUsage().rss - memBefore) / 1e6)} MB`);
} finally {
  await cleanup();
}
