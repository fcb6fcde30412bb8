import t from 'tap';
import { Agent, request } from 'node:http';
import { FIXTURE } from '../helpers/build.ts';
import { startServer, tempDataDir } from '../helpers/server-process.ts';

interface Tally { ok: number; fivexx: number; resets: number; refused: number; other: string[] }

/** One keep-alive client sending requests back to back until the server refuses a connection. */
async function client(url: string, paths: string[], tally: Tally, stop: { now: boolean }) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; !stop.now; i++) {
    const path = paths[i % paths.length] as string;
    const outcome = await new Promise<'ok' | 'fivexx' | 'refused' | 'reset' | string>((resolve) => {
      const req = request(url + path, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve((res.statusCode ?? 0) >= 500 ? 'fivexx' : 'ok'));
        res.on('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNRESET' ? 'reset' : String(e.code ?? e.message)));
      });
      req.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code === 'ECONNREFUSED') resolve('refused');
        else if (e.code === 'ECONNRESET' || e.code === 'EPIPE' || e.message === 'socket hang up') resolve('reset');
        else resolve(String(e.code ?? e.message));
      });
      req.end();
    });
    if (outcome === 'ok') tally.ok++;
    else if (outcome === 'fivexx') tally.fivexx++;
    else if (outcome === 'reset') tally.resets++;
    else if (outcome === 'refused') {
      // Not yet sent when the listener closed: the load balancer retries it elsewhere.
      tally.refused++;
      break;
    } else tally.other.push(outcome);
  }
  agent.destroy();
}

// Issue 8 item 13: each SIGTERM used to reset in-flight requests and answer a 503.
t.test('SIGTERM under keep-alive load: in-flight requests finish, no resets, no 5xx, exit 0', async (t) => {
  const server = await startServer(t, { DATA_DIR: await tempDataDir(t), CONTENT_DIR: FIXTURE });
  const tally: Tally = { ok: 0, fivexx: 0, resets: 0, refused: 0, other: [] };
  const stop = { now: false };
  const paths = ['/acme/kb', '/acme-cloud/docs/first-steps', '/acme/kb/widget-crash', '/healthz', '/sitemap.xml'];
  const clients = Array.from({ length: 8 }, () => client(server.url, paths, tally, stop));
  await new Promise((r) => setTimeout(r, 2000));
  const before = tally.ok;
  server.child.kill('SIGTERM');
  const code = await server.exited;
  const done = Promise.all(clients);
  const timer = setTimeout(() => (stop.now = true), 10_000);
  await done;
  clearTimeout(timer);
  t.comment(`SIGTERM under load: ${tally.ok} answered (${tally.ok - before} after the signal), ${tally.resets} resets, ` +
    `${tally.fivexx} 5xx, ${tally.refused} refused connections, other errors: ${tally.other.length}`);
  t.ok(before > 0, 'load was running when the signal came');
  t.equal(tally.resets, 0, 'no connection reset');
  t.equal(tally.fivexx, 0, 'no 5xx');
  t.same(tally.other, [], 'no other error');
  t.equal(code, 0, 'exit code 0');
});
