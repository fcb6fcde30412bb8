import t from 'tap';
import { build, testDb } from '../helpers/build.ts';

const PAGE = '/acme-cloud/docs/first-steps';

t.test('was-this-helpful without JavaScript', async (t) => {
  const db = await testDb(t);
  const app = await build(t, { db });
  const page = await app.inject(PAGE);
  const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
  t.ok(token, 'the page carries a form token');
  t.match(page.body, /<form[^>]+method="post"[^>]+action="\/feedback"|<form[^>]+action="\/feedback"[^>]+method="post"/i);
  const form = (fields: Record<string, string>) => new URLSearchParams({ _csrf: token as string, entryId: 'acme-cloud-first-steps', returnTo: PAGE, ...fields }).toString();
  const post = (fields: Record<string, string>, headers: Record<string, string> = {}) => app.inject({
    method: 'POST', url: '/feedback', payload: form(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'localhost', ...headers },
  });
  const rows = () => db.query<{ helpful: boolean; reason: string | null }>(`select helpful, reason from feedback where entry_id = 'acme-cloud-first-steps'`);

  t.test('yes is stored before the response and the visitor lands back with thanks', async (t) => {
    const res = await post({ helpful: 'yes' }, { origin: 'http://localhost' });
    t.equal(res.statusCode, 303);
    t.equal(res.headers.location, `${PAGE}?feedback=thanks#feedback`);
    t.same(await rows(), [{ helpful: true, reason: null }]);
    const cookie = res.cookies.find((c) => c.name === 'sp_visitor');
    t.ok(cookie?.httpOnly, 'a visitor cookie keeps answers to one per visitor');
    const thanks = await app.inject(`${PAGE}?feedback=thanks`);
    t.match(thanks.body, 'Thanks for your feedback.');

    const again = await post({ helpful: 'yes' }, { cookie: `sp_visitor=${cookie?.value}` });
    t.equal(again.statusCode, 303);
    t.equal((await rows()).length, 1, 'a repeated submission is not counted twice');

    const no = await post({ helpful: 'no' }, { cookie: `sp_visitor=${cookie?.value}` });
    t.equal(no.headers.location, `${PAGE}?feedback=reasons#feedback`, "'no' leads to the reasons");
    const reasons = await app.inject(`${PAGE}?feedback=reasons`);
    for (const label of ["It wasn&#x27;t accurate", "It wasn&#x27;t clear", "It wasn&#x27;t relevant"]) t.match(reasons.body, label);
    const reason = await post({ helpful: 'no', reason: 'not-clear' }, { cookie: `sp_visitor=${cookie?.value}` });
    t.equal(reason.headers.location, `${PAGE}?feedback=thanks&reason=not-clear#feedback`, 'the thanks state knows the reason');
    t.same(await rows(), [{ helpful: false, reason: 'not-clear' }], 'the reason completes the same answer');
  });

  t.test('a forged cross-site POST is refused and stores nothing', async (t) => {
    const before = (await rows()).length;
    const site = await post({ helpful: 'yes' }, { 'sec-fetch-site': 'cross-site' });
    t.equal(site.statusCode, 403);
    const origin = await post({ helpful: 'yes' }, { origin: 'https://evil.example' });
    t.equal(origin.statusCode, 403);
    const forged = await app.inject({
      method: 'POST', url: '/feedback', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: 'guess', entryId: 'acme-cloud-first-steps', returnTo: PAGE, helpful: 'yes' }).toString(),
    });
    t.equal(forged.statusCode, 403, 'a wrong token is refused');
    t.equal((await rows()).length, before);
  });

  t.test('bad input is a 400 naming the field', async (t) => {
    const bad = await post({ helpful: 'maybe' });
    t.equal(bad.statusCode, 400);
    t.match(bad.body, /helpful/);
    const offsite = await post({ helpful: 'yes', returnTo: '//evil.example/x' });
    t.equal(offsite.statusCode, 400);
    t.match(offsite.body, /returnTo/);
    const wrongPage = await post({ helpful: 'yes', returnTo: '/acme/kb/widget-crash' });
    t.equal(wrongPage.statusCode, 400, 'returnTo must be a page of the entry');
    const huge = await post({ helpful: 'yes', reason: 'x'.repeat(20_000) });
    t.equal(huge.statusCode, 413, 'an oversized body is refused');
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await app.inject({ method, url: '/feedback' });
      t.equal(res.statusCode, 405, `${method} /feedback is a method the path does not have, not a missing page`);
      t.equal(res.headers.allow, 'POST');
    }
  });
});

t.test('was-this-helpful in place: the same POST asking for JSON', async (t) => {
  const db = await testDb(t);
  const app = await build(t, { db, env: { RATE_LIMIT_MAX: '6', RATE_LIMIT_WINDOW: '600' } });
  const token = /name="_csrf" value="([^"]+)"/.exec((await app.inject(PAGE)).body)?.[1] ?? '';
  const json = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded', host: 'localhost', origin: 'http://localhost' };
  const post = (fields: Record<string, string>, headers: Record<string, string> = {}) => app.inject({
    method: 'POST', url: '/feedback', remoteAddress: '203.0.113.9', headers: { ...json, ...headers },
    payload: new URLSearchParams({ _csrf: token, entryId: 'acme-cloud-first-steps', returnTo: PAGE, ...fields }).toString(),
  });
  const rows = () => db.query<{ helpful: boolean; reason: string | null }>(`select helpful, reason from feedback where entry_id = 'acme-cloud-first-steps'`);

  const no = await post({ helpful: 'no' });
  t.equal(no.statusCode, 200, 'an answer, not a redirect');
  t.match(no.headers['content-type'], 'application/json');
  t.match(no.headers['cache-control'], 'no-store');
  t.same(no.json(), { state: 'reasons' }, "'no' leads to the reasons");
  const cookie = no.cookies.find((c) => c.name === 'sp_visitor');
  t.ok(cookie?.httpOnly, 'the visitor cookie is set as for the form');
  t.same(await rows(), [{ helpful: false, reason: null }], 'stored before the answer');

  const reason = await post({ helpful: 'no', reason: 'not-relevant' }, { cookie: `sp_visitor=${cookie?.value}` });
  t.same(reason.json(), { state: 'thanks', reason: 'not-relevant' });
  t.same(await rows(), [{ helpful: false, reason: 'not-relevant' }], 'the reason completes the same answer');
  const yes = await post({ helpful: 'yes' }, { cookie: `sp_visitor=${cookie?.value}` });
  t.same(yes.json(), { state: 'thanks' });

  const form = await post({ helpful: 'yes' }, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
  t.equal(form.statusCode, 303, 'a browser form post still gets the redirect');

  t.equal((await post({ helpful: 'yes' }, { origin: 'https://evil.example' })).statusCode, 403, 'cross-site refused');
  t.equal((await post({ helpful: 'yes', _csrf: 'guess' })).statusCode, 403, 'a wrong token refused');
  t.equal((await post({ helpful: 'maybe' })).statusCode, 400, 'bad input is a 400');
  const limited = await post({ helpful: 'yes' });
  t.equal(limited.statusCode, 429, 'the rate limit applies as to the form');
  t.equal((await rows()).length, 2, 'refusals store nothing (one answer per visitor: the cookie one, and the form one)');
});
