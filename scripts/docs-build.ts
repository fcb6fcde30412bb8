/**
 * npm run docs:build [-- OUT]: docs/ as static files for any web host (default ./dist-docs). The help
 * centre runs in this process on a throwaway PGlite directory, and every page of its sitemap, and every
 * same-site page, stylesheet, script, image and file they link, is fetched through app.inject and written
 * where a static host finds it: a page at {path}/index.html, anything else at its own path. Addresses with
 * a query and sign-in are left out: they need the server. PUBLIC_URL is the address it will be served at.
 *
 * Search comes along for a small index of queries (exportSearch): the words the docs' titles use most,
 * each one's results page written at /search-results/q/{word}/, the results address itself a page listing
 * them, and a few lines of script that send the search form to the closest indexed query.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import app, { serverOptions } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { commandsReference, configurationReference, COMMANDS_PAGE, CONFIGURATION_PAGE } from './docs-reference.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface ExportResult {
  pages: string[];
  files: string[];
  bytes: number;
}

/** Where a static host looks for the answer to `path`. */
export function fileFor(path: string, html: boolean): string {
  const clean = decodeURIComponent(path).replace(/\/+$/, '');
  return html || clean === '' ? `${clean}/index.html`.replace(/^\//, '') : clean.replace(/^\//, '');
}

/** Same-site addresses a page or stylesheet refers to, without fragments; `origin` links count as same-site. */
export function referencesIn(body: string, origin: string): string[] {
  const found: string[] = [];
  for (const m of body.matchAll(/\s(?:href|src)="([^"]*)"|url\(\s*['"]?([^'")]+)['"]?\s*\)/g)) {
    let url = (m[1] ?? m[2] ?? '').replace(/&amp;/g, '&').split('#')[0]!;
    if (url.startsWith(origin)) url = url.slice(origin.length) || '/';
    if (url.startsWith('/') && !url.startsWith('//')) found.push(url);
  }
  return found;
}

/** The modules a script loads by relative path (the islands' chunks), as site paths. */
export function importsIn(body: string, path: string): string[] {
  return [...body.matchAll(/(["'])(\.{1,2}\/[\w./-]+\.js)\1/g)].map((m) => new URL(m[2]!, `http://site${path}`).pathname);
}

/** Fetches the site from its sitemap outwards and writes it under `out`. */
export async function exportSite(server: FastifyInstance, out: string, origin: string, identityUrl = '/auth'): Promise<ExportResult> {
  const sitemap = await server.inject('/sitemap.xml');
  if (sitemap.statusCode !== 200) throw new Error(`the sitemap answered ${sitemap.statusCode}`);
  const start = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&').slice(origin.length) || '/');
  const queue = [...new Set(['/', ...start, '/sitemap.xml', '/robots.txt', '/favicon.ico'])];
  const seen = new Set(queue);
  const result: ExportResult = { pages: [], files: [], bytes: 0 };
  while (queue.length > 0) {
    const path = queue.shift()!;
    const res = await server.inject(path);
    if (res.statusCode !== 200) continue;
    const type = String(res.headers['content-type'] ?? '');
    const html = type.startsWith('text/html');
    const file = fileFor(path, html);
    await mkdir(dirname(join(out, file)), { recursive: true });
    await writeFile(join(out, file), res.rawPayload);
    result.bytes += res.rawPayload.length;
    (html ? result.pages : result.files).push(file);
    const script = /javascript/.test(type);
    if (!html && !script && !type.startsWith('text/css')) continue;
    for (const ref of script ? importsIn(res.body, path) : referencesIn(res.body, origin)) {
      if (ref.includes('?') || ref === identityUrl || ref.startsWith(`${identityUrl}/`) || seen.has(ref)) continue;
      seen.add(ref);
      queue.push(ref);
    }
  }
  // Static hosts answer an unknown path with 404.html: the site's own not-found page.
  const missing = await server.inject('/this-page-does-not-exist');
  if (missing.statusCode === 404 && String(missing.headers['content-type']).startsWith('text/html')) {
    await writeFile(join(out, '404.html'), missing.rawPayload);
    result.pages.push('404.html');
  }
  return result;
}

/** Where the static copy keeps a query's results page. */
export const STATIC_RESULTS = '/search-results/q/';
/** The most queries the static copy answers. */
export const MAX_STATIC_QUERIES = 200;
const STOPWORDS = new Set(('about above after again also because been before being between both does doing down during each from '
  + 'further have having here into itself more most other over same should some such than that their them then there these '
  + 'they this those through under until very were what when where which while will with would your yours signpost').split(' '));

/** The words of the published titles, most used first: what the static copy's search index answers. */
export async function staticQueries(server: FastifyInstance, max = MAX_STATIC_QUERIES): Promise<string[]> {
  const rows = await server.db.query<{ title: string | null }>(
    `select e.title from content_entries e join content_routes r on r.entry_id = e.id where e.title is not null`);
  const counts = new Map<string, number>();
  for (const { title } of rows) {
    for (const word of new Set((title ?? '').toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}-]*/gu) ?? [])) {
      if (word.length < 4 || STOPWORDS.has(word) || /^\d+$/.test(word)) continue;
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, max).map(([word]) => word);
}

/** The script every page of the static copy loads: the search form goes to the closest indexed query. */
export function staticSearchScript(queries: string[]): string {
  return `// Search on a static copy: the closest query of the index (a word of the search, else one starting with it).
(() => {
  const queries = ${JSON.stringify(queries)};
  const results = ${JSON.stringify(STATIC_RESULTS)};
  const closest = (term) => {
    const words = term.toLowerCase().match(/[\\p{L}\\p{N}][\\p{L}\\p{N}-]*/gu) || [];
    return words.find((w) => queries.includes(w)) || words.map((w) => queries.find((q) => q.startsWith(w) || w.startsWith(q))).find(Boolean);
  };
  document.addEventListener('submit', (event) => {
    const form = event.target;
    const field = form instanceof HTMLFormElement ? form.querySelector('input[name="searchTerm"]') : null;
    if (!field) return;
    event.preventDefault();
    const found = closest(field.value);
    location.href = found ? results + encodeURIComponent(found) + '/' : '/search-results/?missing=' + encodeURIComponent(field.value);
  }, true);
  const missing = new URLSearchParams(location.search).get('missing');
  const note = document.getElementById('static-search-missing');
  if (missing && note) { note.textContent = 'No search of this copy matches "' + missing + '": choose one of these, or use the full help centre.'; note.hidden = false; }
})();
`;
}

/**
 * The search of the static copy: each indexed query's results page, the results address as the list of
 * them (what a search without scripts lands on: a static host ignores the query), and the script.
 */
export async function exportSearch(server: FastifyInstance, out: string, queries: string[]): Promise<string[]> {
  const written: string[] = [];
  for (const query of queries) {
    const res = await server.inject(`/search-results/?searchTerm=${encodeURIComponent(query)}`);
    if (res.statusCode !== 200) continue;
    const file = fileFor(`${STATIC_RESULTS}${query}`, true);
    await mkdir(dirname(join(out, file)), { recursive: true });
    await writeFile(join(out, file), res.body);
    written.push(file);
  }
  const empty = await server.inject('/search-results/');
  if (empty.statusCode === 200) {
    const list = queries.map((q) => `<li><a href="${STATIC_RESULTS}${encodeURIComponent(q)}/">${q}</a></li>`).join('');
    const section = '<section class="static-search" aria-labelledby="static-search-heading"><h2 id="static-search-heading">Searches of this copy</h2>'
      + '<p>This copy of the documentation is made of static files: it has the results of these searches. Every page is also in the site\'s navigation.</p>'
      + `<p id="static-search-missing" role="status" hidden></p><ul class="link-list">${list}</ul></section>`;
    await writeFile(join(out, 'search-results/index.html'), empty.body.replace('</main>', `${section}</main>`));
  }
  await writeFile(join(out, 'static-search.js'), staticSearchScript(queries));
  return written;
}

/** Every written page loads the static search script. */
async function addScript(out: string, pages: string[]): Promise<void> {
  const { readFile } = await import('node:fs/promises');
  for (const page of pages) {
    const path = join(out, page);
    const html = await readFile(path, 'utf8');
    if (html.includes('</body>')) await writeFile(path, html.replace('</body>', '<script src="/static-search.js" defer></script></body>'));
  }
}

async function main(): Promise<void> {
  const out = resolve(process.argv[2] ?? join(ROOT, 'dist-docs'));
  const { writeFileSync } = await import('node:fs');
  writeFileSync(CONFIGURATION_PAGE, configurationReference());
  writeFileSync(COMMANDS_PAGE, commandsReference());
  const dataDir = await mkdtemp(join(tmpdir(), 'signpost-docs-build-'));
  const config = loadConfig({
    ...process.env, CONTENT_DIR: join(ROOT, 'docs'), DATA_DIR: dataDir, DATABASE_URL: '', DATABASE_READ_URL: '',
    IMPORT_ON_START: 'true', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:4100',
  });
  const server = Fastify({ ...serverOptions, logger: { level: config.logLevel } });
  try {
    await server.register(app, { config });
    await server.ready();
    await server.contentReady;
    await rm(out, { recursive: true, force: true });
    const result = await exportSite(server, out, config.publicUrl, config.identityUrl);
    const queries = await staticQueries(server);
    const searches = await exportSearch(server, out, queries);
    await addScript(out, [...new Set([...result.pages, ...searches, 'search-results/index.html'])]);
    console.log(`${out}: ${result.pages.length} pages and ${result.files.length} other files, ${(result.bytes / 1024 / 1024).toFixed(1)} MB, for ${config.publicUrl}; search: ${searches.length} queries`);
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
