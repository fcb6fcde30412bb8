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
