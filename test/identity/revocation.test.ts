/**
 * Ending sessions (issue 25 items 3 and 4): a sign-out ends that session, a password change and
 * disabling the account end every session of the account, on every instance sharing the database; a
 * sign-out also ends the embedded provider's session, so the next sign-in asks for the password.
 * Sign-in goes through the real flow: the site's client, the embedded provider's form, the callback.
 */
import t, { type Test } from 'tap';
import type { FastifyInstance } from 'fastify';
import { build, testDb } from '../helpers/build.ts';
import { runAccountCommand } from '../../server/identity/account-commands.ts';
import type { LightMyRequestResponse } from 'fastify';
import { Jar } from './oidc-peer.ts';
import { follow as followAs, ORIGIN, postForm as post, visit as get } from './helpers.ts';

/** Every request here asks for pages, as a browser does. */
const HTML = { accept: 'text/html' };
const visit = (app: FastifyInstance, jar: Jar, url: string) => get(app, jar, url, HTML);
const postForm = (app: FastifyInstance, jar: Jar, url: string, fields: Record<string, string>) => post(app, jar, url, fields, HTML);
const follow = (app: FastifyInstance, jar: Jar, res: LightMyRequestResponse) => followAs(app, jar, res, HTML);

const PASSWORD = 'correct horse battery staple';
const EMAIL = 'sam@fernhollow.example';
const ENV = { STAFF_EMAIL_DOMAIN: 'fernhollow.example' };

/** Two instances on one database, and a staff account. */
async function twoInstances(t: Test) {
  const db = await testDb(t);
  const one = await build(t, { db, env: ENV });
  const two = await build(t, { db, env: ENV });
  await one.accounts.create({ email: EMAIL, password: PASSWORD, displayName: 'Sam Staff' });
  return { one, two };
}

/** Signs in through the site's client and the provider's form: the browser's cookies afterwards. */
async function signIn(t: Test, app: FastifyInstance, jar = new Jar()): Promise<Jar> {
  const screen = await follow(app, jar, await visit(app, jar, '/auth/login?continue=%2Frequests'));
  const action = /action="(\/auth\/interaction\/[^"]+\/login)"/.exec(screen.body)?.[1];
  t.ok(action, 'the provider asks for the password');
  const done = await follow(app, jar, await postForm(app, jar, action ?? '', { email: EMAIL, password: PASSWORD }));
  t.equal(done.statusCode, 200, 'signed in and back on /requests');
  return jar;
}

/** Only the site's session cookie, as someone who copied it would hold it. */
const sessionOf = (jar: Jar) => `sp_session=${jar.get('sp_session')}`;

/** What a session cookie still opens, on an instance: the personal pages and the heartbeat. */
async function opens(app: FastifyInstance, cookie: string) {
  const get = (url: string) => app.inject({ url: `${ORIGIN}${url}`, headers: { cookie, accept: 'text/html' } });
  // An anonymous visitor gets /requests too (to sign in from): the person's own page names them.
  const requests = await get('/requests');
  return {
    requests: requests.statusCode === 200 && requests.body.includes('Account menu for Sam Staff') ? 200 : 0,
    staff: (await get('/staff/requests')).statusCode,
    insights: (await get('/insights')).statusCode,
    heartbeat: (await get('/gateway/api/session/heartbeat')).statusCode,
  };
}
const OPEN = { requests: 200, staff: 200, insights: 200, heartbeat: 204 };

function ended(t: Test, seen: Record<string, number>, what: string) {
  t.not(seen.requests, 200, `${what}: /requests is not served`);
  t.not(seen.staff, 200, `${what}: /staff/requests is not served`);
  t.not(seen.insights, 200, `${what}: /insights is not served`);
  t.equal(seen.heartbeat, 401, `${what}: the heartbeat says signed out`);
}

t.test('a sign-out ends that session on every instance; another device stays signed in', async (t) => {
  const { one, two } = await twoInstances(t);
  const laptop = await signIn(t, one);
  const phone = await signIn(t, two);
  const copied = sessionOf(laptop);
  t.same(await opens(two, copied), OPEN, 'a staff session opens the personal pages on the other instance');

  const out = await postForm(one, laptop, '/auth/logout', {});
  t.equal(out.statusCode, 303);
  ended(t, await opens(one, copied), 'the signed-out cookie, same instance');
  ended(t, await opens(two, copied), 'the signed-out cookie, other instance');
  t.same(await opens(two, sessionOf(phone)), OPEN, 'the other device is still signed in');
});

t.test('a sign-out also ends the provider session: signing in again asks for the password', async (t) => {
  const { one } = await twoInstances(t);
  const jar = await signIn(t, one);
  const out = await postForm(one, jar, '/auth/logout', {});
  const end = new URL(String(out.headers.location), ORIGIN);
  t.equal(end.pathname, '/auth/oidc/session/end', 'RP-initiated logout at the provider');
  const home = await visit(one, jar, end.href);
  t.equal(home.statusCode, 303, 'no second sign-out to confirm');
  t.equal(home.headers.location, `${ORIGIN}/`, 'straight on to the support home');
  const again = await follow(one, jar, await visit(one, jar, '/auth/login?continue=%2Frequests'));
  t.equal(again.statusCode, 200);
  t.match(again.body, /<input[^>]+type="password"/, 'the sign-in screen, asking for the password');
  t.equal((await visit(one, jar, '/gateway/api/session/heartbeat')).statusCode, 401, 'not signed in straight back');
});

t.test('a password change ends every session of the account; the browser that changed it goes on', async (t) => {
  const { one, two } = await twoInstances(t);
  const laptop = await signIn(t, one);
  const phone = await signIn(t, two);
  const before = sessionOf(laptop);
  const changed = await postForm(one, laptop, '/auth/account/password', {
    currentPassword: PASSWORD, newPassword: 'a brand new password', confirmPassword: 'a brand new password',
  });
  t.equal(changed.statusCode, 303);
  ended(t, await opens(two, sessionOf(phone)), 'the other device');
  ended(t, await opens(two, before), 'the cookie from before the change');
  t.same(await opens(two, sessionOf(laptop)), OPEN, 'the browser that changed it holds a new session');
  // The phone's provider session ended too: 'Sign in' there asks for the (new) password.
  const again = await follow(two, phone, await visit(two, phone, '/auth/login?continue=%2Frequests'));
  t.match(again.body, /<input[^>]+type="password"/, 'the other device is asked for the password');
});

t.test('disabling the account (npm run accounts -- disable) ends every session of it at once', async (t) => {
  const { one, two } = await twoInstances(t);
  const laptop = sessionOf(await signIn(t, one));
  const phone = sessionOf(await signIn(t, two));
  await runAccountCommand(one.accounts, { command: 'disable', email: EMAIL });
  ended(t, await opens(two, laptop), 'a session from one instance, seen on the other');
  ended(t, await opens(one, phone), 'a session from the other instance');
  // Enabling it again does not bring old sessions back.
  await runAccountCommand(two.accounts, { command: 'enable', email: EMAIL });
  ended(t, await opens(one, laptop), 'after enabling again');
});

t.test('anonymous requests never ask the database about sessions', async (t) => {
  const { one } = await twoInstances(t);
  const jar = await signIn(t, one);
  const statements: string[] = [];
  const query = one.db.query.bind(one.db);
  one.db.query = (async (sql: string, params?: unknown[]) => {
    statements.push(sql);
    return query(sql, params);
  }) as typeof one.db.query;
  t.teardown(() => {
    one.db.query = query;
  });
  const page = '/acme-cloud/docs/first-steps';
  await one.inject({ url: `${ORIGIN}${page}` });
  statements.length = 0;
  t.equal((await one.inject({ url: `${ORIGIN}${page}` })).statusCode, 200);
  t.same(statements.filter((s) => /session_generations|ended_sessions/.test(s)), [], 'anonymous: no session look-up');
  await one.inject({ url: `${ORIGIN}${page}`, headers: { cookie: sessionOf(jar) } });
  t.equal(statements.filter((s) => /session_generations|ended_sessions/.test(s)).length, 1, 'signed in: one look-up');
});
