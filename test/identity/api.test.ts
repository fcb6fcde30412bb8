import t from 'tap';
import { build } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from './helpers.ts';
import { endAccountSessions } from '../../server/identity/revocation.ts';

const AUTH = '/gateway/api/customer-context/user/auth';
const COHORT = '/gateway/api/customer-context/customer/cohort/csm-experiment';
const HEARTBEAT = '/gateway/api/session/heartbeat';
const PAGE = '/acme-cloud/docs/first-steps';

t.test('anonymous: 401 JSON from all three calls, never cached', async (t) => {
  const app = await build(t, { env: { SESSION_SECRET } });
  for (const url of [AUTH, COHORT, HEARTBEAT]) {
    const res = await app.inject({ url });
    t.equal(res.statusCode, 401, url);
    t.match(res.headers['content-type'], /application\/json/, url);
    t.same(res.json(), { statusCode: 401, error: 'UNAUTHORIZED', message: 'You are not signed in.' }, url);
    t.match(res.headers['cache-control'], /no-store/, url);
    t.equal(res.headers['set-cookie'], undefined, url);
  }
});

t.test('signed in: who, their cohort attributes without nulls, and the heartbeat', async (t) => {
  const app = await build(t, { env: { SESSION_SECRET, OIDC_ISSUER: 'https://id.example', OIDC_CLIENT_SECRET: 'client-secret-for-tests' } });
  const cookie = sealed(app, { ...ADA, picture: 'https://avatars.example/ada.png' });
  const me = await app.inject({ url: AUTH, headers: { cookie } });
  t.equal(me.statusCode, 200);
  t.same(me.json(), { data: { userName: 'ada@customer.example', id: 'acct-ada', displayName: 'Ada Lovelace', photos: [{ value: 'https://avatars.example/ada.png' }] } });
  t.equal(me.headers['cache-control'], 'private, no-store');
  t.equal(me.headers.etag, undefined, 'no validator on a personal answer');
  const noName = await app.inject({ url: AUTH, headers: { cookie: sealed(app, { ...ADA, name: '', picture: undefined }) } });
  t.same(noName.json(), { data: { userName: 'ada@customer.example', id: 'acct-ada', displayName: 'ada@customer.example', photos: [] } });

  const cohort = await app.inject({ url: COHORT, headers: { cookie } });
  t.same(cohort.json(), { data: { attributes: { plan: 'premium', seats: 25, trial: false } } }, 'null values dropped (spec §7)');
  t.equal(cohort.headers['cache-control'], 'private, no-store');
  const none = await app.inject({ url: COHORT, headers: { cookie: sealed(app, { ...ADA, cohort: undefined }) } });
  t.same(none.json(), { data: { attributes: {} } });

  const beat = await app.inject({ url: HEARTBEAT, headers: { cookie } });
  t.equal(beat.statusCode, 204);
  t.equal(beat.body, '');
  t.equal(beat.headers['cache-control'], 'private, no-store');

  // Signed-in pages ask the heartbeat (the session-watch island); anonymous ones have nothing to watch.
  const page = await app.inject({ url: PAGE, headers: { cookie } });
  t.match(page.body, 'data-island="session-watch"', 'a signed-in page watches its session');
  t.match(page.body, /data-island-props="session-watch"[^>]*>[^<]*"heartbeatUrl":"\/gateway\/api\/session\/heartbeat"/);
  t.match(page.body, /"loginUrl":"\/auth\/login"/);
  t.notMatch((await app.inject({ url: PAGE })).body, 'session-watch', 'an anonymous page does not');
  await endAccountSessions(app.db, ADA.sub);
  const ended = await app.inject({ url: HEARTBEAT, headers: { cookie } });
  t.equal(ended.statusCode, 401, 'a session ended on the server: the heartbeat says so');
  t.match(ended.headers['cache-control'], /no-store/);
});

t.test('embedded accounts: fresh cohort attributes from the account; a failure answers an empty object (spec §8)', async (t) => {
  const app = await build(t, { env: { SESSION_SECRET } });
  const account = await app.accounts.create({ email: 'bea@customer.example', password: 'a long enough password', attributes: { tier: 'gold', region: null, seats: 3 } });
  const cookie = sealed(app, { ...ADA, sub: account.id, email: account.email, cohort: { stale: true } });
  const res = await app.inject({ url: COHORT, headers: { cookie } });
  t.same(res.json(), { data: { attributes: { tier: 'gold', seats: 3 } } });

  // The accounts cannot be read (a real failure of the query, not a stand-in).
  await app.db.query('alter table accounts rename to accounts_away');
  const failed = await app.inject({ url: COHORT, headers: { cookie } });
  t.equal(failed.statusCode, 200);
  t.same(failed.json(), { data: { attributes: {} } });
});
