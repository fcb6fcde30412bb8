import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { openDb, pgliteDirFor } from '../../server/db/driver.ts';
import { migrate } from '../../server/db/migrate.ts';

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

/**
 * A new data directory, removed when the test ends. Its PGlite database already exists, with every
 * migration applied (a copy of one made once, see seededPglite): what a server finds after its first
 * start, without paying PGlite's initdb in every test. `{ empty: true }` gives a directory with nothing.
 */
export async function tempDataDir(t: Test, options: { empty?: boolean } = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'signpost-data-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  if (!options.empty) await cp(await seededPglite(), pgliteDirFor(dir), { recursive: true });
  return dir;
}

let seeded: Promise<string> | undefined;

/** A migrated PGlite data directory in the system's temporary folder, named after what made it. */
function seededPglite(): Promise<string> {
  seeded ??= (async () => {
    const hash = createHash('sha256');
    for (const file of ['server/db/migrations.ts', 'server/db/migrate.ts', 'node_modules/@electric-sql/pglite/package.json']) {
      hash.update(await readFile(join(ROOT, file)));
    }
    const dir = join(tmpdir(), `signpost-seeded-pglite-${hash.digest('hex').slice(0, 16)}`);
    if (existsSync(dir)) return dir;
    // Made aside and renamed, so a process starting at the same time never copies half a directory.
    const partial = await mkdtemp(`${dir}.partial-`);
    const db = await openDb({ pgliteDir: partial });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    await rm(`${partial}.lock`, { force: true });
    await rename(partial, dir).catch(async (error: unknown) => {
      // Another process got there first: its directory is as good as this one.
      if (!existsSync(dir)) throw error;
      await rm(partial, { recursive: true, force: true });
    });
    return dir;
  })();
  return seeded;
}

/**
 * How a child process runs one of the project's entry points (`server/main.ts`, a script): from its
 * bundle when this test runs from one (`npm test`, scripts/test-build.mjs bundles both at once), else
 * from source through tsx.
 */
export function entryArgs(source: string): string[] {
  if (process.argv[1]?.includes(`${sep}.test-build${sep}`)) return ['--enable-source-maps', join(ROOT, '.test-build', source.replace(/\.tsx?$/, '.mjs'))];
  return ['--import', 'tsx', source];
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote to stderr and stdout so far. */
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * The real server (`server/main.ts`, see `entryArgs`) on PGlite in `dataDir`, resolved once `/readyz`
 * answers 200 (database up, content stored). Killed when the test ends if still running.
 */
export async function startServer(t: Test, env: Record<string, string>, options: { ready?: boolean } = {}): Promise<ServerProcess> {
  const port = await freePort();
  const { DATABASE_URL: _unused, ...base } = process.env;
  const child = spawn(process.execPath, entryArgs('server/main.ts'), {
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
  const child = spawn(process.execPath, [...entryArgs(script), ...args], {
    cwd: ROOT, env: { ...base, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}
