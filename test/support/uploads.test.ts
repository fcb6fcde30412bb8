/**
 * Uploads that never finish (issue 25 item 1): a multipart POST over a real connection whose body
 * never reaches its closing boundary. A file the form cannot take is refused as soon as its part
 * begins, while the client is still "sending"; a body that simply stalls is cut at REQUEST_TIMEOUT_MS;
 * and a graceful close with such uploads open ends them instead of waiting for its deadline.
 */
import t from 'tap';
import { connect, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, tempContent, type BuildOptions } from '../helpers/build.ts';

const BOUNDARY = '----signpost-stalled-upload';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

const field = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (name: string, filename: string) =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
/** A complete file part: its head, its bytes, the line end before the next boundary. */
const filePart = (name: string, filename: string) => Buffer.concat([Buffer.from(fileHead(name, filename)), PNG, Buffer.from('\r\n')]);

/**
 * The promise's value, or a failure naming what never came: far longer than any of these should take,
 * only so that a hang fails the test instead of holding it until tap's own timeout.
 */
function patiently<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const never = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after 120 s`)), 120_000);
  });
  return Promise.race([promise, never]).finally(() => clearTimeout(timer));
}

interface Upload {
  socket: Socket;
  /** Resolves with the status line's code once a response head has arrived (whatever else happens). */
  status: Promise<number>;
  /** Resolves when the connection is gone, with everything the server sent. */
  closed: Promise<string>;
  /** Whether the server ended the connection (its FIN arrived); this side never ends it. */
  endedByServer: () => boolean;
}

/**
 * A POST whose body goes out chunked and stops after `body`: no closing boundary, no final chunk.
 * The client keeps the connection open and sends nothing more.
 */
async function stalledUpload(port: number, path: string, body: Buffer, ip = '10.9.0.1'): Promise<Upload> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = '';
  let endedByServer = false;
  let onHead: (status: number) => void = () => {};
  const status = new Promise<number>((resolve) => (onHead = resolve));
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  socket.on('error', () => {});
  socket.on('end', () => (endedByServer = true));
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    const match = /^HTTP\/1\.1 (\d{3})/.exec(received);
    if (match && received.includes('\r\n\r\n')) onHead(Number(match[1]));
  });
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: help.example.test\r\nOrigin: https://help.example.test\r\nX-Forwarded-For: ${ip}\r\n` +
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nTransfer-Encoding: chunked\r\n\r\n` +
    `${body.length.toString(16)}\r\n`,
  );
  socket.write(body);
  socket.write('\r\n');
  return { socket, status, closed, endedByServer: () => endedByServer };
}

/** The small fixture with a contact form that takes files and a report form that takes none. */
async function formsContent(t: Parameters<typeof build>[0]): Promise<string> {
  const dir = await tempContent(t);
  await mkdir(join(dir, 'forms'), { recursive: true });
  await writeFile(join(dir, 'pages', 'contact.yaml'), 'id: contact\npageType: contact\ntitle: Contact support\nform: contact-form\n');
  await writeFile(join(dir, 'forms', 'contact.yaml'), [
    'id: contact-form', 'title: Create a support request', 'subjectField: subject', 'fields:',
    '  - { name: email, type: email, audience: anonymous, label: Your e-mail address, required: true, maxLength: 254 }',
    '  - { name: subject, type: text, label: Summary, required: true, minLength: 5, maxLength: 150 }',
    '  - { name: description, type: longText, label: What is happening?, required: true, minLength: 20, maxLength: 10000 }',
    '  - { name: attachments, type: file, label: Attachments }', '',
  ].join('\n'));
  await writeFile(join(dir, 'forms', 'report-problem.yaml'), [
    'id: report-problem-form', 'title: Report a problem with this page', 'fields:',
    '  - { name: email, type: email, audience: anonymous, label: Your e-mail address, maxLength: 254 }',
    '  - name: problem', '    type: select', '    label: What is wrong?', '    required: true', '    options:',
    '      - { value: other, label: Something else }',
    '  - { name: details, type: longText, label: Details, required: true, minLength: 10, maxLength: 5000 }', '',
  ].join('\n'));
  return dir;
}

async function listening(t: Parameters<typeof build>[0], options: BuildOptions = {}) {
  const logStream = new PassThrough();
  const lines: { msg?: string; level?: number }[] = [];
  logStream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { msg?: string })));
  const app = await build(t, {
    contentDir: await formsContent(t), logStream, ...options,
    env: { LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '1000', ATTACHMENT_MAX_FILES: '3', ATTACHMENT_MAX_BYTES: '4096', ...options.env },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, port, lines };
}

t.test('stalled uploads', async (t) => {
  // A long shutdown deadline: the close at the end must finish because the connections ended, not because it ran out.
  const { app, port, lines } = await listening(t, { env: { SHUTDOWN_TIMEOUT_MS: '30000' } });

  await t.test('a file the form cannot take is refused at once, before the body ends', async (t) => {
    const cases: { name: string; path: string; body: Buffer; status: number; says: RegExp }[] = [
      {
        name: 'a file under a field that is not the form\'s file field', path: '/contact', status: 400, says: /not a file field/,
        body: Buffer.concat([Buffer.from(field('subject', 'Stalled upload') + fileHead('description', 'notes.png')), PNG]),
      },
      {
        name: 'a file sent to a form with no file field', path: '/report-problem', status: 400, says: /takes no files/,
        body: Buffer.concat([Buffer.from(field('problem', 'other') + fileHead('attachments', 'screen.png')), PNG]),
      },
      {
        name: 'a file over ATTACHMENT_MAX_BYTES', path: '/contact', status: 422, says: /huge\.png is larger than 4/,
        body: Buffer.concat([Buffer.from(field('subject', 'Large file') + fileHead('attachments', 'huge.png')), PNG, Buffer.alloc(20_000, 2)]),
      },
      {
        name: 'a fourth file when three are allowed', path: '/contact', status: 422, says: /Attach at most 3 files: fourth\.png not sent/,
        body: Buffer.concat([
          Buffer.from(field('subject', 'Too many files')),
          filePart('attachments', 'one.png'), filePart('attachments', 'two.png'), filePart('attachments', 'three.png'),
          Buffer.from(fileHead('attachments', 'fourth.png')), PNG,
        ]),
      },
    ];
    for (const c of cases) {
      await t.test(c.name, async (t) => {
        const upload = await stalledUpload(port, c.path, c.body);
        const status = await patiently(upload.status, 'the answer');
        t.equal(status, c.status, `answered ${c.status}`);
        t.notOk(upload.socket.destroyed, 'while the connection is still open, mid-body');
        const received = await patiently(upload.closed, 'the server closing the connection');
        t.match(received, /\r\nconnection: close\r\n/i, 'the answer says the connection closes');
        t.match(received, c.says, 'and says what was wrong');
        t.ok(upload.endedByServer(), 'and the server ended the connection (its descriptor is released)');
      });
    }
  });

  await t.test('closing the server with stalled uploads open ends them, not its deadline', async (t) => {
    const bodies = [
      Buffer.concat([Buffer.from(fileHead('description', 'a.png')), PNG]),
      Buffer.concat([Buffer.from(field('problem', 'other') + fileHead('attachments', 'b.png')), PNG]),
      Buffer.concat([filePart('attachments', '1.png'), filePart('attachments', '2.png'), filePart('attachments', '3.png'), Buffer.from(fileHead('attachments', '4.png')), PNG]),
    ];
    // Accepted by the server, not only queued in the kernel's backlog (which a closing listener resets).
    let accepted = 0;
    let allAccepted: () => void = () => {};
    const acceptedAll = new Promise<void>((resolve) => (allAccepted = resolve));
    app.server.on('connection', () => ++accepted === 6 && allAccepted());
    const uploads = await Promise.all([0, 1, 2, 3, 4, 5].map((i) =>
      stalledUpload(port, i % 3 === 1 ? '/report-problem' : '/contact', bodies[i % 3] as Buffer, `10.9.${i}.1`)));
    await patiently(acceptedAll, 'the server accepting the connections');
    await patiently((app as FastifyInstance).close(), 'the close');
    const received = await patiently(Promise.all(uploads.map((u) => u.closed)), 'the uploads ending');
    t.ok(uploads.every((u) => u.endedByServer()), 'every stalled upload was ended by the server');
    t.ok(received.every((r) => /^HTTP\/1\.1 4\d\d /.test(r)), `each was answered 4xx (${received.map((r) => r.slice(9, 12)).join(', ')})`);
    t.notOk(lines.some((l) => l.msg === 'shutdown deadline reached; closing the connections left'), 'the close did not wait for its deadline');
  });
});

t.test('a body that stalls is cut at REQUEST_TIMEOUT_MS', async (t) => {
  const { port } = await listening(t, { env: { REQUEST_TIMEOUT_MS: '200' } });
  // A field part begun and never finished: nothing the form can refuse, only a body that stops.
  const upload = await stalledUpload(port, '/contact', Buffer.from(`${field('subject', 'Slow')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="description"\r\n\r\nStill typ`));
  const received = await patiently(upload.closed, 'the deadline cutting the body');
  t.match(received, /^HTTP\/1\.1 408 /, 'answered 408 Request Timeout, then closed');
  t.ok(upload.endedByServer(), 'the server ended the connection');
});

t.test('a browser sending a file too large gets the form back, not a reset connection', async (t) => {
  const { port } = await listening(t);
  // As a browser sends it: the length declared, the whole body coming, the file over ATTACHMENT_MAX_BYTES (4096).
  const body = Buffer.concat([
    Buffer.from(field('subject', 'Large screenshot')), filePart('attachments', 'large.png'),
    Buffer.from(fileHead('attachments', 'huge.png')), PNG, Buffer.alloc(20_000, 2), Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = '';
  let reset = false;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => (reset = true));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(
    `POST /contact HTTP/1.1\r\nHost: help.example.test\r\nOrigin: https://help.example.test\r\nX-Forwarded-For: 10.9.9.1\r\n` +
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  // All but the end: the file's refusal is known, and the answer waits for the rest the browser is sending.
  socket.write(body.subarray(0, body.length - 64));
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(received, '', 'no answer while the declared body is still coming');
  socket.write(body.subarray(body.length - 64));
  await patiently(closed, 'the answer');
  t.notOk(reset, 'the connection was not reset');
  t.match(received, /^HTTP\/1\.1 422 /, 'answered 422');
  t.match(received, /huge\.png is larger than 4/, 'with the form saying which file was too large');
  t.match(received, /Large screenshot/, 'and what was typed kept');
});
