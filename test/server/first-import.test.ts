/**
 * A new site's first start (issue 25 item 11, issue 29 item 3): while nothing is stored, every page
 * answers a 'starting' 503 with Retry-After that no cache keeps, never a 404 saying it does not exist.
 * The first import here is one the test makes when it chooses: the instance starts with
 * IMPORT_ON_START=false against an empty database, as an instance beside the one importing does.
 */
import t, { type Test } from 'tap';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { importContent } from '../../server/content/import.ts';
import { build, FIXTURE, testDb } from '../helpers/build.ts';
import { axeViolations, openPage } from '../e2e/browser.ts';
import { chromium } from 'playwright-core';
import { findChromiumOrPlaywright, CHROMIUM_ARGS } from '../../scripts/find-chromium.mjs';

const PAGE = '/acme-cloud/docs/first-steps';
const SEARCH_API = '/gateway/api/help-content/v2/search';

/** Waits for a state of the app with a generous deadline (a loaded machine is slow, never this slow). */
async function until(ready: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function assertStarting(t: Test, app: FastifyInstance, url: string) {
  const res = await app.inject(url);
  t.equal(res.statusCode, 503, `${url}: not a 404`);
  t.equal(res.headers['retry-after'], '5', `${url}: Retry-After`);
  t.equal(res.headers['cache-control'], 'no-store', `${url}: never kept by a cache`);
  t.match(res.headers['content-type'], 'text/html');
  t.match(res.body, '<h1>The help centre is starting</h1>');
  t.notMatch(res.body, /not found|does not exist|no results/i);
  t.notMatch(res.body, /<script/, 'no scripts');
  return res;
}

t.test('a new site answers "starting" until its first import is stored, then its pages', async (t) => {
  const db = await testDb(t);
  const app = await build(t, { db, env: { IMPORT_ON_START: 'false' } });
  t.ok(app.contentStarting(), 'nothing stored: the site is starting');

  for (const url of ['/', PAGE, '/no/such/page', '/search-results?q=install', '/sitemap.xml']) {
    const res = await assertStarting(t, app, url);
    t.match(res.body, `<a href="${url.replace(/&/g, '&amp;')}">Try again</a>`, `${url}: leads back to the page asked for`);
  }
  t.equal((await app.inject({ method: 'HEAD', url: PAGE })).statusCode, 503, 'HEAD too');
  const api = await app.inject({ method: 'POST', url: SEARCH_API, payload: { query: 'install' } });
  t.equal(api.statusCode, 503, 'the search API: not an empty result');
  t.equal(api.headers['retry-after'], '5');
  t.same(api.json(), { statusCode: 503, error: 'STARTING', message: 'The help centre is starting. Please try again in a moment.' });

  const page = await app.inject(PAGE);
  const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(page.body)?.[1];
  t.ok(stylesheet, 'the page links its stylesheet');
  t.equal((await app.inject(stylesheet!)).statusCode, 200, 'static assets are served');
  t.equal((await app.inject('/healthz')).statusCode, 200, 'liveness answers');
  const ready = await app.inject('/readyz');
  t.equal(ready.statusCode, 503, 'readiness keeps the instance out of rotation');
  t.match(ready.json(), { checks: { content: /^no content stored yet/ } });

  // The first import commits (as another instance or `npm run import` would): its NOTIFY ends the start.
  await importContent(db, FIXTURE);
  await until(() => !app.contentStarting(), 'the import to be heard');
  t.equal((await app.inject(PAGE)).statusCode, 200, 'the same page once the import is stored');
  t.equal((await app.inject('/no/such/page')).statusCode, 404, 'and a 404 where there is no page');
  t.equal((await app.inject('/readyz')).statusCode, 200);
});

t.test('the import at start ends the start when it is stored', async (t) => {
  // build() resolves once the import at start settles: the site is no longer starting.
  const app = await build(t);
  t.notOk(app.contentStarting());
  t.equal((await app.inject(PAGE)).statusCode, 200);
  t.equal((await app.inject('/no/such/page')).statusCode, 404, 'a 404 is a 404');
});

t.test('a site with content stored answers its pages and its 404s without an import of its own', async (t) => {
  const db = await testDb(t);
  await importContent(db, FIXTURE);
  const app = await build(t, { db, env: { IMPORT_ON_START: 'false' } });
  t.notOk(app.contentStarting());
  t.equal((await app.inject('/no/such/page')).statusCode, 404, 'a 404 is a 404');
  t.equal((await app.inject(PAGE)).statusCode, 200);
});

t.test('the starting page passes axe (WCAG 2.2 A/AA) in a browser', async (t) => {
  const executablePath = await findChromiumOrPlaywright();
  if (!executablePath) throw new Error('No Chromium found: run `node scripts/ensure-browser.mjs` for how to get one.');
  const app = await build(t, { env: { IMPORT_ON_START: 'false' } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  t.teardown(() => browser.close());
  for (const viewport of ['desktop', 'mobile'] as const) {
    const page = await openPage(browser, `http://127.0.0.1:${port}${PAGE}`, { scripts: 'on', viewport });
    t.equal(await page.locator('h1').textContent(), 'The help centre is starting', viewport);
    t.same(await axeViolations(page), [], `${viewport}: no WCAG A/AA violations`);
    await page.context().close();
  }
});
