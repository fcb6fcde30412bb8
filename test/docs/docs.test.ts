import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { importContent } from '../../server/content/import.ts';
import { formatProblem } from '../../server/content/problems.ts';
import { build, testDb } from '../helpers/build.ts';
import { STATIC_RESULTS, exportSearch, exportSite, fileFor, referencesIn, staticQueries, staticSearchScript } from '../../scripts/docs-build.ts';
import { COMMANDS_PAGE, CONFIGURATION_PAGE, commandsReference, configurationReference, packageScripts } from '../../scripts/docs-reference.ts';
import { HTTP_API_PAGE, OPENAPI_PATH, fieldRows, httpApiReference, typeOf, type OpenApiDocument } from '../../scripts/docs-http-api.ts';

const ROOT = join(import.meta.dirname, '../..');
const DOCS = join(ROOT, 'docs');
const ORIGIN = 'https://help.example.test';

/** Every environment variable the server reads: config.ts's loader, and the few read beside it in server/. */
function settingsTheCodeReads(): string[] {
  const names = new Set<string>();
  const config = readFileSync(join(ROOT, 'server/config.ts'), 'utf8');
  for (const m of config.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)) names.add(m[1]!);
  for (const file of readdirSync(join(ROOT, 'server'), { recursive: true, encoding: 'utf8' })) {
    if (!/\.tsx?$/.test(file)) continue;
    // A quoted `process.env.X` is a bundler's define for the browser, not a setting the server reads.
    for (const m of readFileSync(join(ROOT, 'server', file), 'utf8').matchAll(/(?<!['"])\bprocess\.env\.([A-Z][A-Z0-9_]*)/g)) names.add(m[1]!);
  }
  return [...names].sort();
}

/** Same-site links and sources of a page, without their fragment (kept apart for the anchor check). */
function links(html: string): { path: string; fragment: string }[] {
  const found: { path: string; fragment: string }[] = [];
  for (const m of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
    let url = m[1]!.replace(/&amp;/g, '&');
    if (url.startsWith(ORIGIN)) url = url.slice(ORIGIN.length) || '/';
    if (!url.startsWith('/') || url.startsWith('//')) continue;
    const [path = '/', fragment = ''] = url.split('#');
    found.push({ path: path || '/', fragment });
  }
  return found;
}

t.test('docs/ imports without a problem, and every page and link of it answers', async (t) => {
  let t0 = performance.now();
  const db = await testDb(t);
  t.comment(`db ${Math.round(performance.now() - t0)} ms`);
  t0 = performance.now();
  const result = await importContent(db, DOCS);
  t.comment(`import ${Math.round(performance.now() - t0)} ms`);
  t0 = performance.now();
  t.ok(result.imported, `${result.entries} entries, ${result.routes} pages imported`);
  t.same(result.warnings.map(formatProblem), [], 'no warnings either');
  const app = await build(t, { contentDir: DOCS, db, env: { IMPORT_ON_START: 'false' } });
  t.comment(`build ${Math.round(performance.now() - t0)} ms`);
  t0 = performance.now();

  const sitemap = await app.inject('/sitemap.xml');
  t.equal(sitemap.statusCode, 200);
  const pages = [...sitemap.body.matchAll(/<loc>https:\/\/help\.example\.test([^<]+)<\/loc>/g)].map((m) => m[1]!);
  t.ok(pages.length >= 40, `${pages.length} pages in the sitemap`);

  const html = new Map<string, string>();
  const status = new Map<string, number>();
  const get = async (path: string) => {
    if (!status.has(path)) {
      const res = await app.inject(path);
      status.set(path, res.statusCode);
      if (res.statusCode === 200 && String(res.headers['content-type']).startsWith('text/html')) html.set(path, res.body);
    }
    return status.get(path)!;
  };
  const failures: string[] = [];
  for (const page of pages) if ((await get(page)) !== 200) failures.push(`${page}: ${status.get(page)}`);
  t.same(failures, [], 'every page in the sitemap answers 200');

  const broken: string[] = [];
  let checked = 0;
  for (const page of pages) {
    for (const { path, fragment } of links(html.get(page) ?? '')) {
      checked++;
      const code = await get(path);
      if (code >= 400) {
        broken.push(`${page} → ${path}: ${code}`);
        continue;
      }
      const target = path === page || path === '' ? html.get(page) : html.get(path);
      if (fragment && target !== undefined && !target.includes(`id="${fragment}"`)) broken.push(`${page} → ${path}#${fragment}: no such anchor`);
    }
  }
  t.comment(`crawl of ${status.size} addresses ${Math.round(performance.now() - t0)} ms`);
  t.ok(checked > pages.length, `${checked} links followed`);
  t.same(broken, [], 'no broken internal link or anchor');

  // npm run docs:build: the same site as files, where every link a page makes without the server finds one.
  const out = mkdtempSync(join(tmpdir(), 'signpost-docs-'));
  t.teardown(() => rmSync(out, { recursive: true, force: true }));
  t0 = performance.now();
  const written = await exportSite(app, out, ORIGIN);
  t.comment(`static export of ${written.pages.length} pages and ${written.files.length} files ${Math.round(performance.now() - t0)} ms`);
  t.same(pages.filter((p) => !existsSync(join(out, fileFor(p, true)))), [], 'every sitemap page is written');
  t.ok(existsSync(join(out, '404.html')) && written.files.some((f) => f.endsWith('.css')) && written.files.some((f) => f.startsWith('assets/chunks/')),
    'the not-found page, the stylesheets and the islands\' chunks are written');
  const dangling: string[] = [];
  // 404.html names the address it was asked for, whichever that is.
  for (const page of written.pages.filter((p) => p !== '404.html')) {
    for (const ref of referencesIn(readFileSync(join(out, page), 'utf8'), ORIGIN)) {
      if (ref.includes('?') || ref.startsWith('/auth')) continue;
      if (!existsSync(join(out, fileFor(ref, true))) && !existsSync(join(out, fileFor(ref, false)))) dangling.push(`${page} → ${ref}`);
    }
  }
  t.same([...new Set(dangling)], [], 'every same-site link of the written pages finds a file');

  // Its search: the results of the index's queries, the results address listing them, the script.
  const queries = await staticQueries(app);
  t.ok(queries.length >= 20 && queries.length <= 200, `${queries.length} queries in the static index`);
  t.notOk(queries.some((q) => q.length < 4 || /^(with|this|that|signpost)$/.test(q)), 'no short or common word');
  const searches = await exportSearch(app, out, queries);
  t.equal(searches.length, queries.length, 'every query has its results page');
  const first = queries[0]!;
  const results = readFileSync(join(out, fileFor(`${STATIC_RESULTS}${first}`, true)), 'utf8');
  t.match(results, new RegExp(`Showing results for &quot;${first}&quot;|results for &quot;${first}&quot;`, 'i'), `the results of "${first}"`);
  t.ok([...results.matchAll(/<a[^>]*data-position="1"[^>]*href="([^"]+)"|<a[^>]*href="([^"]+)"[^>]*data-position="1"/g)]
    .some((m) => existsSync(join(out, fileFor((m[1] ?? m[2])!.replace(ORIGIN, ''), true)))), 'its first result is a page of the copy');
  const index = readFileSync(join(out, 'search-results/index.html'), 'utf8');
  t.match(index, `<a href="${STATIC_RESULTS}${first}/">${first}</a>`, 'the results address lists the queries: what a search without scripts lands on');
  t.match(readFileSync(join(out, 'static-search.js'), 'utf8'), JSON.stringify(queries), 'the script knows the index');
  const unresolved = searches.flatMap((page) => referencesIn(readFileSync(join(out, page), 'utf8'), ORIGIN)
    .filter((ref) => !ref.includes('?') && !ref.startsWith('/auth') && !existsSync(join(out, fileFor(ref, true))) && !existsSync(join(out, fileFor(ref, false))))
    .map((ref) => `${page} → ${ref}`));
  t.same([...new Set(unresolved)], [], 'every same-site link of the results pages finds a file');
});

t.test('the static copy\'s search script goes to the closest indexed query', async (t) => {
  const script = staticSearchScript(['import', 'insights', 'deployment']);
  const visited: string[] = [];
  let listener: ((event: unknown) => void) | undefined;
  class HTMLFormElement { constructor(readonly value: string) {} querySelector() { return { value: this.value }; } }
  const context = {
    HTMLFormElement, URLSearchParams,
    location: { search: '', set href(to: string) { visited.push(to); } },
    document: { addEventListener: (_: string, f: (event: unknown) => void) => { listener = f; }, getElementById: () => null },
  };
  new Function(...Object.keys(context), script)(...Object.values(context));
  for (const typed of ['How do I Import a tree', 'deploy', 'zzz nothing']) {
    let prevented = false;
    listener?.({ target: new HTMLFormElement(typed), preventDefault: () => { prevented = true; } });
    t.ok(prevented, `${typed}: the form does not go to the server`);
  }
  t.same(visited, [`${STATIC_RESULTS}import/`, `${STATIC_RESULTS}deployment/`, '/search-results/?missing=zzz%20nothing']);
});

t.test('the reference pages are what the code makes, and cover it exactly', async (t) => {
  t.equal(readFileSync(CONFIGURATION_PAGE, 'utf8'), configurationReference(), 'configuration reference is up to date (npm run docs:reference)');
  t.equal(readFileSync(COMMANDS_PAGE, 'utf8'), commandsReference(), 'commands reference is up to date (npm run docs:reference)');

  const documented = [...configurationReference().matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]!).sort();
  t.same(documented, settingsTheCodeReads(), 'the configuration reference lists exactly the settings the server reads');

  const commands = commandsReference();
  const missing = packageScripts().filter((s) => !commands.includes(s === 'start' || s === 'test' ? `\`npm ${s}` : `\`npm run ${s}`));
  t.same(missing, [], 'every package.json script is in the commands reference');
});

t.test('the HTTP API reference is the routes\' own OpenAPI document, every route of it', async (t) => {
  const app = await build(t, { contentDir: DOCS, env: { IMPORT_ON_START: 'false' } });
  const served = await app.inject(OPENAPI_PATH);
  t.equal(served.statusCode, 200);
  const doc = served.json() as OpenApiDocument;
  const page = readFileSync(HTTP_API_PAGE, 'utf8');
  t.equal(page, httpApiReference(doc), 'the page is what the served document makes (npm run docs:reference)');
  const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `### ${method.toUpperCase()} ${path}`));
  t.ok(operations.length >= 12, `${operations.length} operations`);
  t.same(operations.filter((o) => !page.includes(`${o}\n`)), [], 'every operation has its section');
  for (const path of ['/api/requests/{reference}', '/api/events', '/gateway/api/help-content/v2/search', '/readyz', '/assistant/stream']) {
    t.ok(doc.paths[path], `${path} is described`);
  }
  t.match(page, /### GET \/api\/requests\/\{reference\}\n[\s\S]*?Authentication: `Authorization: Bearer …`/, 'the helpdesk calls say they need the token');
  t.match(page, /\| `query` \| string \| yes \|/, 'the search body lists its fields from the schema');
  t.match(page, /\| `status` \| `"open"`/, 'a union of literals reads as its values');
  t.notMatch(page, /\/auth\/|\/admin\//, 'no sign-in or admin route: those are not the API');
});

t.test('schemas in words', async (t) => {
  t.equal(typeOf({ anyOf: [{ const: 'a' }, { const: 'b' }] }), '`"a"` or `"b"`');
  t.equal(typeOf({ type: 'array', items: { type: 'string' } }), 'array of string');
  t.equal(typeOf({ type: ['string', 'null'] }), 'string or null');
  t.equal(typeOf(undefined), 'any');
  t.same(fieldRows({ type: 'object', required: ['a'], properties: { a: { type: 'string', maxLength: 3 }, b: { type: 'object', properties: { c: { type: 'integer', minimum: 1 } } } } }), [
    '| `a` | string | yes | 0–3 characters |', '| `b` | object | no |  |', '| `b.c` | integer | no | 1 to ∞ |',
  ]);
});
