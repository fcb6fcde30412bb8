import t from 'tap';
import type { Page } from 'playwright-core';
import { servePublic, VIEWPORTS } from './browser.ts';
import { hydrateAll } from './islands.ts';
import { join } from 'node:path';
import { editFile, SAMPLE_CONTENT, tempContent, testDb } from '../helpers/build.ts';

// The analytics island (islands/analytics.ts) in a real browser: each client event arrives with its fields.
const TOPIC = '/tracklight-cloud/docs/write-rich-issue-descriptions';
const HOME = '/';
/** A documentation home whose list is longer than 'Show more' shows. */
const DOCS = '/codebarn-cloud/docs';

interface Row { type: string; source: string; session_id: string | null; persistent_id: string | null; path: string; key: string; value: number | null; term: string; query_id: string | null }

t.test('client events from a browser journey', async (t) => {
  const db = await testDb(t);
  const { base, browser, app } = await servePublic(t, { db, contentDir: SAMPLE_CONTENT });
  const rows = async (type: string, count = 1, until: (found: Row[]) => boolean = () => true): Promise<Row[]> => {
    // Beacons are sent as the page is left; then the writer's batch.
    for (let i = 0; i < 50; i++) {
      await app.analytics.writer.flush();
      const found = await db.query<Row>(`select * from analytics_events where type = $1 and source = 'client' order by id`, [type]);
      if (found.length >= count && until(found)) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
    return db.query<Row>(`select * from analytics_events where type = $1 and source = 'client' order by id`, [type]);
  };
  const context = await browser.newContext({ viewport: VIEWPORTS.mobile });
  // Shorter spec §9 timings, so dwell reports within the test.
  await context.addInitScript(() => {
    (window as Window & { signpostAnalyticsTimings?: object }).signpostAnalyticsTimings = { dwellFirstReportMs: 600, dwellCheckMs: 100, scrollDebounceMs: 50, flushMs: 100 };
  });
  const page: Page = await context.newPage();

  // What the page has sent so far (batches leave while the page is open, as the test's timings are short).
  const sent: { type: string; key?: string }[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'POST' || !request.url().includes('/api/events')) return;
    try { sent.push(...(JSON.parse(request.postData() ?? '{}') as { events?: { type: string; key?: string }[] }).events ?? []); } catch { /* not a batch */ }
  });
  const hasSent = (type: string, key?: string) => sent.some((e) => e.type === type && (key === undefined || e.key === key));

  await page.goto(base + TOPIC);
  await page.waitForFunction(() => document.documentElement.dataset.islands === 'running');
  await page.locator('.page-tree-toggle').first().click();
  await page.mouse.move(10, 10);
  // To the very end, again while the page grows (images, the opened tree, islands hydrating as they are
  // seen), until the page has reported the last quarter and an active time.
  for (let i = 0; i < 200 && !(hasSent('page_scrolled', '100') && hasSent('page_dwelled') && hasSent('page_tree')); i++) {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.mouse.move(10 + (i % 2), 10);
    await page.waitForTimeout(100);
  }
  await page.locator('.site-footer nav a').first().click();
  await page.waitForLoadState('load');

  // Each quarter is reported once, as it is passed, maybe in batches of their own: the deepest is the end.
  const deepest = (found: Row[]) => [...found].sort((a, b) => Number(b.key) - Number(a.key))[0];
  const scrolled = deepest(await rows('page_scrolled', 1, (found) => deepest(found)?.key === '100'));
  t.match(scrolled, { path: TOPIC, key: '100', session_id: /^[\w-]{8,}$/, persistent_id: /^[\w-]{8,}$/ }, 'scroll depth');
  const [dwell] = await rows('page_dwelled');
  t.match(dwell, { path: TOPIC, key: '' }, 'dwell');
  t.ok((dwell?.value ?? 0) >= 600, `dwell reports the active time (${dwell?.value} ms)`);
  t.match((await rows('page_tree'))[0], { path: TOPIC, key: 'open' }, 'the page tree opened');
  const [footer] = await rows('footer_click');
  t.match(footer, { path: TOPIC, key: /^\/legal\// }, 'footer link');

  await page.goto(`${base}/search-results/?searchTerm=filter`);
  await page.waitForFunction(() => document.documentElement.dataset.islands === 'running');
  const queryId = await page.locator('[data-query-id]').getAttribute('data-query-id');
  const [renderedRow] = await rows('results_rendered');
  t.match(renderedRow, { path: '/search-results/', term: 'filter', query_id: queryId }, 'results rendered with its query id');
  t.ok((renderedRow?.value ?? -1) >= 0, 'with the response time');
  await page.locator('[data-analytics="tab"]').nth(1).click();
  await page.waitForTimeout(300);
  await page.locator('[data-analytics="filter"]').first().click();
  await page.waitForTimeout(300);
  const listId = await page.locator('[data-query-id]').getAttribute('data-query-id');
  await page.locator('a[data-position="1"]').first().click();
  await page.waitForLoadState('load');

  const [click] = await rows('search_result_click');
  t.match(click, { key: '1', term: 'filter', query_id: listId }, 'result click with position, term and queryId');
  t.ok((click?.value ?? -1) >= 0, 'and time to click');
  t.match((await rows('tab'))[0], { key: /\w/ }, 'a tab');
  t.match((await rows('filter'))[0], { key: /^.+=.+$/ }, 'a filter');

  // Pagination, a filter, then the reset of the filters, on a results page of its own.
  await page.goto(`${base}/search-results/?searchTerm=filter`);
  await page.waitForFunction(() => document.documentElement.dataset.islands === 'running');
  await page.locator('[data-analytics="pagination"][data-analytics-key="2"]').first().click();
  await page.waitForTimeout(300);
  await page.locator('[data-analytics="filter"]').first().click();
  await page.waitForTimeout(300);
  await page.locator('[data-analytics="reset"]').first().click();
  await page.waitForTimeout(300);

  await page.goto(base + HOME);
  await page.locator('.browse-resources a').first().click();
  await page.waitForLoadState('load');
  await page.goto(base + HOME);
  await page.locator('.featured a').first().click();
  await page.waitForLoadState('load');
  t.match((await rows('pagination'))[0], { path: '/search-results/', key: '2' }, 'a page of results');
  t.match((await rows('reset'))[0], { path: '/search-results/' }, 'the filters reset');
  t.match((await rows('resource_card_click'))[0], { path: '/', key: /\S/ }, 'a resource card');
  t.match((await rows('featured_card_click'))[0], { path: '/', key: /^\// }, 'a featured card');

  await page.goto(base + DOCS);
  await page.waitForFunction(() => document.documentElement.dataset.islands === 'running');
  // The list's first interaction: its 'Show more' before the island has hydrated, given to it once it has.
  await page.locator('details.show-more > summary').first().click();
  await page.locator('.show-more-toggle[aria-expanded="true"]').first().waitFor();
  await page.waitForTimeout(200);
  await page.goto(base + HOME);
  t.match((await rows('show_more'))[0], { path: DOCS, key: /\S/ }, "a 'Show more'");
  await context.close();

  const desktop = await browser.newContext({ viewport: VIEWPORTS.desktop });
  const wide = await desktop.newPage();
  await wide.goto(base + HOME);
  await hydrateAll(wide);
  await wide.waitForFunction(() => document.querySelector('[data-island="site-header"]')?.getAttribute('data-island-ready') === 'true');
  const menu = wide.locator('[data-menu]').first();
  const menuId = await menu.getAttribute('data-menu');
  await menu.locator('.menu-trigger').click();
  await wide.goto(base + TOPIC);
  t.match((await rows('dropdown'))[0], { path: '/', key: `${menuId}:open` }, 'a header dropdown opened');
  await desktop.close();

  const dnt = await browser.newContext({ extraHTTPHeaders: { dnt: '1' } });
  await dnt.addInitScript(() => Object.defineProperty(navigator, 'doNotTrack', { get: () => '1' }));
  // Pages no other part of this journey opens, so a late beacon of an earlier page cannot count here.
  const QUIET = ['/tracklight-cloud/docs/configure-board-columns', '/tracklight-cloud/docs/get-started'];
  const quiet = await dnt.newPage();
  await quiet.goto(base + QUIET[0]);
  await quiet.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await quiet.goto(base + QUIET[1]);
  // Leaving the second page is when its beacon would go.
  await quiet.locator('.site-footer nav a').first().click();
  await quiet.waitForLoadState('load');
  await app.analytics.writer.flush();
  const recorded = await db.query<{ type: string; path: string }>(`select type, path from analytics_events where path = any($1)`, [QUIET]);
  t.same(recorded, [], 'with Do-Not-Track nothing is recorded, on the server or from the browser');
  await dnt.close();

  // Spec §8: a failed send is logged by the page.
  const failing = await browser.newContext({ viewport: VIEWPORTS.mobile });
  await failing.addInitScript(() => {
    (window as Window & { signpostAnalyticsTimings?: object }).signpostAnalyticsTimings = { flushMs: 50, scrollDebounceMs: 50 };
  });
  await failing.route('**/api/events', (route) => route.fulfill({ status: 503, body: 'busy' }));
  const broken = await failing.newPage();
  const logged = broken.waitForEvent('console', { predicate: (m) => m.type() === 'warning' && /analytics: \d+ event\(s\) not sent: HTTP 503/.test(m.text()), timeout: 15_000 });
  await broken.goto(base + TOPIC);
  await broken.waitForFunction(() => document.documentElement.dataset.islands === 'running');
  await broken.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  t.match((await logged).text(), 'HTTP 503', 'the failed send is in the console');
  await failing.close();
});

/** A video host's player, as the page's iframe gets it: buttons that post what a player says (Vimeo and YouTube protocols). */
const PLAYER = `<!doctype html><title>Player</title>
<button id="play" onclick="parent.postMessage(JSON.stringify({event:'play'}),'*')">Play</button>
<button id="end" onclick="parent.postMessage({event:'ended',data:{seconds:12.4}},'*')">End</button>
<button id="fail" onclick="parent.postMessage(JSON.stringify({event:'onError',info:150}),'*')">Fail</button>
<button id="noise" onclick="parent.postMessage('not json','*')">Noise</button>`;

t.test('embedded videos: a start when the visitor moves into the player, the end and an error from its messages', async (t) => {
  const dir = await tempContent(t);
  await editFile(join(dir, 'site.yaml'), /^id: site\n/, 'id: site\nvideoHosts:\n  - video.example.test\n');
  await editFile(join(dir, 'topics/acme-cloud/first-steps.md'), '::fragment{id="shared-note"}', '::video{src="https://video.example.test/embed/42" title="A tour of the widget"}\n\n::fragment{id="shared-note"}');
  const db = await testDb(t);
  const { base, browser, app } = await servePublic(t, { db, contentDir: dir });
  const context = await browser.newContext({ viewport: { width: 1280, height: 2000 } });
  await context.route('https://video.example.test/**', (route) => route.fulfill({ contentType: 'text/html', body: PLAYER }));
  const page = await context.newPage();
  const path = '/acme-cloud/docs/first-steps';
  await page.goto(base + path);
  await page.waitForFunction(() => document.documentElement.dataset.islands === 'running');
  const player = page.frameLocator('.video-frame iframe');
  await player.locator('#play').click();
  await player.locator('#noise').click();
  await player.locator('#end').click();
  await player.locator('#fail').click();
  await page.waitForTimeout(200);
  await page.goto(base + '/');

  let videos: Row[] = [];
  for (let i = 0; i < 50 && videos.length < 3; i++) {
    await app.analytics.writer.flush();
    videos = await db.query<Row>(`select * from analytics_events where type = 'video' order by id`);
    if (videos.length < 3) await new Promise((r) => setTimeout(r, 100));
  }
  t.same(videos.map((v) => v.key), ['start', 'end', 'error'], 'one start (moving in and the play message are the same start), the end, the error');
  t.ok(videos.every((v) => v.path === path && v.source === 'client'), 'on the page of the video');
  t.equal(videos[1]?.value, 12, 'the end at the seconds the player said');
  await context.close();
});
