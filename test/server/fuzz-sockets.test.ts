/**
 * Bodies cut off on a real socket (issue 25, item 1): a client that sends its headers and part of its body,
 * then neither the rest nor a close, must get an answer or have the connection closed by the server —
 * never be left open. Multipart support forms (a file under a field that is not the form's file field, a
 * file too many, a form with no file field, a part cut mid-value), a text/plain analytics beacon, JSON and
 * urlencoded bodies, and chunked bodies with no last chunk. The body read deadline is made small
 * (REQUEST_TIMEOUT_MS) and the test's patience large (FUZZ_SOCKET_PATIENCE_MS); FUZZ_SOCKETS is how many
 * connections of each kind. Whole bodies of every shape: test/server/fuzz.test.ts.
 */
import t from 'tap';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { build, SAMPLE_CONTENT } from '../helpers/build.ts';
import { SESSION_SECRET } from '../identity/helpers.ts';
import { EVENTS_PATH } from '../../server/events/plugin.ts';
import { BOUNDARY, multipartBody, type Part } from './fuzz-helpers.ts';

const PER_KIND = Number(process.env.FUZZ_SOCKETS ?? 3);
const PATIENCE_MS = Number(process.env.FUZZ_SOCKET_PATIENCE_MS ?? 20_000);
const REQUEST_TIMEOUT = '500';

interface Cut {
  kind: string;
  path: string;
  type: string;
  /** What is sent of the body. */
  sent: Buffer;
  /** The length the headers promise (more than is sent); chunked when absent. */
  length?: number;
}

const fields: Part[] = [
  { name: 'email', value: 'visitor@customer.example' }, { name: 'subject', value: 'Pushes to main are rejected' },
  { name: 'description', value: 'Every push to the main branch is rejected with a hook error.' },
];
const file = (name: string): Part => ({ name, filename: 'log.txt', type: 'text/plain', value: 'a log line\n'.repeat(50) });

function multipartCut(kind: string, path: string, parts: Part[], cut?: number): Cut {
  const { payload, boundary } = multipartBody(parts, { close: false });
  const sent = cut === undefined ? payload : payload.subarray(0, payload.length - cut);
  return { kind, path, type: `multipart/form-data; boundary=${boundary}`, sent, length: payload.length + 200 };
}

const beacon = JSON.stringify({ sessionId: 'session-0123456789', events: [{ type: 'page_dwelled', path: '/', key: '', value: 5000 }] });
const CUTS: Cut[] = [
  multipartCut('multipart: a file under another field, no closing boundary', '/contact', [...fields, file('description')]),
  multipartCut('multipart: a file too many, no closing boundary', '/contact', [...fields, file('attachments'), file('attachments'), file('attachments')]),
  multipartCut('multipart: a file to a form with no file field, no closing boundary', '/file-download', [...fields, file('attachments')]),
  multipartCut('multipart: a file under its own field, cut inside the file', '/contact', [...fields, file('attachments')], 100),
  multipartCut('multipart: fields only, cut inside a value', '/contact', fields, 20),
  { kind: 'text/plain beacon cut short', path: EVENTS_PATH, type: 'text/plain;charset=UTF-8', sent: Buffer.from(beacon.slice(0, 40)), length: beacon.length },
  { kind: 'JSON beacon cut short', path: EVENTS_PATH, type: 'application/json', sent: Buffer.from(beacon.slice(0, 40)), length: beacon.length },
  { kind: 'JSON search cut short', path: '/gateway/api/help-content/v2/search', type: 'application/json', sent: Buffer.from('{"query":"ins'), length: 40 },
  { kind: 'urlencoded form cut short', path: '/contact', type: 'application/x-www-form-urlencoded', sent: Buffer.from('email=visitor%40customer.example&subj'), length: 400 },
  { kind: 'chunked multipart with no last chunk', path: '/contact', type: `multipart/form-data; boundary=${BOUNDARY}`, sent: multipartBody([...fields, file('description')], { close: false }).payload },
  { kind: 'chunked text/plain beacon with no last chunk', path: EVENTS_PATH, type: 'text/plain;charset=UTF-8', sent: Buffer.from(beacon.slice(0, 40)) },
];

type Outcome = { kind: 'answered'; status: number } | { kind: 'closed' } | { kind: 'hang' };

/** Sends the headers and the part of the body, then waits: for an answer, a close from the server, or the patience to run out. */
function send(port: number, cut: Cut, sockets: Socket[]): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    let received = '';
    let settled = false;
    const done = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => done({ kind: 'hang' }), PATIENCE_MS);
    socket.on('connect', () => {
      const framing = cut.length === undefined ? 'transfer-encoding: chunked' : `content-length: ${cut.length}`;
      socket.write(`POST ${cut.path} HTTP/1.1\r\nhost: help.example.test\r\norigin: https://help.example.test\r\ncontent-type: ${cut.type}\r\n${framing}\r\n\r\n`);
      socket.write(cut.length === undefined ? Buffer.concat([Buffer.from(`${cut.sent.length.toString(16)}\r\n`), cut.sent, Buffer.from('\r\n')]) : cut.sent);
    });
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      if (status) done({ kind: 'answered', status: Number(status) });
    });
    socket.on('end', () => done({ kind: 'closed' }));
    socket.on('close', () => done({ kind: 'closed' }));
    socket.on('error', () => done({ kind: 'closed' }));
  });
}

t.test(`cut-off bodies on a socket: ${PER_KIND} connections of ${CUTS.length} kinds, each answered or closed`, async (t) => {
  const app = await build(t, {
    contentDir: SAMPLE_CONTENT,
    env: {
      SESSION_SECRET, REQUEST_TIMEOUT_MS: REQUEST_TIMEOUT, ATTACHMENT_MAX_FILES: '2', ATTACHMENT_MAX_BYTES: '4096',
      REQUEST_RATE_LIMIT: '1000000', ANALYTICS_RATE_LIMIT: '1000000', RATE_LIMIT_MAX: '1000000', SHUTDOWN_TIMEOUT_MS: '1000',
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const sockets: Socket[] = [];
  // Ours are destroyed before the server closes, answered or not, so a hang fails the test instead of the close.
  t.teardown(() => { for (const s of sockets) s.destroy(); });

  const started = performance.now();
  const outcomes = await Promise.all(CUTS.flatMap((cut) => Array.from({ length: PER_KIND }, async () => ({ cut, outcome: await send(port, cut, sockets) }))));
  for (const s of sockets) s.destroy();
  let hangs = 0;
  let fiveHundreds = 0;
  for (const cut of CUTS) {
    const mine = outcomes.filter((o) => o.cut === cut).map((o) => o.outcome);
    const tally: Record<string, number> = {};
    for (const o of mine) {
      const key = o.kind === 'answered' ? String(o.status) : o.kind;
      tally[key] = (tally[key] ?? 0) + 1;
      if (o.kind === 'hang') hangs += 1;
      if (o.kind === 'answered' && o.status >= 500) fiveHundreds += 1;
    }
    t.comment(`${cut.kind} (${cut.path}): ${JSON.stringify(tally)}`);
    t.notOk(mine.some((o) => o.kind === 'hang'), `${cut.kind}: answered or closed within ${PATIENCE_MS} ms`);
    t.notOk(mine.some((o) => o.kind === 'answered' && o.status >= 500), `${cut.kind}: no server error`);
  }
  t.comment(`fuzz sockets: connections ${outcomes.length}, 5xx ${fiveHundreds}, hangs ${hangs}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
});
