/**
 * Insights in a real browser: axe (WCAG 2.2 A/AA) finds nothing on the overview, every section with
 * figures (trends and daily charts included), the empty state and the bad-date state, at desktop and
 * phone widths; with JavaScript off the filter form is filled and sent by keyboard and the tables follow.
 * With JavaScript on, the analytics script ties a support form and an assistant's answer to the visit.
 */
import t from 'tap';
import { InMemoryProvider } from '@openfeature/server-sdk';
import { audit, pageAs, servePublic } from '../e2e/browser.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';
import { STAFF } from '../support/requests-helpers.ts';


t.test('insights in a browser', async (t) => {
  const forAda = { variants: { on: true, off: false }, defaultVariant: 'off', disabled: false,
    contextEvaluator: (context: { targetingKey?: string }) => (context.targetingKey === ADA.sub ? 'on' : 'off') };
  const { base, browser, app } = await servePublic(t, {
    contentDir: SAMPLE_CONTENT, flagProvider: new InMemoryProvider({ 'csm-ai-agent-on-sac': forAda }),
    env: { SESSION_SECRET, STAFF_EMAIL_DOMAIN: 'fernhollow.example' },
  });
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
    ['page_view', '/gone/page', '', '', null, {}], ['support_request', '/contact', 'sso', 'contact', null, {}],
    ['assistant_question', '/assistant', 'how do I frobnicate', 'unanswered', 0, {}],
  ];
  for (const [type, p, term, key, value, data] of events) {
    await app.db.query(
      `insert into analytics_events (occurred_at, type, source, path, product, term, key, value, data, query_id, session_id)
       values (now() - interval '1 minute', $1, 'server', $2, $3, $4, $5, $6, $7::jsonb, $8, null)`,
      [type, p, product, term, key, value, JSON.stringify(data), type === 'assistant_question' ? 'q-1' : null]);
  }
  await app.db.query(
    `insert into analytics_events (occurred_at, type, source, path, query_id, session_id) values
       (now() - interval '50 seconds', 'assistant_rendered', 'client', '/assistant', 'q-1', 'visit-1234'),
       (now() - interval '40 seconds', 'page_dwelled', 'client', $1, null, 'visit-1234')`, [path]);

  for (const viewport of ['desktop', 'mobile'] as const) {
    t.test(`axe on every state (${viewport})`, async (t) => {
      const page = await pageAs(browser, base, staff, true, viewport);
      for (const [url, what] of [
        ['/insights', 'the overview'], ['/insights/searches', 'searches'], ['/insights/pages', 'pages'], ['/insights/assistant', 'the assistant'],
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
    t.equal(await page.locator('#scroll .table-scroll tbody tr').first().locator('td').count(), 6, 'the scroll table has its four quarters and the change');
    await page.goto(`${base}/insights/searches`);
    t.equal(await page.getByRole('img', { name: /^Top searches: searches (?!per day)/ }).count(), 1, 'the chart is an image named by its title');
    t.equal(await page.getByRole('img', { name: /^Top searches: searches per day / }).count(), 1, 'so is the daily chart');
    t.match(await page.locator('#top .table-scroll tbody').textContent(), 'export board');
    t.match(await page.locator('#to-request .table-scroll tbody').textContent(), 'sso', 'the search that ended in a request');
    const figures = page.locator('#top details summary');
    await figures.focus();
    await page.keyboard.press('Enter');
    t.ok(await page.locator('#top details table').isVisible(), 'the daily figures open by keyboard');
    await page.getByLabel('From (YYYY-MM-DD)').focus();
    await page.keyboard.type('01012020');
    await page.getByLabel('To (YYYY-MM-DD)').focus();
    await page.keyboard.type('01312020');
    await Promise.all([page.waitForURL(/from=2020-01-01/, { timeout: 10_000 }), page.keyboard.press('Enter')]);
    const url = new URL(page.url());
    t.equal(url.pathname, '/insights/searches');
    t.equal(url.searchParams.get('from'), '2020-01-01');
    t.equal(url.searchParams.get('to'), '2020-01-31');
    t.equal(await page.locator('#top .table-scroll tbody').count(), 0, 'nothing in January 2020');
    t.match(await page.locator('#top').textContent(), 'Nothing recorded for these filters.');
    const csv = page.getByRole('link', { name: 'Download top searches as CSV' });
    t.match(await csv.getAttribute('href'), /from=2020-01-01&to=2020-01-31/);
    await page.goto(`${base}/insights/assistant`);
    t.match(await page.locator('#unanswered .table-scroll tbody').textContent(), /how do I frobnicate.*1 visit/s, 'the page opened after the question');
    await page.context().close();
  });

  t.test('with JavaScript, the analytics script ties a support form and an answer to the visit', async (t) => {
    const page = await pageAs(browser, base, sealed(app, ADA), true, 'desktop');
    await page.goto(`${base}/contact`);
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[name="_visit"]')?.value !== '', null, { timeout: 30_000 });
    const visit = await page.evaluate(() => sessionStorage.getItem('signpost-session'));
    t.match(visit, /^[A-Za-z0-9_-]{8,64}$/, 'the visit has its id');
    t.equal(await page.locator('input[name="_visit"]').inputValue(), visit, 'the form carries the visit');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/events') && (r.postData() ?? '').includes('assistant_rendered'), { timeout: 30_000 });
    await page.goto(`${base}/assistant?q=${encodeURIComponent('zqxjv frobnicate banana')}`);
    const id = await page.locator('[data-assistant-id]').getAttribute('data-assistant-id');
    t.match((await sent).postData(), `"queryId":"${id}"`, 'the answer shown is reported with its question id');
    await page.context().close();
  });
});
