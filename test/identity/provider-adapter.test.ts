/**
 * The embedded provider's storage (oidc_models) on the test database: PGlite, or PostgreSQL when
 * DATABASE_URL is set (run this file both ways). Also the provider's answers while the database is away.
 */
import t from 'tap';
import { DbAdapter, SWEEP_INTERVAL_MS } from '../../server/identity/provider/adapter.ts';
import { providerKeys } from '../../server/identity/provider/keys.ts';
import { build, failing, testDb } from '../helpers/build.ts';
import { authorizationRequest, CLIENT_SECRET, ISSUER, Jar, startSignIn, visit } from './provider-flow.ts';

t.test(`adapter on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`, async (t) => {
  const db = await testDb(t);
  let now = Date.parse('2026-01-01T00:00:00Z');
  const clock = () => now;
  const codes = new DbAdapter(db, 'AuthorizationCode', { clock });
  const tokens = new DbAdapter(db, 'AccessToken', { clock });
  const sessions = new DbAdapter(db, 'Session', { clock });
  const devices = new DbAdapter(db, 'DeviceCode', { clock });

  await codes.upsert('code-1', { grantId: 'grant-1', accountId: 'a1', scope: 'openid', nested: { x: [1, 'two'] } }, 60);
  t.same(await codes.find('code-1'), { grantId: 'grant-1', accountId: 'a1', scope: 'openid', nested: { x: [1, 'two'] } }, 'stored and found as given');
  t.equal(await tokens.find('code-1'), undefined, 'ids are per model');
  t.equal(await codes.find('nothing'), undefined);

  await codes.upsert('code-1', { grantId: 'grant-1', accountId: 'a1', scope: 'openid email' }, 60);
  t.equal((await codes.find('code-1'))?.scope, 'openid email', 'upsert replaces');

  await codes.consume('code-1');
  t.equal((await codes.find('code-1'))?.consumed, Math.floor(now / 1000), 'consumed carries when, in seconds');

  await sessions.upsert('session-1', { uid: 'uid-1', accountId: 'a1' }, 3600);
  t.equal((await sessions.findByUid('uid-1'))?.accountId, 'a1', 'a session is found by its uid');
  t.equal(await sessions.findByUid('uid-2'), undefined);

  await devices.upsert('device-1', { userCode: 'ABCD-EFGH', grantId: 'grant-2' }, 600);
  t.ok(await devices.findByUserCode('ABCD-EFGH'), 'found by user code');

  await tokens.upsert('token-1', { grantId: 'grant-1' }, 3600);
  await tokens.upsert('token-2', { grantId: 'grant-2' }, 3600);
  await codes.revokeByGrantId('grant-1');
  t.equal(await codes.find('code-1'), undefined, 'revoking a grant removes its code');
  t.equal(await tokens.find('token-1'), undefined, '… and its tokens, whatever the model');
  t.ok(await tokens.find('token-2'), 'other grants are untouched');

  await tokens.destroy('token-2');
  t.equal(await tokens.find('token-2'), undefined, 'destroyed');

  // Expiry: a row past its time is not found, and a later write sweeps it away.
  await tokens.upsert('short', { grantId: 'grant-3' }, 10);
  await tokens.upsert('long', { grantId: 'grant-3' }, 3600);
  now += 11_000;
  t.equal(await tokens.find('short'), undefined, 'an expired row is not found');
  t.ok(await tokens.find('long'));
  const rows = async () => (await db.query<{ id: string }>(`select id from oidc_models where kind = 'AccessToken' order by id`)).map((r) => r.id);
  t.same(await rows(), ['long', 'short'], 'still stored until swept');
  now += SWEEP_INTERVAL_MS;
  await tokens.upsert('another', {}, 3600);
  t.same(await rows(), ['another', 'long'], 'the expired row is swept by a later write');

  t.equal(await tokens.find('a\u0000b'), undefined, 'an id with a NUL is unknown, not an error');
  await tokens.destroy('a\u0000b');
  await t.rejects(tokens.upsert('nul', { state: 'a\u0000b' }, 60), { statusCode: 400, expose: true, message: 'invalid_request' }, 'a NUL is refused as a bad request');
});

t.test('keys are made once and shared through the database', async (t) => {
  const db = await testDb(t);
  const [a, b] = await Promise.all([providerKeys(db), providerKeys(db)]);
  t.same(a, b, 'two instances asking at once agree');
  t.match(a.jwks.keys[0], { kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: /^[\w-]{43}$/ });
  t.ok(a.cookieKeys[0] && a.cookieKeys[0].length >= 43);
  t.same(await providerKeys(db), a, 'and keep them');
});

t.test('the database away: 503 with Retry-After, never a 500 or an error sent on to the client', async (t) => {
  let down = false;
  const app = await build(t, { db: failing(await testDb(t), () => down), env: { OIDC_CLIENT_SECRET: CLIENT_SECRET } });
  const jar = new Jar();
  const { path } = await startSignIn(app, jar, authorizationRequest());
  down = true;
  const screen = await visit(app, jar, path);
  t.equal(screen.statusCode, 503, 'the sign-in screen');
  t.equal(screen.headers['retry-after'], '5');
  const authorize = await visit(app, new Jar(), authorizationRequest().url);
  t.equal(authorize.statusCode, 503, 'the authorization endpoint');
  t.equal(authorize.headers['retry-after'], '5');
  t.notOk(authorize.headers.location, 'not redirected to the client as an error');
  t.match(authorize.body, 'Sign-in is unavailable for a moment');
  t.notMatch(authorize.body, /ECONNREFUSED|oops/);
  const token = await app.inject({
    method: 'POST', url: `${ISSUER}/token`, headers: { authorization: `Basic ${Buffer.from(`signpost:${CLIENT_SECRET}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'grant_type=authorization_code&code=x&redirect_uri=https%3A%2F%2Fhelp.example.test%2Fauth%2Fcallback&code_verifier=y',
  });
  t.equal(token.statusCode, 503, 'the token endpoint');
  t.equal(token.json().error, 'temporarily_unavailable');
  down = false;
  t.equal((await visit(app, jar, path)).statusCode, 200, 'back when the database is');

  t.test('a provider not built yet waits for the database too', async (t) => {
    let away = false;
    const fresh = await build(t, { db: failing(await testDb(t), () => away), env: { OIDC_CLIENT_SECRET: CLIENT_SECRET } });
    away = true;
    t.equal((await visit(fresh, new Jar(), `${ISSUER}/jwks`)).statusCode, 503);
    away = false;
    t.equal((await visit(fresh, new Jar(), `${ISSUER}/jwks`)).statusCode, 200, 'and is built once it is back');
  });
});
