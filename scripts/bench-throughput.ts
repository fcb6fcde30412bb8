/**
 * Throughput of pages against static files (npm run bench:pages -- --throughput [--content DIR]
 * [--data-dir DIR] [--seconds 8] [--repeats 3]).
 *
 * The production build serves the content tree (the sample content by default) from a fresh data
 * directory, or from `--data-dir` when the tree is already imported there (a large tree takes minutes).
 * Pages are found, not named: the home page, topics and a knowledge-base article from the sitemap, and a
 * results page for a word of a topic's title. For each, the bytes the server sends with brotli are
 * written beside their gzip and identity forms and served by @fastify/static (`preCompressed`) in a
 * second process; both are loaded in turn with 10 connections, and the ratio of their request rates is
 * printed per repeat and as the median. Then a signed-in visitor's topic page against the anonymous one; a topic page at a fixed rate, and at full speed, alone and
 * while distinct searches run beside it, and the server's resident memory after start and after the load.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { freePort, load, median, option, waitFor, type Load } from './bench-http.ts';
import { randomBytes } from 'node:crypto';
import { fetchSend, signInCookie } from './sign-in-flow.ts';

const contentDir = resolve(option('--content') ?? 'content');
const keptDataDir = option('--data-dir');
const SECONDS = Number(option('--seconds') ?? 8);
const REPEATS = Number(option('--repeats') ?? 3);
const CONNECTIONS = 10;
const FIXED_RATE = Number(option('--rate') ?? 200);
const API = '/gateway/api/help-content/v2/search';

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function stop(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

const root = process.cwd();
const work = await mkdtemp(join(tmpdir(), 'signpost-throughput-'));
const dataDir = keptDataDir ? resolve(keptDataDir) : join(work, 'data');
let server: ChildProcess | undefined;
let statics: ChildProcess | undefined;
try {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'ignore' });
  const port = await freePort();
  const started = performance.now();
  server = spawn(process.execPath, ['dist/server/main.js'], {
    cwd: root,
    // The production defaults, logging included: its cost is part of serving a page.
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, CONTENT_DIR: contentDir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/readyz`);
  const serverPid = server.pid as number;
  console.log(`content         ${contentDir} (ready in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  const rssStart = rssMb(serverPid);

  // Pages by what they are, from the sitemap: the first topics and knowledge-base article found.
  const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '/').pathname);
  const topics: { path: string; title: string }[] = [];
  let kbArticle: string | undefined;
  for (const path of paths) {
    if (topics.length >= 5 && kbArticle) break;
    const html = await (await fetch(`${base}${path}`)).text();
    if (html.includes('<article class="topic">') && topics.length < 5) {
      topics.push({ path, title: /<h1[^>]*>([^<]+)</.exec(html)?.[1] ?? '' });
    } else if (html.includes('<article class="kb-article">')) kbArticle ??= path;
  }
  const topic = topics[0];
  if (!topic || !kbArticle) throw new Error('the sitemap has no topic or no knowledge-base article');
  const word = [...topic.title.split(/\s+/)].sort((a, b) => b.length - a.length)[0] ?? topic.title;
  const pages = [
    { label: 'topic', path: topic.path },
    { label: 'home', path: '/' },
    { label: 'KB article', path: kbArticle },
    { label: 'search (cached)', path: `/search-results/?searchTerm=${encodeURIComponent(word)}` },
  ];

  // The same bytes as static files, in the same compressions, for @fastify/static to serve.
  const staticRoot = join(work, 'static');
  await mkdir(staticRoot, { recursive: true });
  console.log('\npage               identity     brotli       gzip   (as sent)');
  for (const [i, page] of pages.entries()) {
    // The server's own brotli bytes, as sent (fetch would decode them).
    const br = await rawBytes(`${base}${page.path}`, 'br');
    const identity = br.encoding === 'br' ? brotliDecompressSync(br.body) : br.body;
    const file = join(staticRoot, `page${i}.html`);
    await writeFile(file, identity);
    await writeFile(`${file}.br`, br.encoding === 'br' ? br.body : identity);
    await writeFile(`${file}.gz`, gzipSync(identity, { level: 9 }));
    console.log(`${page.label.padEnd(16)} ${kb(identity.length).padStart(9)} ${kb(br.body.length).padStart(10)} ${kb(gzipSync(identity).length).padStart(10)}   ${br.encoding}`);
  }

  const staticPort = await freePort();
  const staticCode = `
    import Fastify from 'fastify';
    import fastifyStatic from '@fastify/static';
    const app = Fastify({ logger: false });
    await app.register(fastifyStatic, { root: ${JSON.stringify(staticRoot)}, preCompressed: true });
    await app.listen({ port: ${staticPort}, host: '127.0.0.1' });`;
  statics = spawn(process.execPath, ['--input-type=module', '-e', staticCode], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const staticBase = `http://127.0.0.1:${staticPort}`;
  await waitFor(`${staticBase}/page0.html`);

  console.log(`\nthroughput, ${CONNECTIONS} connections, ${SECONDS} s per run, ${REPEATS} repeats (req/s: Signpost / static = ratio)`);
  for (const [i, page] of pages.entries()) {
    // Warm both (JIT, the page cache), then alternate so a noisy moment hits both alike.
    await load(`${base}${page.path}`, { seconds: 2 });
    await load(`${staticBase}/page${i}.html`, { seconds: 2 });
    const ratios: number[] = [];
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let r = 0; r < REPEATS; r++) {
      const a = await load(`${base}${page.path}`, { seconds: SECONDS });
      const b = await load(`${staticBase}/page${i}.html`, { seconds: SECONDS });
      if (a.non2xx || b.non2xx) throw new Error(`${page.label}: ${a.non2xx} + ${b.non2xx} answers other than 2xx`);
      ours.push(a.rps);
      theirs.push(b.rps);
      ratios.push(a.rps / b.rps);
    }
    console.log(`${page.label.padEnd(16)} ${ours.map((v, r) => `${v.toFixed(0)}/${theirs[r]?.toFixed(0)}`).join('  ').padEnd(34)}` +
      ` median ${median(ours).toFixed(0)} / ${median(theirs).toFixed(0)} = ${median(ratios).toFixed(2)}x`);
  }
  await stop(statics);
  statics = undefined;

  // A signed-in visitor's topic page (rendered per request: personal pages are never kept) against the
  // anonymous one, alternated in the same run. The account is made through `npm run accounts`, which
  // hands the command to this server (it holds the PGlite data directory).
  const email = 'bench.reader@bench.invalid';
  const password = randomBytes(18).toString('base64url');
  const accounts = (command: string[]) => execFileSync(process.execPath, ['dist/scripts/accounts.js', ...command],
    { cwd: root, input: `${password}\n`, env: { ...process.env, DATA_DIR: dataDir, CONTENT_DIR: contentDir }, stdio: ['pipe', 'ignore', 'pipe'] });
  try {
    accounts(['add', '--email', email, '--name', 'Bench Reader']);
  } catch {
    accounts(['reset', email]);
  }
  const cookie = await signInCookie(fetchSend, base, email, password);
  const signedInHtml = await (await fetch(`${base}${topic.path}`, { headers: { cookie } })).text();
  if (!signedInHtml.includes('data-menu="account"')) throw new Error('the signed-in topic page shows no account menu');
  await load(`${base}${topic.path}`, { seconds: 2, headers: { cookie } });
  const anonymous: number[] = [];
  const personal: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const a = await load(`${base}${topic.path}`, { seconds: SECONDS });
    const b = await load(`${base}${topic.path}`, { seconds: SECONDS, headers: { cookie } });
    if (a.non2xx || b.non2xx) throw new Error(`topic: ${a.non2xx} + ${b.non2xx} answers other than 2xx`);
    anonymous.push(a.rps);
    personal.push(b.rps);
  }
  console.log(`
signed-in topic against the anonymous topic, ${CONNECTIONS} connections (req/s: signed in / anonymous)`);
  console.log(`topic            ${personal.map((v, r) => `${v.toFixed(0)}/${anonymous[r]?.toFixed(0)}`).join('  ').padEnd(34)}` +
    ` median ${median(personal).toFixed(0)} / ${median(anonymous).toFixed(0)} = ${median(personal.map((v, r) => v / (anonymous[r] ?? 1))).toFixed(2)}x (goal 0.5x)`);

  // A topic page at a fixed rate, alone and while distinct searches run beside it.
  const words = [...new Set(paths.flatMap((p) => p.split(/[/-]/)).filter((w) => /^[a-z]{4,}$/.test(w)))];
  console.log(`\nsearches: pairs of ${words.length} words from the page addresses`);
  // Pairs of words, each asked once (search responses are cached a minute): more than a run can send.
  const searches = Array.from({ length: 60_000 }, (_, i) => ({
    method: 'POST' as const, path: API, headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `${words[i % words.length]} ${words[Math.floor(i / words.length) % words.length]}`, pagination: { from: (i % 3) * 10, size: 10 },
    }),
  }));
  let next = 0;
  const searchLoad = () => new Promise<Load>((done, reject) => {
    autocannon({
      url: base, duration: SECONDS, connections: CONNECTIONS, requests: [searches[0] as autocannon.Request],
      setupClient: (client) => {
        const c = next++ % CONNECTIONS;
        client.setRequests(searches.filter((_, i) => i % CONNECTIONS === c));
      },
    }, (error, result) => (error ? reject(error) : done({
      rps: result.requests.average, p50: result.latency.p50, p95: result.latency.p97_5, non2xx: result.non2xx + result.errors,
    })));
  });
  const alone: Load[] = [];
  const beside: Load[] = [];
  const searching: Load[] = [];
  const fullAlone: Load[] = [];
  const fullBeside: Load[] = [];
  for (let r = 0; r < REPEATS; r++) {
    alone.push(await load(`${base}${topic.path}`, { seconds: SECONDS, rate: FIXED_RATE }));
    const [withSearches, search] = await Promise.all([load(`${base}${topic.path}`, { seconds: SECONDS, rate: FIXED_RATE }), searchLoad()]);
    beside.push(withSearches);
    searching.push(search);
    fullAlone.push(await load(`${base}${topic.path}`, { seconds: SECONDS }));
    fullBeside.push((await Promise.all([load(`${base}${topic.path}`, { seconds: SECONDS }), searchLoad()]))[0]);
  }
  const line = (list: Load[]) => `${median(list.map((l) => l.rps)).toFixed(0)} req/s, p50 ${median(list.map((l) => l.p50)).toFixed(0)} ms, ` +
    `p97.5 ${median(list.map((l) => l.p95)).toFixed(0)} ms${list.some((l) => l.non2xx) ? `, ${list.reduce((n, l) => n + l.non2xx, 0)} answers other than 2xx` : ''}`;
  console.log(`\ntopic at ${FIXED_RATE} req/s alone          ${line(alone)}`);
  console.log(`topic at ${FIXED_RATE} req/s, searches beside ${line(beside)}; ratio ${(median(beside.map((l) => l.rps)) / median(alone.map((l) => l.rps))).toFixed(2)}x`);
  console.log(`searches beside it (${CONNECTIONS} connections, distinct) ${line(searching)}`);
  console.log(`topic, ${CONNECTIONS} connections, alone             ${line(fullAlone)}`);
  console.log(`topic, ${CONNECTIONS} connections, searches beside   ${line(fullBeside)}; ratio ${(median(fullBeside.map((l) => l.rps)) / median(fullAlone.map((l) => l.rps))).toFixed(2)}x`);

  console.log(`\nmemory (RSS)    after start ${rssStart.toFixed(0)} MB, after the load ${rssMb(serverPid).toFixed(0)} MB`);
} finally {
  await stop(statics);
  await stop(server);
  if (!keptDataDir) await rm(work, { recursive: true, force: true });
  else await rm(join(work, 'static'), { recursive: true, force: true });
}

/** The body exactly as sent (fetch would decode it), with its content-encoding. */
async function rawBytes(url: string, encoding: string): Promise<{ body: Buffer; encoding: string }> {
  const { request } = await import('node:http');
  return new Promise((done, reject) => {
    request(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ body: Buffer.concat(chunks), encoding: String(res.headers['content-encoding'] ?? 'identity') }));
    }).on('error', reject).end();
  });
}
