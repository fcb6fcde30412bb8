/**
 * npm run bench:dev -- [dir]: how long live preview takes from a save to the new content being served:
 * a copy of the tree (default: the sample content) on a fresh PGlite data directory, one topic changed
 * at a time, re-read, checked and imported (only its rows written). Prints the median and slowest of the runs.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Fastify from 'fastify';
import { loadConfig } from '../server/config.ts';
import app, { serverOptions } from '../server/app.ts';
import dev from '../server/dev/plugin.ts';
import { listContentFiles } from '../server/content/load.ts';
import { formatProblem, type Problem } from '../server/content/problems.ts';

const source = resolve(process.argv[2] ?? 'content');
const runs = Number(process.env.RUNS ?? 5);
let closeServer = async () => {};
const dir = await mkdtemp(join(tmpdir(), 'signpost-bench-dev-'));
try {
  await cp(source, join(dir, 'content'), { recursive: true });
  const contentDir = join(dir, 'content');
  const config = loadConfig({ ...process.env, CONTENT_DIR: contentDir, DATA_DIR: join(dir, 'data'), IMPORT_ON_START: 'false', LOG_LEVEL: 'silent', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' });
  const server = Fastify({ ...serverOptions, logger: false });
  closeServer = () => server.close();
  await server.register(dev, { contentDir, watch: false });
  const t0 = performance.now();
  await server.register(app, { config });
  await server.ready();
  await server.dev.ready;
  console.log(`first import of ${(await listContentFiles(contentDir)).length} files: ${Math.round(performance.now() - t0)} ms (start-up included)`);
  const topics = (await listContentFiles(contentDir)).filter((p) => p.startsWith('topics/') && p.endsWith('.md'));
  const times: number[] = [];
  const steps: { read: number; check: number; write: number }[] = [];
  for (let i = 0; i < runs; i++) {
    const file = topics[(i * 7) % topics.length] as string;
    const text = await readFile(join(contentDir, file), 'utf8');
    await writeFile(join(contentDir, file), `${text}\nEdited ${i}.\n`);
    const start = performance.now();
    const status = await server.dev.update([file]);
    const ms = performance.now() - start;
    if (status.problems.length > 0) throw new Error(`${file}: ${status.problems.length} problems, first ${formatProblem(status.problems[0] as Problem)}`);
    times.push(ms);
    if (status.steps) steps.push(status.steps);
  }
  const median = (values: number[]) => Math.round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0);
  console.log(`median steps: re-read the changed file ${median(steps.map((s) => s.read))} ms, whole-tree checks ${median(steps.map((s) => s.check))} ms, ` +
    `write ${median(steps.map((s) => s.write))} ms`);
  times.sort((a, b) => a - b);
  console.log(`save to served, ${runs} saves: median ${Math.round(times[Math.floor(runs / 2)] as number)} ms, slowest ${Math.round(times[runs - 1] as number)} ms`);
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await closeServer();
  await rm(dir, { recursive: true, force: true });
}
