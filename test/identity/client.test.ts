import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { build } from '../helpers/build.ts';
import { Jar, followPeer, freePort, startPeer, type Peer } from './oidc-peer.ts';
import { claimsReport } from '../../server/identity/client.ts';
import { SESSION_SECRET, clears, cookieFrom, setCookies } from './helpers.ts';

const PUBLIC = 'https://help.example.test';
const PAGE = '/acme-cloud/docs/first-steps';

function peerEnv(peer: Peer, extra: Record<string, string> = {}): Record<string, string> {
  return {
    SESSION_SECRET, OIDC_ISSUER: peer.issuer, OIDC_CLIENT_ID: peer.clientId, OIDC_CLIENT_SECRET: peer.clientSecret,
    // This issuer names its claims its own way: the configuration says which carry the roles.
    OIDC_GROUPS_CLAIM: 'grp', OIDC_EDITOR_GROUP: 'help-editors', OIDC_PARTNER_CLAIM: 'partner_flag', STAFF_EMAIL_DOMAIN: 'fernhollow.example',
    ...extra,
  };
}

async function withPeer(t: Parameters<typeof build>[0], extra: Record<string, string> = {}) {
  const peer = await startPeer(t, { publicUrl: PUBLIC });
  peer.accounts.set('cust-1', { email: 'ada@customer.example', email_verified: true, name: 'Ada Lovelace', picture: 'https://avatars.example/ada.png', cohort: { plan: 'premium', region: null } });
  peer.accounts.set('staff-1', { email: 'grace@fernhollow.example', email_verified: true, name: 'Grace Hopper', grp: ['help-editors'] });
  peer.accounts.set('partner-1', { email: 'pat@partner.example', name: 'Pat Partner', partner_flag: true });
  peer.accounts.set('no-mail', { name: 'Nobody' });
  const app = await build(t, { env: peerEnv(peer, extra) });
  return { peer, app };
}

/** The whole sign-in: our login route, the peer's pages, our callback. Returns the callback's answer. */
async function signIn(app: FastifyInstance, peer: Peer, account: string, login = `/auth/login?continue=${encodeURIComponent(PAGE)}`, jar = new Jar()) {
  peer.next = { account };
  const start = await app.inject({ url: login });
  if (start.statusCode !== 303) throw new Error(`login answered ${start.statusCode}: ${start.body.slice(0, 200)}`);
  const signin = cookieFrom(start, 'sp_signin');
  const back = new URL(await followPeer(String(start.headers.location), PUBLIC, jar));
  const callbackUrl = `${back.pathname}${back.search}`;
  const callback = await app.inject({ url: callbackUrl, headers: signin ? { cookie: signin } : {} });
  return { start, callback, callbackUrl, session: cookieFrom(callback, 'sp_session'), jar };
}

t.test('sign-in end to end against a second, independently configured issuer', async (t) => {
  const { app, peer } = await withPeer(t);
  const login = `/auth/login?continue=${encodeURIComponent(`${PUBLIC}${PAGE}?x=1#top`)}`;
  const start = await app.inject({ url: login });
  t.equal(start.statusCode, 303);
  t.equal(start.headers['cache-control'], 'private, no-store');
  const to = new URL(String(start.headers.location));
  t.equal(to.origin, peer.issuer, 'to the issuer found by discovery');
  t.equal(to.searchParams.get('code_challenge_method'), 'S256');
  t.ok(to.searchParams.get('code_challenge'));
  t.ok(to.searchParams.get('state'));
  t.ok(to.searchParams.get('nonce'));
  t.equal(to.searchParams.get('scope'), 'openid email profile');
  t.equal(to.searchParams.get('redirect_uri'), `${PUBLIC}/auth/callback`);
  const signinLine = setCookies(start).find((l) => l.startsWith('sp_signin=')) ?? '';
  t.match(signinLine, /Path=\/auth/);
  t.match(signinLine, /HttpOnly/);
  t.match(signinLine, /SameSite=Lax/);
  t.match(signinLine, /Max-Age=600/);

  const { callback, session } = await signIn(app, peer, 'cust-1', login);
  t.equal(callback.statusCode, 303);
  t.equal(callback.headers.location, `${PAGE}?x=1#top`, 'back to the page the visitor came from');
  t.ok(session, 'a session cookie');
  t.ok(clears(callback, 'sp_signin'), 'the sign-in under way is done');

  const page = await app.inject({ url: PAGE, headers: { cookie: session } });
  t.match(page.body, 'Account menu for Ada Lovelace');
  t.match(page.body, 'src="https://avatars.example/ada.png"');
  const me = await app.inject({ url: '/gateway/api/customer-context/user/auth', headers: { cookie: session } });
  t.same(me.json(), { data: { userName: 'ada@customer.example', id: 'cust-1', displayName: 'Ada Lovelace', photos: [{ value: 'https://avatars.example/ada.png' }] } });
  const cohort = await app.inject({ url: '/gateway/api/customer-context/customer/cohort/csm-experiment', headers: { cookie: session } });
  t.same(cohort.json(), { data: { attributes: { plan: 'premium' } } }, 'the cohort claim, null values dropped');
});

t.test('continue is checked on the way in: another site becomes the home page', async (t) => {
  const { app, peer } = await withPeer(t);
  const { callback } = await signIn(app, peer, 'cust-1', `/auth/login?continue=${encodeURIComponent('//evil.example/x')}`);
  t.equal(callback.headers.location, '/');
});

t.test('roles come from the claims the configuration names', async (t) => {
  const { app, peer } = await withPeer(t, { CONTENT_EDITOR_URL: 'https://forge.example/help/-/edit/main/{file}' });
  const staff = (await signIn(app, peer, 'staff-1')).session;
  const kb = await app.inject({ url: '/acme/kb/widget-crash', headers: { cookie: staff } });
  t.match(kb.body, 'Account menu for Grace Hopper');
  t.match(kb.body, 'class="edit-links"', 'an author (the help-editors group of the grp claim)');
  t.match(kb.body, 'Edit this KB Article', 'staff: the e-mail is in the staff domain');

  const partner = (await signIn(app, peer, 'partner-1')).session;
  const page = await app.inject({ url: PAGE, headers: { cookie: partner } });
  t.match(page.body, 'View Support Requests', 'partner claim: partner request items');
  t.notMatch(page.body, 'class="edit-links"');
});

t.test('default scopes: an issuer that carries the role claims under a roles scope is asked for it, and says so once', async (t) => {
  const { Writable } = await import('node:stream');
  const lines: string[] = [];
  const logStream = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
  // As another Signpost, or Keycloak: name, picture under profile; groups and flags under roles.
  const peer = await startPeer(t, { publicUrl: PUBLIC, claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'], roles: ['grp', 'partner_flag', 'cohort'] } });
  peer.accounts.set('staff-1', { email: 'grace@fernhollow.example', email_verified: true, name: 'Grace Hopper', grp: ['help-editors'] });
  peer.accounts.set('partner-1', { email: 'pat@partner.example', name: 'Pat Partner', partner_flag: true });
  const app = await build(t, { logStream, env: { ...peerEnv(peer), LOG_LEVEL: 'info', CONTENT_EDITOR_URL: 'https://forge.example/help/-/edit/main/{file}' } });
  const start = await app.inject({ url: '/auth/login' });
  t.equal(new URL(String(start.headers.location)).searchParams.get('scope'), 'openid email profile roles', 'roles, which the issuer lists');

  const author = (await signIn(app, peer, 'staff-1')).session;
  t.match((await app.inject({ url: '/acme/kb/widget-crash', headers: { cookie: author } })).body, 'class="edit-links"', 'an author, from the groups claim');
  const partner = (await signIn(app, peer, 'partner-1')).session;
  t.match((await app.inject({ url: PAGE, headers: { cookie: partner } })).body, 'View Support Requests', 'a partner, from the partner claim');

  const reports = lines.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => String(l.msg).startsWith('issuer discovered'));
  t.match(reports, [{ issuer: peer.issuer, scopesAdded: ['roles'], roleClaimsNotOffered: ['canEdit'] }], 'once: the role claims the issuer does not offer');

  // OIDC_SCOPES set: asked for as it is.
  const explicit = await build(t, { env: { ...peerEnv(peer), OIDC_SCOPES: 'openid email' } });
  t.equal(new URL(String((await explicit.inject({ url: '/auth/login' })).headers.location)).searchParams.get('scope'), 'openid email');
});

t.test('an issuer offering none of the role claims is a warning naming them', async (t) => {
  const names = { oidcEditorClaim: 'canEdit', oidcPartnerClaim: 'partner', oidcGroupsClaim: 'groups', oidcEditorGroup: 'editors', oidcPartnerGroup: 'partners' };
  const none = claimsReport('https://id.example', { claims_supported: ['sub', 'email', 'name'], scopes_supported: ['openid', 'email'] }, names, ['roles']);
  t.equal(none.level, 'warn');
  t.same(none.fields, { issuer: 'https://id.example', scopesAdded: [], roleClaimsNotOffered: ['canEdit', 'partner', 'groups'] });
  t.equal(claimsReport('https://id.example', { claims_supported: ['sub', 'groups'] }, names, []).level, 'info', 'groups alone can make both roles');
  t.equal(claimsReport('https://id.example', {}, names, []).level, 'info', 'an issuer that does not list its claims');
});

t.test('switch account passes prompt=select_account to the issuer', async (t) => {
  const { app } = await withPeer(t);
  const res = await app.inject({ url: `/auth/login?prompt=select_account&application=sac&continue=${encodeURIComponent(PAGE)}` });
  t.equal(new URL(String(res.headers.location)).searchParams.get('prompt'), 'select_account');
  const odd = await app.inject({ url: '/auth/login?prompt=none' });
  t.equal(new URL(String(odd.headers.location)).searchParams.get('prompt'), null, 'other prompt values are not passed on');
});

t.test('a refused, replayed, forged or foreign callback is a clear 400 with a way to try again', async (t) => {
  const { app, peer } = await withPeer(t);
  // The person refuses at the issuer.
  peer.next = { account: 'cust-1', deny: true };
  const start = await app.inject({ url: `/auth/login?continue=${encodeURIComponent(PAGE)}` });
  const back = new URL(await followPeer(String(start.headers.location), PUBLIC, new Jar()));
  t.equal(back.searchParams.get('error'), 'access_denied');
  const denied = await app.inject({ url: `${back.pathname}${back.search}`, headers: { cookie: cookieFrom(start, 'sp_signin') } });
  t.equal(denied.statusCode, 400);
  t.match(denied.body, 'Sign-in was cancelled');
  t.match(denied.body, `href="/auth/login?continue=${encodeURIComponent(PAGE)}"`);
  t.same(setCookies(denied).filter((l) => l.startsWith('sp_session=') && !l.startsWith('sp_session=;')), []);

  // A good sign-in, then the same callback again (a replay), and one without its sp_signin cookie.
  const { callback, start: s2, callbackUrl: url } = await signIn(app, peer, 'cust-1');
  t.equal(callback.statusCode, 303);
  const replay = await app.inject({ url, headers: { cookie: cookieFrom(s2, 'sp_signin') } });
  t.equal(replay.statusCode, 400, 'the code cannot be used twice');
  t.match(replay.body, 'Sign-in did not complete');
  const foreign = await app.inject({ url });
  t.equal(foreign.statusCode, 400, 'a callback for a sign-in this browser did not start');
  t.match(foreign.body, 'expired or was already used');

  // A state that does not match, and garbage.
  const s3 = await app.inject({ url: '/auth/login' });
  const forged = await app.inject({ url: '/auth/callback?code=abc&state=not-ours', headers: { cookie: cookieFrom(s3, 'sp_signin') } });
  t.equal(forged.statusCode, 400);
  const state = new URL(String(s3.headers.location)).searchParams.get('state');
  const badCode = await app.inject({ url: `/auth/callback?code=made-up&state=${state}&iss=${encodeURIComponent(peer.issuer)}`, headers: { cookie: cookieFrom(s3, 'sp_signin') } });
  t.equal(badCode.statusCode, 400, 'a made-up code');
  t.match(badCode.body, 'Try signing in again');
  for (const res of [denied, replay, foreign, forged, badCode]) t.match(res.headers['cache-control'], /no-store/);

  // An account without an e-mail address is not signed in (spec §6).
  const noMail = await signIn(app, peer, 'no-mail');
  t.equal(noMail.callback.statusCode, 400);
  t.notOk(noMail.session);
});

t.test('log out: a POST from this site ends the session and goes through the issuer\'s end-session endpoint', async (t) => {
  const { app, peer } = await withPeer(t);
  const { session } = await signIn(app, peer, 'cust-1');
  const crossSite = await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: session, origin: 'https://evil.example' } });
  t.equal(crossSite.statusCode, 403, 'another site cannot log the visitor out');
  t.notOk(clears(crossSite, 'sp_session'));
  const fetchMeta = await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: session, 'sec-fetch-site': 'cross-site' } });
  t.equal(fetchMeta.statusCode, 403);
  const get = await app.inject({ url: '/auth/logout', headers: { cookie: session } });
  t.not(get.statusCode, 303, 'GET does not log out');
  t.notOk(clears(get, 'sp_session'));

  const out = await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: session, origin: PUBLIC } });
  t.equal(out.statusCode, 303);
  t.ok(clears(out, 'sp_session'), 'the session cookie is cleared');
  // A browser holds a form post's redirects to the page's form-action 'self': the post ends on this
  // site, and the signed-out page goes on to the issuer by a navigation of its own.
  t.equal(out.headers.location, '/auth/signed-out', 'the post ends on this site');
  const signinCookie = cookieFrom(out, 'sp_signin');
  t.ok(signinCookie, 'the end-session address is kept for the signed-out page');
  const signedOut = await app.inject({ url: '/auth/signed-out', headers: { cookie: String(signinCookie) } });
  t.equal(signedOut.statusCode, 200);
  t.match(signedOut.headers['cache-control'], /no-store/);
  t.match(signedOut.body, /<h1>You are signed out of [^<]+<\/h1>/, 'the page says signed out');
  t.notMatch(signedOut.body, 'Account menu', 'no signed-in header');
  const refresh = /<meta http-equiv="refresh" content="0;url=([^"]+)"/.exec(signedOut.body)?.[1];
  t.ok(refresh, 'the browser goes on to the issuer without a script');
  const link = /<a href="([^"]+)">Continue signing out at /.exec(signedOut.body)?.[1];
  t.equal(link, refresh, 'and a link to the same address');
  t.ok(clears(signedOut, 'sp_signin'), 'shown once');
  const again = await app.inject({ url: '/auth/signed-out' });
  t.equal(again.statusCode, 200);
  t.notMatch(again.body, 'http-equiv="refresh"', 'a reload is only the signed-out page');
  const end = new URL(String(refresh).replace(/&amp;/g, '&'));
  t.equal(`${end.origin}${end.pathname}`, `${peer.issuer}/session/end`);
  t.equal(end.searchParams.get('client_id'), peer.clientId);
  t.equal(end.searchParams.get('post_logout_redirect_uri'), `${PUBLIC}/`);
  t.ok(end.searchParams.get('id_token_hint'), 'the ID token as the hint');
  // The issuer confirms with a form of its own; its answer leads back to the support home.
  t.equal((await fetch(end, { redirect: 'manual' })).status, 200);

  const anonymous = await app.inject({ method: 'POST', url: '/auth/logout', headers: { origin: PUBLIC } });
  t.equal(anonymous.statusCode, 303);
  t.equal(anonymous.headers.location, '/', 'nobody to log out: home');
});

t.test('manage profile goes to OIDC_ACCOUNT_URL, else home for an external issuer', async (t) => {
  const { app, peer } = await withPeer(t);
  t.equal((await app.inject({ url: '/auth/manage-profile' })).headers.location, '/');
  const withAccount = await build(t, { env: peerEnv(peer, { OIDC_ACCOUNT_URL: 'https://id.example/account' }) });
  t.equal((await withAccount.inject({ url: '/auth/manage-profile' })).headers.location, 'https://id.example/account');
  const embedded = await build(t, { env: { SESSION_SECRET } });
  t.equal((await embedded.inject({ url: '/auth/manage-profile' })).headers.location, '/auth/account');
});

t.test('an issuer that is down: a clean 503 on login, and recovery without a restart', async (t) => {
  const port = await freePort();
  let now = Date.now();
  const issuer = `http://127.0.0.1:${port}`;
  const app = await build(t, {
    env: { SESSION_SECRET, OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'signpost-test', OIDC_CLIENT_SECRET: 'x'.repeat(32) }, clock: () => now,
  });
  const down = await app.inject({ url: `/auth/login?continue=${encodeURIComponent(PAGE)}` });
  t.equal(down.statusCode, 503);
  t.match(down.body, 'Sign-in is unavailable right now');
  t.match(down.body, `href="/auth/login?continue=${encodeURIComponent(PAGE)}"`);
  t.equal(down.headers['retry-after'], '30');
  t.equal(down.headers['cache-control'], 'no-store');
  t.same(setCookies(down), [], 'no sign-in cookie for a sign-in that did not start');
  t.equal((await app.inject({ url: PAGE })).statusCode, 200, 'pages are served meanwhile');

  const peer = await startPeer(t, { publicUrl: PUBLIC, port });
  t.equal(peer.issuer, issuer);
  t.equal((await app.inject({ url: '/auth/login' })).statusCode, 503, 'no retry within moments of the failure');
  now += 6000;
  const up = await app.inject({ url: '/auth/login' });
  t.equal(up.statusCode, 303, 'discovery is tried again');
  t.equal(new URL(String(up.headers.location)).origin, issuer);
});

t.test('the embedded issuer is reached in-process; before the provider answers, sign-in is a clean 503', async (t) => {
  const app = await build(t, { env: { SESSION_SECRET } });
  const res = await app.inject({ url: '/auth/login' });
  t.ok(res.statusCode === 303 || res.statusCode === 503, `answered ${res.statusCode}`);
  if (res.statusCode === 303) t.equal(new URL(String(res.headers.location)).origin, PUBLIC, 'the embedded issuer is on this site');
});

t.test('log lines of a sign-in hold no e-mail address, token, code or secret', async (t) => {
  const { Writable } = await import('node:stream');
  const lines: string[] = [];
  const logStream = new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } });
  const peer = await startPeer(t, { publicUrl: PUBLIC });
  peer.accounts.set('cust-1', { email: 'ada@customer.example', name: 'Ada Lovelace' });
  const app = await build(t, {
    logStream,
    env: {
      ...peerEnv(peer), LOG_LEVEL: 'debug',
      // Credentials where operators sometimes put them: in the address, and in the variables made for them.
      AI_BASE_URL: 'https://ai-user:ai-pass@ai.example.test/v1?api-key=query-secret', AI_MODEL: 'help-model', AI_API_KEY: 'sk-ai-key-secret',
      FLAGS_PROVIDER: 'ofrep', FLAGS_URL: 'http://127.0.0.1:9/ofrep',
    },
  });
  const { session, callbackUrl } = await signIn(app, peer, 'cust-1');
  t.ok(session);
  await app.inject({ url: callbackUrl });
  await app.inject({ url: PAGE, headers: { cookie: 'sp_session=tampered' } });
  await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie: session, origin: PUBLIC } });
  const log = lines.join('');
  const entries = log.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const configuration = entries.find((l) => l.msg === 'configuration');
  t.match(configuration, {
    publicUrl: PUBLIC, issuer: peer.issuer, issuerKind: 'external', flagProvider: 'ofrep', flagSource: 'http://127.0.0.1:9/ofrep',
    aiEndpoint: 'https://ai.example.test/v1', aiModel: 'help-model',
  }, 'at start: the public URL, the issuer, the flag provider and the AI endpoint');
  const signedIn = entries.find((l) => l.msg === 'signed in');
  t.match(signedIn, { account: 'cust-1', accountHash: /^[0-9a-f]{16}$/, issuer: peer.issuer }, 'signed in: which account, at which issuer');
  for (const secret of ['ai-user', 'ai-pass', 'query-secret', 'sk-ai-key-secret']) {
    t.notOk(log.includes(secret), `no ${secret} in the log`);
  }
  t.match(log, '"msg":"signed in"');
  t.match(log, 'session cookie refused');
  const code = new URL(callbackUrl, PUBLIC).searchParams.get('code') as string;
  for (const secret of ['ada@customer.example', peer.clientSecret, SESSION_SECRET, decodeURIComponent(String(session).slice('sp_session='.length)), code]) {
    t.notOk(log.includes(secret), `no ${secret.slice(0, 12)}… in the log`);
  }
});
