/**
 * Page budgets (issue: every page server-rendered): compressed HTML of a topic page, compressed CSS,
 * render-blocking scripts, and server render time of a topic page (CPU time per request, p50/p95), rendered
 * and answered from the page cache.
 * Usage: npm run bench:pages
 */
import { gzipSync, brotliCompressSync } from 'node:zlib';
import Fastify from 'fastify';
import app, { serverOptions } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDb } from '../server/db/driver.ts';
import { migrate } from '../server/db/migrate.ts';

const TOPIC = '/tracklight-cloud/docs/write-rich-issue-descriptions';
const PAGES = ['/', '/tracklight-cloud/docs', '/tracklight-cloud/docs/search-and-filters', TOPIC, '/tracklight/kb/cluster-node-stuck-starting'];
const RUNS = Number(process.env.BENCH_RUNS || 400);

const db = await openDb({ pgliteDir: 'memory://' });
await migrate(db);
const server = Fastify({ ...serverOptions, logger: false });
await server.register(app, { config: loadConfig({ LOG_LEVEL: 'silent' }), db });
await server.ready();
// The import at start runs in the background: measure the pages, not the not-found page.
await server.contentReady;

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log('page                                           html      gzip    brotli');
for (const path of PAGES) {
  const body = (await server.inject(path)).rawPayload;
  console.log(`${path.padEnd(46)} ${kb(body.length).padStart(8)} ${kb(gzipSync(body).length).padStart(8)} ${kb(brotliCompressSync(body).length).padStart(8)}`);
}
const topic = (await server.inject(TOPIC)).body;
const css = /href="(\/assets\/main\.[^"]+\.css)"/.exec(topic)?.[1] ?? '';
const cssBody = (await server.inject(css)).rawPayload;
console.log(`\nCSS ${css}: ${kb(cssBody.length)}, ${kb(gzipSync(cssBody).length)} gzip (budget 20 KB)`);
const blocking = [...topic.matchAll(/<script(?![^>]*(?:type="module"|\bdefer\b|\basync\b))[^>]*>/g)].length;
console.log(`render-blocking scripts on the topic page: ${blocking} (budget 0)`);

// Warm up, then time the server's CPU per request for the topic page.
for (let i = 0; i < 50; i++) await server.inject(TOPIC);
const cpu: number[] = [];
const wall: number[] = [];
for (let i = 0; i < RUNS; i++) {
  // The render itself, not the page cache's copy of it.
  server.pageCopies.clear();
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  await server.inject(TOPIC);
  wall.push(performance.now() - w0);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
}
const pct = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * p))] ?? 0;
console.log(`topic page, ${RUNS} requests: CPU p50 ${pct(cpu, 0.5).toFixed(2)} ms, p95 ${pct(cpu, 0.95).toFixed(2)} ms; ` +
  `wall p50 ${pct(wall, 0.5).toFixed(2)} ms (budget: CPU p50 3 ms)`);

// The same page answered from the page cache (kept once, then every request a hit).
const hitCpu: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const c0 = process.cpuUsage();
  await server.inject({ url: TOPIC, headers: { 'accept-encoding': 'br' } });
  const c = process.cpuUsage(c0);
  hitCpu.push((c.user + c.system) / 1000);
}
console.log(`topic page from the page cache (brotli), ${RUNS} requests: CPU p50 ${pct(hitCpu, 0.5).toFixed(2)} ms, p95 ${pct(hitCpu, 0.95).toFixed(2)} ms`);

await server.close();
await db.close();
