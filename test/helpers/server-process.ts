import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Test = { teardown: (fn: () => unknown) => void };

export const ROOT = join(import.meta.dirname, '../..');

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function tempDataDir(t: Test): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'signpost-data-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote to stderr and stdout so far. */
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * The real server (`node --import tsx server/main.ts`) on PGlite in `dataDir`, resolved once `/readyz`
 * answers 200 (database up, content stored). Killed when the test ends if still running.
 */
export async function startServer(t: Test, env: Record<string, string>, options: { ready?: boolean } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const { DATABASE_URL: _unused, ...base } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { ...base, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    return exited;
  });
  const url = `http://127.0.0.1:${port}`;
  if (options.ready !== false) await waitFor(url, '/readyz', 200, exited, () => output);
  return { child, url, output: () => output, exited };
}

/** Polls `path` until it answers `status`; fails if the process exits first or after 180 s. */
export async function waitFor(url: string, path: string, status: number, exited: Promise<unknown>, output: () => string) {
  let gone = false;
  void exited.then(() => (gone = true));
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    if (gone) throw new Error(`server exited before ${path} answered ${status}:\n${output()}`);
    try {
      const res = await fetch(url + path);
      if (res.status === status) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${path} did not answer ${status} within 180 s:\n${output()}`);
}

/** Runs a script of this repository to its end; resolves to its exit code and output. */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { DATABASE_URL: _unused, ...base } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT, env: { ...base, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}
