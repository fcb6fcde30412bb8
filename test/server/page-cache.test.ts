import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import t from 'tap';
import type { Db } from '../../server/db/driver.ts';
import { PageCache, MISSING_MAX } from '../../server/pages/page-copies.ts';
import { TOKEN_WINDOW_MS } from '../../server/plugins/secrets.ts';
import { SCRIPTS_CLASS_SCRIPT } from '../../views/layout/scripts-class.tsx';
import { build, tempContent, testDb, PREVIEW_TOKEN } from '../helpers/build.ts';
import { CONTENT_CHANNEL } from '../../server/content/import.ts';

const PAGE = '/acme-cloud/docs/first-steps';
const DRAFT = '/acme-cloud/docs/upcoming-feature';
const SEARCH = '/search-results/?searchTerm=widget';

/** The real database, with every statement sent to it counted: a measurement, not a stand-in. */
function counting(db: Db): { db: Db; queries: () => number } {
  let n = 0;
  const probe: Db = {
    engine: db.engine,
    query: (sql, params) => {
      n++;
      return db.query(sql, params);
    },
    exec: (sql) => {
      n++;
      return db.exec(sql);
    },
    transaction: (work) => {
      n++;
      return db.transaction(work);
    },
    listen: (channel, onMessage, options) => db.listen(channel, onMessage, options),
    close: () => db.close(),
  };
  return { db: probe, queries: () => n };
}

const tokenOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1];

t.test('a public page is rendered once and answered from memory', async (t) => {
  const probe = counting(await testDb(t));
  const app = await build(t, { db: probe.db });

  const first = await app.inject(PAGE);
  t.equal(first.statusCode, 200);
  t.equal(app.pageCopies.pages.size, 1, 'kept');
  const before = probe.queries();
  const hit = await app.inject(PAGE);
  t.equal(probe.queries(), before, 'a hit sends no query');
  t.equal(hit.statusCode, 200);
  t.equal(hit.body, first.body, 'byte-identical');
  t.equal(hit.headers.etag, first.headers.etag, 'the same validator');
  t.equal(hit.headers['content-type'], first.headers['content-type']);
  t.equal(hit.headers['cache-control'], first.headers['cache-control']);
  t.equal(hit.headers['content-security-policy'], first.headers['content-security-policy']);
  t.equal(hit.headers['x-content-type-options'], 'nosniff', 'security headers as on any response');
  t.match(hit.headers.vary, /Accept-Encoding/);

  const revalidated = await app.inject({ url: PAGE, headers: { 'if-none-match': String(first.headers.etag) } });
  t.equal(revalidated.statusCode, 304, 'If-None-Match gives 304 from memory');
  t.equal(revalidated.body, '');
  t.equal(revalidated.headers.etag, first.headers.etag);
  const listed = await app.inject({ url: PAGE, headers: { 'if-none-match': `"other", W/${String(first.headers.etag)}` } });
  t.equal(listed.statusCode, 304, 'a list of validators, weak comparison');
  const head0 = await app.inject({ method: 'HEAD', url: PAGE });
  t.equal(head0.statusCode, 200, 'HEAD from memory');
  t.equal(head0.body, '');
  t.equal(probe.queries(), before, 'none of these sent a query');

  // The first answer of a page comes from its copy too: a validator list matches before it is kept.
  const kb = await app.inject('/acme/kb');
  app.pageCopies.clear();
  const fresh = await app.inject({ url: '/acme/kb', headers: { 'if-none-match': `"other", ${String(kb.headers.etag)}` } });
  t.equal(fresh.statusCode, 304, 'a fresh render answers 304 too');
  t.equal(app.pageCopies.pages.size, 1, 'and is kept');

  const head = await app.inject({ method: 'HEAD', url: PAGE });
  t.equal(head.statusCode, 200, 'a HEAD that renders');
  t.equal(head.body, '');
  t.equal(head.headers.etag, first.headers.etag);
  t.equal(app.pageCopies.pages.size, 2, 'keeps the page for the GETs after it');
});

t.test('compressed forms are made once, served as kept and decode to the page', async (t) => {
  const app = await build(t);
  const identity = await app.inject(PAGE);
  t.equal(identity.headers['content-encoding'], undefined, 'no encoding asked, none given');
  for (const [encoding, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
    const one = await app.inject({ url: PAGE, headers: { 'accept-encoding': encoding } });
    t.equal(one.headers['content-encoding'], encoding);
    t.equal(one.headers.etag, identity.headers.etag);
    t.equal(decode(one.rawPayload).toString(), identity.body, `${encoding} decodes to the page`);
    const kept = app.pageCopies.pages.get(PAGE)?.encoded[encoding];
    t.ok(kept && kept.equals(one.rawPayload), `the ${encoding} bytes sent are the ones kept`);
    const two = await app.inject({ url: PAGE, headers: { 'accept-encoding': `gzip, deflate, br` } });
    const expected = app.pageCopies.pages.get(PAGE)?.encoded[two.headers['content-encoding'] as 'br' | 'gzip'];
    t.ok(expected?.equals(two.rawPayload), 'a later request gets the same bytes');
    t.equal(String(two.headers['content-length']), String(two.rawPayload.length));
  }
  t.equal((await app.inject({ url: PAGE, headers: { 'accept-encoding': 'br;q=0, gzip' } })).headers['content-encoding'], 'gzip');
  t.equal((await app.inject({ url: PAGE, headers: { 'accept-encoding': 'identity' } })).headers['content-encoding'], undefined);

  // Requests that render one page side by side share its copy and its one compression, made in the
  // background: the first visitors get the page compressed at the quick level, later ones the kept form.
  const keptForm = async (path: string) => {
    for (let i = 0; i < 200 && !app.pageCopies.pages.get(path)?.encoded.br; i++) await new Promise((r) => setTimeout(r, 10));
    return app.pageCopies.pages.get(path)?.encoded.br;
  };
  app.pageCopies.clear();
  const together = await Promise.all(Array.from({ length: 5 }, () => app.inject({ url: PAGE, headers: { 'accept-encoding': 'br' } })));
  t.ok(together.every((res) => res.headers['content-encoding'] === 'br' && brotliDecompressSync(res.rawPayload).toString() === identity.body),
    'concurrent first requests get the page in brotli');
  const shared = await keptForm(PAGE);
  t.ok(shared, 'the kept form is made');
  t.equal(app.pageCopies.pages.get(PAGE)?.bytes, PAGE.length + identity.rawPayload.length + (shared?.length ?? 0), 'one compressed form counted');
  const after = await app.inject({ url: PAGE, headers: { 'accept-encoding': 'br' } });
  t.ok(shared?.equals(after.rawPayload), 'a later request gets the kept bytes');

  // A fresh render does not wait for the kept form: it goes out at once, and the next answer is the kept one.
  const fresh = await app.inject({ url: '/acme/kb', headers: { 'accept-encoding': 'br' } });
  t.equal(fresh.headers['content-encoding'], 'br');
  const freshKept = await keptForm('/acme/kb');
  t.equal(brotliDecompressSync(fresh.rawPayload).toString(), freshKept ? brotliDecompressSync(freshKept).toString() : '', 'the same page');
  t.ok(freshKept?.equals((await app.inject({ url: '/acme/kb', headers: { 'accept-encoding': 'br' } })).rawPayload));
});

t.test('a content change drops the kept pages', async (t) => {
  const dir = await tempContent(t);
  const app = await build(t, { contentDir: dir });
  const before = await app.inject(PAGE);
  t.match(before.body, '<h1>First steps</h1>');
  t.equal((await app.inject(PAGE)).body, before.body, 'kept');
  const file = join(dir, 'topics/acme-cloud/first-steps.md');
  await writeFile(file, (await readFile(file, 'utf8')).replace('title: First steps', 'title: The first steps'));
  t.ok((await app.importContentTree(dir)).imported);
  const after = await app.inject(PAGE);
  t.match(after.body, '<h1>The first steps</h1>', 'the new content, not the kept page');
  t.not(after.headers.etag, before.headers.etag, 'with a new validator');
});

t.test("an import's NOTIFY, heard after its own instance dropped the caches, drops nothing a second time; another's does", async (t) => {
  const dir = await tempContent(t);
  const stream = new PassThrough();
  const heard: string[] = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      const { version } = JSON.parse(line) as { version?: unknown };
      if (typeof version === 'string') heard.push(version);
    }
  });
  const app = await build(t, { contentDir: dir, logStream: stream, env: { LOG_LEVEL: 'debug' } });
  const heardOf = async (version: string) => {
    for (let i = 0; !heard.includes(version) && i < 1200; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    t.ok(heard.includes(version), `the NOTIFY of ${version} heard`);
  };
  let drops = 0;
  app.content.onInvalidate(() => drops++);
  const file = join(dir, 'topics/acme-cloud/first-steps.md');
  await writeFile(file, (await readFile(file, 'utf8')).replace('title: First steps', 'title: Steps first'));
  const imported = await app.importContentTree(dir);
  t.ok(imported.imported);
  await heardOf(imported.digest.slice(0, 12));
  t.equal(drops, 1, 'the import and its NOTIFY dropped the caches once');
  t.equal((await app.inject(PAGE)).statusCode, 200);
  t.equal(app.pageCopies.pages.size, 1, 'a page rendered after the import is kept');

  await app.db.query('select pg_notify($1, $2)', [CONTENT_CHANNEL, 'another instance']);
  await heardOf('another inst');
  t.equal(drops, 2, "another instance's change drops the caches");
  t.equal(app.pageCopies.pages.size, 0, 'and with them the kept page');
});

t.test('preview requests neither read nor fill the cache; private responses are never kept', async (t) => {
  const probe = counting(await testDb(t));
  const app = await build(t, { db: probe.db });
  const preview = await app.inject(`${PAGE}?preview=${PREVIEW_TOKEN}`);
  t.equal(preview.statusCode, 200);
  t.match(preview.headers['cache-control'], /private/);
  t.equal(app.pageCopies.size, 0, 'a preview is not kept');

  t.equal((await app.inject(PAGE)).statusCode, 200);
  t.equal(app.pageCopies.size, 1);
  const before = probe.queries();
  const byHeader = await app.inject({ url: PAGE, headers: { 'x-preview-token': PREVIEW_TOKEN } });
  t.ok(probe.queries() > before, 'a preview renders, whatever is kept');
  t.match(byHeader.headers['cache-control'], /private/);
  t.match(byHeader.body, 'preview-banner');
  const wrongToken = await app.inject({ url: PAGE, headers: { 'x-preview-token': 'not-the-token' } });
  t.match(wrongToken.headers['cache-control'], /private/, 'any preview token bypasses the cache');
  t.notMatch(wrongToken.body, 'preview-banner');

  // An unpublished page is a 404 for visitors (kept apart), and the page itself in preview.
  t.equal((await app.inject(DRAFT)).statusCode, 404);
  t.equal(app.pageCopies.missing.size, 1, 'the 404 is kept, apart from pages');
  const draft = await app.inject({ url: DRAFT, headers: { 'x-preview-token': PREVIEW_TOKEN } });
  t.equal(draft.statusCode, 200, 'not the kept 404');
  t.match(draft.headers['cache-control'], /private/);
  const preview404 = await app.inject({ url: '/no-such-page', headers: { 'x-preview-token': PREVIEW_TOKEN } });
  t.equal(preview404.statusCode, 404);
  t.equal(app.pageCopies.missing.size, 1, 'a 404 answered to a preview is not kept');

  // The preview error page is private: never kept.
  const size = app.pageCopies.size;
  t.equal((await app.inject(`/preview/acme-cloud-first-steps?preview=${PREVIEW_TOKEN}`)).statusCode, 200);
  t.equal(app.pageCopies.size, size);
});

t.test('the htmx region and the whole page are kept apart', async (t) => {
  const app = await build(t);
  const page = await app.inject(SEARCH);
  const region = await app.inject({ url: SEARCH, headers: { 'hx-request': 'true' } });
  const boosted = await app.inject({ url: SEARCH, headers: { 'hx-request': 'true', 'hx-boosted': 'true' } });
  t.match(page.body, /^<!doctype html>/);
  t.notMatch(region.body, /^<!doctype html>/, 'the region');
  t.match(boosted.body, /^<!doctype html>/, 'a boosted request gets the whole page');
  t.equal((await app.inject({ url: SEARCH, headers: { 'hx-request': 'true' } })).body, region.body, 'region kept');
  t.equal((await app.inject(SEARCH)).body, page.body, 'page kept');
  const hit = await app.inject({ url: SEARCH, headers: { 'hx-request': 'true', 'accept-encoding': 'br' } });
  t.match(hit.headers.vary, /Accept-Encoding/);
  t.match(hit.headers.vary, /HX-Request/);
  t.equal(app.pageCopies.queries.size, 3, 'page, region and boosted page');
});

t.test('search results pages are kept briefly', async (t) => {
  let now = Date.parse('2026-06-01T10:10:00Z');
  const app = await build(t, { clock: () => now });
  await app.inject(SEARCH);
  const copy = app.pageCopies.queries.get(SEARCH);
  t.equal(copy?.expires, now + 60_000, 'a minute, like the search responses');
  now += 61_000;
  t.equal((await app.inject(SEARCH)).statusCode, 200);
  t.not(app.pageCopies.queries.get(SEARCH), copy, 'rendered again, a new copy');
});

t.test('a page never carries a form token past its window', async (t) => {
  let now = Date.parse('2026-06-01T10:58:00Z');
  const app = await build(t, { clock: () => now });
  const first = await app.inject(PAGE);
  const token = tokenOf(first.body);
  t.ok(token && app.formTokens.verify('feedback:acme-cloud-first-steps', token), 'a valid token');
  now += 60_000;
  t.equal(tokenOf((await app.inject(PAGE)).body), token, 'the same page within the window');
  now = Date.parse('2026-06-01T11:00:00Z');
  const next = await app.inject(PAGE);
  const fresh = tokenOf(next.body);
  t.not(fresh, token, 'a fresh token once the window rolls over');
  t.ok(fresh && app.formTokens.verify('feedback:acme-cloud-first-steps', fresh));
  t.not(next.headers.etag, first.headers.etag);
  t.equal(app.pageCopies.pages.get(PAGE)?.expires, now + TOKEN_WINDOW_MS, 'kept until the end of the new window');
});

t.test('made-up URLs cannot evict the site\'s pages', async (t) => {
  const probe = counting(await testDb(t));
  const app = await build(t, { db: probe.db });
  t.equal((await app.inject(PAGE)).statusCode, 200);
  for (let i = 0; i < MISSING_MAX + 40; i++) await app.inject(`/made-up-${i}`);
  for (let i = 0; i < 200; i++) await app.inject(`${PAGE}?utm=${i}`);
  t.equal(app.pageCopies.missing.size, MISSING_MAX, 'not-found pages stay within their bound');
  t.equal(app.pageCopies.queries.size, 200, 'query strings are kept apart');
  const before = probe.queries();
  t.equal((await app.inject(PAGE)).statusCode, 200);
  t.equal(probe.queries(), before, 'the page is still answered from memory');

  // Each partition holds its bound by count and by bytes.
  const cache = new PageCache({ pages: [10, 10_000], queries: [3, 10_000], missing: [2, 300] });
  const keep = (url: string, status: number, size = 10) => cache.partitionOf(url, status).keep(url, { status, body: Buffer.alloc(size), headers: {} });
  for (let i = 0; i < 5; i++) keep(`/p${i}`, 200);
  for (let i = 0; i < 50; i++) keep(`/p0?x=${i}`, 200);
  for (let i = 0; i < 50; i++) keep(`/missing-${i}`, 404, 100);
  t.equal(cache.pages.size, 5, 'pages untouched');
  t.equal(cache.queries.size, 3);
  t.equal(cache.missing.size, 2);
  t.ok(cache.missing.bytes <= 300);
  cache.clear();
  t.equal(cache.size, 0);
  t.equal(cache.generation, 1);
});

t.test('the CSP is strict without a nonce, and no page has an inline script but the one its hash allows', async (t) => {
  const app = await build(t);
  for (const url of [PAGE, '/', '/acme/kb', SEARCH, '/no-such-page']) {
    const res = await app.inject(url);
    const csp = String(res.headers['content-security-policy']);
    t.match(csp, /(^|; )script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/, `${url}: scripts from the site only`);
    t.notMatch(csp, /nonce-|unsafe-inline|unsafe-eval/, `${url}: no nonce, nothing inline`);
    t.notMatch(res.body, /\bnonce=/);
    const inline = [...res.body.matchAll(/<script\b([^>]*)>([^<]*)<\/script>/g)].filter(([, attrs]) => !/\bsrc=/.test(attrs ?? '') && !/type="application\/(ld\+)?json"/.test(attrs ?? ''));
    t.same(inline.map(([, , body]) => body), [SCRIPTS_CLASS_SCRIPT], `${url}: every script is external or a JSON data block, but the one that marks the page for scripts`);
    t.ok(csp.includes(`'sha256-${createHash('sha256').update(SCRIPTS_CLASS_SCRIPT).digest('base64')}'`), `${url}: which the policy allows by its hash`);
  }
});
