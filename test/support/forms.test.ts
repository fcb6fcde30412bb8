import t from 'tap';
import { PassThrough } from 'node:stream';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { build, failing, testDb, SAMPLE_CONTENT } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';

/**
 * The support forms through the whole app (issue 'Forms that work without JavaScript', 'Errors and
 * safety'): one app on the sample content, with a small rate limit and small attachment caps. Each test
 * posts from its own client network, so the per-network limit of one never touches another.
 */
const TOPIC = '/tracklight-cloud/docs/save-and-share-a-filter';
const KB = '/codebarn/kb/diff-too-large-to-display';
const BOB = { ...ADA, sub: 'acct-bob', email: 'bob@customer.example', name: 'Bob Builder' };

let down = false;
let network = 0;
/** A client address in a network of its own. */
const nextAddress = () => `10.${Math.floor(++network / 250)}.${network % 250}.7`;

t.test('support forms', async (t) => {
  const db = await testDb(t);
  const logStream = new PassThrough();
  let logs = '';
  logStream.on('data', (chunk: Buffer) => { logs += chunk.toString(); });
  const app = await build(t, {
    contentDir: SAMPLE_CONTENT, db: failing(db, () => down), logStream,
    env: { SESSION_SECRET, LOG_LEVEL: 'info', ACCESS_LOG: 'info', REQUEST_RATE_LIMIT: '3', RATE_LIMIT_MAX: '1000', ATTACHMENT_MAX_FILES: '2', ATTACHMENT_MAX_BYTES: '2048' },
  });
  const ada = sealed(app, ADA);
  const bob = sealed(app, BOB);
  const count = async () => (await db.query<{ n: number }>('select count(*)::int as n from support_requests'))[0]?.n ?? 0;

  t.test('the contact page carries the form contract and is never shared', async (t) => {
    const first = await app.inject('/contact');
    t.equal(first.statusCode, 200);
    t.equal(first.headers['cache-control'], 'private, no-store');
    const html = first.body;
    t.match(html, /<form method="post" action="\/contact" data-support-form="" novalidate="" class="support-form" encType="multipart\/form-data"/);
    t.match(html, /<input type="hidden" name="_csrf" value="[^"]+"\/>/);
    t.match(html, /<div class="hp-field" aria-hidden="true">.*name="website" tabindex="-1"/);
    t.match(html, '<input type="email" id="field-email" name="email"', 'anonymous visitors give an e-mail address');
    t.match(html, '<optgroup label="Codebarn Data Center"><option value="8.19">', 'versions come from the stored products');
    const second = await app.inject('/contact');
    t.not(formOf(second).submission, formOf(first).submission, 'a fresh submission key on every render');
    const preselected = await app.inject('/contact?product=keyward-cloud');
    t.match(preselected.body, '<option value="keyward-cloud" selected="">', '?product= preselects the product');
  });

  t.test('a valid request is stored, then redirected (303) to a confirmation showing its reference', async (t) => {
    const ip = nextAddress();
    const page = await app.inject('/contact');
    const res = await post(app, '/contact', { ...formOf(page), ...CONTACT }, { ip });
    t.equal(res.statusCode, 303);
    const location = String(res.headers.location);
    const reference = /^\/request-sent\/(SR-\d+)\?token=/.exec(location)?.[1];
    t.ok(reference, `the confirmation URL names the reference (${location})`);
    const stored = await app.supportRequests.get(reference as string);
    t.match(stored, {
      formId: 'contact-form', kind: 'contact', accountId: null, email: 'visitor@customer.example', name: 'Vera Visitor',
      partner: false, subject: 'Pushes to main are rejected', product: 'codebarn-data-center', version: '9.4', severity: 'high', language: 'en-US',
    });
    t.same(stored?.fields, { product: 'codebarn-data-center', version: '9.4', severity: 'high', subject: 'Pushes to main are rejected',
      description: 'Every push to the main branch is rejected with a hook error.' }, 'the e-mail and name are not repeated in fields');
    const sent = await app.inject(location);
    t.equal(sent.statusCode, 200);
    t.equal(sent.headers['cache-control'], 'private, no-store');
    t.match(sent.body, `<strong data-reference="${reference}">${reference}</strong>`);
    t.notMatch(sent.body, /href="\/requests[/"](?![A-Z0-9-]+\?key=)/, 'an anonymous visitor gets no link to the requests pages');
    t.match(sent.body, new RegExp(`href="/requests/${reference}\\?key=[A-Za-z0-9_-]{32}"`), 'but the private link to this request');
    t.equal((await app.inject(location)).body.includes(reference as string), true, 'a reload shows the same page');
    t.equal((await app.inject(`/request-sent/${reference}`)).statusCode, 404, 'without the signed link: not found');
    t.equal((await app.inject(`/request-sent/${reference}?token=${formOf(page).csrf}`)).statusCode, 404, 'another token does not open it');
    t.equal((await app.inject({ url: `/request-sent/${reference}`, headers: { cookie: ada } })).statusCode, 404, 'nor another account');
  });

  t.test('a double submit or a reload of the POST stores one request', async (t) => {
    const ip = nextAddress();
    const fields = { ...formOf(await app.inject('/contact')), ...CONTACT };
    const before = await count();
    const [a, b] = await Promise.all([post(app, '/contact', fields, { ip }), post(app, '/contact', fields, { ip })]);
    const c = await post(app, '/contact', fields, { ip });
    t.same([a.statusCode, b.statusCode, c.statusCode], [303, 303, 303]);
    t.equal(new Set([a, b, c].map((r) => r.headers.location?.split('?')[0])).size, 1, 'the same reference each time');
    t.equal(await count(), before + 1, 'one request stored');
    // A form sent again is counted once against the hourly limit (3): two more new requests still go through.
    const other = nextAddress();
    const once = { ...formOf(await app.inject('/contact')), ...CONTACT };
    for (let i = 0; i < 4; i++) t.equal((await post(app, '/contact', once, { ip: other })).statusCode, 303);
    for (const subject of ['Another request', 'And one more']) {
      t.equal((await post(app, '/contact', { ...formOf(await app.inject('/contact')), ...CONTACT, subject }, { ip: other })).statusCode, 303);
    }
  });

  t.test('the same submission key with other contents is refused and asks to send again', async (t) => {
    const ip = nextAddress();
    const fields = { ...formOf(await app.inject('/contact')), ...CONTACT };
    t.equal((await post(app, '/contact', fields, { ip })).statusCode, 303);
    const before = await count();
    const res = await post(app, '/contact', { ...fields, subject: 'Something else entirely' }, { ip });
    t.equal(res.statusCode, 409);
    t.match(res.body, 'already used to send a different request');
    t.match(res.body, 'value="Something else entirely"', 'what was typed is kept');
    t.not(formOf(res).submission, fields.submission, 'with a fresh submission key, so sending again works');
    t.equal((await post(app, '/contact', { ...fields, ...formOf(res), subject: 'Something else entirely' }, { ip })).statusCode, 303);
    t.equal(await count(), before + 1);
  });

  t.test('each validation rule has its message, and everything typed comes back', async (t) => {
    const ip = nextAddress();
    const before = await count();
    const check = async (path: string, fields: Record<string, string>, field: string, message: string | RegExp) => {
      const page = await app.inject(path);
      const res = await post(app, path, { ...formOf(page), ...fields }, { ip });
      t.equal(res.statusCode, 422, `${path} ${field}: 422`);
      const summary = between(res.body, '<div class="error-summary" id="error-summary" role="alert" tabindex="-1"', '</div>');
      t.match(summary, `<a href="#field-${field}">`, `${field}: the summary links to the field`);
      t.match(summary, message, `${field}: ${String(message)}`);
      const control = new RegExp(`<(?:input|select|textarea)[^>]*id="field-${field}"[^>]*>`).exec(res.body)?.[0] ?? '';
      t.match(control, 'aria-invalid="true"', `${field}: aria-invalid`);
      t.match(control, new RegExp(`aria-describedby="[^"]*field-${field}-error`), `${field}: described by its message`);
      t.match(res.body, new RegExp(`<p class="field-error" id="field-${field}-error">`));
      return res;
    };
    await check('/contact', { ...CONTACT, email: '' }, 'email', '“Your e-mail address” is required');
    await check('/contact', { ...CONTACT, email: 'not-an-address' }, 'email', 'Enter an e-mail address like name@example.com');
    await check('/contact', { ...CONTACT, product: '' }, 'product', 'Choose an answer for “Product”');
    await check('/contact', { ...CONTACT, product: 'no-such-product' }, 'product', 'Choose one of the options for “Product”');
    await check('/contact', { ...CONTACT, version: '1.0' }, 'version', 'Choose a version of Codebarn Data Center');
    await check('/contact', { ...CONTACT, product: 'codebarn-cloud', version: '9.4' }, 'version', 'Choose a version of Codebarn Cloud');
    await check('/contact', { ...CONTACT, severity: 'apocalyptic' }, 'severity', 'Choose one of the options for “How much is this affecting you?”');
    await check('/contact', { ...CONTACT, subject: 'Hi' }, 'subject', '“Summary” must be at least 5 characters');
    await check('/contact', { ...CONTACT, subject: 'x'.repeat(151) }, 'subject', '“Summary” must be 150 characters or fewer');
    await check('/contact', { ...CONTACT, subject: 'Bell \u0007 in text' }, 'subject', 'contains characters that cannot be sent');
    await check('/contact', { ...CONTACT, description: 'Too short' }, 'description', 'must be at least 20 characters');
    await check('/file-download', { email: 'a@customer.example', subject: 'not a reference', fileName: 'logs.zip', agree: 'yes' }, 'subject',
      '“Support request reference” is not in the format asked for');
    await check('/file-download', { email: 'a@customer.example', subject: 'SR-10234', fileName: 'logs.zip' }, 'agree', 'Tick “I will keep this file');
    await check('/statuspage-contact', { email: 'a@customer.example', topic: 'weather', subject: 'Subscribers', description: 'Subscribers do not get e-mails.' },
      'topic', 'Choose one of the options for “What is it about?”');

    // Several errors at once: all of them, in the form's order, with every value kept (escaped).
    const page = await app.inject('/contact');
    const res = await post(app, '/contact', { ...formOf(page), email: 'bad', name: 'Zoë <b>Z</b>', product: 'codebarn-data-center', subject: 'Hi',
      severity: '', description: 'Line one\r\nline two, still too' }, { ip });
    t.equal(res.statusCode, 422);
    t.equal(res.headers['cache-control'], 'no-store');
    const links = [...between(res.body, '<div class="error-summary"', '</div>').matchAll(/href="#field-([a-z]+)"/g)].map((m) => m[1]);
    t.same(links, ['email', 'severity', 'subject'], 'every error, in the form\'s order');
    t.match(res.body, 'value="bad"');
    t.match(res.body, 'value="Zoë &lt;b&gt;Z&lt;/b&gt;"');
    t.match(res.body, '<option value="codebarn-data-center" selected="">');
    t.match(res.body, 'Line one\r\nline two, still too</textarea>');
    t.match(res.body, '<title>', 'a whole page');
    t.equal(await count(), before, 'nothing stored');
  });

  t.test('a signed-in visitor sends the authenticated form: the session gives who they are', async (t) => {
    const page = await app.inject({ url: '/contact', headers: { cookie: ada } });
    t.equal(page.headers['cache-control'], 'private, no-store');
    t.notMatch(page.body, 'name="email"', 'no e-mail field to edit');
    t.match(page.body, 'Signed in as Ada Lovelace (ada@customer.example)');
    const res = await post(app, '/contact', { ...formOf(page), ...CONTACT, email: 'someone-else@evil.example' }, { ip: nextAddress(), cookie: ada });
    t.equal(res.statusCode, 303);
    const location = String(res.headers.location);
    const reference = /(SR-\d+)/.exec(location)?.[1] as string;
    t.match(await app.supportRequests.get(reference), { accountId: 'acct-ada', email: 'ada@customer.example', name: 'Ada Lovelace' },
      'the account id and the session\'s address, not a posted one');
    const sent = await app.inject({ url: location, headers: { cookie: ada } });
    t.match(sent.body, `href="/requests/${reference}"`, 'the owner is led to the request in their requests');
    const mine = await app.inject({ url: `/request-sent/${reference}`, headers: { cookie: ada } });
    t.equal(mine.statusCode, 200, 'the owner needs no link token');
    t.equal((await app.inject({ url: `/request-sent/${reference}`, headers: { cookie: bob } })).statusCode, 404, 'another account gets not found');
    const detail = await app.inject({ url: `/requests/${reference}`, headers: { cookie: ada } });
    t.equal(detail.statusCode, 200);
    t.match(detail.body, '<dt>What is happening?</dt>', 'the request\'s page shows each field under its form\'s label');
    const facts = /<dl class="request-facts">(.*?)<\/dl>/s.exec(detail.body)?.[1] ?? '';
    t.match(facts, '<dd>Codebarn Data Center</dd>', 'the product with its deployment, as the form offered it');
    t.match(facts, '<dd>High: a core feature does not work</dd>', 'the severity by its label');
    const sentFields = /<dl class="request-fields">(.*?)<\/dl>/s.exec(detail.body)?.[1] ?? '';
    t.match(sentFields, '>Codebarn Data Center</dd>');
    t.match(sentFields, '>High: a core feature does not work</dd>');
    t.notMatch(detail.body, />(codebarn-data-center|high)<\/dd>/, 'no raw value shown');
    const list = await app.inject({ url: '/requests', headers: { cookie: ada } });
    t.match(list.body, '<td>Codebarn Data Center</td>', 'the list names the product with its deployment');
  });

  t.test('hot contact is for signed-in customers', async (t) => {
    const anonymous = await app.inject('/hot-contact');
    t.equal(anonymous.statusCode, 200);
    t.match(anonymous.body, '>Log in to contact support</a>');
    t.match(anonymous.body, /href="\/auth\/login\?continue=[^"]*%2Fhot-contact"/);
    t.notMatch(anonymous.body, 'data-support-form');
    const page = await app.inject({ url: '/hot-contact', headers: { cookie: ada } });
    const fields = { ...formOf(page), product: 'keyward-cloud', subject: 'Nobody can sign in', startedAt: '2026-05-01 09:30 UTC', impact: 'everyone',
      description: 'All sign-ins fail with an error since this morning.', phone: '+44 20 7946 0000' };
    const before = await count();
    const refused = await post(app, '/hot-contact', fields, { ip: nextAddress() });
    t.equal(refused.statusCode, 403, 'an anonymous POST is refused');
    t.match(refused.body, 'Log in to contact support');
    t.equal(await count(), before);
    const bad = await post(app, '/hot-contact', { ...fields, phone: 'call me maybe' }, { ip: nextAddress(), cookie: ada });
    t.equal(bad.statusCode, 422);
    t.match(bad.body, '“A phone number we can call during the outage” is not in the format asked for');
    const res = await post(app, '/hot-contact', fields, { ip: nextAddress(), cookie: ada });
    t.equal(res.statusCode, 303);
    const stored = await app.supportRequests.get(/(SR-\d+)/.exec(String(res.headers.location))?.[1] as string);
    t.match(stored, { kind: 'hotContact', formId: 'hot-contact-form', accountId: 'acct-ada', fields: { impact: 'everyone', startedAt: '2026-05-01 09:30 UTC' } });
    const detail = await app.inject({ url: `/requests/${stored?.reference}`, headers: { cookie: ada } });
    t.match(detail.body, '>Everyone in the organisation</dd>', 'a chosen option shows by its label');
  });

  t.test('the partner page sets the partner flag and shows the partner portal button', async (t) => {
    const page = await app.inject('/partnercontact');
    t.match(page.body, 'href="https://partners.fernhollow.example/portal"');
    const res = await post(app, '/partnercontact', { ...formOf(page), ...CONTACT, customerName: 'Initech' }, { ip: nextAddress() });
    t.equal(res.statusCode, 303);
    t.match(await app.supportRequests.get(/(SR-\d+)/.exec(String(res.headers.location))?.[1] as string),
      { kind: 'partnerContact', partner: true, fields: { customerName: 'Initech' } });
  });

  t.test('the Japanese contact page speaks Japanese, errors and confirmation too', async (t) => {
    const page = await app.inject('/ja/contact');
    t.match(page.body, 'action="/ja/contact"');
    const bad = await post(app, '/ja/contact', { ...formOf(page), ...CONTACT, subject: '短い' }, { ip: nextAddress() });
    t.equal(bad.statusCode, 422);
    t.match(bad.body, '「概要」は 5 文字以上で入力してください');
    const res = await post(app, '/ja/contact', { ...formOf(page), ...CONTACT, subject: 'プッシュが拒否されます' }, { ip: nextAddress() });
    const sent = await app.inject(String(res.headers.location));
    t.match(sent.body, '<html lang="ja"');
    t.match(sent.body, 'リクエストを送信しました');
    t.match(await app.supportRequests.get(/(SR-\d+)/.exec(String(res.headers.location))?.[1] as string), { language: 'ja-JP' });
  });

  t.test('an expired or missing form token, or another site, is refused and keeps what was typed', async (t) => {
    const ip = nextAddress();
    const before = await count();
    const page = await app.inject('/contact');
    const expired = await post(app, '/contact', { ...formOf(page), ...CONTACT, _csrf: 'k.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, { ip });
    t.equal(expired.statusCode, 403);
    t.match(expired.body, 'This form had expired');
    t.match(expired.body, 'value="Pushes to main are rejected"');
    const missing = await post(app, '/contact', { ...CONTACT }, { ip });
    t.equal(missing.statusCode, 403);
    const noKey = await post(app, '/contact', { ...formOf(page), ...CONTACT, submission: '' }, { ip });
    t.equal(noKey.statusCode, 403, 'a form without its submission key is refused too');
    const crossSite = await post(app, '/contact', { ...formOf(page), ...CONTACT }, { ip, headers: { origin: 'https://evil.example' } });
    t.equal(crossSite.statusCode, 403);
    t.match(crossSite.body, 'Support requests can only be sent from this site.');
    t.equal(await count(), before, 'nothing stored');
  });

  t.test('a filled honeypot is refused in neutral words, stores nothing and keeps what was typed', async (t) => {
    const before = await count();
    const page = await app.inject('/contact');
    const res = await post(app, '/contact', { ...formOf(page), ...CONTACT, website: 'https://spam.example' }, { ip: nextAddress() });
    t.equal(res.statusCode, 422);
    t.match(res.body, 'Your request could not be sent.');
    t.notMatch(res.body, /SR-\d+/);
    t.match(res.body, 'value="Pushes to main are rejected"');
    t.match(res.body, 'name="website" tabindex="-1" autoComplete="off" value=""', 'the honeypot comes back empty');
    t.equal(await count(), before);
  });

  t.test('REQUEST_RATE_LIMIT per client network and per account, each refusal keeping what was typed', async (t) => {
    const ip = nextAddress();
    const send = async (extra: { ip: string; cookie?: string }, subject: string) =>
      post(app, '/contact', { ...formOf(await app.inject({ url: '/contact', headers: extra.cookie ? { cookie: extra.cookie } : {} })), ...CONTACT, subject }, extra);
    for (let i = 1; i <= 3; i++) t.equal((await send({ ip }, `Request number ${i}`)).statusCode, 303, `request ${i} of 3`);
    const over = await send({ ip: ip.replace(/\.7$/, '.99') }, 'Request number 4');
    t.equal(over.statusCode, 429, 'the fourth from the same /24 network is refused');
    t.ok(Number(over.headers['retry-after']) > 0, 'with Retry-After');
    t.match(over.body, 'You have sent many requests in the last hour');
    t.match(over.body, 'value="Request number 4"');
    // An account is limited wherever it sends from.
    for (let i = 1; i <= 3; i++) t.equal((await send({ ip: nextAddress(), cookie: bob }, `Bob number ${i}`)).statusCode, 303);
    t.equal((await send({ ip: nextAddress(), cookie: bob }, 'Bob number 4')).statusCode, 429, 'the account\'s fourth, from another network');
  });

  t.test('attachments: stored with the request, refused by count, size, type and content with the file named', async (t) => {
    const ip = nextAddress();
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 1)]);
    const send = async (files: { name: string; data: Buffer }[], extra: Record<string, string> = {}) => {
      const page = await app.inject('/contact');
      return postMultipart(app, '/contact', { ...formOf(page), ...CONTACT, ...extra }, files, ip);
    };
    const ok = await send([{ name: 'screen.png', data: png }, { name: 'server.log', data: Buffer.from('ERROR hook failed\n') }]);
    t.equal(ok.statusCode, 303);
    const reference = /(SR-\d+)/.exec(String(ok.headers.location))?.[1] as string;
    t.same((await app.supportRequests.attachments(reference)).map((a) => [a.filename, a.contentType, a.size]),
      [['screen.png', 'image/png', 108], ['server.log', 'text/plain', 18]]);
    t.same((await app.supportRequests.attachment(reference, (await app.supportRequests.attachments(reference))[0]!.id))?.data, png);

    const before = await count();
    const refused = async (files: { name: string; data: Buffer }[], message: string) => {
      const res = await send(files, { subject: 'Files refused here' });
      t.equal(res.statusCode, 422, message);
      const summary = between(res.body, '<div class="error-summary"', '</div>');
      t.match(summary, '<a href="#field-attachments">');
      t.match(summary, message);
      t.match(res.body, 'value="Files refused here"', 'everything else typed is kept');
      t.match(res.body, 'please choose them again', 'and the visitor is told to choose the files again');
    };
    await refused([{ name: 'a.png', data: png }, { name: 'b.png', data: png }, { name: 'third.png', data: png }], 'Attach at most 2 files: third.png not sent');
    await refused([{ name: 'huge.log', data: Buffer.alloc(4096, 0x41) }], 'huge.log is larger than 2 KB');
    await refused([{ name: 'tool.exe', data: Buffer.from('MZ') }], 'tool.exe is not a file type we accept');
    await refused([{ name: 'photo.png', data: Buffer.from('just some text') }], 'photo.png does not look like the kind of file its name says');
    await refused([{ name: 'notes.txt', data: Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0]) }], 'notes.txt does not look like the kind of file its name says');
    t.equal(await count(), before, 'nothing stored');
    const empty = await send([{ name: '', data: Buffer.alloc(0) }]);
    t.equal(empty.statusCode, 303, 'an empty file input (no file chosen) is no attachment');
    // A file name with a NUL (which the database cannot keep as text) is stored without them.
    const odd = await send([{ name: 'crash\u0000report.log', data: Buffer.from('ERROR\n') }], { subject: 'An odd file name' });
    t.equal(odd.statusCode, 303, 'a control character in a file name is no server error');
    const oddRef = /(SR-\d+)/.exec(String(odd.headers.location))?.[1] as string;
    t.same((await app.supportRequests.attachments(oddRef)).map((a) => a.filename), ['crashreport.log']);
  });

  t.test('with the database away at submit: a clear 503, the form refilled, nothing acknowledged', async (t) => {
    const page = await app.inject('/contact');
    const before = await count();
    down = true;
    let res: LightMyRequestResponse;
    try {
      res = await post(app, '/contact', { ...formOf(page), ...CONTACT, subject: 'Sent while the database is away' }, { ip: nextAddress() });
    } finally {
      down = false;
    }
    t.equal(res.statusCode, 503);
    t.equal(res.headers['retry-after'], '5');
    t.match(res.body, 'Your request was not sent');
    t.match(res.body, 'value="Sent while the database is away"');
    t.notMatch(res.body, /SR-\d+/, 'no reference');
    t.equal(await count(), before, 'nothing stored');
    const again = await post(app, '/contact', { ...formOf(res), ...CONTACT, subject: 'Sent while the database is away' }, { ip: nextAddress() });
    t.equal(again.statusCode, 303, 'sending the refilled form again works once it is back');
  });

  t.test('report a problem: a short form of its own, carrying the page, its id and product', async (t) => {
    const kb = await app.inject(KB);
    t.match(kb.body, `href="/report-problem?page=${encodeURIComponent(KB)}"`, 'KB articles link to it');
    t.match((await app.inject(TOPIC)).body, `href="/report-problem?page=${encodeURIComponent(TOPIC)}"`, 'topics too');
    const page = await app.inject(`/report-problem?page=${encodeURIComponent(KB)}`);
    t.equal(page.statusCode, 200);
    t.equal(page.headers['cache-control'], 'private, no-store');
    t.match(page.body, `<dd>${KB}</dd>`);
    t.match(page.body, 'action="/report-problem"');
    t.match(page.body, `<input type="hidden" name="page" value="${KB}"/>`);
    const bad = await post(app, '/report-problem', { ...formOf(page), page: KB, problem: 'wrong', details: 'short' }, { ip: nextAddress() });
    t.equal(bad.statusCode, 422);
    t.match(bad.body, `<dd>${KB}</dd>`, 'the page is still named when it comes back');
    const res = await post(app, '/report-problem', { ...formOf(page), page: KB, problem: 'out-of-date', details: 'The steps name a menu that is gone.' }, { ip: nextAddress() });
    t.equal(res.statusCode, 303);
    const stored = await app.supportRequests.get(/(SR-\d+)/.exec(String(res.headers.location))?.[1] as string);
    t.match(stored, { kind: 'reportProblem', formId: 'report-problem-form', email: '', subject: `Report a problem with this page: ${KB}`,
      context: { pageUrl: KB, productName: String, pageId: String }, fields: { problem: 'out-of-date' } });
    t.ok(stored?.context.pageId && stored.context.productName, `page id ${stored?.context.pageId}, product ${stored?.context.productName}`);
    const sent = await app.inject(String(res.headers.location));
    t.match(sent.body, 'Report sent');
    t.match(sent.body, `href="${KB}"`, 'back to the page');
    const made = await post(app, '/report-problem', { ...formOf(await app.inject('/report-problem')), page: 'https://evil.example/x', problem: 'other', details: 'A page that is not ours at all.' }, { ip: nextAddress() });
    t.equal(made.statusCode, 303);
    t.same((await app.supportRequests.get(/(SR-\d+)/.exec(String(made.headers.location))?.[1] as string))?.context,
      { host: 'localhost' }, 'a page that is not one of ours is not recorded');
  });

  t.test("'No' with a reason offers the contact form with the page, product and reason filled in", async (t) => {
    const thanks = await app.inject(`${TOPIC}?feedback=thanks&reason=not-clear`);
    const href = `/contact?page=${encodeURIComponent(TOPIC)}&amp;reason=not-clear`;
    t.match(thanks.body, `<a href="${href}">Contact support about this page</a>`);
    // The feedback island carries the link's text in its props, for a reason chosen in place; no link is shown.
    t.notMatch((await app.inject(`${TOPIC}?feedback=thanks`)).body, />Contact support about this page<\/a>/, 'not without a reason');
    const page = await app.inject(`/contact?page=${encodeURIComponent(TOPIC)}&reason=not-clear`);
    t.match(page.body, '<option value="tracklight-cloud" selected="">', 'the page\'s product is chosen');
    t.match(page.body, `<dd>${TOPIC}</dd>`);
    t.match(page.body, "<dd>It wasn&#x27;t clear</dd>");
    const res = await post(app, '/contact', { ...formOf(page), ...CONTACT, product: 'tracklight-cloud', version: '', page: TOPIC, reason: 'not-clear' }, { ip: nextAddress() });
    t.equal(res.statusCode, 303);
    t.match((await app.supportRequests.get(/(SR-\d+)/.exec(String(res.headers.location))?.[1] as string))?.context,
      { pageUrl: TOPIC, feedbackReason: 'not-clear', productName: 'Tracklight Cloud' });
    const odd = await app.inject('/contact?page=%2Fno%2Fsuch%2Fpage&reason=because');
    t.notMatch(odd.body, 'class="form-about"', 'an unknown page or reason fills in nothing');
  });

  t.test('body limits: an urlencoded form over 512 KB is refused before it is read', async (t) => {
    const res = await post(app, '/contact', { ...formOf(await app.inject('/contact')), ...CONTACT, description: 'x'.repeat(600 * 1024) }, { ip: nextAddress() });
    t.equal(res.statusCode, 413);
    const fields = await postMultipart(app, '/contact', { ...formOf(await app.inject('/contact')), ...CONTACT, description: 'y'.repeat(200 * 1024) }, [], nextAddress());
    t.equal(fields.statusCode, 422, 'a multipart field over its size is cut, so it is too long');
    t.match(fields.body, '“What is happening?” must be 10000 characters or fewer');
  });

  t.test('a JSON body with values that are not text is a 422 naming the fields, not a server error', async (t) => {
    const before = await count();
    const { csrf: _unused, ...tokens } = formOf(await app.inject('/contact'));
    const res = await app.inject({
      method: 'POST', url: '/contact', remoteAddress: nextAddress(), headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...tokens, ...CONTACT, subject: { text: 'an object' }, description: 42, product: ['codebarn-cloud', null], severity: null }),
    });
    t.equal(res.statusCode, 422);
    t.match(res.body, 'class="error-summary"');
    t.match(res.body, /href="#field-subject"/, 'the subject is named');
    t.match(res.body, /href="#field-description"/, 'and the description');
    t.equal(await count(), before, 'nothing stored');
  });

  t.test('the log says what happened to each submission, with no e-mail address', async (t) => {
    const lines = logs.trim().split('\n').map((l) => JSON.parse(l) as { msg: string; reference?: string });
    t.ok(lines.some((l) => l.msg === 'support request stored' && /^SR-\d+$/.test(l.reference ?? '')), 'stored requests are logged by reference');
    t.ok(lines.some((l) => l.msg === 'support request not stored'), 'a request the database could not store is logged as an error');
    t.ok(lines.some((l) => l.msg === 'support form refused: honeypot filled'));
    t.notMatch(logs, /@customer\.example|@evil\.example|Ada Lovelace|Vera Visitor/, 'no address or name of a visitor');
  });

  t.test('a POST to a page without a form, or to nothing, is not a form', async (t) => {
    const topic = await post(app, TOPIC, { a: 'b' }, { ip: nextAddress() });
    t.equal(topic.statusCode, 405);
    t.equal(topic.headers.allow, 'GET, HEAD', 'other pages still say what they allow');
    t.equal((await app.inject({ method: 'DELETE', url: '/contact' })).headers.allow, 'GET, HEAD, POST');
    t.equal((await post(app, '/de/contact', { a: 'b' }, { ip: nextAddress() })).statusCode, 404, 'no page there');
  });
});

const CONTACT = {
  email: 'visitor@customer.example', name: 'Vera Visitor', product: 'codebarn-data-center', version: '9.4', severity: 'high',
  subject: 'Pushes to main are rejected', description: 'Every push to the main branch is rejected with a hook error.',
};

/** The hidden fields a rendered form carries. */
function formOf(res: LightMyRequestResponse): { _csrf: string; submission: string; csrf: string } {
  const csrf = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1] ?? '';
  const submission = /name="submission" value="([^"]+)"/.exec(res.body)?.[1] ?? '';
  return { _csrf: csrf, submission, csrf };
}

function between(text: string, start: string, end: string): string {
  const i = text.indexOf(start);
  return i < 0 ? '' : text.slice(i, text.indexOf(end, i + start.length) + end.length);
}

async function post(app: FastifyInstance, url: string, fields: Record<string, string>, options: { ip: string; cookie?: string; headers?: Record<string, string> }) {
  const { csrf: _unused, ...sent } = fields as Record<string, string> & { csrf?: string };
  return app.inject({
    method: 'POST', url, remoteAddress: options.ip, payload: new URLSearchParams(sent).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
  });
}

/** A multipart body as a browser sends a form with a file input. */
async function postMultipart(app: FastifyInstance, url: string, fields: Record<string, string>, files: { name: string; data: Buffer }[], ip: string) {
  const boundary = '----signpost-test-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'csrf') continue;
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return app.inject({ method: 'POST', url, remoteAddress: ip, payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
}
