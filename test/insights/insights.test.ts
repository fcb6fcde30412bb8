/**
 * Insights for staff (issue 17): the figures of each table match the events written here with SQL, on raw
 * days and on rolled-up days alike; only staff see the section; the date range and product filter every
 * table and CSV; the CSV is the table; bad filters are 400s that say what to fix.
 */
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { build } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';
import type { SessionUser } from '../../server/identity/types.ts';

const STAFF: SessionUser = { ...ADA, sub: 'acct-sam', email: 'sam@fernhollow.example', name: 'Sam Staff' };
const AUTHOR: SessionUser = { ...ADA, sub: 'acct-ann', email: 'ann@writers.example', name: 'Ann Author', canEdit: true };

interface Ev { type: string; day: string; path?: string; product?: string; term?: string; key?: string; value?: number; data?: object }

async function write(app: FastifyInstance, events: Ev[]) {
  for (const e of events) {
    await app.db.query(
      `insert into analytics_events (occurred_at, type, source, path, product, term, key, value, data)
       values ($1::timestamptz, $2, 'server', $3, $4, $5, $6, $7, $8::jsonb)`,
      [`${e.day}T12:00:00Z`, e.type, e.path ?? '', e.product ?? '', e.term ?? '', e.key ?? '', e.value ?? null, JSON.stringify(e.data ?? {})],
    );
  }
}

/** A day already rolled up: its counts only in analytics_daily (the raw events are gone). */
async function rolledUp(app: FastifyInstance, day: string, rows: { type: string; path?: string; product?: string; term?: string; key?: string; count: number; total?: number }[]) {
  for (const r of rows) {
    await app.db.query(
      `insert into analytics_daily (day, type, path, product, term, key, count, total) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [day, r.type, r.path ?? '', r.product ?? '', r.term ?? '', r.key ?? '', r.count, r.total ?? 0],
    );
  }
  await app.db.query(`insert into analytics_rollups (day) values ($1)`, [day]);
}

const rep = (n: number, e: Ev): Ev[] => Array.from({ length: n }, () => e);

/**
 * The rows of one table section of a page, as cell texts; without the last column, the change since the
 * previous range, unless `change` asks for it.
 */
function tableRows(html: string, id: string, change = false): string[][] {
  const section = new RegExp(`<section[^>]* id="${id}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '';
  const head = /<thead>([\s\S]*?)<\/thead>/.exec(section)?.[1] ?? '';
  const trend = /<th[^>]*>Change from [^<]*<\/th><\/tr>/.test(head);
  const body = /<div class="table-scroll"[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(section)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => {
    const cells = [...(m[1] ?? '').matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => decode((c[1] ?? '').replace(/<[^>]+>/g, '')));
    return trend && !change ? cells.slice(0, -1) : cells;
  });
}

const decode = (s: string) => s.replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** A CSV's rows (the writer's own quoting: "…" with "" inside). */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.trimEnd().split('\r\n')) {
    const cells: string[] = [];
    for (const m of line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)) cells.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2] ?? '');
    rows.push(cells);
  }
  return rows;
}

t.test('insights for staff', async (t) => {
  const app = await build(t, { env: { SESSION_SECRET, STAFF_EMAIL_DOMAIN: 'fernhollow.example' } });
  const staff = sealed(app, STAFF);
  const get = (url: string, cookie: string | null = staff) => app.inject({ url, headers: cookie ? { cookie } : {} });
  const [page] = await app.db.query<{ path: string; title: string }>(
    `select r.path, e.title from content_routes r join content_entries e on e.id = r.entry_id where e.product_id = 'acme-cloud' and e.title is not null order by r.path limit 1`);
  const known = page as { path: string; title: string };
  const gone = '/acme-cloud/docs/removed-page';
  const JAN = 'from=2026-01-01&to=2026-01-31';

  await write(app, [
    ...rep(3, { type: 'search', day: '2026-01-10', term: 'billing', key: 'results', value: 4, product: 'acme-cloud' }),
    ...rep(2, { type: 'search', day: '2026-01-11', term: 'sso setup', key: 'no_results', value: 0, product: 'acme-data-center' }),
    { type: 'search', day: '2026-01-12', term: '=HYPERLINK("x")', key: 'results', value: 1, product: 'acme-cloud' },
    { type: 'search', day: '2026-02-15', term: 'outside', key: 'results', value: 1, product: 'acme-cloud' },
    ...rep(2, { type: 'search_result_click', day: '2026-01-10', term: 'billing', key: '1', value: 900, product: 'acme-cloud' }),
    { type: 'search_result_click', day: '2026-01-10', term: 'billing', key: '3', value: 2000, product: 'acme-cloud' },
    ...rep(3, { type: 'spelling_rewrite', day: '2026-01-10', term: 'biling', key: 'shown', product: 'acme-cloud' }),
    { type: 'spelling_rewrite', day: '2026-01-10', term: 'biling', key: 'declined', product: 'acme-cloud' },
    ...rep(4, { type: 'page_view', day: '2026-01-10', path: known.path, product: 'acme-cloud' }),
    { type: 'page_view', day: '2026-01-10', path: gone, product: 'acme-cloud' },
    { type: 'was_this_helpful_click', day: '2026-01-10', path: known.path, key: 'yes', product: 'acme-cloud' },
    { type: 'was_this_helpful_click', day: '2026-01-10', path: known.path, key: 'no', product: 'acme-cloud', data: { reason: 'not-clear' } },
    ...rep(2, { type: 'was_this_helpful_click', day: '2026-01-10', path: gone, key: 'no', product: 'acme-cloud', data: { reason: 'not-accurate' } }),
    { type: 'page_scrolled', day: '2026-01-10', path: known.path, key: '100', value: 1, product: 'acme-cloud' },
    { type: 'page_scrolled', day: '2026-01-10', path: known.path, key: '50', value: 0.5, product: 'acme-cloud' },
    { type: 'page_dwelled', day: '2026-01-10', path: known.path, value: 30_000, product: 'acme-cloud' },
    { type: 'page_dwelled', day: '2026-01-10', path: known.path, value: 10_000, product: 'acme-cloud' },
    ...rep(2, { type: 'support_request', day: '2026-01-10', path: known.path, key: 'contact', product: 'acme-cloud' }),
  ]);
  // 5 January is rolled up: its counts come from the aggregates alone.
  await rolledUp(app, '2026-01-05', [
    { type: 'search', term: 'billing', key: 'results', count: 2, total: 8, product: 'acme-cloud' },
    { type: 'page_view', path: known.path, count: 6, product: 'acme-cloud' },
    { type: 'page_dwelled', path: known.path, count: 1, total: 20_000, product: 'acme-cloud' },
  ]);

  t.test('nobody but staff finds the section', async (t) => {
    for (const url of ['/insights', '/insights/searches', '/insights/pages', '/insights/searches/top.csv']) {
      for (const [who, cookie] of [['anonymous', null], ['customer', sealed(app, ADA)], ['author', sealed(app, AUTHOR)]] as const) {
        const res = await get(url, cookie);
        t.equal(res.statusCode, 404, `${url}, ${who}: 404`);
        t.equal(res.headers['cache-control'], 'private, no-store');
        t.notMatch(res.body, 'billing');
      }
      const ok = await get(url);
      t.equal(ok.statusCode, 200, `${url}, staff: 200`);
      t.equal(ok.headers['cache-control'], 'private, no-store');
      t.equal(ok.headers['x-robots-tag'], 'noindex, nofollow');
    }
    const page = await get('/insights');
    t.match(page.body, '<meta name="robots" content="noindex"/>');
    t.match(page.body, '<li><a href="/insights">Insights</a></li>', 'staff find the section in their account menu');
    t.notMatch((await get('/', sealed(app, ADA))).body, 'href="/insights"', 'nobody else sees the link');
    t.equal((await get('/insights/nonsense')).statusCode, 404);
    t.equal((await get('/insights/searches/nonsense.csv')).statusCode, 404);
  });

  t.test('search figures match the events, raw and rolled-up days alike', async (t) => {
    const html = (await get(`/insights/searches?${JAN}`)).body;
    t.same(tableRows(html, 'top'), [['billing', '5', '0'], ['sso setup', '2', '2'], ['=HYPERLINK("x")', '1', '0']]);
    t.same(tableRows(html, 'no-results'), [['sso setup', '2']]);
    t.same(tableRows(html, 'no-click'), [['=HYPERLINK("x")', '1']], 'billing was clicked; sso setup found nothing');
    t.same(tableRows(html, 'positions'), [['1', '2', '33.3%'], ['3', '1', '16.7%']], 'share of the 6 searches with results');
    t.same(tableRows(html, 'rewrites'), [['biling', '3', '1', '2']]);
    t.match(html, /<svg class="insights-chart" role="img" aria-labelledby="chart-top-title chart-top-desc"/);
    t.match(html, '<desc id="chart-top-desc">billing: 5 searches; sso setup: 2 searches; =HYPERLINK(&quot;x&quot;): 1 searches.</desc>');
  });

  t.test('page figures match the events, with titles, reasons and the paths of pages gone', async (t) => {
    const html = (await get(`/insights/pages?${JAN}`)).body;
    const goneCell = `${gone} (no longer exists)`;
    t.same(tableRows(html, 'views'), [[known.title, known.path, '10'], [goneCell, gone, '1']]);
    t.match(html, `<a href="${known.path}">${known.title}</a>`);
    t.same(tableRows(html, 'helpfulness'), [
      [known.title, known.path, '1', '1', '50.0%', "It wasn't clear (1)"], [goneCell, gone, '0', '2', '0.0%', "It wasn't accurate (2)"]]);
    t.same(tableRows(html, 'reasons'), [["It wasn't accurate", '2'], ["It wasn't clear", '1']], 'reasons in the words the visitor chose');
    t.same(tableRows(html, 'least-helpful')[0], [goneCell, gone, '0', '2', '0.0%', "It wasn't accurate (2)"]);
    t.same(tableRows(html, 'scroll'), [[known.title, known.path, '2', '2', '1', '1']]);
    t.same(tableRows(html, 'dwell'), [[known.title, known.path, '10', '60', '6']], '60 s over 10 views');
    t.same(tableRows(html, 'support'), [[known.title, known.path, '2']]);
  });

  t.test('the date range and product filter every table and CSV', async (t) => {
    const only5 = (await get('/insights/searches?from=2026-01-05&to=2026-01-05')).body;
    t.same(tableRows(only5, 'top'), [['billing', '2', '0']], 'the rolled-up day alone');
    const feb = (await get('/insights/searches?from=2026-02-01&to=2026-02-28')).body;
    t.same(tableRows(feb, 'top'), [['outside', '1', '0']]);
    const dc = (await get(`/insights/searches?${JAN}&product=acme-data-center`)).body;
    t.same(tableRows(dc, 'top'), [['sso setup', '2', '2']]);
    t.match(dc, '<option value="acme-data-center" selected="">');
    t.match(dc, `href="/insights/searches/top.csv?from=2026-01-01&amp;to=2026-01-31&amp;product=acme-data-center"`);
    t.match(dc, `href="/insights/pages?from=2026-01-01&amp;to=2026-01-31&amp;product=acme-data-center"`, 'the section links keep the filters');
    t.same(tableRows((await get(`/insights/pages?${JAN}&product=acme-data-center`)).body, 'views'), []);
    const csv = await get(`/insights/searches/top.csv?${JAN}&product=acme-data-center`);
    t.same(csvRows(csv.body), [['Term', 'Searches', 'With no results', 'Change from 2025-12-01 to 2025-12-31'], ['sso setup', '2', '2', 'new']]);
  });

  t.test('the CSV is the table, with formula-like cells kept as text', async (t) => {
    for (const [section, ids] of [['searches', ['top', 'no-results', 'no-click', 'positions', 'rewrites']], ['pages', ['views', 'helpfulness', 'reasons', 'least-helpful', 'scroll', 'dwell', 'support']]] as const) {
      const html = (await get(`/insights/${section}?${JAN}`)).body;
      for (const id of ids) {
        const res = await get(`/insights/${section}/${id}.csv?${JAN}`);
        t.equal(res.statusCode, 200);
        t.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
        t.equal(res.headers['content-disposition'], `attachment; filename="insights-${section}-${id}-2026-01-01-to-2026-01-31.csv"`);
        const rows = csvRows(res.body);
        t.same(rows.slice(1).map((r) => r.map((c) => c.replace(/^'(?=[=+\-@])/, ''))), tableRows(html, id, true), `${section}/${id}: the CSV rows are the table's`);
      }
    }
    const top = (await get(`/insights/searches/top.csv?${JAN}`)).body;
    t.match(top, `"'=HYPERLINK(""x"")",1,0`, 'a leading = is escaped');
  });

  t.test('the default range is the last 30 days', async (t) => {
    const today = new Date().toISOString().slice(0, 10);
    await write(app, [{ type: 'search', day: today, term: 'today term', key: 'results', value: 1 }]);
    const html = (await get('/insights/searches')).body;
    t.same(tableRows(html, 'top'), [['today term', '1', '0']]);
    t.match(html, `name="to" type="date" value="${today}"`);
  });

  t.test('bad filters are a 400 that says what to fix, on the form', async (t) => {
    for (const [query, field, message] of [
      ['from=2026-13-01', 'from', "The start date '2026-13-01' is not a date"],
      ['from=yesterday', 'from', 'write it as YYYY-MM-DD'],
      ['to=2026-02-30', 'to', "The end date '2026-02-30' is not a date"],
      ['from=2026-02-01&to=2026-01-01', 'from', 'is after the end date'],
      ['from=2020-01-01&to=2026-01-01', 'from', 'longer than 731 days'],
      ['product=nope', 'product', "There is no product 'nope'"],
      ['from=2026-01-01&from=2026-01-02', 'from', 'not several'],
    ] as const) {
      const res = await get(`/insights/pages?${query}`);
      t.equal(res.statusCode, 400, query);
      t.match(decode(res.body), message);
      t.match(res.body, new RegExp(`name="${field}"[^>]*aria-invalid="true" aria-describedby="insights-filter-error"`));
      t.match(res.body, 'role="alert"');
      const csv = await get(`/insights/pages/views.csv?${query}`);
      t.equal(csv.statusCode, 400);
      t.match(csv.body, message);
    }
  });

  t.test('staff asking at once each get their page', async (t) => {
    const answers = await Promise.all(['searches', 'pages', 'searches', 'pages'].map((s) => get(`/insights/${s}?${JAN}`)));
    t.same(answers.map((a) => a.statusCode), [200, 200, 200, 200]);
    t.same(tableRows(answers[2]?.body ?? '', 'top'), tableRows(answers[0]?.body ?? '', 'top'));
  });

  t.test("one visitor's 'No' and its reason count as one 'No' with that reason, with scripts and without", async (t) => {
    const PAGE = '/acme-cloud/docs/first-steps';
    const today = new Date().toISOString().slice(0, 10);
    const browser = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36', host: 'localhost', origin: 'http://localhost' };
    const token = /name="_csrf" value="([^"]+)"/.exec((await app.inject({ url: PAGE, headers: browser })).body)?.[1] ?? '';
    const answer = async (accept: string, cookie?: string) => {
      const post = (fields: Record<string, string>, cookie?: string) => app.inject({
        method: 'POST', url: '/feedback',
        headers: { ...browser, accept, 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
        payload: new URLSearchParams({ _csrf: token, entryId: 'acme-cloud-first-steps', returnTo: PAGE, ...fields }).toString(),
      });
      const no = await post({ helpful: 'no' }, cookie);
      t.ok([200, 303].includes(no.statusCode), `'No' (${accept})`);
      const visitor = cookie ?? `sp_visitor=${no.cookies.find((c) => c.name === 'sp_visitor')?.value}`;
      t.ok([200, 303].includes((await post({ helpful: 'no', reason: 'not-clear' }, visitor)).statusCode), `the reason (${accept})`);
    };
    const helpfulnessToday = async () => {
      await app.analytics.writer.flush();
      const html = (await get(`/insights/pages?from=${today}&to=${today}`)).body;
      return { rows: tableRows(html, 'helpfulness').filter((r) => r[1] === PAGE), reasons: tableRows(html, 'reasons') };
    };
    await answer('text/html'); // the forms posted by the browser
    const one = await helpfulnessToday();
    t.same(one.rows.map((r) => r.slice(2)), [['0', '1', '0.0%', "It wasn't clear (1)"]], 'without scripts: No = 1, its reason once, no "none given"');
    t.same(one.reasons, [["It wasn't clear", '1']]);
    await answer('application/json'); // the island's fetch: a second visitor
    const both = await helpfulnessToday();
    t.same(both.rows.map((r) => r.slice(2)), [['0', '2', '0.0%', "It wasn't clear (2)"]], 'with scripts: one more No, one more reason');
    t.same(both.reasons, [["It wasn't clear", '2']]);
  });

  t.test("the site's own pages are named, not called gone; a chart of zeros says it has no data", async (t) => {
    const own = ['/assistant', '/search-results/', '/insights', '/requests/SR-1234'];
    await write(app, [
      ...own.map((path) => ({ type: 'page_view', day: '2026-03-10', path, product: 'acme-cloud' })),
      { type: 'was_this_helpful_click', day: '2026-03-10', path: known.path, key: 'no', product: 'acme-cloud' },
    ]);
    const html = (await get('/insights/pages?from=2026-03-10&to=2026-03-10')).body;
    t.same(tableRows(html, 'views').map((r) => r.slice(0, 2)).sort(), [
      ['Assistant', '/assistant'], ['Insights', '/insights'], ['Search results', '/search-results/'], ['Support request SR-1234', '/requests/SR-1234'],
    ]);
    t.notMatch(html, 'no longer exists');
    t.match(html, '<a href="/assistant">Assistant</a>', 'a live page is linked');
    t.notMatch(html, 'href="/requests/SR-1234"', "a person's own request is not");
    t.same(tableRows(html, 'helpfulness'), [[known.title, known.path, '0', '1', '0.0%', 'none given (1)']]);
    t.match(html, /<text[^>]*class="insights-chart-note"[^>]*>No data to draw: every value is 0 % answered Yes.<\/text>/, 'the all-zero chart says so');
    t.match(html, '<desc id="chart-helpfulness-desc">No data to draw: every value is 0 % answered Yes.');
  });

  t.test('the empty state', async (t) => {
    const html = (await get('/insights/pages?from=2025-01-01&to=2025-01-31')).body;
    t.equal(html.split('Nothing recorded for these filters.').length - 1, 8, 'each table says it is empty (the missing pages too)');
    t.notMatch(html, '<svg class="insights-chart"');
  });
});
