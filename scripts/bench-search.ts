/**
 * Search figures (npm run bench:search -- <corpus dir> [--skip-import] [--flood-only | --distinct-only]):
 *  - relevance: MRR@10 of test/fixtures/relevance.yaml over the sample content;
 *  - import and index build time of the corpus;
 *  - the engine alone, cold, one search at a time;
 *  - the search API over real HTTP against the production server in its own process, 10 concurrent
 *    connections (autocannon), database warm: distinct queries (every one a response-cache miss),
 *    broad one-word queries alone, and repeated queries (response cache warm);
 *  - a flood: BENCH_FLOOD_CONNECTIONS (500) connections of distinct searches, more than the server may
 *    run or queue (SEARCH_MAX_CONCURRENT, SEARCH_QUEUE_*): how many are shed (503 with Retry-After) and
 *    how long the answers take, served and shed;
 *  - results-page render p50 over HTTP.
 * Uses a file-backed PGlite, or with DATABASE_URL a fresh database on that server. With
 * --skip-import, DATABASE_URL (or DATA_DIR for PGlite) must name a database the corpus is already
 * imported into; it is kept. --flood-only measures the flood alone (after a warm-up): no relevance,
 * index build, engine or 10-connection figures; --distinct-only the 10 connections of distinct queries
 * alone (after a warm-up). BENCH_CONNECTIONS sets the connections of the 10-connection figures (1: one client).
 * BENCH_SERVER_LOG=file keeps the server's log lines at info (one access line per request, with its time
 * inside the server); BENCH_SERVER_PROF=dir writes the server's CPU profiles (--cpu-prof) there.
 */
import { spawn, execFileSync } from 'node:child_process';
import { openSync } from 'node:fs';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { openDb, pgliteDirFor } from '../server/db/driver.ts';
import { closeOnce, freshDb, type BenchDb } from './bench-db.ts';
import { freePort, waitFor } from './bench-http.ts';
import { migrate } from '../server/db/migrate.ts';
import { importContent, vacuumContent } from '../server/content/import.ts';
import { loadJudgements, meanReciprocalRank } from '../server/search/relevance.ts';
import { search } from '../server/search/engine.ts';
import { rebuildSearchDocuments } from '../server/search/documents.ts';
import type { SearchRequest } from '../server/search/schemas.ts';

const args = process.argv.slice(2);
const corpus = resolve(args.find((a) => !a.startsWith('--')) ?? 'content');
const skipImport = args.includes('--skip-import');
const distinctOnly = args.includes('--distinct-only');
/** Only the figures asked for: no relevance, index build, engine, other API or results-page figures. */
const only = distinctOnly || args.includes('--flood-only');
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);
const REQUESTS = Number(process.env.BENCH_REQUESTS || 1000);
/** Requests sent before measuring, so the server process is warm (JIT, pools, page cache). */
const WARMUP = 200;
const FLOOD_CONNECTIONS = Number(process.env.BENCH_FLOOD_CONNECTIONS || 500);
const FLOOD_REQUESTS = Number(process.env.BENCH_FLOOD_REQUESTS || 5000);
const API = '/gateway/api/help-content/v2/search';
const pct = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * p))] ?? 0;
const ms = (n: number) => `${n.toFixed(1)} ms`;
const figures = (list: number[]) => `p50 ${ms(pct(list, 0.5))}, p95 ${ms(pct(list, 0.95))}, p99 ${ms(pct(list, 0.99))}`;

// Relevance on the sample content (in memory).
if (!only) {
  const db = await openDb({ pgliteDir: 'memory://' });
  await migrate(db);
  await importContent(db, resolve('content'));
  const { mrr, queries } = await meanReciprocalRank(db, await loadJudgements(resolve('test/fixtures/relevance.yaml')));
  console.log(`relevance       MRR@10 ${mrr.toFixed(3)} over ${queries} judged queries (goal 0.93; npm run bench:relevance for every set)`);
  await db.close();
}

let bench: BenchDb;
if (skipImport) {
  const url = process.env.DATABASE_URL;
  const dataDir = process.env.DATA_DIR;
  if (!url && !dataDir) throw new Error('--skip-import needs DATABASE_URL or DATA_DIR naming a database with the corpus imported');
  const db = closeOnce(await openDb({ databaseUrl: url, pgliteDir: dataDir ? pgliteDirFor(dataDir) : '' }));
  bench = { db, env: url ? { DATABASE_URL: url } : { DATA_DIR: dataDir as string }, done: () => db.close() };
} else {
  bench = await freshDb();
}
const { db } = bench;
let server: ReturnType<typeof spawn> | undefined;
try {
  await migrate(db);
  console.log(`engine          ${db.engine}`);
  if (!skipImport) {
    const imported = await importContent(db, corpus, { force: true });
    console.log(`corpus          ${corpus}: ${imported.entries} entries`);
    console.log(`import          ${(imported.ms.total / 1000).toFixed(1)} s (read ${(imported.ms.read / 1000).toFixed(1)} s, check ${(imported.ms.check / 1000).toFixed(1)} s, write ${(imported.ms.write / 1000).toFixed(1)} s)`);
  }
  // The search index alone, built again from the stored content: vectors, GIN indexes, kept word counts.
  if (!only) {
    const t0 = performance.now();
    await db.transaction((tx) => rebuildSearchDocuments(tx));
    await vacuumContent(db);
    console.log(`index build     ${((performance.now() - t0) / 1000).toFixed(1)} s (search table: weighted vectors, GIN indexes, word counts)`);
  }
  const [{ documents } = { documents: 0 }] = await db.query<{ documents: number }>('select count(*)::int as documents from search_documents');
  console.log(`searchable      ${documents} documents`);

  // Broad words (most frequent), selective words, pairs, typos, filters and later pages.
  // Words the search would not drop as stop words.
  const vocab = await db.query<{ word: string }>(
    `select word from search_vocabulary where length(word) > 4 and numnode(plainto_tsquery('english', word)) > 0 order by frequency desc, word`);
  const words = vocab.map((v) => v.word);
  const broad = words.slice(0, 8);
  const products = (await db.query<{ key: string }>(`select distinct product_name_id as key from search_facet_keys where product_name_id is not null order by 1`)).map((p) => p.key);
  const typo = (w: string) => `${w.slice(0, -2)}${w.at(-1)}${w.at(-2)}`;
  const distinct: SearchRequest[] = [];
  const broadOnly: SearchRequest[] = [];
  for (let i = 0; distinct.length < REQUESTS + WARMUP; i++) {
    const word = words[(i * 37) % words.length] ?? 'configure';
    const other = broad[i % broad.length] ?? 'configure';
    const product = products[i % Math.max(1, products.length)];
    const pagination = { from: (i % 3) * 10, size: 10 };
    switch (i % 10) {
      case 0: {
        const request = { query: other, pagination, ...(i % 20 === 0 ? {} : { sort: { by: 'last_published' as const } }) };
        if (i % 20 === 0 && broadOnly.length < 24) broadOnly.push({ query: other, pagination: { from: (broadOnly.length % 3) * 10, size: 10 } });
        distinct.push(request);
        break;
      }
      case 1: distinct.push({ query: `${word} ${other}`, pagination }); break;
      case 2: distinct.push({ query: typo(word), pagination }); break;
      case 3: distinct.push({ query: other, pagination, facetFilters: product ? { products: [{ platform: i % 2 ? 'cloud' : 'data_center', key: product }] } : {} }); break;
      case 4: distinct.push({ query: word, pagination, facetFilters: { contentTypes: ['kb_article'] } }); break;
      default: distinct.push({ query: word, pagination });
    }
  }
  const warmup = distinct.splice(0, WARMUP);
  const repeated = distinct.slice(0, 50);
  console.log(`queries         ${distinct.length} distinct; broad one-word: ${broad.join(', ')}`);

  // Cold: the engine itself, one search at a time, no response cache.
  const cold: number[] = [];
  const coldBroad: number[] = [];
  for (const [i, request] of (only ? [] : [...broadOnly.slice(0, 8), ...distinct.slice(0, 100)]).entries()) {
    const s = performance.now();
    await search(db, request);
    const took = performance.now() - s;
    cold.push(took);
    if (i < 8) coldBroad.push(took);
  }
  if (!only) console.log(`engine, cold    1 client, ${cold.length} searches: ${figures(cold)}; broad words alone ${figures(coldBroad)}`);
  await db.close();

  // The production server in its own process, on the same database.
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'ignore' });
  const port = await freePort();
  server = spawn(process.execPath, [...(process.env.BENCH_SERVER_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROF}`] : []), 'dist/server/main.js'], {
    env: { ...process.env, ...bench.env, PORT: String(port), HOST: '127.0.0.1', IMPORT_ON_START: 'false', CONTENT_DIR: corpus, LOG_LEVEL: process.env.BENCH_SERVER_LOG ? 'info' : 'warn' },
    stdio: ['ignore', process.env.BENCH_SERVER_LOG ? openSync(process.env.BENCH_SERVER_LOG, 'w') : 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/robots.txt`);

  const load = async (label: string, bodies: SearchRequest[], amount: number, report = true) => {
    const latencies: number[] = [];
    let next = 0;
    const slices = Array.from({ length: CONNECTIONS }, (_, c) => bodies.filter((_, i) => i % CONNECTIONS === c));
    let failed = 0;
    // Shed by the bound in front of the database (SEARCH_QUEUE_TIMEOUT_MS on a slow machine): counted, not a failure.
    let shed = 0;
    // Throughput to the last answer: the load tool finishes on its next one-second tick.
    const started = performance.now();
    let lastAnswer = started;
    const result = await new Promise<autocannon.Result>((done, reject) => {
      const instance = autocannon({
        url: base,
        connections: CONNECTIONS,
        amount,
        requests: [{ method: 'POST', path: API }],
        setupClient: (client) => {
          const mine = slices[next++ % CONNECTIONS] ?? [];
          client.setRequests(mine.map((body) => ({ method: 'POST', path: API, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })));
        },
      }, (error, finished) => (error ? reject(error) : done(finished)));
      instance.on('response', (_client, status, _bytes, took) => {
        lastAnswer = performance.now();
        if (status === 200) latencies.push(took);
        else if (status === 503) shed += 1;
        else failed += 1;
      });
    });
    if (failed > 0 || result.errors > 0) throw new Error(`${label}: ${failed} answers other than 200, ${result.errors} errors`);
    if (report) console.log(`${label.padEnd(15)} ${CONNECTIONS} connections, ${latencies.length} requests: ${figures(latencies)}; ${(latencies.length / ((lastAnswer - started) / 1000)).toFixed(0)} req/s${shed ? `; ${shed} shed (503)` : ''}`);
  };
  await load('warm-up', warmup, warmup.length, false);
  if (distinctOnly) await load('API distinct', distinct, distinct.length);
  if (!only) {
    await load('API distinct', distinct, distinct.length);
    await load('API broad', broadOnly.map((b) => ({ ...b, highlights: { enable: true } })), broadOnly.length);
    await load('API repeated', repeated, REQUESTS);
  }

  // The flood: word pairs not asked before (every one a response-cache miss), each connection sending
  // its next one as soon as it has an answer, whatever the answer is.
  if (!distinctOnly) {
    const n = Math.max(1, words.length);
    const bodies = Array.from({ length: FLOOD_REQUESTS }, (_, i) => JSON.stringify({
      query: `${words[(i * 53 + 11) % n] ?? 'configure'} ${words[(i * 91 + 7) % n] ?? 'install'}`, pagination: { from: 0, size: 10 },
    }));
    const servedFirst: number[] = [];
    const servedLater: number[] = [];
    const answered = new WeakSet<object>();
    const shed: number[] = [];
    let other = 0;
    let next = 0;
    const started = performance.now();
    const result = await new Promise<autocannon.Result>((done, reject) => {
      const instance = autocannon({
        url: base,
        connections: FLOOD_CONNECTIONS,
        amount: FLOOD_REQUESTS,
        timeout: 60,
        requests: [{ method: 'POST', path: API }],
        setupClient: (client) => {
          const c = next++;
          client.setRequests(bodies.filter((_, i) => i % FLOOD_CONNECTIONS === c)
            .map((body) => ({ method: 'POST', path: API, headers: { 'content-type': 'application/json' }, body })));
        },
      }, (error, finished) => (error ? reject(error) : done(finished)));
      instance.on('response', (client, status, _bytes, took) => {
        // A connection's first answer waits for the connection to be accepted and read, behind the
        // requests of those already open: told apart, so the figures show where the time goes.
        const first = !answered.has(client);
        answered.add(client);
        if (status === 200) (first ? servedFirst : servedLater).push(took);
        else if (status === 503) shed.push(took);
        else other += 1;
      });
    });
    const seconds = (performance.now() - started) / 1000;
    const served = [...servedFirst, ...servedLater];
    const all = [...served, ...shed];
    console.log(`API flood       ${FLOOD_CONNECTIONS} connections, ${all.length} distinct searches in ${seconds.toFixed(1)} s: `
      + `${shed.length} shed (${((shed.length / Math.max(1, all.length)) * 100).toFixed(0)} %), ${other} other answers, ${result.errors} errors, ${result.timeouts} time-outs`);
    console.log(`                every answer ${figures(all)}; served ${figures(served)}; shed ${figures(shed)}`);
    console.log(`                served as a connection's first answer (${servedFirst.length}): ${figures(servedFirst)}; served later on its connection (${servedLater.length}): ${figures(servedLater)}`);
  }

  const page: number[] = [];
  for (let i = 0; i < (only ? 0 : 60); i++) {
    const term = distinct[(i * 7) % distinct.length]?.query ?? 'configure';
    const s = performance.now();
    const res = await fetch(`${base}/search-results/?searchTerm=${encodeURIComponent(term)}&page=${(i % 2) + 1}`);
    await res.text();
    page.push(performance.now() - s);
    if (res.status !== 200) throw new Error(`results page answered ${res.status}`);
  }
  if (!only) console.log(`results page    ${figures(page)} (one at a time over HTTP, search included)`);
} finally {
  if (server) {
    server.kill('SIGTERM');
    await new Promise((r) => server?.once('exit', r));
  }
  await bench.done();
}
