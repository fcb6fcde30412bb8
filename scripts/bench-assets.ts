/**
 * Static assets: the stylesheet, the islands script and a content SVG as the production server sends
 * them (identity, gzip and brotli sizes), and their throughput with 10 connections (brotli accepted,
 * as browsers do), each run three times, medians reported.
 * Usage: npm run bench:assets [-- --seconds 5]
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort, waitFor } from './bench-http.ts';

const CONNECTIONS = 10;
const REPEATS = 3;
const secondsAt = process.argv.indexOf('--seconds');
const SECONDS = secondsAt > 0 ? Number(process.argv[secondsAt + 1]) : 5;
const SVG = '/assets/content/admin-console.svg';

let server: ChildProcess | undefined;
const dataDir = await mkdtemp(join(tmpdir(), 'signpost-bench-assets-'));
try {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'ignore' });
  const port = await freePort();
  // The production server as `npm start` runs it, logging at its default level to nowhere.
  server = spawn(process.execPath, ['dist/server/main.js'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/readyz`);

  const home = await (await fetch(base + '/')).text();
  const css = /href="(\/assets\/main\.[^"]+\.css)"/.exec(home)?.[1];
  const js = /src="(\/assets\/islands\.[^"]+\.js)"/.exec(home)?.[1];
  if (!css || !js) throw new Error('the home page names no stylesheet or script');

  // Sizes on the wire: fetch() would decode, so ask with one encoding at a time over a raw request.
  const { request } = await import('node:http');
  const size = (path: string, encoding: string) => new Promise<{ bytes: number; sent: string }>((done, reject) => {
    request(base + path, { headers: { 'accept-encoding': encoding } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => done({ bytes, sent: String(res.headers['content-encoding'] ?? 'identity') }));
    }).on('error', reject).end();
  });
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log('asset                                    identity      gzip    brotli');
  for (const path of [css, js, SVG]) {
    const [plain, gzip, br] = await Promise.all([size(path, 'identity'), size(path, 'gzip'), size(path, 'br')]);
    const tag = (s: { bytes: number; sent: string }, want: string) => `${kb(s.bytes)}${s.sent === want ? '' : ` (${s.sent})`}`;
    console.log(`${path.padEnd(38)} ${tag(plain, 'identity').padStart(10)} ${tag(gzip, 'gzip').padStart(9)} ${tag(br, 'br').padStart(9)}`);
  }

  const run = (path: string, encoding: string) => new Promise<autocannon.Result>((done, reject) => {
    autocannon({ url: base + path, connections: CONNECTIONS, duration: SECONDS, headers: { 'accept-encoding': encoding } },
      (error, result) => (error ? reject(error) : done(result)));
  });
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;
  console.log(`\nthroughput, ${CONNECTIONS} connections, ${SECONDS} s a run, median of ${REPEATS} (each run's req/s in brackets)`);
  for (const [label, path, encoding] of [['stylesheet, br', css, 'br'], ['stylesheet, gzip', css, 'gzip'], ['islands script, br', js, 'br'], ['content SVG, br', SVG, 'br']] as const) {
    const rates: number[] = [];
    const p50s: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      const result = await run(path, encoding);
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${label}: ${result.non2xx} answers other than 2xx, ${result.errors} errors`);
      rates.push(result.requests.average);
      p50s.push(result.latency.p50);
    }
    console.log(`${label.padEnd(22)} ${median(rates).toFixed(0).padStart(6)} req/s, p50 ${median(p50s)} ms  [${rates.map((r) => r.toFixed(0)).join(', ')}]`);
  }
} finally {
  // The server lets go of its data directory before the directory goes.
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server?.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  await rm(dataDir, { recursive: true, force: true });
}
