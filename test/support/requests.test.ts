/**
 * My requests, a request's page and its attachments (issue "Requests the visitor can follow"): newest
 * first, nobody sees another account's requests, every other reader gets the same 404, and everything
 * is `private, no-store`.
 */
import t from 'tap';
import { build, failing, testDb } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';
import { BEA, PARKER, STAFF, referencesIn, sendRequest } from './requests-helpers.ts';
import { booleanFlag, flagsFile } from '../flags/helpers.ts';

const PARTNER_HOST = 'partners.help.example';

t.test('my requests', async (t) => {
  let down = false;
  const db = failing(await testDb(t), () => down);
  const app = await build(t, { db, env: { SESSION_SECRET, STAFF_EMAIL_DOMAIN: 'fernhollow.example', PARTNER_HOSTS: PARTNER_HOST } });
  const ada = sealed(app, ADA);
  const bea = sealed(app, BEA);
  const staff = sealed(app, STAFF);
  const parker = sealed(app, PARKER);
  const get = (url: string, cookie?: string, host?: string) =>
    app.inject({ url, headers: { ...(cookie ? { cookie } : {}), ...(host ? { host } : {}) } });

  const adaFirst = await sendRequest(app, ADA, { subject: 'First from Ada', product: 'acme-cloud' });
  const beaOnly = await sendRequest(app, BEA, { subject: 'Bea only' });
  const adaSecond = await sendRequest(app, ADA, { subject: 'Second from Ada' });
  // Sent signed out from Ada's verified address: hers too; from another address: nobody's.
  const adaAnonymous = await sendRequest(app, { email: 'ADA@customer.example' }, { subject: 'Sent signed out' });
  const stranger = await sendRequest(app, { email: 'eve@elsewhere.example' }, { subject: 'From a stranger' });
  const partnerRequest = await sendRequest(app, PARKER, { subject: 'Partner ticket', partner: true, kind: 'partnerContact' });
  const parkerOwn = await sendRequest(app, PARKER, { subject: 'Parker as a customer' });

  t.test('a signed-in customer sees their own requests, newest first, with their fields', async (t) => {
    const res = await get('/requests', ada);
    t.equal(res.statusCode, 200);
    t.equal(res.headers['cache-control'], 'private, no-store');
    t.same(referencesIn(res.body), [adaAnonymous, adaSecond, adaFirst]);
    t.match(res.body, '<h1>My support requests</h1>');
    t.match(res.body, 'Second from Ada');
    t.match(res.body, '<td>Acme Cloud</td>', 'the product by its name and deployment');
    t.match(res.body, 'Open');
    t.notMatch(res.body, 'Bea only');
    t.notMatch(res.body, 'From a stranger');
    t.notMatch(res.body, 'Partner ticket');

    const unverified = sealed(app, { ...ADA, emailVerified: false });
    t.same(referencesIn((await get('/requests', unverified)).body), [adaSecond, adaFirst], 'an unverified address does not claim anonymous requests');
    t.same(referencesIn((await get('/requests', bea)).body), [beaOnly], 'customer B sees only B\'s');
  });

  t.test('anonymous visitors are asked to sign in; nobody with no requests gets the empty state', async (t) => {
    const res = await get('/requests');
    t.equal(res.statusCode, 200);
    t.equal(res.headers['cache-control'], 'private, no-store');
    t.match(res.body, 'Sign in to see your requests');
    t.match(res.body, 'href="/auth/login?continue=%2Frequests"');
    t.same(referencesIn(res.body), []);
    const empty = await get('/requests', sealed(app, { ...ADA, sub: 'acct-new', email: 'new@customer.example' }));
    t.match(empty.body, 'No requests yet');
    t.match(empty.body, 'href="/contact"', 'the empty state leads to the contact page');
    t.equal((await get('/requests/', ada)).statusCode, 200, '/requests/ is the same page');
  });

  t.test('partner users on a partner host see their partner requests apart', async (t) => {
    const own = await get('/requests', parker, PARTNER_HOST);
    t.same(referencesIn(own.body), [parkerOwn]);
    t.match(own.body, 'href="/requests?view=partner"');
    const partner = await get('/requests?view=partner', parker, PARTNER_HOST);
    t.same(referencesIn(partner.body), [partnerRequest]);
    t.match(partner.body, /<a href="\/requests\?view=partner" aria-current="page">Partner requests<\/a>/);
    // Not a partner: one list of everything they sent, no partner tab, whatever the query says.
    const notPartner = await get('/requests?view=partner', ada);
    t.notMatch(notPartner.body, 'Partner requests');
    t.same(referencesIn(notPartner.body), [adaAnonymous, adaSecond, adaFirst]);
    t.same(referencesIn((await get('/requests?view=partner', bea, PARTNER_HOST)).body), [], 'another partner sees none of Parker\'s');
  });

  t.test('a request\'s page: the owner and staff only; everybody else the same 404', async (t) => {
    const mine = await get(`/requests/${adaFirst}`, ada);
    t.equal(mine.statusCode, 200);
    t.equal(mine.headers['cache-control'], 'private, no-store');
    t.match(mine.body, `Request ${adaFirst}: First from Ada`);
    t.match(mine.body, 'It broke.');
    t.notMatch(mine.body, 'Delivery to the helpdesk', 'delivery is for staff');
    t.notMatch(mine.body, 'Set the status');
    t.equal((await get(`/requests/${adaAnonymous}`, ada)).statusCode, 200, 'sent signed out from the verified address');

    const staffView = await get(`/requests/${beaOnly}`, staff);
    t.equal(staffView.statusCode, 200, 'staff read any request');
    t.match(staffView.body, 'Delivery to the helpdesk');
    t.match(staffView.body, 'no delivery channel is configured', 'with nothing configured, it is kept for staff');
    t.match(staffView.body, 'Set the status');

    const notFound = [
      [`/requests/${beaOnly}`, ada], [`/requests/${stranger}`, ada], [`/requests/${adaFirst}`, undefined],
      [`/requests/${adaFirst}`, bea], ['/requests/SR-99999', ada], ['/requests/SR-99999', staff], ['/requests/nonsense', staff],
      ['/requests/SR-1%27%3B', ada], [`/requests/${adaFirst.toLowerCase()}`, ada], [`/requests/${partnerRequest}`, sealed(app, { ...PARKER, sub: 'acct-other-partner' })],
    ] as const;
    for (const [url, cookie] of notFound) {
      const res = await get(url, cookie);
      t.equal(res.statusCode, 404, `${url} 404`);
      t.equal(res.headers['cache-control'], 'private, no-store');
      t.match(res.body, 'Request not found');
    }
    t.match((await get(`/requests/${adaFirst}`)).body, `continue=%2Frequests%2F${adaFirst}`, 'anonymous visitors may sign in and come back');
  });

  t.test('attachments download to the owner and staff only, never inline', async (t) => {
    const ref = await sendRequest(app, ADA, {
      subject: 'With files',
      attachments: [
        { filename: 'trace.log', contentType: 'text/plain', data: Buffer.from('line 1\n') },
        { filename: 'évil".html', contentType: 'text/html', data: Buffer.from('<script>alert(1)</script>') },
      ],
    });
    const page = await get(`/requests/${ref}`, ada);
    const links = [...page.body.matchAll(/href="(\/requests\/[^"]+\/attachments\/(\d+))"/g)].map((m) => m[1] as string);
    t.equal(links.length, 2);
    const log = await get(links[0] as string, ada);
    t.equal(log.statusCode, 200);
    t.equal(log.body, 'line 1\n');
    t.equal(log.headers['content-type'], 'text/plain; charset=utf-8');
    t.equal(log.headers['content-disposition'], 'attachment; filename="trace.log"; filename*=UTF-8\'\'trace.log');
    t.equal(log.headers['cache-control'], 'private, no-store');
    const html = await get(links[1] as string, staff);
    t.equal(html.statusCode, 200);
    t.equal(html.headers['content-type'], 'application/octet-stream', 'HTML is never served as HTML');
    t.match(String(html.headers['content-disposition']), /^attachment; filename="_vil_\.html"; filename\*=UTF-8''%C3%A9vil_\.html$/);
    t.match(String(html.headers['content-security-policy']), 'sandbox');
    for (const cookie of [bea, undefined]) t.equal((await get(links[0] as string, cookie)).statusCode, 404);
    const otherId = links[0]?.replace(ref, adaFirst) as string;
    t.equal((await get(otherId, ada)).statusCode, 404, 'an attachment id under another of one\'s requests');
    t.equal((await get(`/requests/${ref}/attachments/abc`, ada)).statusCode, 404);
  });

  t.test('pages of requests are plain links', async (t) => {
    const many = sealed(app, { ...ADA, sub: 'acct-many', email: 'many@customer.example' });
    for (let i = 0; i < 23; i += 1) await sendRequest(app, { ...ADA, sub: 'acct-many', email: 'many@customer.example' }, { subject: `Number ${i}` });
    const first = await get('/requests', many);
    t.equal(referencesIn(first.body).length, 20);
    t.match(first.body, 'Page 1 of 2');
    t.match(first.body, 'href="/requests?page=2" rel="next"');
    const second = await get('/requests?page=2', many);
    t.equal(referencesIn(second.body).length, 3);
    t.match(second.body, 'Number 0');
    t.match(second.body, 'href="/requests" rel="prev"');
    const beyond = await get('/requests?page=9', many);
    t.equal(beyond.statusCode, 303);
    t.equal(beyond.headers.location, '/requests?page=2');
    t.equal((await get('/requests?page=zero', many)).statusCode, 400);
  });

  t.test('the upgrade portal variant follows its flag, by account id, and shows', async (t) => {
    // csp_ui_deployment_upgrade_switch on for Ada's account only (spec §7: looked up by account id).
    const FLAGS_FILE = await flagsFile(t, {
      csp_ui_deployment_upgrade_switch: booleanFlag('off', { if: [{ '==': [{ var: 'targetingKey' }, ADA.sub] }, 'on', 'off'] }),
    });
    const upgraded = await build(t, { env: { SESSION_SECRET, FLAGS_FILE } });
    await sendRequest(upgraded, ADA);
    const res = await upgraded.inject({ url: '/requests', headers: { cookie: sealed(upgraded, ADA) } });
    t.match(res.body, 'data-portal-variant="upgrade"');
    t.match(res.body, 'Last updated');
    t.match(res.body, 'new support portal');
    await sendRequest(upgraded, BEA);
    const other = await upgraded.inject({ url: '/requests', headers: { cookie: sealed(upgraded, BEA) } });
    t.match(other.body, 'data-portal-variant="standard"', 'another account keeps the standard portal');
    const standard = await get('/requests', ada);
    t.match(standard.body, 'data-portal-variant="standard"');
    t.notMatch(standard.body, 'Last updated');
  });

  t.test('the page carries the legacy hash-form script under a nonce its CSP names', async (t) => {
    const res = await get('/requests', ada);
    const nonce = /<script nonce="([^"]+)">/.exec(res.body)?.[1];
    t.ok(nonce, 'the script has a nonce');
    t.match(String(res.headers['content-security-policy']), `script-src 'self' 'nonce-${nonce}'`);
    const again = /<script nonce="([^"]+)">/.exec((await get('/requests', ada)).body)?.[1];
    t.not(again, nonce, 'a new nonce per response');
    t.notMatch(String((await get(`/requests/${adaFirst}`, ada)).headers['content-security-policy']), 'nonce-', 'no other page has one');
  });

  t.test('the database away: a clean 503, never a 500', async (t) => {
    down = true;
    t.teardown(() => { down = false; });
    for (const url of ['/requests', `/requests/${adaFirst}`]) {
      const res = await get(url, ada);
      t.equal(res.statusCode, 503, url);
      t.notMatch(res.body, 'ECONNREFUSED');
    }
  });
});
