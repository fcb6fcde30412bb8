/**
 * npm run cluster -- [--instances 3] [--port 8080] [--dir DIR] [--content DIR] [--no-replica] [--no-seed]
 *
 * The reference deployment on one machine (deploy/README.md): a PostgreSQL primary and a streaming
 * replica, N instances of the production build (dist/server/main.js) and nginx in front, configured from
 * the files in deploy/. Everything it makes lives in --dir (default: signpost-cluster in the OS temporary
 * folder), kept between runs: a second run starts on the same databases. Ctrl-C or SIGTERM stops nginx,
 * then the instances (draining), then PostgreSQL, and exits.
 *
 * nginx open source has no active health checks, so this script is the health checker: every
 * --health-interval ms it asks each instance's /readyz, writes the instances that fail it as `down` in
 * the upstream file and reloads nginx (fail open: when none is ready, all stay listed). An instance that
 * exits on its own is started again after a second, as systemd's Restart=on-failure would.
 *
 * DIR/cluster.json says what runs (ports, process ids, URLs, which instances are in rotation), for
 * benchmarks and tests that act on one instance.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { chmodSync, chownSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startSettings } from './start-settings.ts';

const ROOT = join(import.meta.dirname, '..');
const DEPLOY = join(ROOT, 'deploy');
const USAGE = 'usage: npm run cluster -- [--instances N] [--port PORT] [--dir DIR] [--content DIR] [--no-replica] [--no-seed] [--health-interval MS]';
/** What the app's role and database are called on the cluster's PostgreSQL. */
const ROLE = 'signpost';
const DATABASE = 'signpost';
const STARTUP_DEADLINE_MS = 180_000;

export class UsageError extends Error {}
/** Start-up cut short by Ctrl-C or SIGTERM. */
class Stopped extends Error {}

export interface ClusterOptions {
  instances: number;
  port: number;
  dir: string;
  content: string;
  replica: boolean;
  seed: boolean;
  healthIntervalMs: number;
  server: string;
}

export function parseOptions(argv: string[]): ClusterOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        instances: { type: 'string', default: '3' }, port: { type: 'string', default: '8080' },
        dir: { type: 'string', default: join(tmpdir(), 'signpost-cluster') }, content: { type: 'string', default: join(ROOT, 'content') },
        'no-replica': { type: 'boolean' }, 'no-seed': { type: 'boolean' },
        'health-interval': { type: 'string', default: '1000' }, server: { type: 'string', default: join(ROOT, 'dist/server/main.js') },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const v = parsed.values;
  const int = (name: string, raw: string, min: number, max: number) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name}: expected a whole number from ${min} to ${max}, not "${raw}"`);
    return n;
  };
  return {
    instances: int('instances', v.instances, 1, 32),
    port: int('port', v.port, 1, 65535),
    dir: resolve(v.dir),
    content: resolve(v.content),
    replica: v['no-replica'] !== true,
    seed: v['no-seed'] !== true,
    healthIntervalMs: int('health-interval', v['health-interval'], 100, 60_000),
    server: resolve(v.server),
  };
}

// ---- the machine: binaries and accounts -------------------------------------------------------

const isRoot = process.getuid?.() === 0;

function pgBinDir(): string | undefined {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(base, v, 'bin', 'initdb'))) return join(base, v, 'bin');
  const found = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  return found ? found.replace(/\/initdb$/, '') : undefined;
}

function nginxBin(): string | undefined {
  if (existsSync('/usr/sbin/nginx')) return '/usr/sbin/nginx';
  return spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).stdout.trim() || undefined;
}

/** PostgreSQL and nginx from Debian's packages, installed when missing and allowed to (root, apt-get). */
function ensureBinaries(): { pgBin: string; nginx: string } {
  const missing = [...(pgBinDir() ? [] : ['postgresql']), ...(nginxBin() ? [] : ['nginx'])];
  if (missing.length > 0) {
    const command = `apt-get install -y --no-install-recommends ${missing.join(' ')}`;
    if (!isRoot || spawnSync('sh', ['-c', 'command -v apt-get']).status !== 0) {
      throw new UsageError(`${missing.join(' and ')} not found: install ${missing.length > 1 ? 'them' : 'it'} (Debian: sudo ${command}) and run again`);
    }
    say(`installing ${missing.join(' ')} (${command})`);
    for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', ...missing]]) {
      const done = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
      if (done.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${done.status})`);
    }
  }
  const pgBin = pgBinDir();
  const nginx = nginxBin();
  if (!pgBin || !nginx) throw new Error('PostgreSQL or nginx is still missing after installing it');
  return { pgBin, nginx };
}

interface Account { name: string; uid: number; gid: number }

function account(names: string[]): Account | undefined {
  const lines = readFileSync('/etc/passwd', 'utf8').split('\n').map((l) => l.split(':'));
  for (const name of names) {
    const line = lines.find((l) => l[0] === name);
    if (line) return { name, uid: Number(line[2]), gid: Number(line[3]) };
  }
  return undefined;
}

function groupName(gid: number): string {
  const line = readFileSync('/etc/group', 'utf8').split('\n').map((l) => l.split(':')).find((l) => Number(l[2]) === gid);
  return line?.[0] ?? String(gid);
}

// ---- helpers ------------------------------------------------------------------------------------

function say(line: string) {
  process.stdout.write(`${line}\n`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

async function portTaken(port: number): Promise<boolean> {
  const server = createServer();
  const taken = await new Promise<boolean>((ok) => server.once('error', () => ok(true)).listen(port, '127.0.0.1', () => ok(false)));
  if (!taken) await new Promise((r) => server.close(r));
  return taken;
}

function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** A directory owned by `owner` (when running as root), made if missing. */
function ownedDir(path: string, owner: Account | undefined, mode: number) {
  mkdirSync(path, { recursive: true, mode });
  chmodSync(path, mode);
  if (owner) chownSync(path, owner.uid, owner.gid);
}

/** Runs a command to its end; its output goes to `log` and, on failure, into the error. */
function run(command: string, args: string[], options: { as?: Account | undefined; log: string; env?: NodeJS.ProcessEnv }): Promise<void> {
  return new Promise((ok, fail) => {
    const fd = openSync(options.log, 'a');
    const child = spawn(command, args, {
      stdio: ['ignore', fd, fd], env: options.env ?? process.env, cwd: '/',
      ...(options.as ? { uid: options.as.uid, gid: options.as.gid } : {}),
    });
    closeSync(fd);
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      if (code === 0) return ok();
      fail(new Error(`${command.split('/').pop()} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${tail(options.log)}`));
    });
  });
}

function tail(path: string, lines = 20): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** A long-running process in a process group of its own: Ctrl-C reaches this script only, which stops them in order. */
function daemon(command: string, args: string[], options: { log: string; as?: Account | undefined; env?: NodeJS.ProcessEnv; cwd?: string }): ChildProcess {
  const fd = openSync(options.log, 'a');
  const spawnOptions: SpawnOptions = {
    stdio: ['ignore', fd, fd], detached: true, env: options.env ?? process.env, cwd: options.cwd ?? '/',
    ...(options.as ? { uid: options.as.uid, gid: options.as.gid } : {}),
  };
  const child = spawn(command, args, spawnOptions);
  closeSync(fd);
  child.once('error', (error) => say(`${command}: ${error.message}`));
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

/** Sends `signal`, then `harder` after `ms` if the process is still there; resolves when it is gone. */
async function stopChild(child: ChildProcess | undefined, signal: NodeJS.Signals, ms: number, harder: NodeJS.Signals = 'SIGKILL') {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill(harder), ms);
  await exited(child);
  clearTimeout(timer);
}

// ---- PostgreSQL -----------------------------------------------------------------------------------

const databaseUrl = (port: number) => `postgres://${ROLE}@127.0.0.1:${port}/${DATABASE}`;

/** Waits until the server at `port` takes connections (and, for a replica, is in recovery). */
async function waitForPostgres(port: number, child: ChildProcess, log: string, database = 'postgres') {
  const until = Date.now() + STARTUP_DEADLINE_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`PostgreSQL on port ${port} stopped while starting:\n${tail(log)}`);
    const client = new pg.Client({ host: '127.0.0.1', port, user: ROLE, database, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (error) {
      if (Date.now() > until) throw new Error(`PostgreSQL on port ${port} did not take connections within ${STARTUP_DEADLINE_MS / 1000} s: ${(error as Error).message}\n${tail(log)}`);
    } finally {
      await client.end().catch(() => undefined);
    }
    await sleep(100);
  }
}

async function sql(port: number, text: string, database = 'postgres'): Promise<pg.QueryResult> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: ROLE, database });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/** The settings files of deploy/postgresql, included from the server's own postgresql.conf. */
function includeSettings(dataDir: string, files: string[], owner: Account | undefined) {
  const target = join(dataDir, 'signpost.conf');
  writeFileSync(target, files.map((f) => `# from deploy/postgresql/${f}\n${readFileSync(join(DEPLOY, 'postgresql', f), 'utf8')}`).join('\n'));
  if (owner) chownSync(target, owner.uid, owner.gid);
  const main = join(dataDir, 'postgresql.conf');
  const text = readFileSync(main, 'utf8');
  if (!text.includes("include 'signpost.conf'")) writeFileSync(main, `${text}\ninclude 'signpost.conf'\n`);
}

function postgresArgs(dataDir: string, port: number, socketDir: string): string[] {
  return ['-D', dataDir, '-p', String(port), '-k', socketDir, '-c', 'listen_addresses=127.0.0.1'];
}

// ---- nginx ------------------------------------------------------------------------------------------

export function upstreamFile(instances: Instance[]): string {
  // Fail open: with no instance ready, every one stays listed and nginx's own retries decide.
  const anyReady = instances.some((i) => i.ready);
  return [
    '# Written by npm run cluster from the instances\' /readyz: an instance that fails it is `down`.',
    ...instances.map((i) => `server 127.0.0.1:${i.port} max_fails=1 fail_timeout=5s${(anyReady && !i.ready) || i.drained ? ' down' : ''};`),
    '',
  ].join('\n');
}

function nginxMainConfig(dir: string, worker: Account | undefined): string {
  const n = join(dir, 'nginx');
  return [
    '# Written by npm run cluster: the process-level settings around deploy/nginx/signpost.conf.',
    'daemon off;',
    'worker_processes 2;',
    ...(worker ? [`user ${worker.name} ${groupName(worker.gid)};`] : []),
    `pid ${join(n, 'nginx.pid')};`,
    `error_log ${join(dir, 'logs', 'nginx-error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(n, 'tmp', t)};`),
    `  include ${join(n, 'signpost.conf')};`,
    '}',
    '',
  ].join('\n');
}

function siteConfig(dir: string, port: number): string {
  const template = readFileSync(join(DEPLOY, 'nginx', 'signpost.conf'), 'utf8');
  const values: Record<string, string> = {
    listen: `127.0.0.1:${port}`, server_name: 'localhost',
    upstream_file: join(dir, 'nginx', 'upstream.conf'), access_log: join(dir, 'logs', 'nginx-access.log'),
  };
  return template.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`deploy/nginx/signpost.conf: unknown placeholder {{${name}}}`);
    return value;
  });
}

function writeAtomic(path: string, text: string) {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

// ---- the cluster -----------------------------------------------------------------------------------

export interface Instance {
  index: number;
  port: number;
  child?: ChildProcess | undefined;
  ready: boolean;
  /** Why it is out of rotation, for the log line. */
  reason?: string | undefined;
  restarts: number;
  /** Taken out of rotation on purpose (a benchmark's fewer instances, a rolling restart), whatever /readyz says. */
  drained?: boolean;
}

/** What runs: for a benchmark that acts on one process and measures each tier. */
export interface ClusterProcesses {
  primary?: number | undefined;
  replica?: number | undefined;
  nginx?: number | undefined;
  instances: { index: number; url: string; pid?: number | undefined; inRotation: boolean }[];
}

export class Cluster {
  /** 'rotation' (index, inRotation) whenever the upstream file puts an instance in or out. */
  readonly events = new EventEmitter();
  private readonly logs: string;
  private primary?: ChildProcess;
  private replica?: ChildProcess;
  private nginx?: ChildProcess;
  private readonly instances: Instance[] = [];
  private primaryPort = 0;
  private replicaPort = 0;
  private pgBin = '';
  private socketDir = '';
  private stopping = false;
  private watcher?: NodeJS.Timeout;
  private postgresUser: Account | undefined;
  /** Every long-running process started, so that none outlives a stop, even one started mid-way. */
  private readonly children = new Set<ChildProcess>();

  constructor(private readonly options: ClusterOptions) {
    this.logs = join(options.dir, 'logs');
  }

  private daemon(command: string, args: string[], options: Parameters<typeof daemon>[2]): ChildProcess {
    if (this.stopping) throw new Stopped();
    const child = daemon(command, args, options);
    this.children.add(child);
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  /** Called after each step of start-up that waited: a stop asked for meanwhile ends start-up there. */
  private guard() {
    if (this.stopping) throw new Stopped();
  }

  get url() {
    return `http://127.0.0.1:${this.options.port}`;
  }

  async start() {
    const { options } = this;
    if (!existsSync(options.server)) throw new UsageError(`${options.server} not found: build it first (npm run build; npm run cluster does)`);
    if (!existsSync(options.content)) throw new UsageError(`--content: ${options.content} not found`);
    const { pgBin, nginx } = ensureBinaries();
    ownedDir(options.dir, undefined, 0o755);
    this.takeOverLeftovers();
    if (await portTaken(options.port)) throw new UsageError(`port ${options.port} is in use: choose another with --port`);
    ownedDir(this.logs, undefined, 0o755);
    say(`Signpost cluster in ${options.dir} (logs in ${this.logs})`);

    // PostgreSQL refuses to run as root: its files and processes belong to the postgres account.
    this.postgresUser = isRoot ? account(['postgres']) : undefined;
    if (isRoot && !this.postgresUser) throw new UsageError('running as root, but there is no postgres account to run PostgreSQL as (Debian\'s postgresql package makes one)');
    const pgDir = join(options.dir, 'pg');
    const socketDir = join(options.dir, 'run');
    ownedDir(pgDir, undefined, 0o755);
    ownedDir(socketDir, this.postgresUser, 0o755);

    const primaryDir = join(pgDir, 'primary');
    if (!existsSync(join(primaryDir, 'PG_VERSION'))) {
      ownedDir(primaryDir, this.postgresUser, 0o700);
      await run(join(pgBin, 'initdb'), ['-D', primaryDir, '-A', 'trust', '-U', ROLE, '-E', 'UTF8', '--locale=C', '--no-instructions'],
        { as: this.postgresUser, log: join(this.logs, 'initdb.log') });
    }
    this.guard();
    includeSettings(primaryDir, ['primary.conf'], this.postgresUser);
    this.primaryPort = await freePort();
    this.pgBin = pgBin;
    this.socketDir = socketDir;
    await this.startPrimary();
    this.guard();
    const exists = await sql(this.primaryPort, `select 1 from pg_database where datname = '${DATABASE}'`);
    if (exists.rowCount === 0) await sql(this.primaryPort, `create database ${DATABASE}`);
    say(`  primary    ${databaseUrl(this.primaryPort)}`);
    this.save();

    if (options.replica) {
      const replicaDir = join(pgDir, 'replica');
      if (!existsSync(join(replicaDir, 'PG_VERSION'))) {
        ownedDir(replicaDir, this.postgresUser, 0o700);
        await run(join(pgBin, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(this.primaryPort), '-U', ROLE, '-D', replicaDir, '-R', '-X', 'stream', '-c', 'fast'],
          { as: this.postgresUser, log: join(this.logs, 'pg_basebackup.log') });
      }
      this.guard();
      includeSettings(replicaDir, ['primary.conf', 'replica.conf'], this.postgresUser);
      // The primary's port changes from run to run: the connection -R wrote follows it.
      const auto = join(replicaDir, 'postgresql.auto.conf');
      writeFileSync(auto, readFileSync(auto, 'utf8').replace(/^(primary_conninfo = '.*?\bport=)\d+/m, `$1${this.primaryPort}`));
      this.replicaPort = await freePort();
      await this.startReplica();
      this.guard();
      const recovery = await sql(this.replicaPort, 'select pg_is_in_recovery() as standby', DATABASE);
      if (recovery.rows[0]?.standby !== true) throw new Error(`the replica on port ${this.replicaPort} is not in recovery: see ${join(this.logs, 'replica.log')}`);
      say(`  replica    ${databaseUrl(this.replicaPort)} (streaming from the primary)`);
      this.save();
    }

    if (options.seed) {
      const started = performance.now();
      const log = join(this.logs, 'import.log');
      await run(process.execPath, ['--enable-source-maps', join(ROOT, 'dist/scripts/import.js'), options.content], { log, env: this.instanceEnv(0) });
      this.guard();
      say(`  content    ${options.content} imported (${Math.round(performance.now() - started)} ms; ${tail(log, 1)})`);
    }

    for (let index = 1; index <= options.instances; index++) this.instances.push({ index, port: await freePort(), ready: false, restarts: 0 });
    for (const instance of this.instances) this.startInstance(instance);
    await Promise.all(this.instances.map((i) => this.waitReady(i)));
    this.guard();
    for (const instance of this.instances) say(`  instance ${instance.index} http://127.0.0.1:${instance.port} (pid ${instance.child?.pid}, ${join(this.logs, `instance-${instance.index}.log`)})`);
    this.save();

    const nginxDir = join(options.dir, 'nginx');
    const worker = isRoot ? account(['www-data', 'nobody']) : undefined;
    ownedDir(nginxDir, undefined, 0o755);
    ownedDir(join(nginxDir, 'tmp'), undefined, 0o755);
    for (const t of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) ownedDir(join(nginxDir, 'tmp', t), worker, 0o700);
    writeAtomic(join(nginxDir, 'upstream.conf'), upstreamFile(this.instances));
    writeFileSync(join(nginxDir, 'signpost.conf'), siteConfig(options.dir, options.port));
    writeFileSync(join(nginxDir, 'nginx.conf'), nginxMainConfig(options.dir, worker));
    const nginxLog = join(this.logs, 'nginx.log');
    await run(nginx, ['-t', '-q', '-c', join(nginxDir, 'nginx.conf')], { log: nginxLog });
    this.nginx = this.daemon(nginx, ['-c', join(nginxDir, 'nginx.conf')], { log: nginxLog });
    await this.waitForProxy();
    this.guard();
    say(`  nginx      ${this.url} -> ${options.instances} instance${options.instances > 1 ? 's' : ''} (${join(nginxDir, 'signpost.conf')})`);
    this.watcher = setInterval(() => void this.check(), options.healthIntervalMs);
    this.save();
    say('');
    say(`Serving at ${this.url}  (Ctrl-C stops everything)`);
    say(`Publish content: DATABASE_URL=${databaseUrl(this.primaryPort)} npm run import -- DIR`);
  }

  private async startPrimary() {
    this.primary = this.daemon(join(this.pgBin, 'postgres'), postgresArgs(join(this.options.dir, 'pg', 'primary'), this.primaryPort, this.socketDir),
      { log: join(this.logs, 'primary.log'), as: this.postgresUser });
    await waitForPostgres(this.primaryPort, this.primary, join(this.logs, 'primary.log'));
  }

  /** Starts the replica (again): it resumes streaming from where it stopped. */
  async startReplica() {
    if (!this.replicaPort) throw new UsageError('this cluster has no replica (--no-replica)');
    this.replica = this.daemon(join(this.pgBin, 'postgres'), postgresArgs(join(this.options.dir, 'pg', 'replica'), this.replicaPort, this.socketDir),
      { log: join(this.logs, 'replica.log'), as: this.postgresUser });
    await waitForPostgres(this.replicaPort, this.replica, join(this.logs, 'replica.log'), DATABASE);
    this.save();
  }

  /** A fast shutdown of the replica (SIGINT: sessions ended), as an outage of it. */
  async stopReplica() {
    await stopChild(this.replica, 'SIGINT', 60_000, 'SIGQUIT');
    this.save();
  }

  /**
   * What `pg_ctl restart -m fast` does to the primary (sessions ended, a checkpoint, started again on the
   * same port), kept as this script's child so that a stop still stops it. The instances are left alone:
   * they must reconnect by themselves. Resolves when it takes connections again.
   */
  async restartPrimary(): Promise<{ downAt: number; upAt: number }> {
    await stopChild(this.primary, 'SIGINT', 60_000, 'SIGQUIT');
    const downAt = performance.now();
    await this.startPrimary();
    this.save();
    return { downAt, upAt: performance.now() };
  }

  /** Takes an instance out of nginx's rotation (or puts it back), whatever its /readyz says. */
  drain(index: number, drained: boolean) {
    const instance = this.instance(index);
    instance.drained = drained;
    this.rewriteUpstream();
  }

  /**
   * One step of a rolling restart: out of rotation, SIGTERM (the instance drains what it serves), started
   * again, and back in once /readyz answers. Resolves when it is back in rotation.
   */
  async restartInstance(index: number) {
    const instance = this.instance(index);
    this.drain(index, true);
    const old = instance.child;
    // Not the exit handler's restart: this one is started here, at once.
    instance.child = undefined;
    await stopChild(old, 'SIGTERM', 30_000);
    instance.ready = false;
    this.startInstance(instance);
    instance.restarts++;
    await this.waitReady(instance);
    this.drain(index, false);
  }

  /** SIGKILL to one instance, as a crash: the exit handler starts it again, the health checker puts it back. */
  kill(index: number): number | undefined {
    const pid = this.instance(index).child?.pid;
    this.instance(index).child?.kill('SIGKILL');
    return pid;
  }

  processes(): ClusterProcesses {
    return {
      primary: this.primary?.pid, replica: this.replica?.exitCode === null ? this.replica.pid : undefined, nginx: this.nginx?.pid,
      instances: this.instances.map((i) => ({ index: i.index, url: `http://127.0.0.1:${i.port}`, pid: i.child?.pid, inRotation: this.inRotation(i) })),
    };
  }

  get primaryUrl() {
    return databaseUrl(this.primaryPort);
  }

  private instance(index: number): Instance {
    const instance = this.instances.find((i) => i.index === index);
    if (!instance) throw new UsageError(`no instance ${index}`);
    return instance;
  }

  private inRotation(i: Instance): boolean {
    return !i.drained && (i.ready || !this.instances.some((o) => o.ready));
  }

  private instanceEnv(index: number): NodeJS.ProcessEnv {
    // Settings in this script's environment reach every instance (SMTP_URL, AI_BASE_URL, …), except the
    // ones that make up the cluster.
    const { DATABASE_URL: _a, DATABASE_READ_URL: _b, PORT: _c, HOST: _d, DATA_DIR: _e, ...base } = process.env;
    return {
      ...base,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl(this.primaryPort),
      ...(this.replicaPort ? { DATABASE_READ_URL: databaseUrl(this.replicaPort) } : {}),
      HOST: '127.0.0.1',
      PUBLIC_URL: this.url,
      TRUST_PROXY: '127.0.0.1',
      CONTENT_DIR: this.options.content,
      // Content is published once, by the seed or `npm run import`, not by every instance at start.
      IMPORT_ON_START: 'false',
      DATA_DIR: join(this.options.dir, 'instances', String(index)),
    };
  }

  private startInstance(instance: Instance) {
    // Started as `npm run start:built` starts a single instance: its memory settings, then the fleet's.
    const settings = startSettings(ROOT);
    const env: NodeJS.ProcessEnv = { ...settings.env, ...this.instanceEnv(instance.index), PORT: String(instance.port) };
    mkdirSync(join(this.options.dir, 'instances', String(instance.index)), { recursive: true });
    const child = this.daemon(process.execPath, [...settings.flags, this.options.server], { log: join(this.logs, `instance-${instance.index}.log`), env, cwd: ROOT });
    instance.child = child;
    child.once('exit', (code, signal) => {
      if (this.stopping || instance.child !== child) return;
      instance.ready = false;
      say(`instance ${instance.index} exited (${signal ?? `exit ${code}`}); starting it again in 1 s`);
      this.rewriteUpstream();
      setTimeout(() => {
        if (this.stopping) return;
        instance.restarts++;
        this.startInstance(instance);
        this.save();
      }, 1000).unref();
    });
  }

  private async waitReady(instance: Instance) {
    const until = Date.now() + STARTUP_DEADLINE_MS;
    const log = join(this.logs, `instance-${instance.index}.log`);
    while (Date.now() < until) {
      const child = instance.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) throw new Error(`instance ${instance.index} stopped while starting:\n${tail(log)}`);
      if (await this.readyz(instance)) {
        instance.ready = true;
        return;
      }
      await sleep(100);
    }
    throw new Error(`instance ${instance.index} was not ready within ${STARTUP_DEADLINE_MS / 1000} s:\n${tail(log)}`);
  }

  private async readyz(instance: Instance): Promise<boolean> {
    try {
      const res = await fetch(`http://127.0.0.1:${instance.port}/readyz`, { signal: AbortSignal.timeout(2000) });
      const body = await res.text();
      instance.reason = res.status === 200 ? undefined : `/readyz ${res.status} ${body.slice(0, 200)}`;
      return res.status === 200;
    } catch (error) {
      instance.reason = `/readyz: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`;
      return false;
    }
  }

  private async waitForProxy() {
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      if (!this.nginx || this.nginx.exitCode !== null || this.nginx.signalCode !== null) throw new Error(`nginx stopped while starting:\n${tail(join(this.logs, 'nginx-error.log'))}`);
      try {
        await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(2000) });
        return;
      } catch {
        await sleep(100);
      }
    }
    throw new Error(`nginx did not answer on ${this.url} within 30 s`);
  }

  /** The health checker nginx open source lacks: /readyz of every instance, into the upstream file. */
  private checking = false;
  private async check() {
    if (this.checking || this.stopping) return;
    this.checking = true;
    try {
      let changed = false;
      await Promise.all(this.instances.map(async (instance) => {
        const ready = await this.readyz(instance);
        if (ready === instance.ready) return;
        instance.ready = ready;
        changed = true;
        say(ready ? `instance ${instance.index} back in rotation` : `instance ${instance.index} out of rotation (${instance.reason})`);
      }));
      if (changed && !this.stopping) this.rewriteUpstream();
    } finally {
      this.checking = false;
    }
  }

  private rewriteUpstream() {
    if (!this.nginx || this.stopping) return;
    writeAtomic(join(this.options.dir, 'nginx', 'upstream.conf'), upstreamFile(this.instances));
    for (const i of this.instances) this.events.emit('rotation', i.index, this.inRotation(i));
    // nginx re-reads its configuration on SIGHUP; workers finish their requests and are replaced.
    this.nginx.kill('SIGHUP');
    this.save();
  }

  /** DIR/cluster.json: what runs now. */
  private save() {
    const state = {
      pid: process.pid, url: this.url, stopped: this.stopping,
      primary: this.primary ? { url: databaseUrl(this.primaryPort), port: this.primaryPort, pid: this.primary.pid } : undefined,
      replica: this.replica ? { url: databaseUrl(this.replicaPort), port: this.replicaPort, pid: this.replica.pid } : undefined,
      nginx: this.nginx ? { pid: this.nginx.pid, config: join(this.options.dir, 'nginx', 'nginx.conf') } : undefined,
      instances: this.instances.map((i) => ({ index: i.index, url: `http://127.0.0.1:${i.port}`, port: i.port, pid: i.child?.pid, inRotation: this.inRotation(i), restarts: i.restarts })),
    };
    writeAtomic(join(this.options.dir, 'cluster.json'), `${JSON.stringify(state, null, 2)}\n`);
  }

  /**
   * A run killed without stopping (kill -9, a closed terminal) leaves its processes behind. Another
   * run still alive is refused; what a dead one left is stopped: only processes started from this
   * directory, found by their process id and command line.
   */
  private takeOverLeftovers() {
    const file = join(this.options.dir, 'cluster.json');
    if (!existsSync(file)) return;
    let state: { pid?: number; stopped?: boolean; primary?: { pid?: number }; replica?: { pid?: number }; nginx?: { pid?: number }; instances?: { pid?: number }[] };
    try {
      state = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return;
    }
    if (state.pid && state.pid !== process.pid && alive(state.pid) && commandLine(state.pid).includes('cluster')) {
      throw new UsageError(`a cluster already runs from ${this.options.dir} (pid ${state.pid}): stop it, or use another --dir`);
    }
    const mine = (pid: number | undefined, marker: string) => pid !== undefined && alive(pid) && commandLine(pid).includes(marker);
    const left = [
      ...[state.nginx?.pid].filter((pid) => mine(pid, this.options.dir)).map((pid) => ({ pid: pid as number, signal: 'SIGTERM' as const })),
      ...(state.instances ?? []).map((i) => i.pid).filter((pid) => mine(pid, this.options.server)).map((pid) => ({ pid: pid as number, signal: 'SIGTERM' as const })),
      ...[state.replica?.pid, state.primary?.pid].filter((pid) => mine(pid, this.options.dir)).map((pid) => ({ pid: pid as number, signal: 'SIGINT' as const })),
    ];
    for (const { pid, signal } of left) {
      say(`stopping process ${pid}, left running by an earlier run`);
      process.kill(pid, signal);
      const until = Date.now() + 30_000;
      while (alive(pid) && Date.now() < until) spawnSync('sleep', ['0.1']);
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }

  /** nginx first (no new requests), then the instances drain, then the replica and the primary. */
  async stop() {
    if (this.stopping) return;
    this.stopping = true;
    clearInterval(this.watcher);
    // SIGQUIT is nginx's graceful stop; SIGTERM its fast one (SIGKILL would leave its workers behind).
    await stopChild(this.nginx, 'SIGQUIT', 10_000, 'SIGTERM');
    await Promise.all(this.instances.map((i) => stopChild(i.child, 'SIGTERM', 30_000)));
    // SIGINT is PostgreSQL's fast shutdown (ends sessions, checkpoints); SIGQUIT its immediate one.
    await stopChild(this.replica, 'SIGINT', 60_000, 'SIGQUIT');
    await stopChild(this.primary, 'SIGINT', 60_000, 'SIGQUIT');
    await Promise.all([...this.children].map((child) => stopChild(child, 'SIGTERM', 30_000)));
    this.save();
  }
}

async function main() {
  let options: ClusterOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const cluster = new Cluster(options);
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = true;
    say(`\n${signal}: stopping the cluster`);
    void cluster.stop().then(() => {
      say('stopped');
      process.exit(0);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await cluster.start();
  } catch (error) {
    if (signalled || error instanceof Stopped) return;
    console.error(error instanceof UsageError ? error.message : `the cluster did not start: ${(error as Error).message}`);
    await cluster.stop();
    process.exit(error instanceof UsageError ? 2 : 1);
  }
}

// Run as a command (npm run cluster, or the tests' bundle of it), not when a benchmark or test imports
// the class. By the file's name: the tests' bundle keeps the source's import.meta.url.
if (/[\\/]cluster\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) await main();
