import { createHash } from 'node:crypto';
import t from 'tap';
import { build, PREVIEW_TOKEN } from '../helpers/build.ts';

t.test('pages of the content tree', async (t) => {
  const app = await build(t);

  t.test('a topic renders server-side with its chrome, body and rules applied', async (t) => {
    const res = await app.inject('/acme-cloud/docs/first-steps');
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], 'text/html');
    t.equal(res.headers['cache-control'], 'public, no-cache');
    t.ok(res.headers.etag, 'a cache validator');
    t.match(res.headers['content-security-policy'], /script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    const html = res.body;
    // The page's one inline script is the one its policy allows by hash, and it comes before the stylesheets.
    const inline = [...html.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1] ?? '');
    t.equal(inline.length, 1, 'one inline script');
    const hash = createHash('sha256').update(inline[0] ?? '').digest('base64');
    t.ok(String(res.headers['content-security-policy']).includes(`'sha256-${hash}'`), 'the policy allows it by its hash');
    t.ok(html.indexOf('<script>') < html.indexOf('<link rel="stylesheet"'), 'it runs before the first paint');
    t.match(html, /^<!doctype html><html lang="en">/);
    t.match(html, '<a class="skip-link" href="#maincontent">');
    t.match(html, '<main id="maincontent"');
    t.equal(html.match(/<h1[ >]/g)?.length, 1, 'one heading 1');
    t.match(html, '<h1>First steps</h1>');
    t.match(html, '<link rel="canonical" href="https://help.example.test/acme-cloud/docs/first-steps"/>');
    t.match(html, '<meta name="description" content="Start using Acme."/>');
    t.match(html, /<ol><li><a href="\/" title="Support">Support<\/a><\/li><li><a href="\/acme-cloud\/docs" title="Acme Cloud documentation">Acme Cloud documentation<\/a><\/li><li><a href="\/acme-cloud\/docs\/basics" title="Basics">Basics<\/a><\/li><\/ol>/);
    t.match(html, 'Shared <b>note</b> text.', 'a text fragment is rendered in place');
    t.match(html, '<img src="/assets/content/board-view.svg" alt="The Acme widget"', 'a media entry');
    t.match(html, /On this page<\/h2><ul[^>]*><li class="toc-level-2"><a href="#install-the-widget">/, 'on this page with two links');
    t.match(html, 'Updated on March 4, 2026', 'the date in UTC');
    const again = await app.inject({ url: '/acme-cloud/docs/first-steps', headers: { 'if-none-match': res.headers.etag as string } });
    t.equal(again.statusCode, 304, 'the validator works');
  });

  t.test('a KB article shows its platform notice, sections, date and products', async (t) => {
    const res = await app.inject('/acme/kb/widget-crash');
    t.equal(res.statusCode, 200);
    t.match(res.body, '<h1>Widget crashes on start</h1>');
    t.match(res.body, 'Platform notice: Data Center only');
    t.match(res.body, 'Support for Server products ended on February 15th 2024');
    t.match(res.body, /<h2 id="summary">Summary<\/h2>.*<h2 id="solution">Solution<\/h2>/s);
    t.match(res.body, 'Updated on January 31, 2026');
    t.match(res.body, '<a href="/acme/kb" title="Acme Knowledge Base">Acme Knowledge Base</a>');
    t.match(res.body, /<li>Acme Data Center 2.0 and later<\/li>/);
  });

  t.test('versioned documentation answers only for its versions', async (t) => {
    t.equal((await app.inject('/acme-data-center/2.0/docs/upgrade')).statusCode, 200);
    t.equal((await app.inject('/acme-data-center/1.0/docs/upgrade')).statusCode, 404);
  });

  t.test('an unknown path gets the not-found page from content', async (t) => {
    const res = await app.inject('/no/such/page');
    t.equal(res.statusCode, 404);
    t.match(res.body, '<h1>Nothing here</h1>');
    t.match(res.body, 'That page has gone fishing.');
    t.match(res.body, /<form action="\/search-results\/" method="get" target="_blank" role="search"/);
    t.match(res.body, '<a href="/">Go to the support home page</a>');
  });

  t.test('unpublished entries exist only in preview mode', async (t) => {
    const path = '/acme-cloud/docs/upcoming-feature';
    t.equal((await app.inject(path)).statusCode, 404);
    t.equal((await app.inject(`${path}?preview=wrong-token-wrong-token-wrong-token-xx`)).statusCode, 404, 'a wrong token is not enough');
    const res = await app.inject(`${path}?preview=${PREVIEW_TOKEN}`);
    t.equal(res.statusCode, 200);
    t.match(res.body, 'PREVIEW MODE');
    t.match(res.body, 'Not yet announced.');
    t.equal(res.headers['cache-control'], 'private, no-store');
  });

  t.test('the sitemap lists every published page and nothing else', async (t) => {
    const res = await app.inject('/sitemap.xml');
    t.equal(res.statusCode, 200);
    t.match(res.headers['content-type'], 'application/xml');
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    t.same(locs.sort(), [
      'https://help.example.test/acme-cloud/docs', 'https://help.example.test/acme-cloud/docs/basics',
      'https://help.example.test/acme-cloud/docs/first-steps', 'https://help.example.test/acme-data-center/2.0/docs/upgrade',
      'https://help.example.test/acme-cloud/resources', 'https://help.example.test/acme-data-center/resources',
      'https://help.example.test/acme/kb', 'https://help.example.test/acme/kb/widget-crash',
    ].sort());
    const robots = await app.inject('/robots.txt');
    t.match(robots.body, 'Sitemap: https://help.example.test/sitemap.xml');
  });

  t.test('assets are served under hashed names with long lifetimes', async (t) => {
    const page = await app.inject('/acme/kb/widget-crash');
    const css = /href="(\/assets\/main\.[0-9a-f]{12}\.css)"/.exec(page.body)?.[1];
    const js = /src="(\/assets\/islands\.[0-9a-f]{12}\.js)"/.exec(page.body)?.[1];
    t.ok(css && js);
    const res = await app.inject(css as string);
    t.equal(res.statusCode, 200);
    t.match(res.headers['cache-control'], 'immutable');
    t.equal((await app.inject(js as string)).statusCode, 200);
    t.equal((await app.inject('/assets/content/board-view.svg')).statusCode, 200);
  });
});

t.test('a broken tree at start-up keeps the stored content serving', async (t) => {
  const { tempContent, testDb } = await import('../helpers/build.ts');
  const { appendFile } = await import('node:fs/promises');
  const db = await testDb(t);
  const dir = await tempContent(t);
  const first = await build(t, { db, contentDir: dir });
  await first.close();
  await appendFile(`${dir}/products/acme-cloud.yaml`, 'colour: blue\n');
  const second = await build(t, { db, contentDir: dir });
  const res = await second.inject('/acme-cloud/docs/first-steps');
  t.equal(res.statusCode, 200, 'the old content still serves');
});

t.test('with no content stored, a broken tree stops start-up with its problems', async (t) => {
  const { tempContent } = await import('../helpers/build.ts');
  const { appendFile } = await import('node:fs/promises');
  const dir = await tempContent(t);
  await appendFile(`${dir}/products/acme-cloud.yaml`, 'colour: blue\n');
  await t.rejects(build(t, { contentDir: dir }), /products\/acme-cloud\.yaml:5:1: colour: unknown field/);
});

t.test('pages are sent compressed to clients that accept it', async (t) => {
  const app = await build(t);
  const res = await app.inject({ url: '/acme-cloud/docs/first-steps', headers: { 'accept-encoding': 'gzip' } });
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-encoding'], 'gzip');
  const { gunzipSync } = await import('node:zlib');
  t.match(gunzipSync(res.rawPayload).toString(), '<h1>First steps</h1>');
});
