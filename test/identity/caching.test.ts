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
  t.match(String(kept.headers.vary), /Accept-Encoding/i);
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

t.test('signed-in pages come from a template per role, filled in for each visitor, escaped', async (t) => {
  const { Writable } = await import('node:stream');
  const lines: string[] = [];
  const logStream = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
  let now = Date.parse('2026-03-01T10:00:00Z');
  const app = await build(t, { logStream, clock: () => now, env: { SESSION_SECRET, LOG_LEVEL: 'info', CONTENT_EDITOR_URL: 'https://forge.example/edit/{file}' } });
  const as = (user: typeof ADA) => sealed(app, user, { iat: now, seen: now });

  const ada = await app.inject({ url: PAGE, headers: { cookie: as(ADA) } });
  t.match(ada.body, SIGNED_IN);
  t.match(ada.body, 'ada@customer.example');
  t.match(ada.body, '>AL</span>');
  const bob = { ...ADA, sub: 'acct-bob', email: 'bob@other.example', name: 'Bob <img src=x onerror=alert(1)> "Q" O\'Brien' };
  const bobPage = await app.inject({ url: PAGE, headers: { cookie: as(bob) } });
  t.equal(bobPage.statusCode, 200);
  t.match(bobPage.body, 'Account menu for Bob &#60;img src=x onerror=alert(1)&#62; &#34;Q&#34; O&#39;Brien');
  t.match(bobPage.body, 'bob@other.example');
  t.notMatch(bobPage.body, '<img src=x', 'the name is escaped');
  t.notMatch(bobPage.body, /ada@customer\.example|Ada Lovelace/, 'nothing of the visitor before');
  t.notMatch(bobPage.body, /\uE000|\uE001/, 'no placeholder left');
  t.equal(bobPage.headers['cache-control'], 'private, no-store');
  t.equal(bobPage.headers.etag, undefined);
  const hits = lines.filter((l) => l.includes('"msg":"request"') && l.includes('"cache":"hit"')).length;
  t.ok(hits >= 1, 'answered from the role template');

  // Another role at the same address: a template of its own.
  const author = await app.inject({ url: PAGE, headers: { cookie: as({ ...ADA, sub: 'acct-eli', email: 'eli@customer.example', name: 'Eli', canEdit: true }) } });
  t.match(author.body, 'class="edit-links"');
  t.match(author.body, 'Account menu for Eli');
  const customerAgain = await app.inject({ url: PAGE, headers: { cookie: as(ADA) } });
  t.notMatch(customerAgain.body, 'class="edit-links"', 'the customer\'s template has no shortcuts');
  t.match(customerAgain.body, 'Account menu for Ada Lovelace');
  const noName = await app.inject({ url: PAGE, headers: { cookie: as({ ...ADA, name: '' }) } });
  t.match(noName.body, 'Account menu for ada@customer.example');
  t.notMatch(noName.body, 'class="account-email"', 'no second line without a name');
  const pictured = await app.inject({ url: PAGE, headers: { cookie: as({ ...ADA, picture: 'https://avatars.example/a.png?x=1&y="2"' }) } });
  t.match(pictured.body, '<img class="avatar" src="https://avatars.example/a.png?x=1&#38;y=&#34;2&#34;"');

  // The anonymous page is still the anonymous page.
  t.match((await app.inject({ url: PAGE })).body, ANONYMOUS);
  t.notMatch((await app.inject({ url: PAGE })).body, /Account menu|\uE000/);

  // Compressed for the client, quickly, and still this visitor's page.
  const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
  for (const [encoding, decode] of [['br', brotliDecompressSync], ['gzip', gunzipSync]] as const) {
    const res = await app.inject({ url: PAGE, headers: { cookie: as(bob), 'accept-encoding': encoding } });
    t.equal(res.headers['content-encoding'], encoding);
    t.match(String(res.headers.vary), /Accept-Encoding/);
    t.match(decode(res.rawPayload).toString(), 'bob@other.example');
  }
  // A client taking both gets the template's pieces gzipped once, assembled: the same page, byte for byte.
  const plain = await app.inject({ url: PAGE, headers: { cookie: as(bob) } });
  const both = await app.inject({ url: PAGE, headers: { cookie: as(bob), 'accept-encoding': 'br, gzip' } });
  t.equal(both.headers['content-encoding'], 'gzip', 'gzip when the client takes it: nothing to compress per request');
  t.equal(gunzipSync(both.rawPayload).toString(), plain.body, 'assembled from the kept pieces, it inflates to the page');

  // Past the form-token window the template is rendered again (its form token would expire).
  now += 2 * 3_600_000;
  const later = await app.inject({ url: PAGE, headers: { cookie: as(ADA) } });
  t.match(later.body, SIGNED_IN);
});
