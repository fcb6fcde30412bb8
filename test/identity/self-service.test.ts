/**
 * Accounts people manage themselves on the embedded provider, end to end with a real SMTP server: sign
 * up, confirm the address by the e-mailed link, sign in; forgot password, reset by the e-mailed link,
 * only the new password works; links used, expired or changed are refused with a page saying so; the
 * same answer for an unknown address; rate limits; sign-up turned off; a password change ends the
 * account's other sessions. Sign-in goes through the real flow (site client, provider form, callback).
 */
import t, { type Test } from 'tap';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { build, testDb } from '../helpers/build.ts';
import { logTap, startSmtp } from '../support/delivery-peers.ts';
import { Jar } from './oidc-peer.ts';
import { follow as followAs, ORIGIN, postForm as post, visit as get } from './helpers.ts';
import { AccountLinks } from '../../server/identity/self-service/links.ts';
import { storedSecret } from '../../server/identity/secrets.ts';
import { MAIL_PER_ADDRESS_PER_HOUR } from '../../server/identity/self-service/routes.tsx';

const HTML = { accept: 'text/html' };
const visit = (app: FastifyInstance, jar: Jar, url: string) => get(app, jar, url, HTML);
const postForm = (app: FastifyInstance, jar: Jar, url: string, fields: Record<string, string>) => post(app, jar, url, fields, HTML);
const follow = (app: FastifyInstance, jar: Jar, res: LightMyRequestResponse) => followAs(app, jar, res, HTML);

const OWNER = { email: 'Kit.Owner@customer.example', password: 'owner password 42' };

/** The app with SMTP_URL on a fresh SMTP server, an account with a confirmed address, and its log lines. */
async function setUp(t: Test, env: Record<string, string> = {}, smtpAnswer?: Parameters<typeof startSmtp>[1]) {
  const smtp = await startSmtp(t, smtpAnswer);
  const log = logTap();
  const db = await testDb(t);
  const app = await build(t, {
    db, logStream: log.stream,
    env: { SMTP_URL: smtp.url, SUPPORT_MAIL_TO: 'helpdesk@vendor.example', SUPPORT_MAIL_FROM: 'help@vendor.example', LOG_LEVEL: 'info', ...env },
  });
  const owner = await app.accounts.create({ email: OWNER.email, password: OWNER.password, displayName: 'Kit Owner' });
  return { app, smtp, log, owner };
}

/** The link of a kind in a message's text. */
function linkIn(text: string | undefined, path: 'verify' | 'reset'): string {
  const match = new RegExp(`${ORIGIN}/auth/${path}\\?t=[\\w.%-]+`).exec(text ?? '');
  if (!match) throw new Error(`no ${path} link in the e-mail`);
  return match[0];
}

/** Signs in through the site's client and the provider's form: the screen the form post ends on. */
async function signIn(app: FastifyInstance, email: string, password: string, jar = new Jar()) {
  const screen = await follow(app, jar, await visit(app, jar, '/auth/login?continue=%2Frequests'));
  const action = /action="(\/auth\/interaction\/[^"]+\/login)"/.exec(screen.body)?.[1];
  if (!action) throw new Error('no sign-in form');
  const done = await follow(app, jar, await postForm(app, jar, action, { email, password }));
  return { screen, done, jar, signedIn: done.statusCode === 200 && !!jar.get('sp_session') };
}

/** No log line names an address. */
function noAddresses(t: Test, raw: string[], addresses: string[]) {
  const leaks = raw.filter((line) => addresses.some((a) => line.toLowerCase().includes(a.toLowerCase())));
  t.same(leaks, [], 'no e-mail address in any log line');
}

const mailCount = async (app: FastifyInstance, address: string) =>
  Number((await app.db.query<{ n: number }>('select count(*)::int as n from account_mail where lower(recipient) = lower($1)', [address]))[0]?.n);

t.test('the sign-in screen offers "Forgot password?" and "Create an account"', async (t) => {
  const { app } = await setUp(t);
  const { screen } = await signIn(app, 'nobody@customer.example', 'whatever password');
  t.match(screen.body, '<a href="/auth/forgot">Forgot password?</a>');
  t.match(screen.body, '<a href="/auth/signup">Create an account</a>');
});

t.test('sign up, confirm the address by the e-mailed link, then sign in', async (t) => {
  const { app, smtp, log } = await setUp(t);
  const jar = new Jar();
  const form = await visit(app, jar, '/auth/signup');
  t.equal(form.statusCode, 200);
  t.match(form.headers['cache-control'], /no-store/);
  t.match(form.body, /<form method="post" action="\/auth\/signup"/);
  t.match(form.body, /<input id="email" name="email" type="email" autoComplete="email"|autocomplete="email"/i);

  const email = 'new.person@customer.example';
  const password = 'my own secret 77';
  const sent = await postForm(app, jar, '/auth/signup', { email, name: 'New Person', newPassword: password, confirmPassword: password });
  t.equal(sent.statusCode, 303, 'post/redirect/get');
  t.equal(sent.headers.location, '/auth/signup/sent');
  const page = await follow(app, jar, sent);
  t.match(page.body, 'Check your e-mail');

  const [message] = await smtp.received(1);
  t.same(message?.envelope.to, [email], 'the message goes to the new address');
  t.equal(message?.envelope.from, 'help@vendor.example');
  t.match(message?.mail.subject, /^Confirm your e-mail address for /);
  const link = linkIn(message?.mail.text, 'verify');

  const before = await signIn(app, email, password);
  t.equal(before.done.statusCode, 422, 'no sign-in before the address is confirmed');
  t.match(before.done.body, 'Confirm your e-mail address first');
  t.notOk(before.signedIn);

  const confirmed = await visit(app, jar, link);
  t.equal(confirmed.statusCode, 200);
  t.match(confirmed.body, 'Your e-mail address is confirmed');
  t.equal((await app.accounts.byEmail(email))?.emailVerified, true);

  const after = await signIn(app, email, password);
  t.ok(after.signedIn, 'signed in with the new account');
  t.match(after.done.body, 'New Person');

  const again = await visit(app, jar, link);
  t.equal(again.statusCode, 410, 'the link works once');
  t.match(again.body, 'This link was already used');
  noAddresses(t, log.raw, [email, OWNER.email]);
});

t.test('sign-up with an address that has an account: the same answer, and its owner is told by e-mail', async (t) => {
  const { app, smtp } = await setUp(t);
  const jar = new Jar();
  const res = await postForm(app, jar, '/auth/signup', { email: OWNER.email.toUpperCase(), newPassword: 'another secret 88', confirmPassword: 'another secret 88' });
  t.equal(res.statusCode, 303);
  t.equal(res.headers.location, '/auth/signup/sent', 'the same answer as for a new address');
  const [message] = await smtp.received(1);
  t.match(message?.mail.subject, /^You already have a .* account$/);
  t.same(message?.envelope.to, [OWNER.email]);
  linkIn(message?.mail.text, 'reset');
  t.ok((await signIn(app, OWNER.email, OWNER.password)).signedIn, 'the existing password is untouched');
});

t.test('sign-up refuses bad input with each field marked, and common passwords', async (t) => {
  const { app } = await setUp(t);
  const jar = new Jar();
  const res = await postForm(app, jar, '/auth/signup', { email: 'not-an-address', newPassword: 'password123', confirmPassword: 'password123' });
  t.equal(res.statusCode, 422);
  t.match(res.body, /<div class="identity-error" role="alert"/);
  t.match(res.body, 'E-mail: Enter an e-mail address, like name@example.com.');
  t.match(res.body, /Password: Is one of the most common passwords/);
  t.match(res.body, /id="email"[^>]*aria-describedby="email-error"[^>]*aria-invalid="true"[^>]*autofocus/i, 'the first field at fault is focused');
  t.match(res.body, 'value="not-an-address"', 'what was typed is kept');
  t.notMatch(res.body, 'password123', 'no password is echoed back');
  const mismatch = await postForm(app, jar, '/auth/signup', { email: 'a@customer.example', newPassword: 'long enough one', confirmPassword: 'long enough two' });
  t.equal(mismatch.statusCode, 422);
  t.match(mismatch.body, 'Type the same password again.');
  const junk = await app.inject({ method: 'POST', url: `${ORIGIN}/auth/signup`, payload: 'email[]=x&newPassword[a]=b', headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', ...HTML } });
  t.equal(junk.statusCode, 422, 'odd shapes are a clear 422, never a 5xx');
  t.equal(await app.accounts.byEmail('a@customer.example'), undefined, 'nothing was created');
});

t.test('forgot password: the e-mailed link sets a new password; the old one is refused, sessions end', async (t) => {
  const { app, smtp, log, owner } = await setUp(t);
  const existing = await signIn(app, OWNER.email, OWNER.password);
  t.ok(existing.signedIn);
  const jar = new Jar();
  const form = await visit(app, jar, '/auth/forgot');
  t.equal(form.statusCode, 200);
  t.match(form.body, /<form method="post" action="\/auth\/forgot"/);
  const sent = await postForm(app, jar, '/auth/forgot', { email: ` ${OWNER.email.toLowerCase()} ` });
  t.equal(sent.statusCode, 303);
  t.equal(sent.headers.location, '/auth/forgot/sent');
  t.match((await follow(app, jar, sent)).body, 'If an account has that address, we sent it a link');
  const [message] = await smtp.received(1);
  t.same(message?.envelope.to, [OWNER.email]);
  t.match(message?.mail.subject, /^Choose a new password for /);
  const link = linkIn(message?.mail.text, 'reset');

  const resetForm = await visit(app, jar, link);
  t.equal(resetForm.statusCode, 200);
  t.match(resetForm.body, /<form method="post" action="\/auth\/reset"/);
  const token = decodeURIComponent(new URL(link).searchParams.get('t') ?? '');
  t.match(resetForm.body, `<input type="hidden" name="t" value="${token}"/>`);

  const weak = await postForm(app, jar, '/auth/reset', { t: token, newPassword: 'short', confirmPassword: 'short' });
  t.equal(weak.statusCode, 422, 'the rules apply to a reset too');
  t.match(weak.body, 'Must be at least 10 characters.');

  const next = 'a fresh password 9';
  const done = await postForm(app, jar, '/auth/reset', { t: token, newPassword: next, confirmPassword: next });
  t.equal(done.statusCode, 303);
  t.equal(done.headers.location, '/auth/reset/done');
  t.match((await follow(app, jar, done)).body, 'Your password was changed');

  const old = await signIn(app, OWNER.email, OWNER.password);
  t.equal(old.done.statusCode, 422, 'the old password is refused');
  t.match(old.done.body, 'E-mail or password is incorrect.');
  t.ok((await signIn(app, OWNER.email, next)).signedIn, 'the new one signs in');
  const stale = await app.inject({ url: `${ORIGIN}/auth/account`, headers: { cookie: `sp_session=${existing.jar.get('sp_session')}`, ...HTML } });
  t.equal(stale.statusCode, 303, 'the session from before the reset has ended');

  const reused = await visit(app, jar, link);
  t.equal(reused.statusCode, 410);
  t.match(reused.body, 'This link was already used');
  const reposted = await postForm(app, jar, '/auth/reset', { t: token, newPassword: 'yet another one 5', confirmPassword: 'yet another one 5' });
  t.equal(reposted.statusCode, 410, 'a used link cannot set a password again');
  t.ok((await signIn(app, OWNER.email, next)).signedIn, 'the password from the first use stands');
  t.equal(owner.email, OWNER.email);
  noAddresses(t, log.raw, [OWNER.email]);
});

t.test('an unknown address gets the same answer, and no e-mail', async (t) => {
  const { app, smtp, log } = await setUp(t);
  const jar = new Jar();
  const unknown = await postForm(app, jar, '/auth/forgot', { email: 'nobody@customer.example' });
  const known = await postForm(app, jar, '/auth/forgot', { email: OWNER.email });
  t.equal(unknown.statusCode, known.statusCode);
  t.equal(unknown.headers.location, known.headers.location);
  t.equal(unknown.body, known.body);
  await smtp.received(1);
  t.equal(await mailCount(app, 'nobody@customer.example'), 0, 'nothing queued for the unknown address');
  t.same(smtp.messages.map((m) => m.envelope.to[0]), [OWNER.email]);
  const bad = await postForm(app, jar, '/auth/forgot', { email: 'not an address' });
  t.equal(bad.statusCode, 422);
  t.match(bad.body, 'E-mail: Enter an e-mail address');
  noAddresses(t, log.raw, [OWNER.email, 'nobody@customer.example']);
});

t.test('links expired, changed or for the other purpose are refused with a page saying so', async (t) => {
  const { app, owner } = await setUp(t);
  const links = new AccountLinks(app.db, await storedSecret(app.db, 'account-link-key', () => 'unused'));
  const expired = await links.mint(app.db, 'reset', owner.id, Date.now() - 2 * 3600_000);
  const jar = new Jar();
  const old = await visit(app, jar, `/auth/reset?t=${encodeURIComponent(expired)}`);
  t.equal(old.statusCode, 410);
  t.match(old.body, 'This link has expired');
  t.match(old.body, '<a href="/auth/forgot">Ask for a new link</a>');
  const oldPost = await postForm(app, jar, '/auth/reset', { t: expired, newPassword: 'a fresh password 9', confirmPassword: 'a fresh password 9' });
  t.equal(oldPost.statusCode, 410, 'an expired link sets no password');

  const good = await links.mint(app.db, 'reset', owner.id);
  const [payload, signature] = good.split('.');
  const forged = Buffer.from(JSON.stringify(['reset', owner.id, 'made-up-nonce', Date.now() + 3600_000])).toString('base64url');
  for (const [what, token] of [['changed payload', `${forged}.${signature}`], ['changed signature', `${payload}.${signature?.slice(0, -2)}AA`],
    ['no signature', payload ?? ''], ['garbage', '%%%'], ['missing', '']] as const) {
    const res = await visit(app, jar, `/auth/reset?t=${encodeURIComponent(token)}`);
    t.equal(res.statusCode, 400, what);
    t.match(res.body, 'This link does not work', what);
  }
  const verifyLink = await links.mint(app.db, 'verify', owner.id);
  t.equal((await visit(app, jar, `/auth/reset?t=${encodeURIComponent(verifyLink)}`)).statusCode, 400, 'a confirmation link is no reset link');
  t.equal((await visit(app, jar, `/auth/verify?t=${encodeURIComponent(good)}`)).statusCode, 400, 'nor the other way round');
  t.equal((await visit(app, jar, `/auth/reset?t=${encodeURIComponent(good)}`)).statusCode, 200, 'the untouched link works');
  t.ok((await signIn(app, OWNER.email, OWNER.password)).signedIn, 'nothing changed the password');
});

t.test('rate limits: posts per client, and e-mails per address', async (t) => {
  const { app, owner } = await setUp(t, { RATE_LIMIT_MAX: '3' });
  const jar = new Jar();
  const answers = [];
  for (let i = 0; i < 4; i++) answers.push((await postForm(app, jar, '/auth/forgot', { email: `someone${i}@customer.example` })).statusCode);
  t.same(answers, [303, 303, 303, 429], 'the fourth post in the window is refused');

  const { app: other } = await setUp(t, { RATE_LIMIT_MAX: '100' });
  for (let i = 0; i < MAIL_PER_ADDRESS_PER_HOUR + 2; i++) {
    const res = await postForm(other, jar, '/auth/forgot', { email: OWNER.email });
    t.equal(res.headers.location, '/auth/forgot/sent', 'the same answer every time');
  }
  t.equal(await mailCount(other, OWNER.email), MAIL_PER_ADDRESS_PER_HOUR, `at most ${MAIL_PER_ADDRESS_PER_HOUR} e-mails an hour to one address`);
  t.ok(owner.id);
});

t.test('sign-up turned off: a clear 404 page, and no link to it', async (t) => {
  const { app } = await setUp(t, { ACCOUNT_SIGN_UP: 'false' });
  const jar = new Jar();
  const res = await visit(app, jar, '/auth/signup');
  t.equal(res.statusCode, 404);
  t.match(res.body, 'Sign-up is closed');
  const posted = await postForm(app, jar, '/auth/signup', { email: 'x@customer.example', newPassword: 'my own secret 77', confirmPassword: 'my own secret 77' });
  t.equal(posted.statusCode, 404);
  t.equal(await app.accounts.byEmail('x@customer.example'), undefined);
  const { screen } = await signIn(app, 'nobody@customer.example', 'whatever password');
  t.notMatch(screen.body, '/auth/signup');
  t.match(screen.body, 'Forgot password?', 'resetting still works');
});

t.test('without SMTP_URL there is no sign-up and no reset by e-mail', async (t) => {
  const app = await build(t);
  const jar = new Jar();
  t.equal((await visit(app, jar, '/auth/signup')).statusCode, 404);
  t.equal((await visit(app, jar, '/auth/forgot')).statusCode, 404);
  await app.accounts.create({ email: OWNER.email, password: OWNER.password });
  const { screen } = await signIn(app, OWNER.email, 'wrong');
  t.notMatch(screen.body, 'Forgot password?');
  t.notMatch(screen.body, 'Create an account');
});

t.test('the SMTP server refusing for now: the same answer, the mail waits and goes later', async (t) => {
  let refuse = true;
  const { app, smtp, log } = await setUp(t, { DELIVERY_BACKOFF_MS: '1', DELIVERY_POLL_MS: '3600000' }, () => (refuse ? 451 : 250));
  const jar = new Jar();
  const res = await postForm(app, jar, '/auth/forgot', { email: OWNER.email });
  t.equal(res.statusCode, 303, 'the person gets the usual answer');
  const line = await log.waitFor('account mail not sent; will retry');
  t.equal(line.errorClass, 'smtp-451');
  const [row] = await app.db.query<{ sent_at: Date | null; last_error: string }>('select sent_at, last_error from account_mail');
  t.equal(row?.sent_at, null);
  t.equal(row?.last_error, 'smtp-451');
  refuse = false;
  await postForm(app, jar, '/auth/forgot', { email: OWNER.email });
  const messages = await smtp.received(3);
  t.equal(messages.filter((m) => m.code === 250).length, 2, 'the waiting mail went with the next one');
  noAddresses(t, log.raw, [OWNER.email]);
});

t.test('the SMTP server down: sign-up still answers, nothing half-done', async (t) => {
  const app = await build(t, { env: { SMTP_URL: 'smtp://127.0.0.1:1', SUPPORT_MAIL_TO: 'helpdesk@vendor.example' } });
  const jar = new Jar();
  const res = await postForm(app, jar, '/auth/signup', { email: 'down@customer.example', newPassword: 'my own secret 77', confirmPassword: 'my own secret 77' });
  t.equal(res.statusCode, 303);
  t.equal((await follow(app, jar, res)).statusCode, 200);
  t.equal(await mailCount(app, 'down@customer.example'), 1, 'the mail waits in the outbox');
});

t.test('a password change ends the account\'s other sessions; this one goes on', async (t) => {
  const { app } = await setUp(t);
  const laptop = await signIn(app, OWNER.email, OWNER.password);
  const phone = await signIn(app, OWNER.email, OWNER.password);
  t.ok(laptop.signedIn && phone.signedIn);
  const change = await postForm(app, laptop.jar, '/auth/account/password',
    { currentPassword: OWNER.password, newPassword: 'changed password 3', confirmPassword: 'changed password 3' });
  t.equal(change.statusCode, 303);
  t.equal((await visit(app, laptop.jar, '/auth/account')).statusCode, 200, 'the device that changed it stays signed in');
  t.equal((await visit(app, phone.jar, '/auth/account')).statusCode, 303, 'the other device is signed out');
  const common = await postForm(app, laptop.jar, '/auth/account/password',
    { currentPassword: 'changed password 3', newPassword: 'qwertyuiop', confirmPassword: 'qwertyuiop' });
  t.equal(common.statusCode, 422);
  t.match(common.body, 'Is one of the most common passwords');
});
