/**
 * Insights over time: every table's change since the previous range of the same length and its daily
 * chart; the searches that ended in a request (through the results page's contact link without scripts,
 * or through the visit the analytics script reports); the assistant's unanswered questions with the pages
 * opened after them. The visits are made as a visitor makes them, through the pages and the events API.
 */
import t from 'tap';
import { InMemoryProvider } from '@openfeature/server-sdk';
import type { FastifyInstance } from 'fastify';
import { build, testDb, SAMPLE_CONTENT } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';
import type { SessionUser } from '../../server/identity/types.ts';
import { EVENTS_PATH } from '../../server/events/plugin.ts';
import { previousRange } from '../../server/insights/queries.ts';
import { describeDays, periodsOf, MAX_COLUMNS } from '../../views/insights/daily-chart.tsx';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const STAFF: SessionUser = { ...ADA, sub: 'acct-sam', email: 'sam@staff.example', name: 'Sam Staff' };
const onForAda = { variants: { on: true, off: false }, defaultVariant: 'off', disabled: false,
  contextEvaluator: (context: { targetingKey?: string }) => (context.targetingKey === ADA.sub ? 'on' : 'off') };
const TOPIC = '/tracklight-cloud/docs/write-rich-issue-descriptions';

const decode = (s: string) => s.replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** A table's rows as cell texts, its last column (the change since the previous range) included. */
function tableRows(html: string, id: string): string[][] {
  const section = new RegExp(`<section[^>]* id="${id}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '';
  const body = /<div class="table-scroll"[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(section)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) =>
    [...(m[1] ?? '').matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => decode((c[1] ?? '').replace(/<[^>]+>/g, ''))));
}
const section = (html: string, id: string) => new RegExp(`<section[^>]* id="${id}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '';

t.test('previous ranges and periods', async (t) => {
  t.same(previousRange({ from: '2026-03-01', to: '2026-03-31', product: '' }), { from: '2026-01-29', to: '2026-02-28', product: '' }, '31 days before March');
  t.same(previousRange({ from: '2026-01-05', to: '2026-01-05', product: 'p' }), { from: '2026-01-04', to: '2026-01-04', product: 'p' });
  const days = Array.from({ length: 200 }, (_, i) => ({ day: new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10), value: i === 10 ? 5 : 1 }));
  const periods = periodsOf(days);
  t.ok(periods.length <= MAX_COLUMNS, `${periods.length} columns for 200 days`);
  t.equal(periods.reduce((s, p) => s + p.value, 0), 204, 'no day lost or counted twice');
  t.same(periods[0], { from: '2026-01-01', to: '2026-01-04', value: 4 });
  t.match(describeDays(periods, 'searches'), /^204 searches in all, from 2026-01-01 to 2026-07-19\. The busiest period: 2026-01-09 to 2026-01-12, 8;/);
  t.equal(describeDays(periodsOf([{ day: '2026-01-01', value: 0 }]), 'views'), 'No views on any day.');
});

t.test('insights over time', async (t) => {
  const db = await testDb(t);
  const app: FastifyInstance = await build(t, {
    db, contentDir: SAMPLE_CONTENT,
    flagProvider: new InMemoryProvider({ 'csm-ai-agent-on-sac': onForAda }),
    env: { SESSION_SECRET, STAFF_EMAIL_DOMAIN: 'staff.example' },
  });
  const staff = { cookie: sealed(app, STAFF), 'user-agent': BROWSER };
  const visitor = { 'user-agent': BROWSER };
  const insights = async (url: string) => {
    await app.analytics.writer.flush();
    const res = await app.inject({ url, headers: staff });
    t.equal(res.statusCode, 200, url);
    return res.body;
  };
  const events = async (sessionId: string, list: object[]) => {
    const res = await app.inject({ method: 'POST', url: EVENTS_PATH, headers: { 'content-type': 'application/json', ...visitor }, payload: { sessionId, events: list } });
    t.equal(res.statusCode, 202, res.body);
  };
  const hidden = (html: string, name: string) => decode(new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '');
  /** Files a request through the contact form, as a browser posts it; `extra` are the form's other hidden fields. */
  const fileRequest = async (formUrl: string, extra: (form: string) => Record<string, string>) => {
    const form = await app.inject({ url: formUrl, headers: visitor });
    t.equal(form.statusCode, 200, formUrl);
    const fields = {
      _csrf: hidden(form.body, '_csrf'), submission: hidden(form.body, 'submission'), ...extra(form.body),
      email: 'vera@customer.example', name: 'Vera Visitor', product: 'codebarn-data-center', version: '9.4', severity: 'high',
      subject: 'Cannot find it', description: 'I searched and found nothing that helps.',
    };
    const res = await app.inject({
      method: 'POST', url: '/contact', payload: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...visitor },
    });
    t.equal(res.statusCode, 303, res.body.slice(0, 300));
    return form.body;
  };

  t.test('each table compares the range with the previous one and draws its days', async (t) => {
    const at = (day: string, type: string, extra: Record<string, unknown> = {}) => app.db.query(
      `insert into analytics_events (occurred_at, type, source, path, term, key, value) values ($1::timestamptz, $2, 'server', $3, $4, $5, $6)`,
      [`${day}T12:00:00Z`, type, extra.path ?? '', extra.term ?? '', extra.key ?? '', extra.value ?? null]);
    // December 2025 (the range), November 2025 (the previous 31 days... of 31: 2025-10-31 to 2025-11-30).
    for (const day of ['2025-12-03', '2025-12-03', '2025-12-20']) await at(day, 'search', { term: 'billing', key: 'results', value: 3 });
    await at('2025-12-04', 'search', { term: 'brand new', key: 'results', value: 1 });
    await at('2025-11-10', 'search', { term: 'billing', key: 'results', value: 3 });
    await at('2025-11-11', 'search', { term: 'gone since', key: 'results', value: 3 });
    await at('2025-10-30', 'search', { term: 'billing', key: 'results', value: 3 });
    const html = await insights('/insights/searches?from=2025-12-01&to=2025-12-31');
    t.match(html, /<th scope="col" class="num">Change from 2025-10-31 to 2025-11-30<\/th>/);
    t.same(tableRows(html, 'top'), [['billing', '3', '0', 'up 2 (was 1)'], ['brand new', '1', '0', 'new']],
      'a day before the previous range is not in it; a term of the previous range alone is not a row');
    t.match(section(html, 'top'), '<p class="insights-trend">4 searches in this range; 2 in the previous 2025-10-31 to 2025-11-30: up 2 (+100.0%).</p>');
    t.match(section(html, 'top'), '<desc id="daily-top-desc">4 searches in all, from 2025-12-01 to 2025-12-31. The busiest day: 2025-12-03, 2; the quietest: 2025-12-01, 0.</desc>');
    t.match(section(html, 'top'), /<tr><th scope="row">2025-12-20<\/th><td class="num">1<\/td><\/tr>/, 'every day is in the figures under the chart');
    const csv = await app.inject({ url: '/insights/searches/top.csv?from=2025-12-01&to=2025-12-31', headers: staff });
    t.match(csv.body, /^Term,Searches,With no results,Change from 2025-10-31 to 2025-11-30\r\nbilling,3,0,up 2 \(was 1\)\r\n/, 'the CSV has the change too');
    const nov = await insights('/insights/searches?from=2025-11-01&to=2025-11-30');
    t.same(tableRows(nov, 'top').find((r) => r[0] === 'billing'), ['billing', '1', '0', 'no change (was 1)'],
      'the same count as before is no change');
    await app.db.exec('delete from analytics_events');
  });

  t.test('a search that found nothing, then a request through its contact link, without scripts', async (t) => {
    const results = await app.inject({ url: '/search-results/?searchTerm=zqxjv%20frobnicate', headers: visitor });
    t.equal(results.statusCode, 200);
    const contact = decode(/href="(\/contact\?[^"]*search=[^"]*)"/.exec(results.body)?.[1] ?? '');
    t.match(contact, 'search=zqxjv+frobnicate', 'the contact link carries the search');
    const form = await fileRequest(contact, (html) => ({ search: hidden(html, 'search') }));
    t.equal(hidden(form, 'search'), 'zqxjv frobnicate', 'the form carries it back');
    // Somebody else's request, not after a search: not counted.
    await fileRequest('/contact', () => ({}));
    const html = await insights('/insights/searches');
    t.same(tableRows(html, 'to-request'), [['zqxjv frobnicate', '1', '1', '0', 'new']]);
    t.match(section(html, 'to-request'), /1 requests after a failed search in this range/);
  });

  t.test('a search whose results got no click, then a request in the same visit the script reported', async (t) => {
    const search = async (term: string) => {
      const res = await app.inject({ url: `/search-results/?searchTerm=${encodeURIComponent(term)}`, headers: visitor });
      const queryId = /data-query-id="([^"]+)"/.exec(res.body)?.[1] ?? '';
      t.ok(queryId, `${term}: the results carry their query id`);
      return queryId;
    };
    const unclicked = await search('pull request');
    const clicked = await search('merge conflict');
    await events('visit-aaaaaaaa', [
      { type: 'results_rendered', path: '/search-results/', queryId: unclicked, term: 'pull request', value: 120 },
      { type: 'results_rendered', path: '/search-results/', queryId: clicked, term: 'merge conflict', value: 120 },
      { type: 'search_result_click', path: '/search-results/', queryId: clicked, term: 'merge conflict', key: '1', value: 900 },
    ]);
    const form = await fileRequest('/contact', () => ({ _visit: 'visit-aaaaaaaa' }));
    t.match(form, /<input type="hidden" name="_visit" data-analytics-visit="" value=""\/>/, 'the form has the field the script fills in');
    // Another visit's request: not tied to these searches.
    await fileRequest('/contact', () => ({ _visit: 'visit-bbbbbbbb' }));
    // A forged visit id is not stored.
    await fileRequest('/contact', () => ({ _visit: 'not a visit; drop table' }));
    await app.analytics.writer.flush();
    t.same((await app.db.query(`select session_id from analytics_events where type = 'support_request' order by id`)).map((r) => (r as { session_id: string | null }).session_id).slice(-3),
      ['visit-aaaaaaaa', 'visit-bbbbbbbb', null]);
    const rows = tableRows(await insights('/insights/searches'), 'to-request');
    t.same(rows.find((r) => r[0] === 'pull request'), ['pull request', '1', '0', '1', 'new']);
    t.notOk(rows.find((r) => r[0] === 'merge conflict'), 'a search whose result was clicked did not fail');
  });

  t.test('an unanswered question and the pages opened after it', async (t) => {
    const ada = { cookie: sealed(app, ADA), 'user-agent': BROWSER };
    const answered = await app.inject({ url: '/assistant?q=how+do+I+write+a+rich+issue+description', headers: ada });
    const nothing = await app.inject({ url: '/assistant?q=banana+bread+recipe+zqxjv', headers: ada });
    t.match(nothing.body, 'We could not find an answer');
    const id = /data-assistant-id="([^"]+)"/.exec(nothing.body)?.[1] ?? '';
    t.ok(id, 'the answer carries its question id');
    t.match(answered.body, /data-assistant-id="[0-9a-f-]{36}"/);
    const now = Date.now();
    await events('visit-cccccccc', [
      { type: 'page_dwelled', path: '/contact', value: 5000, at: now - 60_000 },
      { type: 'assistant_rendered', path: '/assistant', queryId: id, at: now - 30_000 },
      { type: 'page_dwelled', path: '/assistant', value: 5000, at: now - 25_000 },
      { type: 'page_dwelled', path: TOPIC, value: 5000, at: now - 10_000 },
      { type: 'page_scrolled', path: TOPIC, key: '50', value: 0.5, at: now - 5_000 },
    ]);
    // Another visit's pages: not after this question.
    await events('visit-dddddddd', [{ type: 'page_dwelled', path: '/contact', value: 5000 }]);
    const html = await insights('/insights/assistant');
    const rows = tableRows(html, 'unanswered');
    t.equal(rows.length, 1, 'the answered question is not listed');
    t.equal(rows[0]?.[0], 'banana bread recipe zqxjv');
    t.equal(rows[0]?.[1], '1');
    t.match(rows[0]?.[2], new RegExp(`^[^;]+ \\(${TOPIC}, 1 visit\\)$`), 'the page opened after it, once per visit; not the assistant page itself, nor a page before it');
    t.match(section(html, 'unanswered'), '1 unanswered questions in this range');
    const overview = await insights('/insights');
    t.match(overview, 'href="/insights/assistant?', 'the overview lists the new section');
  });
});
