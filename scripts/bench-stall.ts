/**
 * Does one expensive search stall the site? (npm run bench:stall -- [corpus dir] [--rounds 3])
 * The production server in its own process on a file-backed PGlite (or DATABASE_URL) with the
 * corpus imported (the sample content by default). Each round: one client fetches cached topic
 * pages back to back for a while alone, then again while 4 clients send long CJK queries to the
 * search API (240 characters, every one different, half of them 30 words with spaces, 2.6
 * requests per second in total, each client waiting for its answer before the next). Prints the topic pages' p50/p95/p99 without and with
 * the searches, the search latencies, and the medians over the rounds.
 */
import { spawn, execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { importContent } from '../server/content/import.ts';
import { migrate } from '../server/db/migrate.ts';
import { freshDb } from './bench-db.ts';
import { freePort, waitFor } from './bench-http.ts';

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 3;
const corpus = resolve(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--rounds') ?? 'content');
const PHASE_MS = Number(process.env.BENCH_PHASE_MS || 15_000);
const SEARCH_CLIENTS = 4;
const SEARCHES_PER_SECOND = 2.6;
const QUERY_LENGTH = 240;
const API = '/gateway/api/help-content/v2/search';

const pct = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * p))] ?? 0;
const median = (list: number[]) => pct(list, 0.5);
const ms = (n: number) => `${n.toFixed(0)} ms`.padStart(8);
const figures = (list: number[]) => `p50 ${ms(pct(list, 0.5))}, p95 ${ms(pct(list, 0.95))}, p99 ${ms(pct(list, 0.99))} (${list.length})`;

// Words a visitor might type, and random characters, so every query is different (no cache hit).
const WORDS = ['シングルサインオン', '設定', '属性のマッピング', 'プロビジョニング', '退職者', 'アカウント', '無効化', '認証',
  '監査ログ', '管理者', 'ユーザー', 'パスワード', '二要素認証', '组织', '用户', '权限', '配置', '同步', '登录', '问题'];
let seed = 42;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const kanji = () => String.fromCharCode(0x4e00 + Math.floor(random() * 0x5000));
/**
 * Half are 30 words of 7 characters with spaces (many terms, within the 32 words a search may
 * have), half one unbroken run (one long term).
 */
function cjkQuery(i: number): string {
  const chunk = () => {
    let word = '';
    while (word.length < 7) word += random() < 0.5 ? WORDS[Math.floor(random() * WORDS.length)] ?? '設定' : kanji() + kanji() + kanji();
    return word.slice(0, 7);
  };
  const terms = Array.from({ length: 30 }, chunk);
  return (i % 2 === 0 ? terms.join(' ') : terms.join('')).slice(0, QUERY_LENGTH).padEnd(QUERY_LENGTH, kanji());
}

const bench = await freshDb();
let server: ReturnType<typeof spawn> | undefined;
try {
  await migrate(bench.db);
  const imported = await importContent(bench.db, corpus, { force: true });
  const topics = (await bench.db.query<{ path: string }>(
    `select r.path from content_routes r join content_entries e on e.id = r.entry_id
     where e.type = 'topic' and e.published order by r.path limit 40`)).map((r) => r.path);
  await bench.db.close();
  console.log(`corpus          ${corpus}: ${imported.entries} entries; ${topics.length} topic pages fetched in turn`);

  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'ignore' });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // On a busy machine a start can exceed the plugin timeout (issue 8, item 3): try again.
  for (let attempt = 1; ; attempt++) {
    const child = spawn(process.execPath, ['dist/server/main.js'], {
      env: { ...process.env, ...bench.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', IMPORT_ON_START: 'false', CONTENT_DIR: corpus, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    server = child;
    const exited = new Promise<'exited'>((r) => child.once('exit', () => r('exited')));
    if (await Promise.race([waitFor(`${base}/robots.txt`).then(() => 'up' as const), exited]) === 'up') break;
    server = undefined;
    if (attempt === 5) throw new Error('the server did not start in 5 attempts');
  }
  // Every topic page once, so the rest are cache hits.
  for (const path of topics) await (await fetch(base + path)).text();

  let queries = 0;
  const pages = async (until: number) => {
    const took: number[] = [];
    let failed = 0;
    for (let i = 0; performance.now() < until; i++) {
      const s = performance.now();
      const res = await fetch(base + topics[i % topics.length]);
      await res.text();
      took.push(performance.now() - s);
      if (res.status !== 200) failed += 1;
    }
    if (failed > 0) console.log(`                ${failed} topic pages answered other than 200`);
    return took;
  };
  const searches = async (until: number) => {
    const took: number[] = [];
    const statuses = new Map<number, number>();
    const interval = (1000 * SEARCH_CLIENTS) / SEARCHES_PER_SECOND;
    await Promise.all(Array.from({ length: SEARCH_CLIENTS }, async (_, c) => {
      // Clients start spread over one interval, each paced to its share of the rate.
      let due = performance.now() + (c * interval) / SEARCH_CLIENTS;
      while (due < until) {
        await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
        const s = performance.now();
        const res = await fetch(base + API, {
          method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: cjkQuery(queries++), language: 'ja' }),
        });
        await res.text();
        took.push(performance.now() - s);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        due = Math.max(due + interval, performance.now());
      }
    }));
    return { took, statuses };
  };

  const alone: number[][] = [];
  const loaded: number[][] = [];
  const searched: number[][] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const quiet = await pages(performance.now() + PHASE_MS);
    const until = performance.now() + PHASE_MS;
    const [busy, search] = await Promise.all([pages(until), searches(until)]);
    alone.push(quiet);
    loaded.push(busy);
    searched.push(search.took);
    const answers = [...search.statuses].map(([status, n]) => `${n}×${status}`).join(', ');
    console.log(`round ${round}`);
    console.log(`  topic pages, alone          ${figures(quiet)}`);
    console.log(`  topic pages, with searches  ${figures(busy)}`);
    console.log(`  CJK searches                ${figures(search.took)}; answers ${answers}`);
  }
  const med = (runs: number[][], p: number) => ms(median(runs.map((r) => pct(r, p))));
  console.log(`median of ${ROUNDS} rounds`);
  for (const [label, runs] of [['topic pages, alone', alone], ['topic pages, with searches', loaded], ['CJK searches', searched]] as const) {
    console.log(`  ${label.padEnd(27)} p50 ${med(runs, 0.5)}, p95 ${med(runs, 0.95)}, p99 ${med(runs, 0.99)}`);
  }
} finally {
  if (server && server.exitCode === null) {
    const stopping = new Promise((r) => server?.once('exit', r));
    server.kill('SIGTERM');
    await stopping;
  }
  await bench.done();
}
