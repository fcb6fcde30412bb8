/**
 * Insights in a real browser: axe (WCAG 2.2 A/AA) finds nothing on the overview, both sections with
 * figures, the empty state and the bad-date state, at desktop and phone widths; with JavaScript off the
 * filter form is filled and sent by keyboard and the tables follow.
 */
import t from 'tap';
import { audit, pageAs, servePublic } from '../e2e/browser.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';
import { SESSION_SECRET, sealed } from '../identity/helpers.ts';
import { STAFF } from '../support/requests-helpers.ts';


t.test('insights in a browser', async (t) => {
  const { base, browser, app } = await servePublic(t, { contentDir: SAMPLE_CONTENT, env: { SESSION_SECRET, STAFF_EMAIL_DOMAIN: 'fernhollow.example' } });
  const staff = sealed(app, STAFF);
  const [row] = await app.db.query<{ path: string; product: string }>(
    `select r.path, e.product_id as product from content_routes r join content_entries e on e.id = r.entry_id
      where e.product_id is not null and e.title is not null order by r.path limit 1`);
  const { path, product } = row as { path: string; product: string };
  const events: [string, string, string, string, number | null, object][] = [
    ['search', '', 'export board', 'results', 3, {}], ['search', '', 'sso', 'no_results', 0, {}],
    ['search_result_click', '', 'export board', '2', 800, {}], ['spelling_rewrite', '', 'expot', 'shown', null, {}],
    ['page_view', path, '', '', null, {}], ['was_this_helpful_click', path, '', 'no', null, { reason: 'not-clear' }],
    ['page_scrolled', path, '', '75', 0.8, {}], ['page_dwelled', path, '', '', 12_000, {}], ['support_request', path, '', 'contact', null, {}],
    ['page_view', '/gone/page', '', '', null, {}],
  ];
  for (const [type, p, term, key, value, data] of events) {
    await app.db.query(
      `insert into analytics_events (occurred_at, type, source, path, product, term, key, value, data) values (now(), $1, 'server', $2, $3, $4, $5, $6, $7::jsonb)`,
      [type, p, product, term, key, value, JSON.stringify(data)]);
  }

  for (const viewport of ['desktop', 'mobile'] as const) {
    t.test(`axe on every state (${viewport})`, async (t) => {
      const page = await pageAs(browser, base, staff, true, viewport);
      for (const [url, what] of [
        ['/insights', 'the overview'], ['/insights/searches', 'searches'], ['/insights/pages', 'pages'],
        ['/insights/pages?from=2020-01-01&to=2020-01-31', 'the empty state'], ['/insights/searches?from=2026-02-30', 'a bad date (400)'],
      ] as const) {
        const res = await page.goto(base + url);
        t.equal(res?.status(), what === 'a bad date (400)' ? 400 : 200, what);
        await audit(t, page, what);
      }
      t.equal(await page.getByRole('alert').count(), 1, 'the bad date is announced');
      await page.context().close();
    });
  }

  t.test('without JavaScript, the filters are sent by keyboard and kept in the URL', async (t) => {
    const page = await pageAs(browser, base, staff, false, 'desktop');
    await page.goto(`${base}/insights/pages`);
    const hidden = await page.locator('.table-scroll').evaluateAll((regions) => regions
      .filter((r) => r.scrollWidth > r.clientWidth + 1).map((r) => `${r.getAttribute('aria-label')}: ${r.scrollWidth} > ${r.clientWidth}`));
    t.same(hidden, [], 'at 1280 px every column of every table is in view, none behind a sideways scroll');
    t.equal(await page.locator('#scroll tbody tr').first().locator('td').count(), 5, 'the scroll table has its four quarters');
    await page.goto(`${base}/insights/searches`);
    t.equal(await page.getByRole('img', { name: /Top searches/ }).count(), 1, 'the chart is an image named by its title');
    t.match(await page.locator('#top tbody').textContent(), 'export board');
    await page.getByLabel('From (YYYY-MM-DD)').focus();
    await page.keyboard.type('01012020');
    await page.getByLabel('To (YYYY-MM-DD)').focus();
    await page.keyboard.type('01312020');
    await Promise.all([page.waitForURL(/from=2020-01-01/, { timeout: 10_000 }), page.keyboard.press('Enter')]);
    const url = new URL(page.url());
    t.equal(url.pathname, '/insights/searches');
    t.equal(url.searchParams.get('from'), '2020-01-01');
    t.equal(url.searchParams.get('to'), '2020-01-31');
    t.equal(await page.locator('#top tbody').count(), 0, 'nothing in January 2020');
    t.match(await page.locator('#top').textContent(), 'Nothing recorded for these filters.');
    const csv = page.getByRole('link', { name: 'Download top searches as CSV' });
    t.match(await csv.getAttribute('href'), /from=2020-01-01&to=2020-01-31/);
    await page.context().close();
  });
});
