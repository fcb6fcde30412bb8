/**
 * Requests as conversations: the requester, a named contact of the account, staff and the holder of the
 * request's private link reply on /requests/{reference} (a plain form, text and files); the helpdesk
 * replies through POST /api/requests/{reference}/comments. Each reply made here reaches the helpdesk once
 * by e-mail and once by webhook, through the outbox; the helpdesk's own replies are not sent back to it.
 */
import t from 'tap';
import { build } from '../helpers/build.ts';
import { SESSION_SECRET, ADA, sealed } from '../identity/helpers.ts';
import { BEA, HELPDESK_TOKEN, STAFF, sendRequest } from './requests-helpers.ts';
import { deliveryEnv, logTap, startReceiver, startSmtp, WEBHOOK_SECRET } from './delivery-peers.ts';
import { verifyWebhookSignature } from '../../server/support/delivery/webhook.ts';
import { NamedContactStore } from '../../server/support/requests/named-contacts.ts';
import { stringsFor } from '../../views/i18n/catalogue.tsx';

const ORIGIN = 'https://help.example.test';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

const smtp = await startSmtp(t);
const receiver = await startReceiver(t);
const log = logTap();
const app = await build(t, {
  logStream: log.stream,
  env: deliveryEnv({ smtp, receiver }, { SESSION_SECRET, STAFF_EMAIL_DOMAIN: 'fernhollow.example', HELPDESK_TOKEN }),
});
const ada = sealed(app, ADA);
const bea = sealed(app, BEA);
const staff = sealed(app, STAFF);

const get = (url: string, cookie?: string) => app.inject({ url, headers: cookie ? { cookie } : {} });
const formOf = (html: string) => ({
  _csrf: /name="_csrf" value="([^"]+)"/.exec(html.slice(html.indexOf('request-reply-form')))?.[1] ?? '',
  submissionKey: /name="submissionKey" value="([^"]+)"/.exec(html)?.[1] ?? '',
  key: /name="key" value="([^"]+)"/.exec(html)?.[1],
});
const postForm = (url: string, fields: Record<string, string | undefined>, cookie?: string, origin = ORIGIN) => app.inject({
  method: 'POST', url, payload: new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined)).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded', origin, ...(cookie ? { cookie } : {}) },
});
/** A multipart body as a browser sends the reply form with its file input. */
function postMultipart(url: string, fields: Record<string, string | undefined>, files: { name: string; data: Buffer; field?: string }[], cookie?: string) {
  const boundary = '----signpost-reply-boundary';
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'files'}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return app.inject({
    method: 'POST', url, payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, origin: ORIGIN, ...(cookie ? { cookie } : {}) },
  });
}
const reply = async (reference: string, cookie: string | undefined, body: string, options: { key?: string; resend?: Record<string, string | undefined> } = {}) => {
  const page = await get(`/requests/${reference}${options.key ? `?key=${options.key}` : ''}`, cookie);
  const form = options.resend ?? { ...formOf(page.body), body };
  return { res: await postForm(`/requests/${reference}/comments`, form, cookie), form };
};
const helpdesk = (reference: string, body: unknown, token: string | null = HELPDESK_TOKEN) => app.inject({
  method: 'POST', url: `/api/requests/${reference}/comments`, payload: JSON.stringify(body),
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
});
const commentsOf = (reference: string) => app.supportRequests.comments(reference);
const deliveriesOf = async (reference: string) => app.db.query<{ channel: string; comment_id: string | number | null; state: string }>(
  'select channel, comment_id, state from support_deliveries where reference = $1 order by id', [reference]);
const delivered = (reference: string, comment: number, channel: string) =>
  log.waitFor('request delivered', (l) => l.reference === reference && l.comment === comment && l.channel === channel);

t.test('the requester replies; a request waiting for them opens again; the helpdesk gets the reply once by each channel', async (t) => {
  const ref = await sendRequest(app, ADA, { subject: 'Export fails' });
  await app.supportRequests.setStatus(ref, 'waiting-for-customer', 'Which version do you run?', 'helpdesk');

  const page = await get(`/requests/${ref}`, ada);
  t.equal(page.statusCode, 200);
  t.match(page.body, '<h2 id="request-conversation-heading">Conversation</h2>');
  t.match(page.body, 'No replies yet.');
  t.match(page.body, `<form method="post" action="/requests/${ref}/comments" encType="multipart/form-data"`);
  t.match(page.body, '<label for="reply-body">Your reply</label>');

  const { res, form } = await reply(ref, ada, 'Version 2.1, on Windows.\r\nIt fails every time.');
  t.equal(res.statusCode, 303);
  const [comment, ...others] = await commentsOf(ref);
  t.equal(others.length, 0);
  t.match(comment, { author: 'requester', accountId: ADA.sub, name: ADA.name, body: 'Version 2.1, on Windows.\nIt fails every time.' });
  t.equal(res.headers.location, `/requests/${ref}?done=reopened#comment-${comment!.id}`);
  const after = await get(`/requests/${ref}?done=reopened`, ada);
  t.match(after.body, 'Your reply was sent, and the request is open again.');
  t.match(after.body, `<li id="comment-${comment!.id}" class="request-comment request-comment-requester">`);
  t.match(after.body, 'Version 2.1, on Windows.\nIt fails every time.');
  t.equal((await app.supportRequests.get(ref))!.status, 'open', 'waiting for the customer → open');
  t.match((await app.supportRequests.updates(ref)).map((u) => [u.status, u.source]),
    [['open', 'visitor'], ['waiting-for-customer', 'helpdesk'], ['open', 'visitor']]);

  // The same form sent again (a double click, a reload) is the same reply.
  const again = await postForm(`/requests/${ref}/comments`, form, ada);
  t.equal(again.statusCode, 303);
  t.equal(again.headers.location, `/requests/${ref}?done=reply#comment-${comment!.id}`);
  t.equal((await commentsOf(ref)).length, 1, 'stored once');

  await Promise.all([delivered(ref, comment!.id, 'email'), delivered(ref, comment!.id, 'webhook')]);
  const key = `${ref}/comments/${comment!.id}`;
  const hooks = receiver.received.filter((r) => r.key === key);
  t.equal(hooks.length, 1, 'the webhook got the reply once');
  const hook = hooks[0]!;
  t.ok(verifyWebhookSignature(hook.body, String(hook.headers['signpost-signature']), WEBHOOK_SECRET), 'signed');
  t.match(JSON.parse(hook.body), {
    event: 'comment', reference: ref, status: 'open',
    comment: { id: comment!.id, author: 'requester', body: 'Version 2.1, on Windows.\nIt fails every time.', attachments: [] },
  });
  const mails = smtp.messages.filter((m) => m.mail.headers.get('x-signpost-comment') === String(comment!.id) && m.mail.headers.get('x-signpost-reference') === ref);
  t.equal(mails.length, 1, 'one e-mail');
  const mail = mails[0]!.mail;
  t.equal(mail.subject, `Re: [${ref}] Export fails`);
  t.equal(mail.inReplyTo, `<${ref}.request@help.example.test>`, 'threaded under the request’s own message');
  t.match(mail.text, 'Reply on');
  t.match(mail.text, 'Version 2.1, on Windows.');
  t.same((await deliveriesOf(ref)).filter((d) => d.comment_id !== null).map((d) => d.channel).sort(), ['email', 'webhook'],
    'one delivery per channel for the reply');
});

t.test('files come with a reply under the forms’ rules; a refused reply stores nothing and keeps what was typed', async (t) => {
  const ref = await sendRequest(app, ADA, { subject: 'Files please' });
  const page = await get(`/requests/${ref}`, ada);
  t.match(page.body, '<input type="file" id="reply-files" name="files" multiple=""');
  const form = formOf(page.body);

  const refused = await postMultipart(`/requests/${ref}/comments`, { ...form, body: 'Here is the log' },
    [{ name: 'tool.exe', data: Buffer.from('MZ\x90\x00') }, { name: 'fake.png', data: Buffer.from('not a png') }], ada);
  t.equal(refused.statusCode, 422);
  t.match(refused.body, 'Your reply was not sent');
  t.match(refused.body, 'tool.exe is not a file type we accept');
  t.match(refused.body, 'fake.png does not look like the kind of file its name says');
  t.match(refused.body, '>Here is the log</textarea>', 'the text is kept');
  t.match(refused.body, 'aria-invalid="true"');
  t.equal((await commentsOf(ref)).length, 0, 'nothing stored');

  // More files than the forms take: refused with the reason (one over the limit), or at once (two over).
  const many = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `part-${i}.txt`, data: Buffer.from(`line ${i}\n`) }));
  const fourFiles = await postMultipart(`/requests/${ref}/comments`, { ...form, body: 'Too many' }, many(4), ada);
  t.equal(fourFiles.statusCode, 422);
  t.match(fourFiles.body, 'Attach at most 3 files: part-3.txt not sent');
  const fiveFiles = await postMultipart(`/requests/${ref}/comments`, { ...form, body: 'Far too many' }, many(5), ada);
  t.ok(fiveFiles.statusCode >= 400 && fiveFiles.statusCode < 500, `far too many files: ${fiveFiles.statusCode}, not a 5xx`);
  t.notMatch(fiveFiles.body, /at .*\.ts:\d+|stack/i, 'no internals');
  t.equal((await commentsOf(ref)).length, 0, 'nothing stored by either');

  const sent = await postMultipart(`/requests/${ref}/comments`, { ...form, body: 'Here is the screenshot' },
    [{ name: 'screen.png', data: PNG }, { name: 'notes.txt', data: Buffer.from('step one\nstep two\n') }], ada);
  t.equal(sent.statusCode, 303);
  const [comment] = await commentsOf(ref);
  t.same(comment!.attachments.map((a) => [a.filename, a.contentType, a.size]), [['screen.png', 'image/png', PNG.length], ['notes.txt', 'text/plain', 18]]);
  t.same(await app.supportRequests.attachments(ref), [], 'the request’s own files are not mixed with the reply’s');
  const shown = await get(`/requests/${ref}`, ada);
  const href = `/requests/${ref}/attachments/${comment!.attachments[0]!.id}`;
  t.match(shown.body, `<a href="${href}" download="screen.png">Download screen.png</a>`);
  const file = await get(href, ada);
  t.equal(file.statusCode, 200);
  t.same(file.rawPayload, PNG);
  t.equal((await get(href, bea)).statusCode, 404, 'another account cannot download it');

  await delivered(ref, comment!.id, 'webhook');
  const hook = JSON.parse(receiver.received.find((r) => r.key === `${ref}/comments/${comment!.id}`)!.body);
  t.same(hook.comment.attachments.map((a: { filename: string; data: string }) => [a.filename, Buffer.from(a.data, 'base64').length]),
    [['screen.png', PNG.length], ['notes.txt', 18]], 'the files go with the reply');
  await delivered(ref, comment!.id, 'email');
  const mail = smtp.messages.find((m) => m.mail.headers.get('x-signpost-comment') === String(comment!.id))!.mail;
  t.same(mail.attachments.map((a) => a.filename), ['screen.png', 'notes.txt']);
});

t.test('a reply is refused with reasons: empty, too long, control characters, an expired form, a closed request', async (t) => {
  const ref = await sendRequest(app, ADA, { subject: 'Refusals' });
  const form = formOf((await get(`/requests/${ref}`, ada)).body);
  const cases: [string, Record<string, string | undefined>, number, string][] = [
    ['empty', { ...form, body: '   \r\n ' }, 422, 'Write your reply before sending it.'],
    ['too long', { ...form, body: 'x'.repeat(20_001) }, 422, 'Keep the reply to 20000 characters or fewer.'],
    ['a control character', { ...form, body: 'bell \u0007 here' }, 422, 'The reply contains characters that cannot be sent.'],
    ['an expired form', { ...form, _csrf: 'nope', body: 'kept text' }, 403, 'This form had expired, so your reply was not sent.'],
  ];
  for (const [what, fields, status, message] of cases) {
    const res = await postForm(`/requests/${ref}/comments`, fields, ada);
    t.equal(res.statusCode, status, what);
    t.match(res.body, message, what);
    t.match(res.body, 'role="alert"', what);
  }
  t.match((await postForm(`/requests/${ref}/comments`, { ...form, _csrf: 'nope', body: 'kept text' }, ada)).body, '>kept text</textarea>');
  const crossSite = await postForm(`/requests/${ref}/comments`, { ...form, body: 'from elsewhere' }, ada, 'https://evil.example');
  t.equal(crossSite.statusCode, 403, 'a post from another site is refused');
  t.equal((await commentsOf(ref)).length, 0, 'nothing stored by any of them');

  await app.supportRequests.setStatus(ref, 'closed', '', 'helpdesk');
  const closedPage = await get(`/requests/${ref}`, ada);
  t.match(closedPage.body, 'This request is closed, so it takes no more replies.');
  t.notMatch(closedPage.body, 'request-reply-form', 'no form on a closed request');
  const late = await postForm(`/requests/${ref}/comments`, { ...form, body: 'one more thing' }, ada);
  t.equal(late.statusCode, 409);
  t.equal((await commentsOf(ref)).length, 0);
});

t.test('who may reply: the owner, a named contact, staff, the private link’s holder; nobody else learns the request exists', async (t) => {
  const ref = await sendRequest(app, ADA, { subject: 'Team question' });
  const anonymous = await sendRequest(app, { email: 'visitor@example.com' }, { subject: 'Sent signed out' });

  for (const [who, cookie] of [['another account', bea], ['a visitor', undefined]] as const) {
    t.equal((await get(`/requests/${ref}`, cookie)).statusCode, 404, `${who}: not found`);
    const res = await postForm(`/requests/${ref}/comments`, { body: 'let me in', _csrf: 'x' }, cookie);
    t.equal(res.statusCode, 404, `${who}: cannot reply`);
  }

  // A named contact of Ada's account, signed in with that verified address.
  await new NamedContactStore(app.db).add(ADA.sub, 'Bea Brown', BEA.email);
  const asContact = await reply(ref, bea, 'I work with Ada: it fails for me too.');
  t.equal(asContact.res.statusCode, 303);
  const asStaff = await reply(ref, staff, 'Thanks, we are looking into it.');
  t.equal(asStaff.res.statusCode, 303);
  t.match((await commentsOf(ref)).map((c) => [c.author, c.name]), [['contact', 'Bea Brown'], ['staff', 'Sam Staff']]);
  const page = (await get(`/requests/${ref}`, ada)).body;
  t.match(page, '<strong>Bea Brown (Named contact)</strong>');
  t.match(page, '<strong>Sam Staff (Staff)</strong>');
  t.equal((await app.supportRequests.get(ref))!.status, 'open', 'a staff reply does not change the status');

  // The anonymous requester's private link, from the confirmation page.
  const token = app.formTokens.issue(`sent:${anonymous}`);
  const sentPage = await get(`/request-sent/${anonymous}?token=${encodeURIComponent(token)}`);
  const link = /href="(\/requests\/[^"?]+\?key=[^"]+)"/.exec(sentPage.body)?.[1];
  t.ok(link, 'the confirmation gives the private link');
  const key = new URL(link!, ORIGIN).searchParams.get('key')!;
  t.equal((await get(`/requests/${anonymous}`)).statusCode, 404, 'without the key: not found');
  t.equal((await get(`/requests/${anonymous}?key=${key.slice(0, -1)}A`)).statusCode, 404, 'a wrong key: not found');
  t.equal((await get(`/requests/${ref}?key=${key}`)).statusCode, 404, 'the key opens its own request only');
  const viaLink = await get(link!);
  t.equal(viaLink.statusCode, 200);
  t.match(viaLink.body, 'You are reading this request through its private link');
  t.match(viaLink.body, `<input type="hidden" name="key" value="${key}"/>`);
  const linked = await reply(anonymous, undefined, 'Replying from the link', { key });
  t.equal(linked.res.statusCode, 303);
  t.match(linked.res.headers.location, new RegExp(`^/requests/${anonymous}\\?done=reply&key=${key}#comment-\\d+$`), 'back to the page, key kept');
  t.match((await commentsOf(anonymous)).map((c) => c.author), ['requester']);
});

t.test('the helpdesk replies through the API: token, validation, once per id, shown to the requester, not sent back', async (t) => {
  const ref = await sendRequest(app, ADA, { subject: 'Helpdesk answers' });
  t.equal((await helpdesk(ref, { body: 'hi' }, null)).statusCode, 401);
  t.equal((await helpdesk(ref, { body: 'hi' }, 'wrong')).statusCode, 401);
  t.equal((await helpdesk('SR-999999', { body: 'hi' })).statusCode, 404);
  t.equal((await helpdesk('not a reference', { body: 'hi' })).statusCode, 404);
  for (const bad of [{}, { body: '' }, { body: '  \n ' }, { body: 'x'.repeat(20_001) }, { body: 'hi', extra: 1 }, { body: 'hi', id: 'has space' }]) {
    const res = await helpdesk(ref, bad);
    t.equal(res.statusCode, 400, JSON.stringify(bad).slice(0, 60));
    t.match(res.json(), { statusCode: 400 });
  }
  const first = await helpdesk(ref, { body: 'Please update to 2.2.', name: 'Agent Kim', id: 'zd-comment-77' });
  t.equal(first.statusCode, 201);
  const again = await helpdesk(ref, { body: 'Please update to 2.2.', name: 'Agent Kim', id: 'zd-comment-77' });
  t.equal(again.statusCode, 200);
  t.same(again.json(), { reference: ref, id: first.json().id, duplicate: true });
  t.equal((await commentsOf(ref)).length, 1, 'stored once');
  t.match((await get(`/requests/${ref}`, ada)).body, '<strong>Agent Kim (Support team)</strong>');
  t.same(await deliveriesOf(ref).then((rows) => rows.filter((d) => d.comment_id !== null).map((d) => d.channel)), ['requester'],
    'not delivered back to the helpdesk; the requester is told');
  const read = await app.inject({ url: `/api/requests/${ref}`, headers: { authorization: `Bearer ${HELPDESK_TOKEN}` } });
  t.match(read.json().comments, [{ author: 'helpdesk', name: 'Agent Kim', body: 'Please update to 2.2.' }]);
});

/** The e-mails the requester of `reference` got, in order. */
const requesterMails = (reference: string) => smtp.messages
  .filter((m) => m.mail.headers.get('x-signpost-reference') === reference && !m.envelope.to.includes('helpdesk@vendor.example'));
const toldOnce = (reference: string, what: string) =>
  log.waitFor('request delivered', (l) => l.reference === reference && l.channel === 'requester' && (what === 'comment' ? l.comment !== undefined : l.update !== undefined));

t.test('the requester is told by e-mail of each status change and answer, with a link back, and nothing more', async (t) => {
  const ref = await sendRequest(app, ADA, { subject: 'Told by mail' });
  await reply(ref, ada, 'My own words: secret-detail-123');
  t.equal(await app.supportRequests.setStatus(ref, 'waiting-for-customer', 'Which region are you in?', 'helpdesk'), true);
  await toldOnce(ref, 'update');
  let mails = requesterMails(ref);
  t.equal(mails.length, 1, 'one e-mail for the status change; none for the requester\'s own reply');
  const status = mails[0]!;
  t.same(status.envelope.to, [ADA.email], 'to the requester');
  t.equal(status.mail.subject, `[${ref}] Told by mail: Waiting for your reply`);
  t.match(status.mail.text, 'The status of your request');
  t.match(status.mail.text, 'Which region are you in?');
  t.match(status.mail.text, `https://help.example.test/requests/${ref}\n`, 'the link back (an account request: no key in it)');
  t.notMatch(status.mail.text, 'secret-detail-123', 'not the conversation');
  t.equal(status.mail.headers.get('auto-submitted'), 'auto-generated');

  // The same status again without a note tells nothing new: no e-mail.
  await app.supportRequests.setStatus(ref, 'waiting-for-customer', '', 'helpdesk');
  const staffReply = await reply(ref, staff, 'We found it: see the release notes.');
  t.equal(staffReply.res.statusCode, 303);
  await toldOnce(ref, 'comment');
  mails = requesterMails(ref);
  t.equal(mails.length, 2, 'one more, for the staff answer only');
  t.equal(mails[1]!.mail.subject, `[${ref}] New reply: Told by mail`);
  t.match(mails[1]!.mail.text, 'Sam Staff, of the support team, answered your request');
  t.match(mails[1]!.mail.text, 'We found it: see the release notes.');
  t.notMatch(mails[1]!.mail.text, 'secret-detail-123');
  const rows = (await deliveriesOf(ref)).filter((d) => d.channel === 'requester');
  t.equal(rows.length, 2, 'one requester delivery per change');

  // Sent signed out, in Japanese: the mail is in Japanese and its link is the private one, which opens the request.
  const anon = await sendRequest(app, { email: 'anon-mail@example.com' }, { subject: '同期が止まる', language: 'ja-JP', name: '山田' });
  await app.supportRequests.setStatus(anon, 'resolved', '', 'staff');
  await toldOnce(anon, 'update');
  const [ja] = requesterMails(anon);
  t.equal(ja!.mail.subject, `[${anon}] 同期が止まる: ステータスが「${stringsFor('ja').requests.statuses.resolved}」になりました`);
  t.match(ja!.mail.text, '山田 様');
  const link = /https:\/\/help\.example\.test(\/requests\/[^\s]+\?key=[A-Za-z0-9_-]{32})/.exec(ja!.mail.text ?? "")?.[1];
  t.ok(link, 'the private link');
  t.equal((await get(link!)).statusCode, 200, 'the link opens the request');
});

t.test('the list marks requests changed since the account last opened them', async (t) => {
  const ref = await sendRequest(app, ADA, { subject: 'Marked when changed' });
  const row = async () => {
    const list = (await get('/requests', ada)).body;
    const at = list.indexOf(`href="/requests/${ref}"`);
    return list.slice(at, list.indexOf('</tr>', at));
  };
  t.notMatch(await row(), 'New activity', 'a new request is not marked');
  await app.supportRequests.setStatus(ref, 'in-progress', '', 'helpdesk');
  t.match(await row(), '<strong class="request-changed">New activity</strong>', 'changed by the helpdesk: marked');
  await get(`/requests/${ref}`, ada);
  t.notMatch(await row(), 'New activity', 'opened: no longer marked');
  await reply(ref, ada, 'My own reply');
  t.notMatch(await row(), 'New activity', 'the account\'s own reply does not mark it');
  await helpdesk(ref, { body: 'An answer' });
  t.match(await row(), 'New activity', 'an answer marks it');
});

t.test('no log line names an address', async (t) => {
  const lines = log.raw.filter((l) => /reply|comment/.test(l));
  t.ok(lines.length > 0);
  for (const line of lines) t.notMatch(line, /@(customer|example|partner|fernhollow)/, 'no address');
});
