import { get as httpGet } from 'node:http';
import { createServer } from 'node:net';
import autocannon from 'autocannon';

/** A TCP port free on the loopback interface right now, for a server a benchmark starts. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Waits (up to two minutes) until a URL answers with a success status. */
export async function waitFor(url: string): Promise<void> {
  const deadline = performance.now() + 120_000;
  while (performance.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not answer ${url}`);
}

/** The value after a flag on the command line (`--seconds 5`), or undefined when the flag is absent. */
export function option(name: string, args = process.argv.slice(2)): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

export const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] ?? 0 : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

export interface Load {
  rps: number;
  p50: number;
  /** autocannon's p97.5: the nearest it reports to a p95. */
  p95: number;
  non2xx: number;
}

/**
 * One autocannon run (10 connections unless told); `rate` holds the whole load at that many requests a
 * second, `requests` is the sequence each connection sends in turn (`setupClient` gives each its own).
 */
export function load(url: string, options: { seconds: number; connections?: number; rate?: number; requests?: autocannon.Request[]; headers?: Record<string, string>; setupClient?: (client: autocannon.Client) => void }): Promise<Load> {
  return new Promise((done, reject) => {
    autocannon({
      url, duration: options.seconds, connections: options.connections ?? 10,
      headers: { 'accept-encoding': 'br, gzip', ...options.headers },
      ...(options.rate ? { overallRate: options.rate } : {}),
      ...(options.requests ? { requests: options.requests } : {}),
      ...(options.setupClient ? { setupClient: options.setupClient } : {}),
    }, (error, result) => {
      if (error) return reject(error);
      done({ rps: result.requests.average, p50: result.latency.p50, p95: result.latency.p97_5, non2xx: result.non2xx + result.errors });
    });
  });
}

/**
 * A GET on a connection of its own, as a browser sends again a request lost with a keep-alive connection
 * (fetch would take another pooled one, which a reloading proxy may be closing too).
 */
export function getOnNewConnection(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const request = httpGet(url, { agent: false, headers, timeout: 60_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d)).on('end', () => done({ status: res.statusCode ?? 0, body })).on('error', fail);
    });
    request.on('error', fail).on('timeout', () => request.destroy(new Error('timed out')));
  });
}
