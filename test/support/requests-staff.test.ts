/**
 * Staff (spec §6) and the helpdesk: the list of every request with filters, a status set from a
 * request's page, and POST /api/requests/{reference}/status with the helpdesk's bearer token, whose
 * status then shows in 'my requests'.
 */
import t from 'tap';
import { PassThrough } from 'node:stream';
import { build } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';
import { BEA, HELPDESK_TOKEN, STAFF, referencesIn, sendRequest } from './requests-helpers.ts';

const ORIGIN = 'https://help.example.test';

t.test('staff and the helpdesk', async (t) => {
  const app = await build(t, { env: { SESSION_SECRET, STAFF_EMAIL_DOMAIN: 'fernhollow.example', HELPDESK_TOKEN } });
  const ada = sealed(app, ADA);
  const staff = sealed(app, STAFF);
  const get = (url: string, cookie?: string) => app.inject({ url, headers: cookie ? { cookie } : {} });

  const contact = await sendRequest(app, ADA, { subject: 'Contact about Acme', product: 'acme-cloud' });
  const problem = await sendRequest(app, BEA, { subject: 'A problem report', formId: 'report-problem', kind: 'reportProblem' });
  const anonymous = await sendRequest(app, { email: 'anon@example.com' }, { subject: 'Anonymous question' });

  t.test('the staff list: every request, newest first, filtered by a plain GET form; nobody else finds it', async (t) => {
    const all = await get('/staff/requests', staff);
    t.equal(all.statusCode, 200);
    t.equal(all.headers['cache-control'], 'private, no-store');
    t.same(referencesIn(all.body), [anonymous, problem, contact], 'with nothing configured, requests are stored and listed for staff');
    t.match(all.body, '<form method="get" action="/staff/requests"');
    t.match(all.body, '<option value="report-problem">report-problem</option>');
    t.match(all.body, '<option value="acme-cloud">Acme Cloud</option>', 'the product with its deployment');
    t.same(referencesIn((await get('/staff/requests?form=report-problem', staff)).body), [problem]);
    t.same(referencesIn((await get('/staff/requests?product=acme-cloud&form=&status=', staff)).body), [contact]);
    t.same(referencesIn((await get('/staff/requests?status=resolved', staff)).body), []);
    t.match((await get('/staff/requests?status=resolved', staff)).body, 'No requests match these filters.');
    for (const cookie of [ada, undefined]) {
      const res = await get('/staff/requests', cookie);
      t.equal(res.statusCode, 404);
      t.equal(res.headers['cache-control'], 'private, no-store');
      t.notMatch(res.body, 'Contact about Acme');
    }
  });

  const api = (reference: string, body: unknown, authorization: string | null = `Bearer ${HELPDESK_TOKEN}`, raw = false) => app.inject({
    method: 'POST', url: `/api/requests/${reference}/status`,
    headers: { 'content-type': 'application/json', ...(authorization !== null ? { authorization } : {}) },
    payload: raw ? String(body) : JSON.stringify(body),
  });

  t.test('the status endpoint needs the helpdesk token', async (t) => {
    for (const authorization of [null, 'Bearer wrong', `Bearer ${HELPDESK_TOKEN}x`, `Basic ${HELPDESK_TOKEN}`, HELPDESK_TOKEN, 'Bearer ']) {
      const res = await api(contact, { status: 'resolved' }, authorization);
      t.equal(res.statusCode, 401, `${authorization ?? 'no header'}: 401`);
      t.equal(res.headers['www-authenticate'], 'Bearer');
      t.match(res.json(), { statusCode: 401, error: 'UNAUTHORIZED' });
    }
    t.equal((await api('SR-99999', { status: 'resolved' }, 'Bearer wrong')).statusCode, 401, 'an unknown reference says nothing without the token');
    t.equal((await api(contact, 'not json', 'Bearer wrong', true)).statusCode, 401, 'nor does a bad body');
    t.equal((await get(`/requests/${contact}`, ada)).body.includes('Resolved'), false, 'nothing changed');

    const unset = await build(t, { env: { SESSION_SECRET } });
    const ref = await sendRequest(unset, ADA);
    const res = await unset.inject({ method: 'POST', url: `/api/requests/${ref}/status`, headers: { authorization: 'Bearer undefined', 'content-type': 'application/json' }, payload: '{"status":"closed"}' });
    t.equal(res.statusCode, 401, 'HELPDESK_TOKEN unset: every call refused');
  });

  t.test('bad bodies are 400s in JSON; an unknown reference 404', async (t) => {
    const bad = [
      [{}, 'status'], [{ status: 'done' }, 'status'], [{ status: 'resolved', note: 'x'.repeat(2001) }, 'note'],
      [{ status: 'resolved', extra: true }, 'additional properties'], [[], 'body'],
    ] as const;
    for (const [body, field] of bad) {
      const res = await api(contact, body);
      t.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 60));
      t.match(res.headers['content-type'], 'application/json');
      t.match(res.json().message, field);
    }
    const unknown = (await api(contact, { status: 'done' })).json().message;
    t.equal(unknown, 'body/status must be one of: open, in-progress, waiting-for-customer, resolved, closed', 'the allowed values, named once');
    t.equal((await api(contact, { status: 5 })).json().message, unknown, 'a number is no status either, said the same way');
    const notJson = await api(contact, '{"status":', `Bearer ${HELPDESK_TOKEN}`, true);
    t.equal(notJson.statusCode, 400);
    t.match(notJson.headers['content-type'], 'application/json');
    for (const ref of ['SR-99999', 'nonsense']) {
      const res = await api(ref, { status: 'resolved' });
      t.equal(res.statusCode, 404);
      t.match(res.json(), { statusCode: 404, error: 'NOT_FOUND' });
    }
  });

  t.test('a status from the helpdesk shows in my requests and the history', async (t) => {
    const res = await api(contact, { status: 'waiting-for-customer', note: 'Which version do you run?' });
    t.equal(res.statusCode, 200);
    t.same(res.json(), { reference: contact, status: 'waiting-for-customer', note: 'Which version do you run?' });
    t.match((await get('/requests', ada)).body, 'Waiting for your reply');
    const detail = await get(`/requests/${contact}`, ada);
    t.match(detail.body, 'Support team: Waiting for your reply');
    t.match(detail.body, 'Which version do you run?');

    const read = await app.inject({ url: `/api/requests/${contact}`, headers: { authorization: `Bearer ${HELPDESK_TOKEN}` } });
    t.equal(read.statusCode, 200);
    t.equal(read.headers['cache-control'], 'private, no-store');
    t.match(read.json(), { reference: contact, status: 'waiting-for-customer', subject: 'Contact about Acme', attachments: [], updates: [{ status: 'open' }, { status: 'waiting-for-customer' }] });
    t.equal((await app.inject({ url: `/api/requests/${contact}` })).statusCode, 401);
  });

  t.test('staff set a status from the request\'s page; nobody else can', async (t) => {
    const page = await get(`/requests/${problem}`, staff);
    const token = /class="request-status-form"><input type="hidden" name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] as string;
    const post = (cookie: string | undefined, fields: Record<string, string>) => app.inject({
      method: 'POST', url: `/requests/${problem}/status`, payload: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, ...(cookie ? { cookie } : {}) },
    });
    const done = await post(staff, { _csrf: token, status: 'in-progress', note: 'Looking into it' });
    t.equal(done.statusCode, 303);
    t.equal(done.headers.location, `/requests/${problem}?done=status`);
    const after = await get(`/requests/${problem}?done=status`, staff);
    t.match(after.body, 'The status was saved.');
    t.match(after.body, 'Staff: In progress');
    const invalid = await post(staff, { _csrf: token, status: 'nope', note: 'kept' });
    t.equal(invalid.statusCode, 422);
    t.match(invalid.body, 'Choose one of the statuses.');
    t.match(invalid.body, '>kept</textarea>');
    t.equal((await post(staff, { _csrf: 'x', status: 'closed' })).statusCode, 403);
    for (const cookie of [sealed(app, BEA), ada, undefined]) {
      t.equal((await post(cookie, { _csrf: token, status: 'closed' })).statusCode, 404, 'the owner and others: no such form');
    }
    t.notMatch((await get(`/requests/${problem}`, staff)).body, 'Staff: Closed');
  });

  t.test('the helpdesk API is rate-limited per client, in JSON', async (t) => {
    const limited = await build(t, { env: { SESSION_SECRET, HELPDESK_TOKEN, RATE_LIMIT_MAX: '1' } });
    const ref = await sendRequest(limited, ADA);
    const call = () => limited.inject({ url: `/api/requests/${ref}`, headers: { authorization: `Bearer ${HELPDESK_TOKEN}` } });
    for (let i = 0; i < 10; i += 1) t.equal((await call()).statusCode, 200);
    const refused = await call();
    t.equal(refused.statusCode, 429);
    t.ok(refused.headers['retry-after']);
    t.match(refused.json(), { statusCode: 429, error: 'TOO_MANY_REQUESTS' });
  });

  t.test('the log names references and statuses, never an e-mail address or the token', async (t) => {
    const stream = new PassThrough();
    let log = '';
    stream.on('data', (chunk: Buffer) => { log += chunk.toString(); });
    const logged = await build(t, { logStream: stream, env: { SESSION_SECRET, HELPDESK_TOKEN, STAFF_EMAIL_DOMAIN: 'fernhollow.example', LOG_LEVEL: 'debug' } });
    const ref = await sendRequest(logged, ADA, { attachments: [{ filename: 'a.txt', contentType: 'text/plain', data: Buffer.from('a') }] });
    const cookie = sealed(logged, ADA);
    const page = await logged.inject({ url: `/requests/${ref}`, headers: { cookie } });
    const file = /href="(\/requests\/[^"]+\/attachments\/\d+)"/.exec(page.body)?.[1] as string;
    await logged.inject({ url: file, headers: { cookie } });
    await logged.inject({ method: 'POST', url: `/api/requests/${ref}/status`, headers: { authorization: `Bearer ${HELPDESK_TOKEN}`, 'content-type': 'application/json' }, payload: '{"status":"resolved"}' });
    await logged.inject({ method: 'POST', url: `/api/requests/${ref}/status`, headers: { authorization: 'Bearer wrong-token', 'content-type': 'application/json' }, payload: '{"status":"closed"}' });
    await logged.inject({ url: '/staff/requests?status=resolved', headers: { cookie: sealed(logged, STAFF) } });
    await new Promise((resolve) => setImmediate(resolve));
    t.match(log, `"reference":"${ref}"`);
    t.match(log, 'request status set');
    t.match(log, 'helpdesk call refused');
    t.notMatch(log, /[\w.+-]+@[\w-]+\.[\w.]+/, 'no e-mail address');
    t.notMatch(log, HELPDESK_TOKEN);
    t.notMatch(log, 'wrong-token');
  });
});
