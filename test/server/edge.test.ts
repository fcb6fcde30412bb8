/**
 * Input no route should see, headers every response carries, and what may be cached (issue 8 items 5,
 * 6 and 9), through the whole app on a real database.
 */
import t from 'tap';
import { build, PREVIEW_TOKEN } from '../helpers/build.ts';

const SEARCH_API = '/gateway/api/help-content/v2/search';
const isPublic = (cacheControl: unknown) => /public|s-maxage/.test(String(cacheControl ?? '')) || !/no-store/.test(String(cacheControl ?? ''));

t.test('the edge of the app', async (t) => {
  const app = await build(t);

  t.test('a NUL byte anywhere is a 400 naming where it is, never a 500', async (t) => {
    const pages: [string, string][] = [
      ['/a%00b', 'path: must not contain a NUL character'],
      ['/a\u0000b', 'path: must not contain a NUL character'],
      ['/search-results/?searchTerm=a%00b', 'searchTerm: must not contain a NUL character'],
      ['/version-switch?entry=a%00&version=1', 'entry: must not contain a NUL character'],
      ['/preview/%00', 'path: must not contain a NUL character'],
      [`/preview/x?preview=${PREVIEW_TOKEN}%00`, 'preview: must not contain a NUL character'],
    ];
    for (const [url, message] of pages) {
      const res = await app.inject(url);
      t.equal(res.statusCode, 400, url);
      t.match(res.headers['content-type'], 'text/html', `${url}: the simple error page`);
      t.match(res.body, message, `${url}: names the parameter`);
      t.match(res.body, '<h1>Bad Request</h1>');
      t.match(res.headers['cache-control'], /^(private, )?no-store$/, `${url}: not cached`);
    }
    const api = await app.inject({ method: 'POST', url: SEARCH_API, payload: { query: 'a\u0000b' } });
    t.equal(api.statusCode, 400);
    t.same(api.json(), { statusCode: 400, error: 'FST_ERR_VALIDATION', message: 'body/query: must not contain a NUL character' });
    const nested = await app.inject({ method: 'POST', url: SEARCH_API, payload: { query: 'x', facetFilters: { products: [{ name: 'a\u0000' }] } } });
    t.equal(nested.statusCode, 400);
    t.equal(nested.json().message, 'body/facetFilters/products/0/name: must not contain a NUL character');
    const form = await app.inject({ method: 'POST', url: '/feedback', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'entryId=a%00&_csrf=x&returnTo=/&helpful=yes' });
    t.equal(form.statusCode, 400);
    t.match(form.body, 'body/entryId: must not contain a NUL character');
  });

  t.test('a path that does not percent-decode is a 400 with the security headers, not a 500', async (t) => {
    for (const url of ['/%E0%A4%A', '/%', '/acme-cloud/docs/%E0%A4%A', '/search-results/%ZZ?searchTerm=x']) {
      const res = await app.inject(url);
      t.equal(res.statusCode, 400, url);
      t.match(res.body, 'path: malformed percent-encoding');
      t.equal(res.headers['x-content-type-options'], 'nosniff');
      t.equal(res.headers['cache-control'], 'no-store');
    }
    const api = await app.inject({ method: 'POST', url: `${SEARCH_API}%`, payload: { query: 'x' } });
    t.equal(api.statusCode, 400);
    t.equal(api.json().message, 'path: malformed percent-encoding', 'API paths answer in JSON');
  });

  t.test('a preview token of the right length in non-ASCII characters is just a wrong token', async (t) => {
    for (const token of ['é'.repeat(PREVIEW_TOKEN.length), '日'.repeat(PREVIEW_TOKEN.length), '😀'.repeat(PREVIEW_TOKEN.length / 2)]) {
      const res = await app.inject(`/acme-cloud/docs/upcoming-feature?preview=${encodeURIComponent(token)}`);
      t.equal(res.statusCode, 404);
      const header = await app.inject({ url: '/preview/acme-cloud-draft', headers: { 'x-preview-token': Buffer.from(token).toString('latin1') } });
      t.equal(header.statusCode, 404);
    }
    t.equal((await app.inject(`/acme-cloud/docs/upcoming-feature?preview=${PREVIEW_TOKEN}`)).statusCode, 200, 'the right token still works');
  });

  t.test('a method the path does not have is a 405 with Allow, not the 404 page', async (t) => {
    const cases: [string, string, string][] = [
      ['PUT', '/', 'GET, HEAD'], ['DELETE', '/acme-cloud/docs/first-steps', 'GET, HEAD'], ['PATCH', '/sitemap.xml', 'GET, HEAD'],
      ['POST', '/acme-cloud/docs', 'GET, HEAD'], ['OPTIONS', '/', 'GET, HEAD'],
      ['DELETE', '/feedback', 'GET, HEAD, POST'], ['PUT', SEARCH_API, 'GET, HEAD, POST'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await app.inject({ method: method as 'PUT', url });
      t.equal(res.statusCode, 405, `${method} ${url}`);
      t.equal(res.headers.allow, allow, `${method} ${url}: Allow`);
      t.equal(res.headers['cache-control'], 'no-store');
      t.equal(res.headers['x-content-type-options'], 'nosniff');
    }
    t.match((await app.inject({ method: 'PUT', url: SEARCH_API })).json(), { statusCode: 405, error: 'METHOD_NOT_ALLOWED' });
  });

  t.test('every kind of response carries the security headers; HSTS on https', async (t) => {
    const home = (await app.inject('/')).body;
    const css = /href="(\/assets\/main\.[^"]+\.css)"/.exec(home)?.[1] ?? '';
    const js = /src="(\/assets\/islands\.[^"]+\.js)"/.exec(home)?.[1] ?? '';
    t.ok(css && js, 'the page names its stylesheet and script');
    const requests = [
      { url: '/' }, { url: '/acme-cloud/docs/first-steps' }, { url: '/nope' }, { url: '/sitemap.xml' }, { url: '/robots.txt' },
      { url: '/healthz' }, { url: '/gateway/api/help-content/v2/openapi.json' }, { url: css }, { url: js },
      { url: '/assets/content/admin-console.svg' }, { url: '/acme-data-center/2.0' }, { url: '/search-results/?page=0' },
      { method: 'POST' as const, url: SEARCH_API, payload: { query: 'widget' } }, { method: 'POST' as const, url: SEARCH_API, payload: {} },
      { method: 'POST' as const, url: '/feedback', payload: {} }, { method: 'HEAD' as const, url: '/' },
    ];
    for (const request of requests) {
      const res = await app.inject(request);
      const what = `${request.method ?? 'GET'} ${request.url} (${res.statusCode})`;
      t.equal(res.headers['x-content-type-options'], 'nosniff', `${what}: nosniff`);
      t.equal(res.headers['referrer-policy'], 'strict-origin-when-cross-origin', `${what}: referrer policy`);
      t.equal(res.headers['x-frame-options'], 'SAMEORIGIN', `${what}: frame options`);
      t.match(res.headers['content-security-policy'], /frame-ancestors 'self'/, `${what}: CSP`);
      t.match(res.headers['strict-transport-security'], /^max-age=31536000/, `${what}: HSTS`);
      if (!String(res.headers['content-type']).startsWith('text/html')) {
        t.match(res.headers['content-security-policy'], /^default-src 'none'/, `${what}: strict CSP when not a page`);
      }
    }
    const page = await app.inject('/acme-cloud/docs/first-steps');
    t.match(page.headers['content-security-policy'], /script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/, 'pages allow scripts from the site only');
    t.notMatch(page.headers['content-security-policy'], /nonce-|unsafe-inline/, 'no nonce, nothing inline');
  });

  t.test('no HSTS when the public URL is plain http', async (t) => {
    const plain = await build(t, { env: { PUBLIC_URL: 'http://localhost:3000' } });
    const res = await plain.inject('/');
    t.equal(res.headers['strict-transport-security'], undefined);
    t.equal(res.headers['x-content-type-options'], 'nosniff');
  });

  t.test('errors and preview-token requests never get a public cache lifetime', async (t) => {
    const errors = ['/nope', '/acme-cloud/docs/upcoming-feature', '/version-switch?entry=unknown&version=1', '/search-results/?searchTerm=%00'];
    for (const url of errors) {
      const res = await app.inject(url);
      t.ok(res.statusCode >= 400, `${url}: ${res.statusCode}`);
      t.notOk(isPublic(res.headers['cache-control']), `${url}: ${res.headers['cache-control']}`);
    }
    const withToken = ['/nope', '/search-results/?searchTerm=widget', '/', '/acme-cloud/docs/first-steps', '/acme-data-center/2.0', '/acme-cloud/docs/upcoming-feature'];
    for (const url of withToken) {
      for (const token of [PREVIEW_TOKEN, 'wrong']) {
        const query = await app.inject(`${url}${url.includes('?') ? '&' : '?'}preview=${token}`);
        t.equal(query.headers['cache-control'], 'private, no-store', `${url} ?preview=${token === 'wrong' ? 'wrong' : 'TOKEN'} (${query.statusCode})`);
        const header = await app.inject({ url, headers: { 'x-preview-token': token } });
        t.equal(header.headers['cache-control'], 'private, no-store', `${url} X-Preview-Token (${header.statusCode})`);
      }
    }
    const published = await app.inject('/acme-cloud/docs/first-steps');
    t.match(published.headers['cache-control'], /^public/, 'published pages stay publicly cacheable');
  });
});
