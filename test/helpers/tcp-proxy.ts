/**
 * A TCP proxy of the test's own between the app and the PostgreSQL server: `cut()` drops every
 * connection and refuses new ones (the server is away), `open()` lets them through again. A fault
 * injector, not a fake: everything that passes goes to the real server.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** The target URL with host and port replaced by the proxy's. */
  url: string;
  cut(): Promise<void>;
  open(): Promise<void>;
  close(): Promise<void>;
  /** Connections accepted since the start. */
  readonly accepted: number;
}

export async function tcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const targetPort = Number(target.port || 5432);
  const sockets = new Set<Socket>();
  let accepted = 0;
  let server: Server | undefined;
  let port = 0;

  const listen = () => new Promise<void>((resolve, reject) => {
    const s = createServer((client) => {
      accepted++;
      const upstream = connect(targetPort, target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => {
      port = (s.address() as { port: number }).port;
      server = s;
      resolve();
    });
  });
  const stop = async () => {
    const s = server;
    server = undefined;
    const closed = s ? new Promise<void>((resolve) => s.close(() => resolve())) : Promise.resolve();
    // A reset, as a crashed or unplugged server gives: no polite goodbye from PostgreSQL.
    for (const socket of sockets) socket.resetAndDestroy();
    sockets.clear();
    await closed;
  };

  await listen();
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    cut: stop,
    open: async () => {
      if (!server) await listen();
    },
    close: stop,
    get accepted() {
      return accepted;
    },
  };
}
