/**
 * Search figures (npm run bench:search -- <corpus dir> [--skip-import]):
 *  - relevance: MRR@10 of test/fixtures/relevance.yaml over the sample content;
 *  - import and index build time of the corpus;
 *  - API latency p50/p95/p99 and throughput with 10 concurrent clients, warm, broad one-word queries
 *    included; results-page render p50.
 * Uses a file-backed PGlite, or with DATABASE_URL a fresh database on that server.
 */
import { resolve } from 'node:path';
import Fastify from 'fastify';
import app, { serverOptions } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDb } from '../server/db/driver.ts';
import { freshDb } from './bench-db.ts';
import { migrate } from '../server/db/migrate.ts';
import { importContent } from '../server/content/import.ts';
import { loadJudgements, meanReciprocalRank } from '../server/search/relevance.ts';

const args = process.argv.slice(2);
const corpus = resolve(args.find((a) => !a.startsWith('--')) ?? 'content');
const CLIENTS = 10;
const REQUESTS = Number(process.env.BENCH_REQUESTS || 600);
const pct = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * p))] ?? 0;
const ms = (n: number) => `${n.toFixed(1)} ms`;

// Relevance on the sample content (in memory).
{
  const db = await openDb({ pgliteDir: 'memory://' });
  await migrate(db);
  await importContent(db, resolve('content'));
  const { mrr, queries } = await meanReciprocalRank(db, await loadJudgements(resolve('test/fixtures/relevance.yaml')));
  console.log(`relevance       MRR@10 ${mrr.toFixed(3)} over ${queries} judged queries (target 0.8)`);
  await db.close();
}

const { db, done } = await freshDb();
try {
  await migrate(db);
  const imported = await importContent(db, corpus, { force: true });
  console.log(`engine          ${db.engine}`);
  console.log(`corpus          ${corpus}: ${imported.entries} entries`);
  console.log(`import          ${(imported.ms.total / 1000).toFixed(1)} s (read ${(imported.ms.read / 1000).toFixed(1)} s, check ${(imported.ms.check / 1000).toFixed(1)} s, write ${(imported.ms.write / 1000).toFixed(1)} s)`);
  const t0 = performance.now();
  await db.exec('reindex table search_documents; reindex index search_vocabulary_trgm_idx; analyze search_documents; analyze content_entries');
  console.log(`index build     ${((performance.now() - t0) / 1000).toFixed(1)} s (GIN full text, title/description and trigram indexes, rebuilt)`);

  const server = Fastify({ ...serverOptions, logger: false });
  await server.register(app, { config: loadConfig({ LOG_LEVEL: 'silent', IMPORT_ON_START: 'false', CONTENT_DIR: corpus }), db });
  await server.ready();

  // Broad words (most frequent), selective words, pairs, a typo, and filtered searches.
  const vocab = await db.query<{ word: string; frequency: number }>('select word, frequency from search_vocabulary where length(word) > 4 order by frequency desc');
  const broad = vocab.slice(0, 8).map((v) => v.word);
  const selective = vocab.filter((_, i) => i % 97 === 50).slice(0, 20).map((v) => v.word);
  const pairs = selective.slice(0, 10).map((w, i) => `${w} ${broad[i % broad.length]}`);
  const products = await db.query<{ key: string }>(`select distinct product_name_id as key from content_entries where product_name_id is not null limit 4`);
  const bodies: Record<string, unknown>[] = [
    ...broad.map((query) => ({ query })),
    ...selective.map((query) => ({ query })),
    ...pairs.map((query) => ({ query })),
    ...selective.slice(0, 5).map((w) => ({ query: `${w.slice(0, -2)}${w.at(-1)}${w.at(-2)}` })),
    ...products.map((p, i) => ({ query: broad[i] ?? 'configure', facetFilters: { products: [{ platform: 'data_center', key: p.key }] } })),
  ];
  console.log(`queries         ${bodies.length} kinds; broad one-word: ${broad.join(', ')}`);
  const post = (payload: Record<string, unknown>) => server.inject({ method: 'POST', url: '/gateway/api/help-content/v2/search', payload });

  // Cold: every query run by the engine itself, one at a time, no response cache.
  const { search } = await import('../server/search/engine.ts');
  const cold: number[] = [];
  const coldBroad: number[] = [];
  for (const b of [...bodies, ...bodies]) {
    const s = performance.now();
    await search(db, { pagination: { from: 0, size: 10 }, ...b } as Parameters<typeof search>[1]);
    const took = performance.now() - s;
    cold.push(took);
    if (broad.includes(String(b.query)) && !b.facetFilters) coldBroad.push(took);
  }
  console.log(`engine, cold    1 client, ${cold.length} searches: p50 ${ms(pct(cold, 0.5))}, p95 ${ms(pct(cold, 0.95))}, p99 ${ms(pct(cold, 0.99))}; broad words p50 ${ms(pct(coldBroad, 0.5))}`);
  for (const b of bodies) await post(b);

  const latencies: number[] = [];
  const broadLatencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (next < REQUESTS) {
      const body = bodies[next++ % bodies.length] as Record<string, unknown>;
      const s = performance.now();
      const res = await post(body);
      const took = performance.now() - s;
      if (res.statusCode !== 200) throw new Error(`search failed: ${res.statusCode} ${res.body}`);
      latencies.push(took);
      if (broad.includes(String(body.query)) && !body.facetFilters) broadLatencies.push(took);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  console.log(`search API warm ${CLIENTS} clients, ${latencies.length} requests: p50 ${ms(pct(latencies, 0.5))}, p95 ${ms(pct(latencies, 0.95))}, p99 ${ms(pct(latencies, 0.99))}; ${(latencies.length / seconds).toFixed(0)} req/s`);
  console.log(`  broad words   p50 ${ms(pct(broadLatencies, 0.5))}, p95 ${ms(pct(broadLatencies, 0.95))}`);

  const page: number[] = [];
  for (let i = 0; i < 60; i++) {
    const s = performance.now();
    await server.inject(`/search-results/?searchTerm=${encodeURIComponent(String(bodies[i % bodies.length]?.query))}`);
    page.push(performance.now() - s);
  }
  console.log(`results page    p50 ${ms(pct(page, 0.5))}, p95 ${ms(pct(page, 0.95))} (one at a time, search included)`);
  await server.close();
} finally {
  await done();
}
