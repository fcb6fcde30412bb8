/**
 * A bounded, deterministic fuzz of every route of the app (issue 8 "Tests and figures"): NUL bytes,
 * malformed percent-encodings, overlong values, unicode, huge and deeply nested bodies, wrong content
 * types and wrong methods. No answer may be a server error, and no error may be publicly cacheable.
 * FUZZ_REQUESTS and FUZZ_SEED change the run; the count and the 5xx count are printed.
 */
import t from 'tap';
import Fastify, { type InjectOptions } from 'fastify';
import { loadConfig, trustProxyOption } from '../../server/config.ts';
import app, { serverOptions } from '../../server/app.ts';
import { FIXTURE, PREVIEW_TOKEN, testDb } from '../helpers/build.ts';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

/** mulberry32: small, seeded, the same sequence on every machine. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Already URL-level: what a client can put on the wire that decodes badly or to something nasty. */
const RAW = ['%00', 'a%00b', '%', '%E0%A4%A', '%ZZ', '%C0%AF', '%FF%FE', '%ED%A0%80', '%2F', '%2e%2e%2f', '%25', '%0d%0aSet-Cookie:%20x=1', '%u0000', '..', ''];
/** Text, percent-encoded on the way out. */
const TEXT = ['a\u0000b', '\u0000', 'é', '日本語の検索', '😀', '\u202eevil', '\ud800', '<script>alert(1)</script>', '../../etc/passwd', '//evil.example',
  '\\evil', '__proto__', 'constructor', 'null', '-1', '0', '1.0', '11.3', '99999999999999999999', 'x'.repeat(600), 'y'.repeat(5000), 'z'.repeat(12_000),
  'a@b.example', 'acme-cloud-first-steps', 'acme-cloud', 'cloud', 'data_center', 'relevance', 'topic,kb_article', ' ', '\t\n', 'true'];
const PARAMS = ['searchTerm', 'entry', 'version', 'from', 'preview', 'page', 'sort', 'deployment', 'product', 'contentType', 'category', 'exact',
  'platform', 'feedback', '__proto__', 'constructor[prototype]', 'a%00'];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
const CONTENT_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'text/plain', 'application/xml', 'multipart/form-data; boundary=x',
  'application/json; charset=utf-16', 'a/b/c', '', 'application/json\u0000'];

t.test(`fuzz: ${REQUESTS} requests over every route, seed ${SEED}`, async (t) => {
  const db = await testDb(t);
  const config = loadConfig({ CONTENT_DIR: FIXTURE, PREVIEW_TOKEN, PUBLIC_URL: 'https://help.example.test', LOG_LEVEL: 'silent' });
  const server = Fastify({ ...serverOptions, logger: { level: 'silent' }, trustProxy: trustProxyOption(config.trustProxy) });
  const routes: { method: string; url: string }[] = [];
  server.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  t.teardown(() => server.close());
  await server.register(app, { config, db });
  await server.ready();
  // The import at start runs in the background: fuzz the site with its content stored (and /readyz ready).
  await server.contentReady;
  t.ok(routes.some((r) => r.url === '/gateway/api/help-content/v2/search') && routes.some((r) => r.url === '/feedback')
    && routes.some((r) => r.url === '/preview/:id') && routes.some((r) => r.url === '/*'), `${routes.length} routes listed from the app`);

  const random = prng(SEED);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const text = () => pick(TEXT);
  const encode = (s: string) => {
    try {
      return encodeURIComponent(s);
    } catch {
      return '%ED%A0%80';
    }
  };
  const urlValue = () => (random() < 0.4 ? pick(RAW) : encode(text()));
  const pathOf = (pattern: string) => pattern.split('/').map((part) => {
    if (part.startsWith(':')) return random() < 0.3 ? pick(['acme-cloud', 'acme-cloud-draft', 'acme-data-center', '2.0']) : urlValue();
    if (part === '*') return Array.from({ length: 1 + Math.floor(random() * 3) }, () => (random() < 0.3 ? pick(['acme-cloud', 'docs', 'first-steps']) : urlValue())).join('/');
    return random() < 0.05 ? `${part}${urlValue()}` : part;
  }).join('/');
  const query = () => {
    const n = Math.floor(random() * 4);
    const parts = Array.from({ length: n }, () => `${pick(PARAMS)}=${random() < 0.1 ? PREVIEW_TOKEN : urlValue()}`);
    return parts.length > 0 ? `?${parts.join('&')}` : '';
  };
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const body = (): { payload: string; type: string } => {
    const shape = Math.floor(random() * 10);
    const json = (v: unknown) => ({ payload: JSON.stringify(v), type: 'application/json' });
    switch (shape) {
      case 0: return json({ query: text(), pagination: { page: Math.floor(random() * 5), size: 10 } });
      case 1: return json({ query: text(), facetFilters: { contentTypes: [text()], products: [{ name: text(), versions: [text()] }] }, sort: { by: text() } });
      case 2: return { payload: `{"query":"x","facetFilters":${deep(2000 + Math.floor(random() * 4000))}}`, type: 'application/json' };
      case 3: return { payload: JSON.stringify({ query: 'x', junk: Array.from({ length: 5000 }, (_, i) => i) }), type: 'application/json' };
      case 4: return { payload: pick(['{"query":', '\u0000', 'null', '[]', '"str"', '1e999', '{"__proto__":{"x":1},"query":"a"}', '{"query":"a\\u0000"}']), type: 'application/json' };
      case 5: return { payload: `_csrf=${urlValue()}&entryId=${urlValue()}&returnTo=${urlValue()}&helpful=${pick(['yes', 'no', urlValue()])}&reason=${urlValue()}`, type: 'application/x-www-form-urlencoded' };
      case 6: return { payload: 'x'.repeat(Math.floor(random() * 40_000)), type: pick(CONTENT_TYPES) };
      case 7: return { payload: JSON.stringify({ query: text() }), type: pick(CONTENT_TYPES) };
      default: return json({ query: text() });
    }
  };

  let fiveHundreds = 0;
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  for (let i = 0; i < REQUESTS; i++) {
    const route = pick(routes);
    const method = random() < 0.7 ? route.method : pick(METHODS);
    const url = `${pathOf(route.url)}${query()}`;
    const request: InjectOptions = { method: method as 'GET', url, headers: {} };
    if (random() < 0.15) (request.headers as Record<string, string>)['x-preview-token'] = pick([PREVIEW_TOKEN, 'wrong', 'é'.repeat(40), '']);
    if (random() < 0.1) (request.headers as Record<string, string>)['hx-request'] = 'true';
    if (method !== 'GET' && method !== 'HEAD' && random() < 0.9) {
      const b = body();
      request.payload = b.payload;
      if (b.type) (request.headers as Record<string, string>)['content-type'] = b.type;
    }
    let res;
    try {
      res = await server.inject(request);
    } catch (error) {
      failures.push(`${method} ${url.slice(0, 120)}: inject threw ${(error as Error).message}`);
      continue;
    }
    statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    const what = `${method} ${url.slice(0, 120)} -> ${res.statusCode}`;
    if (res.statusCode >= 500) {
      fiveHundreds++;
      failures.push(`${what}: ${res.body.slice(0, 200)}`);
    } else if (res.statusCode >= 400 && !/no-store/.test(String(res.headers['cache-control']))) {
      failures.push(`${what}: error cacheable (${res.headers['cache-control']})`);
    }
    if (res.headers['x-content-type-options'] !== 'nosniff') failures.push(`${what}: no security headers`);
  }
  t.comment(`fuzzed requests: ${REQUESTS}, 5xx: ${fiveHundreds}, statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
  t.equal(fiveHundreds, 0, 'no server errors');
  t.same(failures.slice(0, 30), [], `${failures.length} failures`);
});
