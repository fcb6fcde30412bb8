import t from 'tap';
import Fastify from 'fastify';
import { build, testDb, SAMPLE_CONTENT, FIXTURE, PREVIEW_TOKEN } from '../helpers/build.ts';
import { loadConfig } from '../../server/config.ts';
import app, { serverOptions } from '../../server/app.ts';
import { FormTokens } from '../../server/plugins/secrets.ts';

/** Tokens are issued per hour (server/plugins/secrets.ts). */
const TOKEN_WINDOW_MS = 60 * 60 * 1000;
import { search } from '../../server/search/engine.ts';
import { importContent } from '../../server/content/import.ts';
import type { Db } from '../../server/db/driver.ts';

const PAGE = '/acme-cloud/docs/first-steps';
const ENTRY = 'acme-cloud-first-steps';
const FORM = { 'content-type': 'application/x-www-form-urlencoded', host: 'localhost', origin: 'http://localhost' };

const tokenOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const helpfulCount = async (db: Db, id: string) =>
  (await db.query<{ n: number }>('select helpful_count as n from entry_stats where entry_id = $1', [id]))[0]?.n ?? 0;
const tokensOf = async (db: Db) =>
  new FormTokens(Buffer.from((await db.query<{ value: string }>(`select value from app_secrets where name = 'form-token'`))[0]!.value, 'base64url'));

type Inject = Awaited<ReturnType<typeof build>>;
function poster(server: Inject, path: string, entryId: string) {
  return (token: string, options: { cookie?: string; ip?: string; headers?: Record<string, string>; fields?: Record<string, string> } = {}) => server.inject({
    method: 'POST', url: '/feedback', remoteAddress: options.ip ?? '203.0.113.7',
    headers: { ...FORM, ...(options.cookie ? { cookie: `sp_visitor=${options.cookie}` } : {}), ...options.headers },
    payload: new URLSearchParams({ _csrf: token, entryId, returnTo: path, helpful: 'yes', ...options.fields }).toString(),
  });
}
const visitorCookie = (res: { cookies: { name: string; value: string }[] }) => res.cookies.find((c) => c.name === 'sp_visitor')?.value;

t.test('feedback stuffing cannot buy search rank (issue 8 item 8)', async (t) => {
  const db = await testDb(t);
  // Imported before the app starts, so start-up does not wait for it.
  await importContent(db, SAMPLE_CONTENT);
  const server = await build(t, { db, contentDir: SAMPLE_CONTENT, env: { RATE_LIMIT_MAX: '100000', IMPORT_ON_START: 'false' } });
  const ranking = async () => (await search(db, { query: 'permissions', pagination: { from: 0, size: 30 } })).results
    .map((r) => r.content.contentAri.split('/').pop() ?? '');
  const before = await ranking();
  const target = before[15] as string;
  t.ok(target, `the page at rank 16 for "permissions": ${target}`);
  const [route] = await db.query<{ path: string }>('select path from content_routes where entry_id = $1 order by path desc limit 1', [target]);
  const page = await server.inject(route!.path);
  t.equal(page.statusCode, 200);
  const post = poster(server, route!.path, target);
  const countBefore = await helpfulCount(db, target);

  const started = Date.now();
  const answers = [];
  for (let i = 0; i < 300; i++) answers.push((await post(tokenOf(page.body))).statusCode);
  t.same([...new Set(answers)], [303], `300 cookie-less posts accepted in ${Date.now() - started} ms`);
  const stored = (await db.query<{ n: number }>('select count(*)::int as n from feedback where entry_id = $1', [target]))[0]?.n;
  t.equal(stored, 300, 'every answer is stored');
  t.ok((await helpfulCount(db, target)) - countBefore <= 1, `helpful_count moved by ${(await helpfulCount(db, target)) - countBefore}`);
  const after = await ranking();
  t.equal(after.indexOf(target), before.indexOf(target), 'the rank did not move');
  t.same(after, before, 'no result moved');
});

t.test('who counts: established visitors, once per network and day', async (t) => {
  const db = await testDb(t);
  const server = await build(t, { db, env: { RATE_LIMIT_MAX: '100000' } });
  const token = tokenOf((await server.inject(PAGE)).body);
  const post = poster(server, PAGE, ENTRY);

  const first = await post(token);
  const cookie = visitorCookie(first);
  t.ok(cookie, 'the first answer gives a signed visitor cookie');
  t.equal(await helpfulCount(db, ENTRY), 0, 'a first answer without a cookie is stored but not counted yet');
  await post(token, { cookie });
  t.equal(await helpfulCount(db, ENTRY), 1, 'the visitor is established when it comes back with its cookie');
  t.equal((await db.query<{ n: number }>('select count(*)::int as n from feedback where entry_id = $1', [ENTRY]))[0]?.n, 1, 'still one answer per visitor');

  t.test('a made-up cookie is a new visitor, not an established one', async (t) => {
    const made = 'A'.repeat(24) + '.' + 'B'.repeat(22);
    const res = await post(token, { cookie: made, ip: '198.51.100.9' });
    t.equal(res.statusCode, 303);
    t.not(visitorCookie(res), made, 'a fresh signed cookie replaces it');
    t.equal(await helpfulCount(db, ENTRY), 1, 'and it counts for nothing');
  });

  t.test('replay of one visitor\'s post from another client is the same single answer', async (t) => {
    for (let i = 0; i < 20; i++) t.equal((await post(token, { cookie, ip: `192.0.2.${i + 1}` })).statusCode, 303);
    t.equal(await helpfulCount(db, ENTRY), 1);
    t.equal((await db.query<{ n: number }>(`select count(*)::int as n from feedback where entry_id = $1 and counted`, [ENTRY]))[0]?.n, 1);
  });

  t.test('many visitors minted from one network count once', async (t) => {
    for (let i = 0; i < 10; i++) {
      const minted = visitorCookie(await post(token, { ip: `203.0.113.${100 + i}` }));
      await post(token, { cookie: minted, ip: `203.0.113.${100 + i}` });
    }
    const networks = (await db.query<{ n: number }>(`select count(distinct network_key)::int as n from feedback where counted`))[0]?.n;
    t.equal(await helpfulCount(db, ENTRY), networks, `${networks} networks, each counted once`);
    t.ok((await helpfulCount(db, ENTRY)) <= 3);
    const other = visitorCookie(await post(token, { ip: '2001:db8:1:2::5' }));
    await post(token, { cookie: other, ip: '2001:db8:1:2::5' });
    t.equal(await helpfulCount(db, ENTRY), networks! + 1, 'a visitor from another network adds one');
  });
});

t.test('form tokens expire, and a page served from a cache still submits', async (t) => {
  const db = await testDb(t);
  const server = await build(t, { db });
  const page = await server.inject(PAGE);
  t.equal(page.headers['cache-control'], 'public, no-cache', 'the page is shared-cacheable');
  t.notOk(page.headers['set-cookie'], 'and sets no cookie');
  const again = await server.inject({ url: PAGE, headers: { 'if-none-match': String(page.headers.etag) } });
  t.ok([200, 304].includes(again.statusCode), 'revalidation of the cached page');
  t.notOk(again.headers['set-cookie']);
  const post = poster(server, PAGE, ENTRY);
  t.equal((await post(tokenOf(page.body))).statusCode, 303, 'the cached copy\'s token is accepted');

  const tokens = await tokensOf(db);
  const aged = await post(tokens.issue(`feedback:${ENTRY}`, Date.now() - 0.9 * TOKEN_WINDOW_MS), { ip: '198.51.100.1' });
  t.equal(aged.statusCode, 303, 'a token from a page loaded most of an hour ago is accepted');
  const old = await post(tokens.issue(`feedback:${ENTRY}`, Date.now() - 3 * TOKEN_WINDOW_MS), { ip: '198.51.100.2' });
  t.equal(old.statusCode, 403, 'a token three hours old is refused');
  t.equal(old.body, 'This form has expired. Reload the page and try again.');
  const future = await post(tokens.issue(`feedback:${ENTRY}`, Date.now() + 2 * TOKEN_WINDOW_MS), { ip: '198.51.100.3' });
  t.equal(future.statusCode, 403, 'a token from the future is refused');
  const otherEntry = await post(tokens.issue('feedback:acme-kb-widget-crash'), { ip: '198.51.100.4' });
  t.equal(otherEntry.statusCode, 403, 'a token is bound to its entry');
  const unsigned = await post(`${Math.floor(Date.now() / TOKEN_WINDOW_MS).toString(36)}.${'x'.repeat(43)}`, { ip: '198.51.100.5' });
  t.equal(unsigned.statusCode, 403, 'a token must carry our signature');
});

t.test('state-changing routes are rate-limited through the database', async (t) => {
  const db = await testDb(t);
  const env = { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW: '600' };
  const one = await build(t, { db, env });
  const two = await build(t, { db, env });
  const token = tokenOf((await one.inject(PAGE)).body);
  const codes = [];
  for (const server of [one, two, one]) codes.push((await poster(server, PAGE, ENTRY)(token)).statusCode);
  t.same(codes, [303, 303, 303], 'three posts, across two instances');
  const refused = await poster(two, PAGE, ENTRY)(token, { headers: { referer: `https://help.example.test${PAGE}` } });
  t.equal(refused.statusCode, 429, 'the fourth, on the other instance, is refused: the count is shared');
  t.ok(Number(refused.headers['retry-after']) > 0, `Retry-After: ${refused.headers['retry-after']}`);
  t.match(refused.headers['content-type'], 'text/html');
  t.equal(refused.headers['cache-control'], 'no-store');
  t.match(refused.body, /You&#39;ve sent this form many times in a short while\. Please wait \d+ seconds? and try again\./);
  t.match(refused.body, `<a href="${PAGE}">Go back to the page</a>`, 'and leads back to the page');
  t.equal((await poster(one, PAGE, ENTRY)(token, { ip: '198.51.100.77' })).statusCode, 303, 'another client is not affected');
  t.equal((await one.inject(PAGE)).statusCode, 200, 'pages are not limited');

  t.test('when the database cannot count, this instance counts in memory and never answers 5xx', async (t) => {
    await db.query('drop table rate_limits');
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await poster(one, PAGE, ENTRY)(token, { ip: '198.51.100.200' })).statusCode);
    t.same(codes, [303, 303, 303, 429, 429]);
  });
});

/** The app behind a reverse proxy that Fastify is told to trust (TRUST_PROXY). */
async function buildTrusting(tt: { teardown: (fn: () => unknown) => void }, db: Db, trustProxy: boolean) {
  const config = loadConfig({ CONTENT_DIR: FIXTURE, PREVIEW_TOKEN, PUBLIC_URL: 'https://help.example.test', LOG_LEVEL: 'silent' });
  const server = Fastify({ ...serverOptions, trustProxy, logger: { level: 'silent' } });
  tt.teardown(() => server.close());
  await server.register(app, { config, db });
  await server.ready();
  return server;
}

t.test('the origin check compares scheme, host and port, and trusts proxy headers only when told (issue 8 item 12)', async (t) => {
  const db = await testDb(t);
  const direct = await build(t, { db });
  const token = tokenOf((await direct.inject(PAGE)).body);
  const proxied = { host: 'app-internal:3000', 'x-forwarded-host': 'help.example.org', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.50' };

  const trusting = await buildTrusting(t, db, true);
  const behind = await poster(trusting, PAGE, ENTRY)(token, { headers: { ...proxied, origin: 'https://help.example.org' } });
  t.equal(behind.statusCode, 303, 'behind a trusted proxy, a same-site post is accepted');
  t.match(String(behind.headers['set-cookie']), /Secure/, 'and the visitor cookie is Secure: the proxy said https');

  const ignored = await poster(direct, PAGE, ENTRY)(token, { headers: { ...proxied, origin: 'https://help.example.org' } });
  t.equal(ignored.statusCode, 403, 'without TRUST_PROXY the forwarded headers are ignored');
  t.match(ignored.body, 'Feedback can only be sent from this site.');

  const scheme = await poster(direct, PAGE, ENTRY)(token, { headers: { origin: 'https://localhost' } });
  t.equal(scheme.statusCode, 403, 'the right host with the wrong scheme is refused');
  const port = await poster(direct, PAGE, ENTRY)(token, { headers: { origin: 'http://localhost:8080' } });
  t.equal(port.statusCode, 403, 'the right host with another port is refused');
  const forgedProto = await poster(trusting, PAGE, ENTRY)(token, { headers: { ...proxied, 'x-forwarded-proto': 'http', origin: 'https://help.example.org' } });
  t.equal(forgedProto.statusCode, 403, 'behind the proxy too, the scheme must match');

  const publicOrigin = await poster(direct, PAGE, ENTRY)(token, { headers: { host: 'app-internal:3000', origin: 'https://help.example.test' } });
  t.equal(publicOrigin.statusCode, 303, 'the configured PUBLIC_URL origin is accepted');
  const fetchSite = await poster(direct, PAGE, ENTRY)(token, { headers: { 'sec-fetch-site': 'cross-site' } });
  t.equal(fetchSite.statusCode, 403, 'Fetch Metadata cross-site is refused');
  t.equal((await poster(direct, PAGE, ENTRY)(token, { headers: { origin: 'null' } })).statusCode, 403, 'an opaque origin is refused');
});
