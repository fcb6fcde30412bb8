import t from 'tap';
import { failing, testDb } from '../helpers/build.ts';
import { RequestStore, SubmissionKeyConflict, type NewRequest } from '../../server/support/store.ts';

const base = (over: Partial<NewRequest> = {}): NewRequest => ({
  formId: 'contact', kind: 'contact', submissionKey: 'key-1', email: 'Robin@Example.org', name: 'Robin', partner: false,
  subject: 'Cannot sign in', product: 'widget', fields: { description: 'It fails', urgent: true }, context: { host: 'help.test' },
  language: 'en-US', attachments: [], ...over,
});

t.test('a request is stored with its history and one outbox row per channel, in one go', async (t) => {
  const db = await testDb(t);
  const store = new RequestStore(db, { prefix: 'SR', channels: () => ['email', 'webhook'] });
  const made = await store.create(base({ attachments: [{ filename: 'log.txt', contentType: 'text/plain', data: Buffer.from('line\0two') }] }));
  t.same(made, { reference: 'SR-10001', duplicate: false });
  const stored = await store.get('SR-10001');
  t.equal(stored?.subject, 'Cannot sign in');
  t.same(stored?.fields, { description: 'It fails', urgent: true });
  t.equal(stored?.status, 'open');
  const [info] = await store.attachments('SR-10001');
  t.match(info, { filename: 'log.txt', size: 8 });
  t.equal((await store.attachment('SR-10001', info!.id))?.data.toString(), 'line\0two');
  t.equal(await store.attachment('SR-10002', info!.id), undefined, 'an attachment is read only through its own request');
  t.same((await store.updates('SR-10001')).map((u) => [u.status, u.source]), [['open', 'visitor']]);
  const deliveries = await db.query<{ channel: string; state: string }>('select channel, state from support_deliveries order by channel');
  t.same(deliveries, [{ channel: 'email', state: 'pending' }, { channel: 'webhook', state: 'pending' }]);
});

t.test('the same submission twice is one request; the same key with other contents is refused', async (t) => {
  const db = await testDb(t);
  const store = new RequestStore(db, { prefix: 'REQ', channels: () => ['webhook'] });
  const first = await store.create(base());
  const again = await store.create(base());
  t.same(again, { reference: first.reference, duplicate: true });
  await t.rejects(store.create(base({ subject: 'Something else' })), SubmissionKeyConflict);
  // Sent at the same moment (a double click): one row, one delivery.
  const both = await Promise.all([store.create(base({ submissionKey: 'key-2' })), store.create(base({ submissionKey: 'key-2' }))]);
  t.equal(both[0].reference, both[1].reference);
  t.same(both.map((b) => b.duplicate).sort(), [false, true]);
  const [counts] = await db.query<{ requests: number; deliveries: number }>(
    'select (select count(*)::int from support_requests) as requests, (select count(*)::int from support_deliveries) as deliveries');
  t.same(counts, { requests: 2, deliveries: 2 });
  t.match(first.reference, /^REQ-\d+$/);
});

t.test('with no channel configured a request is stored and nothing is queued', async (t) => {
  const db = await testDb(t);
  const store = new RequestStore(db, { prefix: 'SR', channels: () => [] });
  await store.create(base());
  t.same(await db.query('select * from support_deliveries'), []);
  t.equal((await store.listAll({ limit: 10, offset: 0 })).total, 1);
});

t.test('a failure part-way writes nothing', async (t) => {
  const db = await testDb(t);
  let down = false;
  const store = new RequestStore(failing(db, () => down), { prefix: 'SR', channels: () => ['email'] });
  down = true;
  await t.rejects(store.create(base()));
  down = false;
  // An attachment the database refuses (a NUL in a text column) rolls back the request written before it.
  await t.rejects(store.create(base({ submissionKey: 'key-3', attachments: [{ filename: 'bad\0name', contentType: 'text/plain', data: Buffer.from('x') }] })));
  const [counts] = await db.query<{ n: number }>(
    'select (select count(*) from support_requests) + (select count(*) from support_deliveries) + (select count(*) from support_request_updates) as n');
  t.equal(Number(counts?.n), 0);
});

t.test('an account sees its own requests, and what it sent anonymously from its verified address', async (t) => {
  const db = await testDb(t);
  const store = new RequestStore(db, { prefix: 'SR', channels: () => [] });
  await store.create(base({ submissionKey: 'a1', accountId: 'acct-a', subject: 'A one' }));
  await store.create(base({ submissionKey: 'a2', accountId: 'acct-a', subject: 'A partner', partner: true }));
  await store.create(base({ submissionKey: 'b1', accountId: 'acct-b', subject: 'B one', email: 'robin@example.org' }));
  await store.create(base({ submissionKey: 'anon', subject: 'Anonymous', email: 'ROBIN@example.org' }));
  const page = { limit: 10, offset: 0 };
  const subjects = async (account: string, options: { verifiedEmail?: string; partner?: boolean } = {}) =>
    (await store.listForAccount(account, { ...page, ...options })).requests.map((r) => r.subject);
  t.same(await subjects('acct-a'), ['A partner', 'A one'], 'newest first, own only');
  t.same(await subjects('acct-b'), ['B one'], 'the same address on another account is not enough');
  t.same(await subjects('acct-b', { verifiedEmail: 'robin@example.org' }), ['Anonymous', 'B one']);
  t.same(await subjects('acct-a', { partner: true }), ['A partner']);
  t.same(await subjects('acct-a', { partner: false }), ['A one']);
  t.same(await subjects('nobody'), []);
});

t.test('statuses are recorded with their history; the staff list filters', async (t) => {
  const db = await testDb(t);
  const store = new RequestStore(db, { prefix: 'SR', channels: () => [] });
  const { reference } = await store.create(base());
  await store.create(base({ submissionKey: 'k2', formId: 'hot-contact', kind: 'hotContact', product: 'gadget' }));
  t.equal(await store.setStatus(reference, 'in-progress', 'Looking', 'helpdesk'), true);
  t.equal(await store.setStatus('SR-99999', 'closed', '', 'helpdesk'), false);
  t.same((await store.updates(reference)).map((u) => [u.status, u.note, u.source]), [['open', '', 'visitor'], ['in-progress', 'Looking', 'helpdesk']]);
  t.same(await store.facets(), { formIds: ['contact', 'hot-contact'], products: ['gadget', 'widget'], statuses: ['in-progress', 'open'] });
  const only = async (filters: { formId?: string; product?: string; status?: string }) =>
    (await store.listAll({ ...filters, limit: 10, offset: 0 })).requests.map((r) => r.formId);
  t.same(await only({ status: 'in-progress' }), ['contact']);
  t.same(await only({ product: 'gadget' }), ['hot-contact']);
  t.same(await only({ formId: 'contact', status: 'open' }), []);
  t.equal((await store.listAll({ limit: 1, offset: 1 })).requests.length, 1);
});
