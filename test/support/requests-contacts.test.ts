/**
 * /named-contact (spec §2 account menu): the account's own named contacts, added with a validated form
 * (422 with what was typed), removed, and never another account's.
 */
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { build } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';
import { BEA } from './requests-helpers.ts';

const ORIGIN = 'https://help.example.test';

function post(app: FastifyInstance, cookie: string | undefined, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST', url: '/named-contact', payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, ...(cookie ? { cookie } : {}), ...headers },
  });
}

const tokenIn = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const namesIn = (html: string) => [...html.matchAll(/<tr><th scope="row">([^<]+)<\/th><td>([^<]+)<\/td>/g)].map((m) => `${m[1]} <${m[2]}>`);
const idsIn = (html: string) => [...html.matchAll(/name="id" value="(\d+)"/g)].map((m) => m[1] as string);

t.test('named contacts', async (t) => {
  const app = await build(t, { env: { SESSION_SECRET } });
  const ada = sealed(app, ADA);
  const bea = sealed(app, BEA);
  const page = (cookie?: string) => app.inject({ url: '/named-contact', headers: cookie ? { cookie } : {} });

  t.test('anonymous visitors are asked to sign in', async (t) => {
    const res = await page();
    t.equal(res.statusCode, 200);
    t.equal(res.headers['cache-control'], 'private, no-store');
    t.match(res.body, 'Sign in to manage your named contacts');
    t.match(res.body, 'href="/auth/login?continue=%2Fnamed-contact"');
    t.notMatch(res.body, 'name="_csrf"');
    t.equal((await post(app, undefined, { intent: 'add', name: 'X', email: 'x@example.com', _csrf: 'x' })).statusCode, 401);
  });

  t.test('add, validate, remove: post/redirect/get', async (t) => {
    const empty = await page(ada);
    t.match(empty.body, 'You have no named contacts yet');
    const token = tokenIn(empty.body);

    const added = await post(app, ada, { _csrf: token, intent: 'add', name: 'Grace Hopper', email: 'grace@customer.example' });
    t.equal(added.statusCode, 303);
    t.equal(added.headers.location, '/named-contact?done=added');
    const listed = await app.inject({ url: '/named-contact?done=added', headers: { cookie: ada } });
    t.match(listed.body, 'The contact was added.');
    t.same(namesIn(listed.body), ['Grace Hopper <grace@customer.example>']);

    const bad = await post(app, ada, { _csrf: token, intent: 'add', name: '', email: 'not an address' });
    t.equal(bad.statusCode, 422);
    t.match(bad.body, '<title>Error: Named contacts');
    t.match(bad.body, 'role="alert"');
    t.match(bad.body, '<a href="#contact-name">Name: Enter the contact&#x27;s name.</a>');
    t.match(bad.body, '<a href="#contact-email">E-mail: Enter an e-mail address like name@example.com.</a>');
    t.match(bad.body, /<input id="contact-email" name="email" type="email"[^>]*aria-invalid="true" aria-describedby="contact-email-error" value="not an address"/);
    const long = await post(app, ada, { _csrf: token, intent: 'add', name: 'x'.repeat(201), email: 'long@customer.example' });
    t.equal(long.statusCode, 422);
    t.match(long.body, 'Keep the name to 200 characters or fewer.');
    t.match(long.body, 'value="long@customer.example"', 'the other field is kept');

    const again = await post(app, ada, { _csrf: token, intent: 'add', name: 'Grace again', email: 'GRACE@customer.example' });
    t.equal(again.statusCode, 422);
    t.match(again.body, 'already one of your named contacts');

    const expired = await post(app, ada, { _csrf: 'made-up', intent: 'add', name: 'Al', email: 'al@customer.example' });
    t.equal(expired.statusCode, 403);
    t.match(expired.body, 'This form has expired');
    t.match(expired.body, 'value="al@customer.example"');

    const [id] = idsIn(listed.body);
    const removed = await post(app, ada, { _csrf: token, intent: 'remove', id: id as string });
    t.equal(removed.statusCode, 303);
    t.equal(removed.headers.location, '/named-contact?done=removed');
    t.same(namesIn((await page(ada)).body), []);
  });

  t.test('one account never sees or removes another\'s contacts', async (t) => {
    const adaToken = tokenIn((await page(ada)).body);
    await post(app, ada, { _csrf: adaToken, intent: 'add', name: 'Ada\'s contact', email: 'one@customer.example' });
    const adaId = idsIn((await page(ada)).body)[0] as string;
    const beaPage = await page(bea);
    t.same(namesIn(beaPage.body), []);
    const beaToken = tokenIn(beaPage.body);
    t.equal((await post(app, bea, { _csrf: adaToken, intent: 'remove', id: adaId })).statusCode, 403, 'Ada\'s form token is not Bea\'s');
    t.equal((await post(app, bea, { _csrf: beaToken, intent: 'remove', id: adaId })).statusCode, 303);
    t.same(namesIn((await page(ada)).body), ['Ada&#x27;s contact <one@customer.example>'], 'still there');
  });

  t.test('another site\'s form is refused', async (t) => {
    const token = tokenIn((await page(ada)).body);
    const res = await post(app, ada, { _csrf: token, intent: 'add', name: 'Mallory', email: 'm@evil.example' }, { origin: 'https://evil.example' });
    t.equal(res.statusCode, 403);
    t.notMatch((await page(ada)).body, 'Mallory');
  });
});
