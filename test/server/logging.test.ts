/**
 * No secret and no e-mail address in any log line (issue 8 item 10, spec §5): the log stream of a real
 * app at debug level, over requests that carry the preview token and addresses in every place.
 */
import t from 'tap';
import type { InjectOptions } from 'fastify';
import { PassThrough } from 'node:stream';
import { build, failing, testDb, PREVIEW_TOKEN, type BuildOptions } from '../helpers/build.ts';
import { redactUrl } from '../../server/log-redact.ts';

t.test('the request log holds no preview token and no e-mail address', async (t) => {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const app = await build(t, { logStream: stream, env: { LOG_LEVEL: 'debug' } });

  const address = 'jane.doe@customer.example';
  const encoded = encodeURIComponent(address);
  const requests = [
    { url: `/acme-cloud/docs/upcoming-feature?preview=${PREVIEW_TOKEN}` },
    { url: `/preview/acme-cloud-draft?preview=${PREVIEW_TOKEN}&x=1` },
    { url: '/preview/acme-cloud-draft', headers: { 'x-preview-token': PREVIEW_TOKEN, cookie: `session=${PREVIEW_TOKEN}`, authorization: `Bearer ${PREVIEW_TOKEN}` } },
    { url: `/search-results/?searchTerm=${encoded}` },
    { url: `/search-results/?searchTerm=contact+${encoded}+today` },
    { url: `/search-results/?searchTerm=${address}` },
    { url: `/search-results/?page=0&searchTerm=${encoded}` },
    { url: `/${encoded}` },
    { url: `/${address}/%ZZ?preview=${PREVIEW_TOKEN}` },
    { url: `/version-switch?entry=${encoded}&version=1` },
    { method: 'POST' as const, url: '/gateway/api/help-content/v2/search', payload: { query: address } },
    { method: 'POST' as const, url: '/gateway/api/help-content/v2/search', payload: `{"query": "${address}` , headers: { 'content-type': 'application/json' } },
    { method: 'PUT' as const, url: `/?preview=${PREVIEW_TOKEN}&q=${encoded}` },
  ];
  for (const request of requests) await app.inject(request);
  await new Promise((resolve) => setImmediate(resolve));

  const log = lines.join('\n');
  t.ok(lines.filter((l) => JSON.parse(l).msg === 'request').length === requests.length, `one access line per request (${lines.length} lines in all)`);
  t.ok(lines.every((l) => JSON.parse(l)), 'every line is JSON');
  t.notMatch(log, PREVIEW_TOKEN, 'no preview token');
  t.notMatch(log, /jane\.doe|customer\.example|jane\.doe%40/i, 'no e-mail address, plain or encoded');
  t.match(log, /"url":"\/acme-cloud\/docs\/upcoming-feature\?preview=\[redacted\]"/, 'the URL is logged with the token masked');
  t.match(log, /searchTerm=%5Bemail%5D/, 'search terms are masked, not dropped');
});

type Test = { teardown: (fn: () => unknown) => void };

/** A real app with the given settings, and the log lines it writes, parsed. */
async function loggedApp(t: Test, options: BuildOptions) {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)));
  const app = await build(t, { ...options, logStream: stream });
  await new Promise((resolve) => setImmediate(resolve));
  return { app, lines };
}

/** Log lines of a real app with the given settings, after the requests. */
async function logOf(t: Test, env: Record<string, string>, requests: InjectOptions[]) {
  const { app, lines } = await loggedApp(t, { env });
  lines.length = 0;
  for (const request of requests) await app.inject(request);
  await new Promise((resolve) => setImmediate(resolve));
  return lines;
}

t.test('one access line per request, with what an operator needs', async (t) => {
  const lines = await logOf(t, { LOG_LEVEL: 'info' }, [
    { url: '/acme-cloud/docs/first-steps', remoteAddress: '203.0.113.9', headers: { 'accept-encoding': 'br' } },
    { url: '/healthz' },
    { method: 'HEAD', url: '/acme-cloud/docs/first-steps' },
    { url: `/search-results/?searchTerm=${encodeURIComponent('jane.doe@customer.example')}&preview=${PREVIEW_TOKEN}` },
    { url: '/no-such-page' },
  ]);
  const access = lines.filter((l) => l.msg === 'request');
  t.equal(access.length, 5, 'one line each');
  t.same(lines.filter((l) => /incoming request|request completed/.test(String(l.msg))), [], "Fastify's own request lines are off");
  const [page, health, head, search, missing] = access;
  t.match(page, { level: 30, method: 'GET', url: '/acme-cloud/docs/first-steps', status: 200, ms: Number, bytes: Number, ip: '203.0.113.9', reqId: String });
  t.ok((page?.bytes as number) > 0, 'the body bytes sent (compressed)');
  t.match(health, { url: '/healthz', status: 200 });
  t.match(head, { method: 'HEAD', status: 200, bytes: 0 });
  t.match(search, { url: '/search-results/?searchTerm=%5Bemail%5D&preview=[redacted]' });
  t.match(missing, { status: 404 });
  for (const line of access) t.ok(JSON.stringify(line).length < 300, `a short line (${JSON.stringify(line).length} B)`);
  t.notMatch(JSON.stringify(lines), /jane\.doe|customer\.example|preview-token-for-tests/, 'no secret, no address');
  t.notOk(access.some((l) => 'req' in l || 'res' in l || 'headers' in l), 'no headers in the line');
});

t.test('the access line says whether the page cache answered a page or it was rendered', async (t) => {
  let down = false;
  const { app, lines } = await loggedApp(t, { env: { LOG_LEVEL: 'info' }, db: failing(await testDb(t), () => down) });
  const PAGE = '/acme-cloud/docs/first-steps';
  const css = /href="(\/assets\/main\.[0-9a-f]{12}\.css)"/.exec((await app.inject(PAGE)).body)?.[1] as string;
  app.pageCopies.clear();
  const line = async (request: InjectOptions | string) => {
    lines.length = 0;
    const res = await app.inject(request);
    await new Promise((resolve) => setImmediate(resolve));
    const access = lines.filter((l) => l.msg === 'request');
    t.equal(access.length, 1, 'one access line');
    return { res, line: access[0] ?? {} };
  };

  const rendered = await line(PAGE);
  t.match(rendered.line, { status: 200, cache: 'miss' }, 'the first request renders');
  const hit = await line({ url: PAGE, headers: { 'accept-encoding': 'br' } });
  t.match(hit.line, { status: 200, cache: 'hit', bytes: hit.res.rawPayload.length }, 'the next is answered from the copy');
  t.match((await line({ url: PAGE, headers: { 'if-none-match': String(rendered.res.headers.etag) } })).line, { status: 304, cache: 'hit' }, 'a 304 from the copy');
  t.match((await line({ method: 'HEAD', url: PAGE })).line, { method: 'HEAD', cache: 'hit' });
  t.match((await line('/no-such-page')).line, { status: 404, cache: 'miss' }, 'a not-found page renders');
  t.match((await line('/no-such-page')).line, { status: 404, cache: 'hit' }, 'and is kept');
  const search = '/search-results/?searchTerm=widget';
  t.match((await line(search)).line, { cache: 'miss' });
  t.match((await line({ url: search, headers: { 'hx-request': 'true' } })).line, { cache: 'miss' }, 'the htmx region is a page of its own');
  t.match((await line(search)).line, { cache: 'hit' });

  for (const request of [
    { url: PAGE, headers: { 'x-preview-token': PREVIEW_TOKEN } }, { url: '/healthz' }, { url: css },
    { method: 'POST' as const, url: '/gateway/api/help-content/v2/search', payload: { query: 'widget' } },
  ]) {
    const { line: l } = await line(request);
    t.notOk('cache' in l, `${request.method ?? 'GET'} ${request.url.replace(PREVIEW_TOKEN, '…')}: no cache field where the page cache has no say`);
  }

  // The database is away: a page whose copy has expired is answered from it, no-store (DESIGN "Running safely").
  const outage = '/search-results/?searchTerm=never-searched-before';
  app.pageCopies.partitionOf(outage, 200).keep(outage, { status: 200, body: Buffer.from('<!doctype html><p>kept</p>'), headers: { 'content-type': 'text/html; charset=utf-8' }, expires: 0 });
  down = true;
  const stale = await line(outage);
  down = false;
  t.equal(stale.res.statusCode, 200);
  t.equal(stale.res.headers['cache-control'], 'no-store');
  t.equal(stale.res.body, '<!doctype html><p>kept</p>');
  t.match(stale.line, { status: 200, cache: 'stale' }, 'the access line says the copy was stale');
});

t.test('ACCESS_LOG: debug keeps access lines below info; off drops them; errors keep their lines', async (t) => {
  const atDebug = await logOf(t, { LOG_LEVEL: 'info', ACCESS_LOG: 'debug' }, [{ url: '/' }, { url: '/no-such-page' }]);
  t.same(atDebug.filter((l) => l.msg === 'request'), [], 'not at LOG_LEVEL=info');
  const shown = await logOf(t, { LOG_LEVEL: 'debug', ACCESS_LOG: 'debug' }, [{ url: '/healthz' }]);
  t.match(shown.filter((l) => l.msg === 'request'), [{ level: 20, url: '/healthz', status: 200 }], 'at debug under LOG_LEVEL=debug');
  const off = await logOf(t, { LOG_LEVEL: 'debug', ACCESS_LOG: 'off' }, [{ url: '/' }, { url: '/?x=%00' }, { method: 'POST', url: '/gateway/api/help-content/v2/search', payload: '{' , headers: { 'content-type': 'application/json' } }]);
  t.same(off.filter((l) => l.msg === 'request'), [], 'none when off');
  t.ok(off.some((l) => l.msg === 'bad request'), 'a bad request keeps its own line');
});

t.test('redactUrl keeps what is harmless and masks the rest', async (t) => {
  t.equal(redactUrl('/a/b?x=1&y=two'), '/a/b?x=1&y=two');
  t.equal(redactUrl(`/?preview=${PREVIEW_TOKEN}`), '/?preview=[redacted]');
  t.equal(redactUrl('/?PREVIEW=abc'), '/?PREVIEW=[redacted]');
  t.equal(redactUrl('/?searchTerm=a%40b.example'), '/?searchTerm=%5Bemail%5D');
  t.equal(redactUrl('/?searchTerm=reset+a%40b.example+now'), '/?searchTerm=reset%20%5Bemail%5D%20now');
  t.equal(redactUrl('/%E0%A4%A?x=%'), '/%E0%A4%A?x=%', 'malformed encodings pass through unharmed');
});
