import t from 'tap';
import { build } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed, setCookies } from './helpers.ts';

const PAGE = '/acme-cloud/docs/first-steps';
const SIGNED_IN = 'Account menu for Ada Lovelace';
const ANONYMOUS = 'Log in to contact support';

t.test('the anonymous cached page never shows a signed-in header, and a signed-in page is never kept', async (t) => {
  const app = await build(t, { env: { SESSION_SECRET } });
  const cookie = sealed(app, ADA);

  // Signed in first: rendered for this visitor, not kept.
  const mine = await app.inject({ url: PAGE, headers: { cookie } });
  t.match(mine.body, SIGNED_IN);
  t.equal(mine.headers['cache-control'], 'private, no-store');
  t.equal(mine.headers.etag, undefined, 'no ETag on a personal page');

  const first = await app.inject({ url: PAGE });
  t.match(first.body, ANONYMOUS);
  t.notMatch(first.body, SIGNED_IN);
  t.match(first.headers['cache-control'], /^public/);
  t.ok(first.headers.etag);
  const again = await app.inject({ url: PAGE });
  t.equal(again.body, first.body, 'the kept anonymous copy');

  // Signed in after the anonymous copy is kept: still this visitor's own page.
  const later = await app.inject({ url: PAGE, headers: { cookie } });
  t.match(later.body, SIGNED_IN);
  t.notMatch(later.body, ANONYMOUS);
  t.equal(later.headers['cache-control'], 'private, no-store');
  t.equal(later.headers.etag, undefined);

  // The anonymous page's validator gets a full personal page, never a 304 to the anonymous copy.
  const revalidated = await app.inject({ url: PAGE, headers: { cookie, 'if-none-match': String(first.headers.etag) } });
  t.equal(revalidated.statusCode, 200);
  t.match(revalidated.body, SIGNED_IN);
  t.equal(revalidated.headers.etag, undefined);

  const after = await app.inject({ url: PAGE });
  t.match(after.body, ANONYMOUS);
  t.notMatch(after.body, SIGNED_IN);
  t.equal((await app.inject({ url: PAGE, headers: { 'if-none-match': String(first.headers.etag) } })).statusCode, 304, 'anonymous validators still work');
});

t.test('public pages vary on Cookie, so a browser asks again after sign-in', async (t) => {
  const app = await build(t, { env: { SESSION_SECRET } });
  const rendered = await app.inject({ url: PAGE });
  t.match(String(rendered.headers.vary), /Cookie/);
  const kept = await app.inject({ url: PAGE, headers: { 'accept-encoding': 'gzip' } });
  t.match(String(kept.headers.vary), /Accept-Encoding/);
  t.match(String(kept.headers.vary), /Cookie/);
  const search = await app.inject({ url: '/search-results/?searchTerm=widget' });
  t.match(String(search.headers.vary), /HX-Request/);
  t.match(String(search.headers.vary), /Cookie/);
});

t.test('every kind of answer to a signed-in visitor is private, no-store, without an ETag', async (t) => {
  const app = await build(t, { env: { SESSION_SECRET } });
  const cookie = sealed(app, ADA);
  for (const url of [PAGE, '/acme/kb/widget-crash', '/search-results/?searchTerm=widget', '/no-such-page', '/sitemap.xml', '/gateway/api/customer-context/user/auth']) {
    const res = await app.inject({ url, headers: { cookie } });
    t.equal(res.headers['cache-control'], 'private, no-store', url);
    t.equal(res.headers.etag, undefined, url);
  }
  const notFound = await app.inject({ url: '/no-such-page', headers: { cookie } });
  t.match(notFound.body, SIGNED_IN, 'the not-found page shows the signed-in header');
  t.notMatch((await app.inject({ url: '/no-such-page' })).body, SIGNED_IN, 'and is not kept for anyone else');
});

t.test('no response mixes Set-Cookie with a shared lifetime; anonymous pages set none', async (t) => {
  const app = await build(t, { env: { SESSION_SECRET } });
  for (const url of ['/', PAGE, '/acme/kb/widget-crash', '/search-results/?searchTerm=widget', '/no-such-page', '/gateway/api/session/heartbeat']) {
    const res = await app.inject({ url });
    t.same(setCookies(res), [], `${url}: no cookie`);
  }
  const login = await app.inject({ url: '/auth/login' });
  // The sign-in may be unavailable here (no provider answers on this branch); either way, no shared lifetime.
  t.match(login.headers['cache-control'], /no-store/);
  const expired = await app.inject({ url: PAGE, headers: { cookie: 'sp_session=garbage' } });
  t.ok(setCookies(expired).length > 0, 'an unreadable cookie is cleared');
  t.equal(expired.headers['cache-control'], 'private, no-store');
  t.equal(expired.headers.etag, undefined);
});
