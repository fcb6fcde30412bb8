/**
 * A TCP proxy of the test's own between the app and the PostgreSQL server: `cut()` drops every
 * connection and refuses new ones (the server is away), `hang()` keeps every connection and accepts new
 * ones but passes nothing more (the server hangs: stopped, wedged, packets dropped), `open()` lets them
 * through again. A fault injector, not a fake: everything that passes goes to the real server.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  /** The target URL with host and port replaced by the proxy's. */
  url: string;
  cut(): Promise<void>;
  hang(): void;
  open(): Promise<void>;
  close(): Promise<void>;
  /** Connections accepted since the start. */
  readonly accepted: number;
}

export async function tcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const targetPort = Number(target.port || 5432);
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let hung = false;
  let accepted = 0;
  let server: Server | undefined;
  let port = 0;

  const listen = () => new Promise<void>((resolve, reject) => {
    const s = createServer((client) => {
      accepted++;
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      client.on('error', () => undefined);
      // Accepted, and never a byte back.
      if (hung) {
        client.pause();
        return;
      }
      const upstream = connect(targetPort, target.hostname);
      const pair: [Socket, Socket] = [client, upstream];
      pairs.add(pair);
      client.on('close', () => pairs.delete(pair));
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => undefined);
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
    pairs.clear();
    await closed;
  };
  const hang = () => {
    hung = true;
    for (const [client, upstream] of pairs) {
      client.unpipe(upstream).pause();
      upstream.unpipe(client).pause();
    }
  };

  await listen();
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    cut: stop,
    hang,
    open: async () => {
      // A hung server that comes back has lost its connections' state: they end, new ones are made.
      if (hung) {
        hung = false;
        for (const socket of sockets) socket.resetAndDestroy();
      }
      if (!server) await listen();
    },
    close: stop,
    get accepted() {
      return accepted;
    },
  };
}
