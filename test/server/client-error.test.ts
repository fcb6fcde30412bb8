/**
 * A request the HTTP parser refuses (headers too large: 431) is answered without a body, so a HEAD
 * on a keep-alive connection cannot leave stray bytes for the next response (issue 8 item 12).
 * Over a real socket: inject() never reaches the parser.
 */
import t from 'tap';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { build } from '../helpers/build.ts';

function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
    socket.write(request);
  });
}

t.test('a HEAD with a 20 KB header gets a bodiless 431 and the connection closes', async (t) => {
  const app = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;

  const big = `x-big: ${'a'.repeat(20 * 1024)}`;
  const received = await exchange(port, `HEAD / HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n${big}\r\n\r\n`);
  const [head = '', body] = received.split('\r\n\r\n');
  t.match(head, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  t.match(head.toLowerCase(), 'content-length: 0');
  t.match(head.toLowerCase(), 'connection: close');
  t.equal(body, '', 'no byte after the headers');

  const malformed = await exchange(port, 'GET /\u0000 HTTP/1.1\r\nHost: localhost\r\n\r\n');
  t.match(malformed, /^HTTP\/1\.1 400 Bad Request\r\n/);
  t.equal(malformed.split('\r\n\r\n')[1], '', 'a malformed request line gets no body either');

  const ok = await exchange(port, 'HEAD /acme-cloud/docs HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
  t.match(ok, /^HTTP\/1\.1 200 OK\r\n/, 'ordinary requests are untouched');
});

/** The headers of a raw HTTP answer, lower-cased. */
function headersOf(received: string): Map<string, string> {
  const lines = (received.split('\r\n\r\n')[0] ?? '').split('\r\n').slice(1);
  return new Map(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
}

// Issue 25 item 11: the parser's own answers carried no security headers.
t.test('the parser\'s 400 and 431 carry the same security headers as every other answer', async (t) => {
  const app = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;

  // Helmet's headers on an ordinary answer (the JSON of /healthz: the strict policy, as for anything not a page).
  const ordinary = headersOf(await exchange(port, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'));
  const security = ['content-security-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy', 'origin-agent-cluster',
    'referrer-policy', 'strict-transport-security', 'x-content-type-options', 'x-dns-prefetch-control', 'x-download-options',
    'x-frame-options', 'x-permitted-cross-domain-policies', 'x-xss-protection'];
  for (const name of security) t.ok(ordinary.has(name), `an ordinary answer has ${name}`);

  const answers = {
    'a malformed request line': 'GET /\u0000 HTTP/1.1\r\nHost: localhost\r\n\r\n',
    'a request line that is not HTTP': 'HELLO\r\n\r\n',
    'headers too large': `GET / HTTP/1.1\r\nHost: localhost\r\nx-big: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
  };
  for (const [what, request] of Object.entries(answers)) {
    const received = await exchange(port, request);
    t.match(received, /^HTTP\/1\.1 4(00|31) /, what);
    const headers = headersOf(received);
    for (const name of security) t.equal(headers.get(name), ordinary.get(name), `${what}: ${name}`);
    t.match(headers.get('content-security-policy'), /default-src 'none'.*frame-ancestors 'self'/);
    t.equal(headers.get('x-content-type-options'), 'nosniff');
    t.equal(headers.get('content-length'), '0');
  }
  // Helmet's own list, however it grows: every header an ordinary JSON answer has that no hook of ours
  // sets per response is on the parser's answers too.
  const perResponse = new Set(['content-type', 'content-length', 'date', 'connection', 'cache-control', 'keep-alive', 'etag', 'vary']);
  const parser = headersOf(await exchange(port, 'HELLO\r\n\r\n'));
  for (const [name, value] of ordinary) if (!perResponse.has(name)) t.equal(parser.get(name), value, `also ${name}`);
});
