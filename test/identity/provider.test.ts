/**
 * The embedded OpenID provider (issue "The embedded default"): discovery, a whole authorization-code
 * flow with PKCE done by hand, the sign-in screen's failures and throttling, consent for another
 * client, switch account, sign-out, refusals.
 */
import t from 'tap';
import { PassThrough } from 'node:stream';
import { createHash } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import type { FastifyInstance } from 'fastify';
import { build, testDb } from '../helpers/build.ts';
import {
  absolute, authorizationRequest, CLIENT_ID, CLIENT_SECRET, codeOf, exchange, follow, ISSUER, Jar, ORIGIN, PASSWORD,
  postForm, signIn, startSignIn, visit,
} from './provider-flow.ts';

const ENV = { OIDC_CLIENT_SECRET: CLIENT_SECRET };
const PARTNER_APP = { id: 'partner-portal', secret: 'partner-portal-secret-0123456789', redirect: 'https://portal.example.test/cb' };
/** Another site signing in against this one, configured without a client_name. */
const UNNAMED_APP = { id: 'signpost-b', secret: 'signpost-b-secret-0123456789', redirect: 'https://help-b.example.test/auth/callback' };

async function withAccounts(app: FastifyInstance) {
  await app.accounts.create({ email: 'ada@customer.example', password: PASSWORD, displayName: 'Ada Customer' });
  await app.accounts.create({
    email: 'eli@fernhollow.example', password: PASSWORD, displayName: 'Eli Editor', canEdit: true, partner: true,
    groups: ['editors', 'partners'], attributes: { plan: 'premium', seats: 25, trial: false, region: null },
  });
}

/** An app with the test accounts, and a browser at the sign-in screen of the built-in client's request. */
async function atSignIn(t: Parameters<typeof build>[0]) {
  const app = await build(t, { env: ENV });
  await withAccounts(app);
  const jar = new Jar();
  const request = authorizationRequest();
  const { res, path } = await startSignIn(app, jar, request);
  return { app, jar, request, res, path };
}

t.test('discovery document: issuer, endpoints and algorithms for PUBLIC_URL', async (t) => {
  const app = await build(t, { env: ENV });
  const res = await app.inject({ url: `${ISSUER}/.well-known/openid-configuration` });
  t.equal(res.statusCode, 200);
  const doc = res.json();
  t.equal(doc.issuer, ISSUER);
  t.equal(doc.authorization_endpoint, `${ISSUER}/auth`);
  t.equal(doc.token_endpoint, `${ISSUER}/token`);
  t.equal(doc.userinfo_endpoint, `${ISSUER}/me`);
  t.equal(doc.jwks_uri, `${ISSUER}/jwks`);
  t.equal(doc.end_session_endpoint, `${ISSUER}/session/end`);
  t.same(doc.response_types_supported, ['code']);
  t.same(doc.code_challenge_methods_supported, ['S256']);
  t.same(doc.id_token_signing_alg_values_supported, ['ES256']);
  t.same([...doc.scopes_supported].sort(), ['email', 'openid', 'profile', 'roles']);
  t.notOk(doc.scopes_supported.includes('offline_access'), 'no refresh tokens');
  for (const claim of ['sub', 'email', 'email_verified', 'name', 'groups', 'canEdit', 'partner', 'cohort']) t.ok(doc.claims_supported.includes(claim), claim);
  t.ok(doc.token_endpoint_auth_methods_supported.includes('client_secret_basic'));

  // Whatever host and scheme the request came with, the provider speaks for PUBLIC_URL.
  const plain = await app.inject({ url: '/auth/oidc/.well-known/openid-configuration', headers: { host: 'localhost:3000' } });
  t.equal(plain.json().token_endpoint, `${ISSUER}/token`);

  const jwks = (await app.inject({ url: `${ISSUER}/jwks` })).json() as JSONWebKeySet;
  t.equal(jwks.keys.length, 1);
  t.match(jwks.keys[0], { kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
  t.notOk('d' in (jwks.keys[0] as object), 'the private part is never published');
});

t.test('the provider is built only when a request needs it', async (t) => {
  const db = await testDb(t);
  const app = await build(t, { db, env: ENV });
  await app.inject('/');
  t.same(await db.query(`select name from app_secrets where name like 'oidc-signing%'`), [], 'no key made for a site visit');
  await app.inject({ url: `${ISSUER}/jwks` });
  t.equal((await db.query(`select name from app_secrets where name = 'oidc-signing-key'`)).length, 1);
});

t.test('a whole sign-in: authorization code with PKCE, ID token and userinfo', async (t) => {
  const { app, jar, request, res: start, path } = await atSignIn(t);
  t.equal(start.statusCode, 303, 'the authorization request leads to the sign-in screen');
  t.match(path, /^\/auth\/interaction\/[\w-]+$/);
  for (const name of jar.cookies.keys()) t.match(name, /^sp_op/, 'the provider\'s cookies are its own');
  const setCookies = [start.headers['set-cookie']].flat().join('\n');
  t.match(setCookies, /path=\/auth/i, 'cookies are limited to the identity base');
  t.match(setCookies, /samesite=lax/i);
  t.match(setCookies, /secure/i, 'Secure, PUBLIC_URL being https');

  const form = await visit(app, jar, path);
  t.equal(form.statusCode, 200);
  t.equal(form.headers['cache-control'], 'private, no-store');
  t.match(form.body, /<h1>Sign in to Test Support<\/h1>/);
  t.match(form.body, `action="${path}/login"`);
  t.match(form.body, /<main id="maincontent"/);
  t.match(form.body, /class="skip-link" href="#maincontent"/);
  t.match(form.body, /<label for="email">E-mail<\/label>/);
  t.match(form.body, /<label for="password">Password<\/label>/);
  t.notMatch(form.body, /<script/, 'no script');

  const back = await signIn(app, jar, path, 'eli@fernhollow.example');
  t.equal(back.statusCode, 303);
  const code = codeOf(back, request);
  t.ok(code, 'redirected to the callback with a code and the same state, no consent screen for the site itself');
  t.equal(new URL(String(back.headers.location)).searchParams.get('iss'), ISSUER);

  const token = await exchange(app, code as string, request);
  t.equal(token.statusCode, 200, token.body);
  const tokens = token.json();
  t.notOk(tokens.refresh_token, 'no refresh token');
  const jwks = createLocalJWKSet((await app.inject({ url: `${ISSUER}/jwks` })).json());
  t.equal(decodeProtectedHeader(tokens.id_token).alg, 'ES256');
  const { payload } = await jwtVerify(tokens.id_token, jwks, { issuer: ISSUER, audience: CLIENT_ID });
  const account = await app.accounts.byEmail('eli@fernhollow.example');
  t.match(payload, {
    sub: account?.id, nonce: request.nonce, email: 'eli@fernhollow.example', email_verified: true, name: 'Eli Editor',
    groups: ['editors', 'partners'], canEdit: true, partner: true, cohort: { plan: 'premium', seats: 25, trial: false, region: null },
  });

  const userinfo = await app.inject({ url: `${ISSUER}/me`, headers: { authorization: `Bearer ${tokens.access_token}` } });
  t.equal(userinfo.statusCode, 200);
  t.match(userinfo.json(), { sub: account?.id, email: 'eli@fernhollow.example', canEdit: true, partner: true, groups: ['editors', 'partners'] });

  t.test('the code is used once, and only with its verifier', async (t) => {
    const again = await exchange(app, code as string, request);
    t.equal(again.statusCode, 400);
    t.equal(again.json().error, 'invalid_grant');
    const other = authorizationRequest();
    const next = await follow(app, jar, await visit(app, jar, other.url), (url) => url.pathname === '/auth/callback');
    const second = codeOf(next, other);
    t.ok(second, 'a live provider session signs in again without the form');
    const wrong = await exchange(app, second as string, { ...other, verifier: request.verifier });
    t.equal(wrong.statusCode, 400, 'a wrong PKCE verifier is refused');
  });

  t.test('prompt=consent from the site itself asks nothing', async (t) => {
    const again = authorizationRequest({ prompt: 'consent' });
    const res = await follow(app, jar, await visit(app, jar, again.url), (url) => url.pathname === '/auth/callback');
    t.ok(codeOf(res, again), 'a code without a consent screen');
  });

  t.test('without the roles scope, no roles claims', async (t) => {
    const plain = authorizationRequest({ scope: 'openid email' });
    const res = await follow(app, jar, await visit(app, jar, plain.url), (url) => url.pathname === '/auth/callback');
    const tokens = (await exchange(app, codeOf(res, plain) as string, plain)).json();
    const { payload } = await jwtVerify(tokens.id_token, jwks, { issuer: ISSUER, audience: CLIENT_ID });
    t.equal(payload.email, 'eli@fernhollow.example');
    t.notOk('canEdit' in payload || 'groups' in payload || 'name' in payload);
  });

  t.test('PKCE is required', async (t) => {
    const bare = authorizationRequest();
    const url = new URL(bare.url);
    url.searchParams.delete('code_challenge');
    url.searchParams.delete('code_challenge_method');
    const res = await visit(app, jar, url.href);
    t.equal(res.statusCode, 303);
    t.equal(new URL(String(res.headers.location)).searchParams.get('error'), 'invalid_request');
    const plainMethod = new URL(bare.url);
    plainMethod.searchParams.set('code_challenge_method', 'plain');
    t.equal(new URL(String((await visit(app, jar, plainMethod.href)).headers.location)).searchParams.get('error'), 'invalid_request');
  });

  t.test('an unknown client or redirect address gets the provider error page, in the site\'s words', async (t) => {
    const res = await visit(app, jar, authorizationRequest({ redirect_uri: 'https://evil.example/cb' }).url);
    t.equal(res.statusCode, 400);
    t.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    t.equal(res.headers['cache-control'], 'private, no-store');
    t.match(res.body, /<main id="maincontent"/);
    t.match(res.body, 'href="/auth/login"');
    t.notMatch(res.body, /oops|stack|at \w+ \(/i);
  });
});

t.test('wrong password and unknown e-mail get the same answer; the e-mail is kept', async (t) => {
  const { app, jar, path } = await atSignIn(t);
  const wrong = await postForm(app, jar, `${path}/login`, { email: 'ada@customer.example', password: 'not the password' });
  const unknown = await postForm(app, jar, `${path}/login`, { email: 'nobody@customer.example', password: 'not the password' });
  for (const [name, res, email] of [['wrong password', wrong, 'ada@customer.example'], ['unknown e-mail', unknown, 'nobody@customer.example']] as const) {
    t.equal(res.statusCode, 422, name);
    t.equal(res.headers['cache-control'], 'no-store');
    t.match(res.body, /<p id="sign-in-error" class="identity-error" role="alert">E-mail or password is incorrect.<\/p>/, name);
    t.match(res.body, /aria-invalid="true" aria-describedby="sign-in-error"/);
    t.match(res.body, `value="${email}"`, 'the e-mail is kept');
    t.notMatch(res.body, /name="password"[^>]*value=/, 'the password is not sent back');
  }
  t.equal(wrong.body.replace(/value="[^"]*@[^"]*"/, ''), unknown.body.replace(/value="[^"]*@[^"]*"/, ''), 'the two pages are the same');

  const empty = await postForm(app, jar, `${path}/login`, { email: '', password: '' });
  t.equal(empty.statusCode, 422);
  const long = await postForm(app, jar, `${path}/login`, { email: `${'a'.repeat(400)}@x.example`, password: 'x' });
  t.equal(long.statusCode, 400, 'an oversized field is a 400');
  const nul = await postForm(app, jar, `${path}/login`, { email: 'ada@customer.example\u0000', password: PASSWORD });
  t.equal(nul.statusCode, 400, 'a NUL is a 400');
  const nulQuery = await visit(app, jar, authorizationRequest({ state: 'a\u0000b' }).url);
  t.equal(nulQuery.statusCode, 400);
  t.ok(await signIn(app, jar, path, 'ada@customer.example'), 'the right password still works after failures');
});

t.test('repeated failures are slowed, then refused for a while with a clear message', async (t) => {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const app = await build(t, { env: { ...ENV, LOG_LEVEL: 'info' }, signInThrottle: { delayStepMs: 1, lockAfter: 3 }, logStream: stream });
  await withAccounts(app);
  const ada = await app.accounts.byEmail('ada@customer.example');
  const jar = new Jar();
  const { path } = await startSignIn(app, jar, authorizationRequest());
  for (let i = 0; i < 2; i++) t.equal((await postForm(app, jar, `${path}/login`, { email: 'ada@customer.example', password: 'wrong password!' })).statusCode, 422);
  const locked = await postForm(app, jar, `${path}/login`, { email: 'ada@customer.example', password: 'wrong password!' });
  t.equal(locked.statusCode, 429);
  t.equal(locked.headers['retry-after'], '900');
  t.match(locked.body, /role="alert">Too many failed sign-ins for this e-mail address. Sign-in is paused for it: try again in 15 minutes.</);
  t.match(locked.body, 'value="ada@customer.example"');
  const right = await postForm(app, jar, `${path}/login`, { email: 'ada@customer.example', password: PASSWORD });
  t.equal(right.statusCode, 429, 'even the right password waits for the lock to end');
  t.ok(Number(right.headers['retry-after']) > 0);
  t.equal((await postForm(app, jar, `${path}/login`, { email: 'eli@fernhollow.example', password: PASSWORD })).statusCode, 303, 'other accounts are not locked');

  // The security log: each failure and the lock-out, naming the account by a hash of its id, never the address.
  const other = new Jar();
  const { path: again } = await startSignIn(app, other, authorizationRequest());
  t.equal((await postForm(app, other, `${again}/login`, { email: 'nobody@customer.example', password: 'wrong password!' })).statusCode, 422);
  await new Promise((resolve) => setImmediate(resolve));
  const log = lines.map((l) => JSON.parse(l) as { msg: string; level: number; accountHash?: string; knownAccount?: boolean; ip?: string; lockedForS?: number });
  const hash = createHash('sha256').update(String(ada?.id)).digest('hex').slice(0, 16);
  const failed = log.filter((l) => l.msg === 'sign-in failed');
  t.same(failed.map((l) => [l.accountHash, l.knownAccount]), [[hash, true], [hash, true], [undefined, false]], 'each failed sign-in, an unknown address without a hash');
  t.ok(failed.every((l) => typeof l.ip === 'string'), 'with the client address');
  const lockedOut = log.filter((l) => l.msg === 'sign-in locked out after repeated failures');
  t.same(lockedOut.map((l) => [l.accountHash, l.level, l.lockedForS]), [[hash, 40, 900]], 'the lock-out, as a warning');
  t.same(log.filter((l) => l.msg === 'sign-in refused: locked out').map((l) => l.accountHash), [hash], 'a sign-in while locked');
  for (const line of lines) t.notMatch(line, /customer\.example|customer%40|fernhollow\.example/, 'no e-mail address in the log');
});

t.test('a disabled account cannot sign in, nor get tokens for a code it had', async (t) => {
  const { app, jar, request, path } = await atSignIn(t);
  const back = await signIn(app, jar, path, 'ada@customer.example');
  const code = codeOf(back, request) as string;
  await app.accounts.setDisabled('ada@customer.example', true);
  const token = await exchange(app, code, request);
  t.equal(token.statusCode, 400, 'no tokens for a disabled account');
  t.equal(token.json().error, 'invalid_grant');

  const fresh = new Jar();
  const { path: again } = await startSignIn(app, fresh, authorizationRequest());
  const res = await postForm(app, fresh, `${again}/login`, { email: 'ada@customer.example', password: PASSWORD });
  t.equal(res.statusCode, 422);
  t.match(res.body, 'E-mail or password is incorrect.');
});

t.test('another client (OIDC_PROVIDER_CLIENTS) is asked about, and gets a code only after Allow', async (t) => {
  const app = await build(t, {
    env: {
      ...ENV, OIDC_PROVIDER_CLIENTS: JSON.stringify([
        { client_id: PARTNER_APP.id, client_secret: PARTNER_APP.secret, redirect_uris: [PARTNER_APP.redirect], client_name: 'Partner Portal', id_token_signed_response_alg: 'RS256' },
        { client_id: UNNAMED_APP.id, client_secret: UNNAMED_APP.secret, redirect_uris: [UNNAMED_APP.redirect] },
      ]),
    },
  });
  await withAccounts(app);
  const jar = new Jar();
  const request = authorizationRequest({}, PARTNER_APP);
  const { path } = await startSignIn(app, jar, request);
  const form = await visit(app, jar, path);
  t.match(form.body, 'Partner Portal asks you to sign in with your Test Support account.');
  t.match(form.headers['content-security-policy'], "form-action 'self' https://portal.example.test", 'the form may end at the client');

  const afterLogin = await postForm(app, jar, `${path}/login`, { email: 'eli@fernhollow.example', password: PASSWORD });
  const consent = await follow(app, jar, afterLogin);
  t.equal(consent.statusCode, 200, 'the consent screen');
  t.match(consent.body, /<h1>Allow Partner Portal to use your Test Support account\?<\/h1>/);
  for (const words of ['See your e-mail address', 'See your name and picture', 'See your roles']) t.match(consent.body, words);
  t.match(consent.body, 'eli@fernhollow.example');
  t.notOk(String(afterLogin.headers.location).includes('code='), 'no code before Allow');

  const interactionPath = /action="(\/auth\/interaction\/[^/"]+)\/confirm"/.exec(consent.body)?.[1] as string;
  t.ok(interactionPath, 'Allow posts to the sign-in step');
  const allowed = await follow(app, jar, await postForm(app, jar, `${interactionPath}/confirm`, {}));
  const code = codeOf(allowed, request, PARTNER_APP.redirect);
  t.ok(code, 'a code after Allow');
  const tokens = await exchange(app, code as string, request, PARTNER_APP);
  t.equal(tokens.statusCode, 200);
  t.equal(decodeProtectedHeader(tokens.json().id_token).alg, 'RS256', 'the algorithm the client asked for');
  const { payload } = await jwtVerify(tokens.json().id_token, createLocalJWKSet((await app.inject({ url: `${ISSUER}/jwks` })).json()), { issuer: ISSUER, audience: PARTNER_APP.id });
  t.equal(payload.email, 'eli@fernhollow.example');

  t.test('a client without a client_name is named by the site it returns to, never by its id', async (t) => {
    const other = new Jar();
    const { path } = await startSignIn(app, other, authorizationRequest({}, UNNAMED_APP));
    const form = await visit(app, other, path);
    t.match(form.body, 'help-b.example.test asks you to sign in with your Test Support account.');
    const consent = await follow(app, other, await postForm(app, other, `${path}/login`, { email: 'ada@customer.example', password: PASSWORD }));
    t.match(consent.body, /<h1>Allow help-b\.example\.test to use your Test Support account\?<\/h1>/);
    for (const page of [form, consent]) t.notMatch(page.body, UNNAMED_APP.id, 'the id is not shown');
  });

  t.test('Cancel sends the client access_denied', async (t) => {
    const other = new Jar();
    const req = authorizationRequest({}, PARTNER_APP);
    const { path } = await startSignIn(app, other, req);
    const consent = await follow(app, other, await postForm(app, other, `${path}/login`, { email: 'ada@customer.example', password: PASSWORD }));
    const action = /action="(\/auth\/interaction\/[^"]+\/abort)"/.exec(consent.body)?.[1] as string;
    const res = await follow(app, other, await postForm(app, other, action, {}));
    const location = new URL(String(res.headers.location));
    t.equal(`${location.origin}${location.pathname}`, PARTNER_APP.redirect);
    t.equal(location.searchParams.get('error'), 'access_denied');
    t.notOk(location.searchParams.get('code'));
  });
});

t.test('a client asking for a signing algorithm the provider does not offer stops start-up, naming it', async (t) => {
  await t.rejects(build(t, { env: { ...ENV, OIDC_PROVIDER_CLIENTS: JSON.stringify([{ client_id: 'odd', client_secret: 'odd-secret-0123456789', redirect_uris: ['https://odd.example/cb'], id_token_signed_response_alg: 'HS256' }]) } }),
    /OIDC_PROVIDER_CLIENTS: odd: id_token_signed_response_alg must be ES256 or RS256/);
});

t.test('switch account: prompt=select_account shows the sign-in screen over a live session', async (t) => {
  const { app, jar, request: first, path } = await atSignIn(t);
  t.ok(codeOf(await signIn(app, jar, path, 'ada@customer.example'), first));

  const switching = authorizationRequest({ prompt: 'select_account' });
  const { res, path: again } = await startSignIn(app, jar, switching);
  t.equal(res.statusCode, 303);
  t.match(again, /^\/auth\/interaction\//, 'the sign-in screen again, not a code');
  t.match((await visit(app, jar, again)).body, 'Sign in to Test Support');
  const back = await signIn(app, jar, again, 'eli@fernhollow.example');
  const tokens = (await exchange(app, codeOf(back, switching) as string, switching)).json();
  const { payload } = await jwtVerify(tokens.id_token, createLocalJWKSet((await app.inject({ url: `${ISSUER}/jwks` })).json()), { issuer: ISSUER, audience: CLIENT_ID });
  t.equal(payload.email, 'eli@fernhollow.example', 'signed in as the other account');
});

t.test('sign-out: a confirmation form without script, then back to the site', async (t) => {
  const { app, jar, request, path } = await atSignIn(t);
  const back = await signIn(app, jar, path, 'ada@customer.example');
  const tokens = (await exchange(app, codeOf(back, request) as string, request)).json();

  const end = `${ISSUER}/session/end?${new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: `${ORIGIN}/`, client_id: CLIENT_ID })}`;
  const page = await visit(app, jar, end);
  t.equal(page.statusCode, 200);
  t.equal(page.headers['cache-control'], 'private, no-store');
  t.match(page.body, /<h1>Sign out of Test Support\?<\/h1>/);
  t.match(page.body, /<main id="maincontent"/);
  t.notMatch(page.body, /<script/);
  t.match(page.headers['content-security-policy'], "form-action 'self'");
  const action = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1] as string;
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1] as string;
  t.equal(action, `${ISSUER}/session/end/confirm`);
  const done = await postForm(app, jar, action, { xsrf, logout: 'yes' });
  t.equal(done.statusCode, 303);
  t.equal(done.headers.location, `${ORIGIN}/`);

  const after = authorizationRequest();
  t.match((await startSignIn(app, jar, after)).path, /^\/auth\/interaction\//, 'signed out of the provider: the next sign-in asks again');

  t.test('without a provider session, straight back to the site (no script-driven form)', async (t) => {
    const res = await visit(app, new Jar(), `${ISSUER}/session/end?${new URLSearchParams({ post_logout_redirect_uri: `${ORIGIN}/`, client_id: CLIENT_ID, state: 'abc' })}`);
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, `${ORIGIN}/?state=abc`);
  });
});

t.test('refusals: cross-site posts, unknown or expired steps', async (t) => {
  const { app, jar, path } = await atSignIn(t);

  const crossSite = await postForm(app, jar, `${path}/login`, { email: 'ada@customer.example', password: PASSWORD }, { origin: 'https://evil.example' });
  t.equal(crossSite.statusCode, 403, 'a sign-in posted from another site is refused');
  const fetchMeta = await postForm(app, jar, `${path}/login`, { email: 'ada@customer.example', password: PASSWORD }, { 'sec-fetch-site': 'cross-site' });
  t.equal(fetchMeta.statusCode, 403);

  for (const url of ['/auth/interaction/unknown-uid', '/auth/interaction/unknown-uid/login']) {
    const res = url.endsWith('login') ? await postForm(app, new Jar(), url, { email: 'a@b.example', password: 'x' }) : await visit(app, new Jar(), url);
    t.equal(res.statusCode, 400, url);
    t.match(res.body, 'This sign-in step is unknown or has expired.');
    t.match(res.body, 'href="/auth/login"');
    t.equal(res.headers['cache-control'], 'no-store');
  }
  // The jar's interaction cookie names another step than the path.
  t.equal((await visit(app, jar, '/auth/interaction/another-uid')).statusCode, 400);

  const other = await startSignIn(app, jar, authorizationRequest());
  t.not(other.path, path);
  t.equal((await visit(app, jar, absolute(other.path))).statusCode, 200, 'the newest step is shown');
  t.equal((await app.inject({ method: 'DELETE', url: path })).statusCode, 405);

  // Bodies the provider reads itself: a NUL, JSON, a huge form, deep nesting — a 4xx, never a 5xx.
  const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
  const odd = [
    { payload: 'grant_type=authorization_code&code=a%00b&redirect_uri=x&code_verifier=y', type: 'application/x-www-form-urlencoded' },
    { payload: JSON.stringify({ grant_type: 'authorization_code', code: 'x' }), type: 'application/json' },
    { payload: `grant_type=authorization_code&code=${'x'.repeat(200_000)}`, type: 'application/x-www-form-urlencoded' },
    { payload: `${'a[b]'.repeat(5000)}=1`, type: 'application/x-www-form-urlencoded' },
    { payload: '\u0000', type: 'text/plain' },
  ];
  for (const { payload, type } of odd) {
    const res = await app.inject({ method: 'POST', url: `${ISSUER}/token`, payload, headers: { authorization: basic, 'content-type': type } });
    t.ok(res.statusCode >= 400 && res.statusCode < 500, `token endpoint, ${type} ${JSON.stringify(payload.slice(0, 30))}: ${res.statusCode}`);
    t.match(res.headers['cache-control'], /no-store/);
    t.equal(res.headers['x-content-type-options'], 'nosniff', 'security headers on the provider\'s answers');
  }
  const me = await app.inject({ url: `${ISSUER}/me`, headers: { authorization: 'Bearer a\u0000b' } }).catch(() => undefined);
  t.ok(!me || me.statusCode < 500, 'a NUL in a bearer token is not a server error');
  const unknown = await app.inject({ url: `${ISSUER}/no-such-endpoint`, headers: { accept: 'text/html' } });
  t.equal(unknown.statusCode, 404);
  t.equal(unknown.headers['cache-control'], 'private, no-store');
});

t.test('log lines: the whole path, no e-mail address, no password', async (t) => {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const app = await build(t, { env: { ...ENV, LOG_LEVEL: 'debug' }, logStream: stream });
  await withAccounts(app);
  const jar = new Jar();
  const { path } = await startSignIn(app, jar, authorizationRequest({ login_hint: 'ada@customer.example' }));
  t.match((await visit(app, jar, path)).body, 'value="ada@customer.example"', 'login_hint fills the e-mail');
  await postForm(app, jar, `${path}/login`, { email: 'ada@customer.example', password: 'a wrong password' });
  await signIn(app, jar, path, 'ada@customer.example');
  await new Promise((resolve) => setImmediate(resolve));
  const access = lines.map((l) => JSON.parse(l) as { msg: string; url?: string }).filter((l) => l.msg === 'request');
  t.ok(access.some((l) => l.url?.startsWith('/auth/oidc/auth?')), 'the provider\'s requests are logged with their whole path');
  for (const line of lines) {
    t.notMatch(line, /ada@customer\.example|ada%40customer/, 'no e-mail address');
    t.notMatch(line, /a wrong password|correct horse/, 'no password');
  }
});
