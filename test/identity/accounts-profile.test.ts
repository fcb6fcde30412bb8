import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { ORIGIN, PASSWORD, profileApp } from './profile-app.ts';
import { cookieFrom } from './helpers.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const post = (server: FastifyInstance, fields: Record<string, string>, headers: Record<string, string> = {}) => server.inject({
  method: 'POST', url: '/auth/account/password', payload: form(fields),
  headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, 'x-test-user': 'robin', ...headers },
});

t.test('anonymous visitors are sent to sign in, and back here afterwards', async (t) => {
  const { server } = await profileApp(t);
  const res = await server.inject('/auth/account');
  t.equal(res.statusCode, 303);
  t.equal(res.headers.location, '/auth/login?continue=%2Fauth%2Faccount');
  t.match(res.headers['cache-control'], /\bno-store\b/);
  const posted = await post(server, { currentPassword: PASSWORD, newPassword: 'another one 22', confirmPassword: 'another one 22' }, { 'x-test-user': '' });
  t.equal(posted.statusCode, 303, 'an anonymous POST changes nothing and goes to sign in');
  t.equal(posted.headers.location, '/auth/login?continue=%2Fauth%2Faccount');
});

t.test('the signed-in person sees their name, e-mail and roles, privately', async (t) => {
  const { server } = await profileApp(t);
  const res = await server.inject({ url: '/auth/account', headers: { 'x-test-user': 'robin' } });
  t.equal(res.statusCode, 200);
  t.equal(res.headers['cache-control'], 'private, no-store');
  t.match(res.headers['content-type'], 'text/html');
  const html = res.body;
  t.match(html, /<main id="maincontent"/);
  t.match(html, /<link rel="stylesheet" href="\/assets\/main\.[\w-]+\.css"/);
  t.match(html, '<dd>Robin Reader</dd>');
  t.match(html, '<dd>Robin@Staff.Example</dd>');
  t.match(html, '<dd>Signed-in customer, Author, Vendor staff</dd>', 'roles: editor claim and the staff domain (case-insensitive)');
  t.match(html, /<form method="post" action="\/auth\/account\/password"/);
  t.match(html, /<input id="currentPassword" name="currentPassword" type="password" autoComplete="current-password"|autocomplete="current-password"/i);
  t.match(html, /<form method="post" action="\/auth\/logout"/);
  t.notMatch(html, 'aria-invalid', 'no errors before anything is sent');
  t.notMatch(html, 'role="alert"');
});

t.test('changing the password: post/redirect/get, then only the new password signs in', async (t) => {
  const { server, account } = await profileApp(t);
  const res = await post(server, { currentPassword: PASSWORD, newPassword: 'a brand new one', confirmPassword: 'a brand new one' });
  t.equal(res.statusCode, 303);
  t.equal(res.headers.location, '/auth/account?done=password-changed');
  t.match(res.headers['cache-control'], /\bno-store\b/);
  // The change ended every session of the account; this browser goes on with the new cookie it was given.
  t.equal((await server.inject({ url: res.headers.location as string, headers: { 'x-test-user': 'robin' } })).statusCode, 303, 'the cookie from before is over');
  const renewed = cookieFrom(res, 'sp_session');
  t.ok(renewed, 'a new session cookie');
  const after = await server.inject({ url: res.headers.location as string, headers: { cookie: renewed as string } });
  t.match(after.body, /<p class="profile-notice" role="status">Your password was changed.<\/p>/);
  t.equal((await server.accounts.signIn(account.email, 'a brand new one')).ok, true, 'the new password works');
  t.equal((await server.accounts.signIn(account.email, PASSWORD)).ok, false, 'the old one no longer does');
});

t.test('a wrong current password is a 422 with the field marked, and changes nothing', async (t) => {
  const { server, account } = await profileApp(t);
  const res = await post(server, { currentPassword: 'not the password', newPassword: 'a brand new one', confirmPassword: 'a brand new one' });
  t.equal(res.statusCode, 422);
  t.match(res.headers['cache-control'], /^(private, )?no-store$/);
  t.match(res.body, /<div class="profile-errors" role="alert"/);
  t.match(res.body, /<a href="#currentPassword">Current password: That is not your current password.<\/a>/);
  t.match(res.body, /<span id="currentPassword-error" class="profile-field-error">That is not your current password.<\/span>/);
  t.match(res.body, /id="currentPassword"[^>]*aria-describedby="currentPassword-error"[^>]*aria-invalid="true"[^>]*autofocus/i, 'the field at fault is invalid, described and focused');
  t.notMatch(res.body, /id="newPassword"[^>]*aria-invalid/, 'the other fields are not marked');
  t.notMatch(res.body, 'not the password', 'no password is echoed back');
  t.notMatch(res.body, 'a brand new one');
  t.equal((await server.accounts.signIn(account.email, PASSWORD)).ok, true, 'the password is unchanged');
});

t.test('a new password that is too short or does not match its confirmation', async (t) => {
  const { server, account } = await profileApp(t);
  const mismatch = await post(server, { currentPassword: PASSWORD, newPassword: 'a brand new one', confirmPassword: 'a brand new two' });
  t.equal(mismatch.statusCode, 422);
  t.match(mismatch.body, /id="confirmPassword"[^>]*aria-describedby="confirmPassword-error"[^>]*aria-invalid="true"/);
  t.match(mismatch.body, 'Type the same new password again.');
  const short = await post(server, { currentPassword: PASSWORD, newPassword: 'short', confirmPassword: 'short' });
  t.equal(short.statusCode, 422);
  t.match(short.body, /id="newPassword"[^>]*aria-describedby="newPassword-hint newPassword-error"[^>]*aria-invalid="true"/);
  t.match(short.body, 'Choose a new password of at least 10 characters.');
  const empty = await post(server, {});
  t.equal(empty.statusCode, 422, 'an empty form is field errors, not a server error');
  t.match(empty.body, 'Enter your current password.');
  const json = await server.inject({ method: 'POST', url: '/auth/account/password', payload: { currentPassword: 5 }, headers: { origin: ORIGIN, 'x-test-user': 'robin' } });
  t.equal(json.statusCode, 422, 'a body of the wrong shape is field errors too');
  t.equal((await server.accounts.signIn(account.email, PASSWORD)).ok, true, 'the password is unchanged');
});

t.test('a cross-site POST is refused before anything changes', async (t) => {
  const { server, account } = await profileApp(t);
  const fields = { currentPassword: PASSWORD, newPassword: 'a brand new one', confirmPassword: 'a brand new one' };
  for (const headers of [{ origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
    const res = await post(server, fields, headers);
    t.equal(res.statusCode, 403, `refused: ${JSON.stringify(headers)}`);
  }
  t.equal((await server.accounts.signIn(account.email, PASSWORD)).ok, true, 'the password is unchanged');
});

t.test('an account disabled since sign-in cannot change its password', async (t) => {
  const { server, account } = await profileApp(t);
  await server.accounts.setDisabled(account.email, true);
  const res = await post(server, { currentPassword: PASSWORD, newPassword: 'a brand new one', confirmPassword: 'a brand new one' });
  t.equal(res.statusCode, 303, 'disabling ended the session: the POST goes to sign in');
  t.equal(res.headers.location, '/auth/login?continue=%2Fauth%2Faccount');
});

t.test('wrong current passwords lock the password change for the account, whatever the address', async (t) => {
  const { server, account } = await profileApp(t, { TRUST_PROXY: 'true' }, { lockAfter: 5, slowAfter: 100 });
  const wrong = { currentPassword: 'not the password', newPassword: 'a brand new one', confirmPassword: 'a brand new one' };
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push((await post(server, wrong, { 'x-forwarded-for': `203.0.113.${10 + i}` })).statusCode);
  t.same(statuses, [422, 422, 422, 422, 429], 'the fifth wrong password locks it');
  const right = await post(server, { currentPassword: PASSWORD, newPassword: 'a brand new one', confirmPassword: 'a brand new one' }, { 'x-forwarded-for': '198.51.100.7' });
  const again = await post(server, wrong, { 'x-forwarded-for': '198.51.100.8' });
  t.equal(right.statusCode, 429, 'even the right password is refused, from another address');
  t.ok(Number(right.headers['retry-after']) > 0, 'Retry-After says when');
  t.match(right.body, 'Too many wrong passwords for this account.');
  // The lock tells nothing about the password typed: the right one and a wrong one get the same page.
  const strip = (html: string) => html.replace(/try again in [^.<]+/g, '');
  t.equal(strip(right.body), strip(again.body), 'the right and a wrong password are answered alike');
  t.equal((await server.accounts.signIn(account.email, 'a brand new one')).ok, false, 'the password is unchanged');
  const res = await server.inject({ url: '/auth/account', headers: { 'x-test-user': 'robin' } });
  t.equal(res.statusCode, 200, 'the person stays signed in');
});

t.test('with an external issuer there is no password here: the page shows the session only', async (t) => {
  const { server, users } = await profileApp(t, { OIDC_ISSUER: 'https://id.example.test', OIDC_CLIENT_SECRET: 'secret' });
  users.set('ext', { sub: 'external-subject', email: 'pat@partner.example', emailVerified: true, name: 'Pat', canEdit: false, partner: true });
  const res = await server.inject({ url: '/auth/account', headers: { 'x-test-user': 'ext' } });
  t.equal(res.statusCode, 200);
  t.match(res.body, '<dd>Signed-in customer, Partner</dd>');
  t.notMatch(res.body, 'action="/auth/account/password"');
});
