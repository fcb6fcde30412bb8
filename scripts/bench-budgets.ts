/**
 * Page budgets (npm run bench:pages -- [--content DIR | --data-dir DIR]): HTML sizes of the home page,
 * topics, a knowledge-base article and a results page; compressed CSS; every byte a first visit costs
 * before any interaction, and what each island's first interaction adds; render-blocking scripts; and the
 * server's CPU time per request for a topic page, rendered anew (a distinct query string each time, so
 * no cached copy answers) and answered again (cached), and a topic page for a signed-in visitor.
 *
 * The content is imported into an in-memory database (the sample content by default), or read from a
 * data directory the tree is already imported into. Pages are found from the sitemap, not named.
 */
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { resolve } from 'node:path';
import Fastify from 'fastify';
import app, { serverOptions } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openDb, pgliteDirFor } from '../server/db/driver.ts';
import { migrate } from '../server/db/migrate.ts';
import { importContent } from '../server/content/import.ts';
import { option } from './bench-http.ts';
import { randomBytes } from 'node:crypto';
import { signInCookie, type Send } from './sign-in-flow.ts';
import { pageWeight } from './page-weight.ts';

const contentDir = resolve(option('--content') ?? 'content');
const dataDir = option('--data-dir');
const RUNS = Number(process.env.BENCH_RUNS || 400);
const TOPICS = 5;

const db = await openDb({ pgliteDir: dataDir ? pgliteDirFor(resolve(dataDir)) : 'memory://' });
await migrate(db);
if (!dataDir) await importContent(db, contentDir);
const server = Fastify({ ...serverOptions, logger: false });
// Load shedding off, as in the other benches: requests in a tight loop on a busy machine would be shed
// (503), and the figures would be those of the refusal page.
const config = loadConfig({ LOG_LEVEL: 'silent', IMPORT_ON_START: 'false', CONTENT_DIR: contentDir, OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' });
await server.register(app, { config, db });
await server.ready();

const pct = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * p))] ?? 0;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

// Pages by what they are: the first topics and knowledge-base article of the sitemap.
const sitemap = (await server.inject('/sitemap.xml')).body;
const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '/').pathname);
const topics: { path: string; title: string }[] = [];
let kbArticle: string | undefined;
let versionedTopic: string | undefined;
let tabbedTopic: string | undefined;
for (const [read, path] of paths.entries()) {
  // A page with body tabs is looked for among the first 300 pages only.
  if (topics.length >= TOPICS && kbArticle && versionedTopic && (tabbedTopic || read >= 300)) break;
  const html = (await server.inject(path)).body;
  if (html.includes('data-island="body-tabs"')) tabbedTopic ??= path;
  if (html.includes('<article class="topic">')) {
    if (topics.length < TOPICS) topics.push({ path, title: /<h1[^>]*>([^<]+)</.exec(html)?.[1] ?? '' });
    // A topic with a version selector has every island a topic page can have.
    if (html.includes('data-island="version-selector"')) versionedTopic ??= path;
  } else if (html.includes('<article class="kb-article">')) kbArticle ??= path;
}
const topic = topics[0];
if (!topic) throw new Error(`no topic page in the sitemap of ${contentDir}`);
const word = [...topic.title.split(/\s+/)].sort((a, b) => b.length - a.length)[0] ?? topic.title;

console.log(`content: ${dataDir ? `data directory ${dataDir}` : contentDir}, ${paths.length} pages in the sitemap\n`);
console.log('page                                                     html      gzip    brotli   links');
const pages = ['/', ...topics.map((t) => t.path), ...(kbArticle ? [kbArticle] : []), `/search-results/?searchTerm=${encodeURIComponent(word)}`];
const topicSizes: number[] = [];
for (const path of pages) {
  const body = (await server.inject(path)).rawPayload;
  if (topics.some((t) => t.path === path)) topicSizes.push(body.length);
  const links = (body.toString().match(/<a\s/g) ?? []).length;
  console.log(`${path.slice(0, 56).padEnd(56)} ${kb(body.length).padStart(8)} ${kb(gzipSync(body).length).padStart(8)} ${kb(brotliCompressSync(body).length).padStart(8)} ${String(links).padStart(7)}`);
}
console.log(`topic pages: median HTML ${kb(pct(topicSizes, 0.5))} over ${topicSizes.length}`);

const html = (await server.inject(topic.path)).body;
const css = /href="(\/assets\/main\.[^"]+\.css)"/.exec(html)?.[1] ?? '';
const cssBody = (await server.inject(css)).rawPayload;
console.log(`\nCSS ${css}: ${kb(cssBody.length)}, ${kb(gzipSync(cssBody).length)} gzip (budget 20 KB)`);
console.log(`\n${await javaScriptOf('topic page', html)}`);
if (versionedTopic) console.log(await javaScriptOf('topic page', (await server.inject(versionedTopic)).body, 'with a version selector'));
if (tabbedTopic) console.log(await javaScriptOf('topic page', (await server.inject(tabbedTopic)).body, 'with body tabs'));
for (const [what, path] of [['home', '/'], ['KB article', kbArticle], ['search results', `/search-results/?searchTerm=${encodeURIComponent(word)}`]] as const) {
  if (path) console.log(await javaScriptOf(what, (await server.inject(path)).body));
}
// A first visit (scripts/page-weight.ts): bytes as sent with brotli before any interaction, then what
// the first interaction with each island that waits for one adds.
console.log('\nbefore any interaction (brotli)      total    html     css      js  files   first interaction adds');
const firstVisit: [string, string | undefined][] = [['home', '/'], ['topic', topic.path], ['versioned topic', versionedTopic], ['tabbed topic', tabbedTopic],
  ['KB article', kbArticle], ['search results', `/search-results/?searchTerm=${encodeURIComponent(word)}`]];
for (const [what, path] of firstVisit) {
  if (!path) continue;
  const w = await pageWeight(server, path);
  const adds = Object.entries(w.onInteraction).map(([name, bytes]) => `${name} +${kb(bytes)}`).join(', ');
  console.log(`${what.padEnd(32)} ${kb(w.total).padStart(9)} ${kb(w.html).padStart(7)} ${kb(w.css).padStart(7)} ${kb(w.js).padStart(7)} ${String(w.scripts.length).padStart(6)}   ${adds || 'none'}`);
}
console.log('budgets: home, topic, KB article 25 KB, search results 40 KB; JavaScript 10 KB on any page');

const blocking = [...html.matchAll(/<script(?![^>]*(?:type="module"|type="application\/(?:ld\+)?json"|\bdefer\b|\basync\b))[^>]*>/g)].length;
console.log(`render-blocking scripts on a topic page: ${blocking} (budget 0)`);

/**
 * All the JavaScript a page can load, as served (brotli, and gzip): the islands entry it names and, for
 * each island in it, the island's module and the chunks that module imports (React among them), whether
 * it hydrates at once or on a first interaction. A module an
 * island loads later by import() on demand (htmx when a search is typed, the credits when called) is not
 * counted. Budget on a topic page: 60 KB compressed.
 */
async function javaScriptOf(what: string, page: string, note = ''): Promise<string> {
  const entry = /<script type="module" src="([^"]+)"/.exec(page)?.[1];
  if (!entry) return `${what}: no script`;
  const names = new Set([...page.matchAll(/data-island="([\w-]+)"/g)].map((m) => m[1] ?? ''));
  const files = new Set([entry, ...[...names].flatMap((name) => server.assets.islands[name] ?? [])]);
  let br = 0;
  let gzip = 0;
  let raw = 0;
  for (const file of files) {
    for (const encoding of ['br', 'gzip', 'identity'] as const) {
      const res = await server.inject({ url: file, headers: { 'accept-encoding': encoding } });
      if (res.statusCode !== 200) throw new Error(`${file} answered ${res.statusCode}`);
      if (encoding === 'br') br += res.rawPayload.length;
      else if (encoding === 'gzip') gzip += res.rawPayload.length;
      else raw += res.rawPayload.length;
    }
  }
  const budget = what === 'topic page' ? ` = ${(br / (60 * 1024)).toFixed(2)} of the 60 KB budget` : '';
  return `JavaScript, ${what}${note ? ` ${note}` : ''}: ${kb(br)} brotli${budget} (${kb(gzip)} gzip, ${kb(raw)} minified) in ${files.size} files; islands: ${[...names].sort().join(', ') || 'none'}`;
}

/** CPU and wall time per request, after a warm-up; `url(i)` gives the i-th request's URL. */
async function time(url: (i: number) => string, headers: Record<string, string> = {}) {
  for (let i = 0; i < 50; i++) await server.inject({ url: url(-1 - i), headers });
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    const res = await server.inject({ url: url(i), headers });
    wall.push(performance.now() - w0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    if (res.statusCode !== 200) throw new Error(`${url(i)} answered ${res.statusCode}`);
  }
  return `CPU p50 ${pct(cpu, 0.5).toFixed(2)} ms, p95 ${pct(cpu, 0.95).toFixed(2)} ms; wall p50 ${pct(wall, 0.5).toFixed(2)} ms`;
}
console.log(`\n${RUNS} requests per line, in process (light-my-request, no socket)`);
console.log(`topic, rendered anew   ${await time((i) => `${topic.path}?bench=${i}`)} (budget: CPU p50 3 ms)`);
console.log(`topic, cached          ${await time(() => topic.path)}`);
console.log(`home, rendered anew    ${await time((i) => `/?bench=${i}`)}`);
if (kbArticle) console.log(`KB article, anew       ${await time((i) => `${kbArticle}?bench=${i}`)}`);

// Signed in: the page filled in from its role's template (server/identity/personal-pages.ts), and
// rendered anew (a query string: no template is used).
const cookie = await benchSignIn();
const signedIn = await server.inject({ url: topic.path, headers: { cookie } });
if (!signedIn.body.includes('data-menu="account"')) throw new Error('the signed-in topic page shows no account menu');
console.log(`topic, signed in       ${await time(() => topic.path, { cookie })} (filled in from its role's template)`);
console.log(`signed in, anew        ${await time((i) => `${topic.path}?bench=${i}`, { cookie })}`);

await server.close();
await db.close();

/** A bench account of the embedded provider, signed in through the real flow (in process). */
async function benchSignIn(): Promise<string> {
  const email = 'bench.reader@bench.invalid';
  const password = randomBytes(18).toString('base64url');
  if (await server.accounts.byEmail(email)) await server.accounts.resetPassword(email, password);
  else await server.accounts.create({ email, password, displayName: 'Bench Reader' });
  const send: Send = async ({ method, url, headers, body }) => {
    const res = await server.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body }) });
    const raw = res.headers['set-cookie'];
    return {
      status: res.statusCode, location: res.headers.location as string | undefined, body: res.body,
      setCookies: raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)],
    };
  };
  return signInCookie(send, config.publicUrl, email, password, config.identityUrl);
}
