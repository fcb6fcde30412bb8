import { createHash, createHmac } from 'node:crypto';
import t from 'tap';
import { build } from '../helpers/build.ts';
import { listDeliveries } from '../../server/support/delivery/outbox.ts';
import { messageIdOf } from '../../server/support/delivery/email.ts';
import { signatureHeader, verifyWebhookSignature, webhookSender } from '../../server/support/delivery/webhook.ts';
import { DeliveryError } from '../../server/support/delivery/errors.ts';
import { freePort } from '../../scripts/bench-http.ts';
import { retryDelayMs } from '../../server/support/delivery/worker.ts';
import { deliveryEnv, logTap, newRequest, startReceiver, startSmtp, WEBHOOK_SECRET, type Received } from './delivery-peers.ts';

// One app delivering to one SMTP server and one receiver; the receiver answers by the request's subject.
const subjectOf = (r: Received) => (JSON.parse(r.body) as { subject: string }).subject;
const smtp = await startSmtp(t, (mail) => {
  const tries = smtp.messages.filter((m) => m.mail.messageId === mail.messageId).length;
  if (mail.subject?.includes('Mail deferred')) return tries === 0 ? 451 : 250;
  if (mail.subject?.includes('Mail refused')) return 550;
  return 250;
});
const receiver = await startReceiver(t, (r) => {
  const subject = subjectOf(r);
  const tries = receiver.received.filter((x) => x.key === r.key).length;
  if (subject.startsWith('Flaky')) return tries <= 2 ? 500 : 200;
  if (subject.startsWith('Busy')) return tries <= 1 ? 429 : 200;
  if (subject.startsWith('Refused')) return 422;
  if (subject.startsWith('Down')) return 503;
  return 200;
});
const log = logTap();
const app = await build(t, { logStream: log.stream, env: deliveryEnv({ smtp, receiver }) });
const delivered = (reference: string, channel: string) =>
  log.waitFor('request delivered', (l) => l.reference === reference && l.channel === channel);

t.test('a request goes out once by e-mail and once by webhook, with everything in it', async (t) => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  const { reference } = await app.supportRequests.create(newRequest({
    subject: 'Export <fails>\r\nBcc: someone@else.example', attachments: [{ filename: 'screen shot.png', contentType: 'image/png', data: png }],
  }));
  await Promise.all([delivered(reference, 'email'), delivered(reference, 'webhook')]);

  // The webhook: signed, idempotent by reference, the whole request with the file inline.
  const [hook, ...more] = receiver.received.filter((r) => r.key === reference);
  t.equal(more.length, 0, 'posted once');
  t.equal(hook!.headers['content-type'], 'application/json');
  t.equal(hook!.headers['idempotency-key'], reference);
  const signature = String(hook!.headers['signpost-signature']);
  t.match(signature, /^t=\d+,v1=[0-9a-f]{64}$/);
  t.ok(verifyWebhookSignature(hook!.body, signature, WEBHOOK_SECRET), 'the signature verifies');
  t.notOk(verifyWebhookSignature(hook!.body.replace('Ada', 'Eve'), signature, WEBHOOK_SECRET), 'a changed body does not');
  t.notOk(verifyWebhookSignature(hook!.body, signature, 'another-secret-0123456789'), 'another secret does not');
  t.notOk(verifyWebhookSignature(hook!.body, signature, WEBHOOK_SECRET, { now: Math.floor(Date.now() / 1000) + 3600 }), 'an old signature does not');
  t.notOk(verifyWebhookSignature(hook!.body, undefined, WEBHOOK_SECRET), 'no signature does not');
  const body = JSON.parse(hook!.body);
  t.match(body, {
    reference, form: 'contact', kind: 'contact', status: 'open', subject: 'Export <fails>\r\nBcc: someone@else.example',
    requester: { name: 'Ada Lovelace', email: 'ada@customer.example', accountId: null }, partner: false,
    product: 'widget', version: '2.1', severity: 'high',
    fields: { description: 'It stops at the splash screen.\nEvery time.', agree: true, areas: ['install', 'start'] },
    context: { pageUrl: 'https://help.example.test/widget/docs/start', productName: 'Widget' },
  });
  t.ok(!Number.isNaN(Date.parse(body.createdAt)));
  t.equal(body.attachments.length, 1);
  t.match(body.attachments[0], { filename: 'screen shot.png', contentType: 'image/png', size: png.length, sha256: createHash('sha256').update(png).digest('hex') });
  t.same(Buffer.from(body.attachments[0].data, 'base64'), png);

  // The e-mail: to the helpdesk, replying to the requester, the reference in the subject, a stable Message-ID.
  const message = smtp.messages.find((m) => m.mail.subject?.startsWith(`[${reference}]`));
  t.ok(message, 'e-mailed');
  t.equal(smtp.messages.filter((m) => m.mail.subject?.startsWith(`[${reference}]`)).length, 1, 'once');
  const mail = message!.mail;
  t.same(message!.envelope.to, ['helpdesk@vendor.example']);
  t.equal(mail.subject, `[${reference}] Export <fails> Bcc: someone@else.example`, 'one line: no header injected');
  t.equal(mail.bcc, undefined);
  t.equal(mail.from?.value[0]?.address, 'help-centre@help.example.test');
  t.equal(mail.replyTo?.value[0]?.address, 'ada@customer.example');
  t.equal(mail.replyTo?.value[0]?.name, 'Ada Lovelace');
  t.equal(mail.messageId, messageIdOf(reference, 'help-centre@help.example.test'));
  t.equal(mail.messageId, `<${reference}.request@help.example.test>`);
  for (const text of [reference, 'ada@customer.example', 'widget', '2.1', 'high', 'It stops at the splash screen.', 'install, start',
    'https://help.example.test/widget/docs/start', 'screen shot.png']) {
    t.ok(mail.text?.includes(text), `the text names ${text}`);
  }
  t.ok(mail.html && mail.html.includes('Export &#60;fails&#62;'), 'the HTML is escaped');
  t.notOk(String(mail.html).includes('<fails>'));
  t.equal(mail.attachments.length, 1);
  t.equal(mail.attachments[0]!.filename, 'screen shot.png');
  t.same(mail.attachments[0]!.content, png);

  t.match(await listDeliveries(app.db, reference), [
    { channel: 'email', state: 'delivered', attempts: 1, lastError: null, deliveredAt: Date },
    { channel: 'webhook', state: 'delivered', attempts: 1, lastError: null, deliveredAt: Date },
  ]);
});

t.test('a receiver failing then recovering gets the request after retries, accepted once', async (t) => {
  const { reference } = await app.supportRequests.create(newRequest({ subject: 'Flaky receiver' }));
  await delivered(reference, 'webhook');
  t.same(receiver.received.filter((r) => r.key === reference).map((r) => r.status), [500, 500, 200]);
  t.equal(receiver.accepted.get(reference), 1, 'one success');
  t.equal(log.count('request delivered', (l) => l.reference === reference && l.channel === 'webhook'), 1);
  t.equal(log.count('request delivery failed; retrying later', (l) => l.reference === reference && l.errorClass === 'http-500'), 2);
  const webhook = (await listDeliveries(app.db, reference)).find((d) => d.channel === 'webhook');
  t.match(webhook, { state: 'delivered', attempts: 3, lastError: null });
});

t.test('429 is retried like a server error', async (t) => {
  const { reference } = await app.supportRequests.create(newRequest({ subject: 'Busy receiver' }));
  await delivered(reference, 'webhook');
  t.same(receiver.received.filter((r) => r.key === reference).map((r) => r.status), [429, 200]);
});

t.test('a permanent refusal (4xx) fails at once, logged without addresses', async (t) => {
  const { reference } = await app.supportRequests.create(newRequest({ subject: 'Refused by the receiver' }));
  const line = await log.waitFor('request delivery refused; marked failed', (l) => l.reference === reference);
  t.match(line, { level: 50, reference, channel: 'webhook', attempts: 1, errorClass: 'http-422', permanent: true });
  t.equal(receiver.received.filter((r) => r.key === reference).length, 1, 'not tried again');
  t.match((await listDeliveries(app.db, reference)).find((d) => d.channel === 'webhook'),
    { state: 'failed', attempts: 1, lastError: 'the receiver answered 422', deliveredAt: null });
  await delivered(reference, 'email');
  t.match((await listDeliveries(app.db, reference)).find((d) => d.channel === 'email'), { state: 'delivered' }, 'the other channel is unaffected');
});

t.test('a receiver that stays down fails after DELIVERY_MAX_ATTEMPTS', async (t) => {
  const { reference } = await app.supportRequests.create(newRequest({ subject: 'Down for good' }));
  const line = await log.waitFor('request delivery failed after the last attempt; marked failed', (l) => l.reference === reference);
  t.match(line, { level: 50, channel: 'webhook', attempts: 4, errorClass: 'http-503', permanent: false });
  t.same(receiver.received.filter((r) => r.key === reference).map((r) => r.status), [503, 503, 503, 503]);
  t.match((await listDeliveries(app.db, reference)).find((d) => d.channel === 'webhook'), { state: 'failed', attempts: 4 });
});

t.test('e-mail deferred (4xx) is sent again; refused (5xx) fails at once', async (t) => {
  const deferred = await app.supportRequests.create(newRequest({ subject: 'Mail deferred' }));
  const refused = await app.supportRequests.create(newRequest({ subject: 'Mail refused' }));
  await delivered(deferred.reference, 'email');
  const sent = smtp.messages.filter((m) => m.mail.subject === `[${deferred.reference}] Mail deferred`);
  t.same(sent.map((m) => m.code), [451, 250], 'the same message again');
  t.same(new Set(sent.map((m) => m.mail.messageId)).size, 1, 'with the same Message-ID');
  t.match(await log.waitFor('request delivery failed; retrying later', (l) => l.reference === deferred.reference),
    { channel: 'email', errorClass: 'smtp-451' });
  const line = await log.waitFor('request delivery refused; marked failed', (l) => l.reference === refused.reference);
  t.match(line, { channel: 'email', attempts: 1, errorClass: 'smtp-550' });
  t.match((await listDeliveries(app.db, refused.reference)).find((d) => d.channel === 'email'),
    { state: 'failed', attempts: 1, lastError: 'the SMTP server answered 550' });
});

t.test('a receiver out of reach or too slow is retried, not refused', async (t) => {
  const { reference } = await app.supportRequests.create(newRequest({ subject: 'Sent by hand' }));
  const outgoing = { ...(await app.supportRequests.get(reference))!, attachments: [] };
  const failure = (sending: Promise<void>) => sending.then(() => undefined, (error: unknown) => error);
  const nobody = webhookSender(`http://127.0.0.1:${await freePort()}/hook`, WEBHOOK_SECRET);
  t.match(await failure(nobody(outgoing, new AbortController().signal)), { errorClass: 'network', permanent: false }, 'nothing listening');
  const slow = await startReceiver(t, () => 'hang');
  const impatient = webhookSender(slow.url, WEBHOOK_SECRET, 100);
  t.match(await failure(impatient(outgoing, new AbortController().signal)), { errorClass: 'timeout', permanent: false }, 'no answer in time');
  const stopping = new AbortController();
  const cut = failure(webhookSender(slow.url, WEBHOOK_SECRET)(outgoing, stopping.signal));
  await slow.requests(2);
  stopping.abort();
  t.match(await cut, { errorClass: 'aborted', permanent: false }, 'cut off at shutdown');
  t.ok((await cut) instanceof DeliveryError);
});

t.test('with no channel configured, requests are stored and nothing is queued', async (t) => {
  const quiet = logTap();
  const bare = await build(t, { db: app.db, logStream: quiet.stream, env: deliveryEnv({}) });
  const { reference } = await bare.supportRequests.create(newRequest());
  t.same(await listDeliveries(bare.db, reference), []);
  const { requests } = await bare.supportRequests.listAll({ limit: 100, offset: 0 });
  t.ok(requests.some((r) => r.reference === reference), 'listed for staff');
  t.equal(quiet.lines.filter((l) => l.component === 'delivery').length, 0, 'no worker runs');
});

t.test('no log line names an address or carries the webhook secret', async (t) => {
  t.ok(log.raw.length > 0);
  t.same(log.raw.filter((line) => /[^\s"]+@[^\s"]+\.[a-z]+/i.test(line) || line.includes(WEBHOOK_SECRET)), []);
  t.end();
});

t.test('retry delays double from DELIVERY_BACKOFF_MS with jitter', async (t) => {
  t.equal(retryDelayMs(1, 1000, () => 0.5), 1000);
  t.equal(retryDelayMs(2, 1000, () => 0.5), 2000);
  t.equal(retryDelayMs(4, 1000, () => 0.5), 8000);
  t.equal(retryDelayMs(1, 1000, () => 0), 800);
  t.equal(retryDelayMs(1, 1000, () => 1), 1200);
  t.equal(retryDelayMs(60, 30_000, () => 0.5), 6 * 60 * 60 * 1000, 'capped');
  t.equal(signatureHeader('k'.repeat(16), '{}', 1700000000),
    `t=1700000000,v1=${createHmac('sha256', 'k'.repeat(16)).update('1700000000.{}').digest('hex')}`);
  t.ok(verifyWebhookSignature('{}', signatureHeader('k'.repeat(16), '{}', 1700000000), 'k'.repeat(16), { now: 1700000100 }));
});
