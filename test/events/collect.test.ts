import { Writable } from 'node:stream';
import pino from 'pino';
import t from 'tap';
import { InMemoryProvider } from '@openfeature/server-sdk';
import { build, failing, testDb } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';
import { EVENTS_PATH } from '../../server/events/plugin.ts';
import { MAX_BATCH_EVENTS } from '../../server/events/schemas.ts';
import { EventWriter } from '../../server/events/store.ts';

const PAGE = '/acme-cloud/docs/first-steps';
const ENTRY = 'acme-cloud-first-steps';
const SESSION = 'session-0123456789';
const PERSISTENT = 'visitor-0123456789';
/** The AI widget's flag on for ADA's account alone. */
const forAda = { variants: { on: true, off: false }, defaultVariant: 'off', disabled: false,
  contextEvaluator: (context: { targetingKey?: string }) => (context.targetingKey === ADA.sub ? 'on' : 'off') };
const BOB = { ...ADA, sub: 'acct-bob', email: 'bob@customer.example', name: 'Bob' };
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

interface Row {
  type: string; source: string; session_id: string | null; persistent_id: string | null; path: string; entry_id: string | null;
  product: string; term: string; query_id: string | null; key: string; value: number | null; data: Record<string, unknown>; occurred_at: Date;
}

t.test('collection', async (t) => {
  const db = await testDb(t);
  const app = await build(t, { db, flagProvider: new InMemoryProvider({ 'csm-ai-agent-on-sac': forAda }), env: { SESSION_SECRET } });
  const rows = async (type?: string) => {
    await app.analytics.writer.flush();
    return db.query<Row>(`select * from analytics_events ${type ? 'where type = $1' : ''} order by id`, type ? [type] : []);
  };
  const reset = async () => { await app.analytics.writer.flush(); await db.query('delete from analytics_events'); };
  const send = (payload: unknown, headers: Record<string, string> = {}) => app.inject({
    method: 'POST', url: EVENTS_PATH, headers: { 'content-type': 'application/json', 'user-agent': BROWSER, ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

  t.test('a valid batch is stored with its ids, masked and with its time kept in the window', async (t) => {
    await reset();
    const now = Date.now();
    const res = await send({
      sessionId: SESSION, persistentId: PERSISTENT,
      events: [
        { type: 'search_result_click', at: now - 1000, path: `${PAGE}?x=1#top`, key: '2', value: 840, term: 'reset for ann@example.com', queryId: 'q-1234', data: { note: 'bob@example.org' } },
        { type: 'page_scrolled', at: now + 3_600_000, path: PAGE, key: '75', value: 0.8 },
        { type: 'tab', at: 0, path: '/search-results', key: 'Guides' },
      ],
    });
    t.equal(res.statusCode, 202);
    t.same(res.json(), { accepted: 3, refused: {} });
    const [click, scroll, tab] = await rows();
    t.match(click, {
      type: 'search_result_click', source: 'client', session_id: SESSION, persistent_id: PERSISTENT, path: PAGE, entry_id: ENTRY,
      term: 'reset for [email]', query_id: 'q-1234', key: '2', value: 840, data: { note: '[email]' },
    });
    t.ok(scroll && scroll.occurred_at.getTime() <= Date.now(), 'a time in the future is brought back to now');
    t.ok(tab && tab.occurred_at.getTime() >= now - 3_600_000 - 5000, 'a time long past is brought into the window');
    t.equal(scroll?.entry_id, ENTRY, "the page's entry comes from its route");
  });

  t.test('text/plain bodies (sendBeacon) are read as JSON', async (t) => {
    await reset();
    const res = await send({ sessionId: SESSION, events: [{ type: 'page_dwelled', path: PAGE, key: '', value: 5000 }] }, { 'content-type': 'text/plain;charset=UTF-8' });
    t.equal(res.statusCode, 202);
    t.equal(res.json().accepted, 1);
    t.match(await rows('page_dwelled'), [{ value: 5000, session_id: SESSION }]);
  });

  t.test('unknown, server-only and invalid events are refused one by one, with reasons', async (t) => {
    await reset();
    const res = await send({
      events: [
        { type: 'footer_click', path: '/', key: '/contact' },
        { type: 'made_up', path: '/' },
        { type: 'page_view', path: '/' },
        { type: 'page_scrolled', path: '/', key: '30', value: 0.3 },
        { type: 'video', path: '/', key: 'start' },
        { type: 'tab', path: 'no-slash', key: 'x' },
        { type: 'tab', path: '/', key: 'x', extra: 1 },
        'not an object',
      ],
    });
    t.equal(res.statusCode, 202);
    const body = res.json();
    t.equal(body.accepted, 1);
    t.same(body.refused, { unknown_type: 1, server_type: 1, invalid: 4, malformed: 1 });
    t.match(body.problems, [
      { index: 1, reason: 'unknown_type', field: 'type' }, { index: 2, reason: 'server_type' }, { index: 3, reason: 'invalid', field: 'key' },
      { index: 4, reason: 'invalid', field: 'value' }, { index: 5, reason: 'invalid', field: 'path' }, { index: 6, reason: 'invalid' },
      { index: 7, reason: 'malformed' },
    ]);
    t.same((await rows()).map((r) => r.type), ['footer_click']);
  });

  t.test('a NUL byte anywhere in a batch is a 400 naming where, as JSON or as a beacon, and nothing is written', async (t) => {
    await reset();
    const batch = { events: [{ type: 'tab', path: '/search-results/', key: 'Guides' }, { type: 'tab', path: '/search-results/', key: 'Gui\u0000des' }] };
    const json = await send(batch);
    t.equal(json.statusCode, 400);
    t.match(json.json().message, /events\/1\/key: must not contain a NUL character/);
    const beacon = await send(JSON.stringify(batch).replace('\\u0000', '\u0000'), { 'content-type': 'text/plain;charset=UTF-8' });
    t.equal(beacon.statusCode, 400);
    t.match(beacon.json().message, /NUL/);
    t.same(await rows(), [], 'nothing written');
    t.equal(app.analytics.writer.dropped.database, 0, 'and no insert failed');
  });

  t.test('a beacon is checked as JSON is: a NUL written as an escape, a raw NUL, a lone surrogate are 400s naming where', async (t) => {
    await reset();
    const beacon = (text: string) => send(text, { 'content-type': 'text/plain;charset=UTF-8' });
    const good = { type: 'tab', path: '/search-results/', key: 'Guides' };
    const cases: [string, string, RegExp][] = [
      ['an escaped NUL in a value', JSON.stringify({ events: [good, { ...good, key: 'Gui\u0000des' }] }), /^body\/events\/1\/key: must not contain a NUL character/],
      ['an escaped NUL in a data name', JSON.stringify({ events: [{ ...good, data: { 'a\u0000': 1 } }] }), /^body\/events\/0\/data\/a\\0: must not contain a NUL/],
      ['an escaped NUL in the session id', JSON.stringify({ sessionId: 'abc\u0000defgh', events: [good] }), /^body\/sessionId: must not contain a NUL/],
      // Not JSON (JSON strings hold no raw control character), but said as what it is.
      ['a raw NUL', JSON.stringify({ events: [good, { ...good, key: 'Gui\u0000des' }] }).replace('\\u0000', '\u0000'), /^body: must not contain a NUL/],
      ['a lone high surrogate in a value', JSON.stringify({ events: [good, { ...good, data: { q: 'x\ud800' } }] }), /^body\/events\/1\/data\/q: must not contain a lone surrogate/],
      ['a lone low surrogate in a key', JSON.stringify({ events: [{ ...good, key: '\udc00' }] }), /^body\/events\/0\/key: must not contain a lone surrogate/],
      ['a lone surrogate in a data name', JSON.stringify({ events: [{ ...good, data: { ['\udbff']: 1 } }] }), /^body\/events\/0\/data\/\uFFFD: must not contain a lone surrogate/],
    ];
    for (const [what, text, message] of cases) {
      t.match(text, /\\u(0000|d[89ab]|dc)|\u0000/i, `${what}: sent as the browser would`);
      const res = await beacon(text);
      t.equal(res.statusCode, 400, what);
      t.match(res.json().message, message, what);
      const json = await send(text);
      t.equal(json.statusCode, 400, `${what}, as JSON`);
      // The same batch as JSON is refused in the same words (a raw NUL is JSON's own syntax error).
      if (what !== 'a raw NUL') t.equal(json.json().message, res.json().message, `${what}: as JSON, the same answer`);
    }
    t.same(await rows(), [], 'nothing written');
    t.same(app.analytics.writer.dropped, { buffer_full: 0, database: 0, refused: 0 }, 'and no insert failed');
  });

  t.test('a malformed or oversized batch is refused whole with the reason', async (t) => {
    await reset();
    const notJson = await send('{"events": [', { 'content-type': 'text/plain' });
    t.equal(notJson.statusCode, 400);
    t.match(notJson.json().message, /not JSON/);
    const noEvents = await send({ events: [] });
    t.equal(noEvents.statusCode, 400);
    t.match(noEvents.json().message, /events/);
    const badId = await send({ sessionId: 'x y', events: [{ type: 'reset', path: '/' }] });
    t.equal(badId.statusCode, 400);
    t.match(badId.json().message, /sessionId/);
    const tooMany = await send({ events: Array.from({ length: MAX_BATCH_EVENTS + 1 }, () => ({ type: 'reset', path: '/' })) });
    t.equal(tooMany.statusCode, 400);
    t.match(tooMany.json().message, /events/);
    const huge = await send({ events: [{ type: 'tab', path: '/', key: 'x'.repeat(40_000) }] });
    t.equal(huge.statusCode, 413);
    t.match(huge.json().message, /too large/i);
    t.same(await rows(), []);
  });

  t.test('Do-Not-Track, Global Privacy Control and bots: nothing is recorded', async (t) => {
    await reset();
    const batch = { events: [{ type: 'reset', path: '/' }] };
    t.equal((await send(batch, { dnt: '1' })).statusCode, 204);
    t.equal((await send(batch, { 'sec-gpc': '1' })).statusCode, 204);
    t.equal((await send(batch, { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' })).statusCode, 204);
    t.equal((await app.inject({ url: PAGE, headers: { dnt: '1', 'user-agent': BROWSER } })).statusCode, 200);
    t.equal((await app.inject({ url: PAGE, headers: { 'sec-gpc': '1', 'user-agent': BROWSER } })).statusCode, 200);
    t.equal((await app.inject({ url: PAGE, headers: { 'user-agent': 'curl/8.0' } })).statusCode, 200);
    t.same(await rows(), []);
    t.notOk((await app.inject({ url: PAGE, headers: { 'user-agent': BROWSER } })).headers['set-cookie'], 'no cookie for analytics');
  });

  t.test('page views are counted on the server, without JavaScript', async (t) => {
    await reset();
    const headers = { 'user-agent': BROWSER };
    t.equal((await app.inject({ url: PAGE, headers })).statusCode, 200);
    const [other] = await db.query<{ path: string }>(`select path from content_routes where path <> $1 order by path limit 1`, [PAGE]);
    t.equal((await app.inject({ url: other?.path ?? '', headers })).statusCode, 200);
    t.equal((await app.inject({ url: '/no-such-page', headers })).statusCode, 404);
    await app.inject({ url: '/health', headers });
    await app.inject({ url: '/sitemap.xml', headers });
    const views = await rows('page_view');
    t.match(views, [{ path: PAGE, entry_id: ENTRY, source: 'server', session_id: null }, { path: other?.path }]);
    t.equal(views.length, 2, 'not 404s, health or other non-pages');
    t.equal((await rows()).filter((r) => r.type !== 'page_view' && r.type !== 'widget_evaluation').length, 0);
  });

  t.test('searches from the results page and the API, with masked terms and their query id', async (t) => {
    await reset();
    const headers = { 'user-agent': BROWSER };
    const page = await app.inject({ url: '/search-results?searchTerm=first%20steps', headers });
    t.equal(page.statusCode, 200);
    const none = await app.inject({ url: `/search-results?searchTerm=${encodeURIComponent('zzqx carol@example.com')}`, headers });
    t.equal(none.statusCode, 200);
    const api = await app.inject({ method: 'POST', url: '/gateway/api/help-content/v2/search', headers, payload: { query: 'widget' } });
    t.equal(api.statusCode, 200);
    const searches = await rows('search');
    t.match(searches, [
      { path: '/search-results', term: 'first steps', key: 'results', query_id: page.headers['x-query-id'] },
      { term: 'zzqx [email]', key: 'no_results', value: 0 },
      { path: '/gateway/api/help-content/v2/search', term: 'widget', query_id: api.headers['x-query-id'] },
    ]);
    t.ok((searches[0]?.value ?? 0) > 0, 'the number of results');
    const again = await app.inject({ url: '/search-results?searchTerm=first%20steps', headers });
    t.equal(again.headers['x-query-id'], page.headers['x-query-id'], 'the same page, from the page cache');
    t.equal((await rows('search')).filter((r) => r.term === 'first steps').length, 2, 'counts its search again');
    const declined = await app.inject({ url: '/search-results?searchTerm=frist&exact=1', headers });
    t.equal(declined.statusCode, 200);
    t.match(await rows('spelling_rewrite'), [{ key: 'declined', term: 'frist' }]);
  });

  t.test('was-this-helpful answers are counted with the page', async (t) => {
    await reset();
    const page = await app.inject({ url: PAGE, headers: { 'user-agent': BROWSER } });
    const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const res = await app.inject({
      method: 'POST', url: '/feedback', headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER },
      payload: new URLSearchParams({ _csrf: token, entryId: ENTRY, returnTo: PAGE, helpful: 'no', reason: 'not-clear' }).toString(),
    });
    t.equal(res.statusCode, 303);
    t.match(await rows('was_this_helpful_click'), [{ path: PAGE, entry_id: ENTRY, key: 'no', data: { reason: 'not-clear' } }]);
  });

  t.test("the AI widget's evaluations, where its flag is asked", async (t) => {
    await reset();
    const headers = { 'user-agent': BROWSER };
    t.equal((await app.inject({ url: PAGE, headers: { ...headers, cookie: sealed(app, ADA) } })).statusCode, 200);
    t.equal((await app.inject({ url: PAGE, headers: { ...headers, cookie: sealed(app, BOB) } })).statusCode, 200);
    t.equal((await app.inject({ url: PAGE, headers })).statusCode, 200);
    t.match(await rows('widget_evaluation'), [{ path: PAGE, key: 'ai-widget:shown' }, { path: PAGE, key: 'ai-widget:hidden' }]);
    t.equal((await rows('widget_evaluation')).length, 2, 'not for an anonymous visitor, who never gets the widget');
    t.notMatch(JSON.stringify(await rows()), /@/, 'no e-mail address or account is stored');
  });

  t.test('one client may send ANALYTICS_RATE_LIMIT events a minute; the rest are refused and counted', async (t) => {
    await reset();
    const batch = { events: Array.from({ length: MAX_BATCH_EVENTS }, () => ({ type: 'reset', path: '/search-results/' })) };
    const from = (remoteAddress: string) => app.inject({
      method: 'POST', url: EVENTS_PATH, remoteAddress, headers: { 'content-type': 'application/json', 'user-agent': BROWSER }, payload: JSON.stringify(batch),
    });
    const limit = 600;
    for (let sent = 0; sent < limit; sent += MAX_BATCH_EVENTS) t.equal((await from('203.0.113.9')).json().accepted, MAX_BATCH_EVENTS);
    const over = (await from('203.0.113.9')).json();
    t.same(over, { accepted: 0, refused: { rate_limited: MAX_BATCH_EVENTS } }, 'over the limit: nothing kept, the reason counted');
    t.equal((await from('198.51.100.10')).json().accepted, MAX_BATCH_EVENTS, 'a client of another network is not held back');
    t.equal((await rows('reset')).length, limit + MAX_BATCH_EVENTS);
  });
});

t.test('a failing database holds accepted events and writes them once it is back; pages carry on', async (t) => {
  const real = await testDb(t);
  let down = false;
  const db = failing(real, () => down);
  const app = await build(t, { db });
  const headers = { 'user-agent': BROWSER };
  await app.inject({ url: PAGE, headers });
  await app.analytics.writer.flush();
  down = true;
  const batch = await app.inject({ method: 'POST', url: EVENTS_PATH, headers, payload: { events: [{ type: 'reset', path: '/' }, { type: 'reset', path: '/' }] } });
  t.equal(batch.statusCode, 202, 'the endpoint does not wait for the database');
  await app.analytics.writer.flush();
  t.equal(app.analytics.writer.dropped.database, 0, 'an acknowledged event is not dropped for an outage');
  t.ok(app.analytics.writer.pending >= 2, 'it waits in the buffer');
  const page = await app.inject({ url: PAGE, headers });
  t.ok(page.statusCode < 500 || page.statusCode === 503, 'pages answer as they do without analytics');
  down = false;
  await app.inject({ method: 'POST', url: EVENTS_PATH, headers, payload: { events: [{ type: 'reset', path: '/' }] } });
  await app.analytics.writer.flush();
  const stored = await real.query<{ type: string }>(`select type from analytics_events order by id`);
  t.same(stored.map((r) => r.type).filter((type) => type === 'reset'), ['reset', 'reset', 'reset'], 'written, those of the outage first, without a restart');
  t.ok(stored.some((r) => r.type === 'page_view'));
  t.equal(app.analytics.writer.pending, 0);
});

t.test('the writer tries again by itself after an outage, and a long outage keeps the buffer\'s bound', async (t) => {
  const real = await testDb(t);
  let down = true;
  const writer = new EventWriter(() => failing(real, () => down), pino({ level: 'silent' }), { maxBuffer: 5, intervalMs: 10, maxRetryMs: 50 });
  const at = new Date();
  const row = (n: number) => ({ occurredAt: at, type: 'tab' as const, source: 'client' as const, path: '/', key: `k${n}` });
  for (let n = 0; n < 5; n++) t.ok(writer.record(row(n)));
  await writer.flush();
  t.equal(writer.pending, 5, 'held while the database is away');
  t.notOk(writer.record(row(5)), 'the bound holds: a sixth is refused');
  t.same(writer.dropped, { buffer_full: 1, database: 0, refused: 0 });
  down = false;
  // No flush: the writer's own retry writes them.
  while (writer.pending > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  const stored = await real.query<{ key: string }>(`select key from analytics_events where type = 'tab' order by id`);
  t.same(stored.map((r) => r.key), ['k0', 'k1', 'k2', 'k3', 'k4'], 'every held event, in order');
  down = true;
  writer.record(row(6));
  await writer.close();
  t.same(writer.dropped, { buffer_full: 1, database: 1, refused: 0 }, 'what an outage at shut-down keeps back is counted');
});

t.test("one row the database refuses is dropped alone: the other clients' events of its batch are stored", async (t) => {
  const lines: string[] = [];
  const logStream = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
  const db = await testDb(t);
  const app = await build(t, { db, logStream, env: { LOG_LEVEL: 'info' } });
  const { writer } = app.analytics;
  await writer.flush();
  await db.query('delete from analytics_events');
  // Rows as the route or the server would queue them: values that passed (or bypassed) validation but
  // that PostgreSQL refuses, among good rows of other visitors, all in one flush.
  const at = new Date();
  const row = (n: number, extra: object = {}) => ({
    occurredAt: at, type: 'tab' as const, source: 'client' as const, sessionId: `session-${String(n).padStart(8, '0')}`, path: '/search-results/', key: `k${n}`, ...extra,
  });
  const poisoned = [
    row(3, { key: 'secret\u0000key' }), // text: invalid byte sequence (22021)
    row(6, { data: { q: 'secret\u0000value' } }), // jsonb: unsupported escape (22P05)
    row(8, { data: { q: 'secret\ud800' } }), // jsonb: a lone surrogate (22P02)
  ];
  const good = [row(1), row(2), row(4), row(5), row(7), row(9), row(10)];
  for (const r of [good[0], good[1], poisoned[0], good[2], good[3], poisoned[1], good[4], poisoned[2], good[5], good[6]]) t.ok(writer.record(r!));
  await writer.flush();
  const stored = await db.query<{ session_id: string; key: string }>(`select session_id, key from analytics_events where type = 'tab' order by id`);
  t.same(stored.map((r) => r.key), ['k1', 'k2', 'k4', 'k5', 'k7', 'k9', 'k10'], 'every good row, in order');
  t.same(writer.dropped, { buffer_full: 0, database: 0, refused: 3 }, 'the refused rows counted as such, not as an outage');
  const warning = lines.map((l) => JSON.parse(l) as { msg: string; events?: number; codes?: string[] }).find((l) => /refused their values/.test(l.msg));
  t.match(warning, { events: 3, batch: 10 }, 'the count is logged');
  t.same([...(warning?.codes ?? [])].sort(), ['22021', '22P02', '22P05'], 'with the SQLSTATEs');
  t.notMatch(lines.join(''), /secret/, 'and not the values');

  // Writing goes on as usual afterwards, and a batch with nothing wrong costs one statement.
  t.ok(writer.record(row(11)));
  await writer.flush();
  t.equal(writer.written, good.length + 1);
});

t.test('the database going away in the middle of isolating a refused row: the rest of the batch is held and written later', async (t) => {
  const real = await testDb(t);
  let statements = 0;
  let downAfter = Infinity;
  const db = failing(real, () => statements >= downAfter);
  const counting = new Proxy(db, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (name !== 'query' || typeof value !== 'function') return value;
      return (...args: unknown[]) => { const result = (value as (...a: unknown[]) => unknown).apply(target, args); statements += 1; return result; };
    },
  });
  const writer = new EventWriter(() => counting, pino({ level: 'silent' }));
  const at = new Date();
  const rows = Array.from({ length: 8 }, (_, n) => ({ occurredAt: at, type: 'tab' as const, source: 'client' as const, path: '/', key: n === 0 ? 'a\u0000' : `k${n}` }));
  // The whole batch fails on row 0; then its first half [0..3] fails, then [0, 1]; [0] alone is refused;
  // [1] is written, and the database is away from the statement after.
  downAfter = statements + 5;
  for (const r of rows) writer.record(r);
  await writer.flush();
  t.same(writer.dropped, { buffer_full: 0, database: 0, refused: 1 });
  t.equal(writer.written, 1);
  t.equal(writer.pending, 6, 'the six not yet tried are held');
  downAfter = Infinity;
  await writer.flush();
  t.equal(writer.written, 7);
  const stored = await real.query<{ key: string }>(`select key from analytics_events where type = 'tab' order by id`);
  t.same(stored.map((r) => r.key), ['k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7'], 'in order');
});
