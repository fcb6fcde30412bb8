/**
 * PGlite off the thread that serves pages: the database runs in a worker thread
 * (server/db/pglite-worker.ts) and this side sends it statements through the `Db` seam, so a long
 * search never stalls the event loop (DESIGN "Running safely"). A worker that dies fails what it had
 * with DatabaseUnavailableError (a 503) and is started again, so the site comes back without a restart.
 */
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { backoffMs } from './backoff.ts';
import { lockDataDir } from './data-dir-lock.ts';
import type { Db, ListenOptions, Queryable } from './driver.ts';
import type { PgliteWasm, Reply, RequestBody, SerializedError } from './pglite-protocol.ts';
import { DatabaseUnavailableError } from './unavailable.ts';
import { workerUrl } from '../worker-url.ts';

/** How long closing waits for the work already sent before the worker is stopped anyway. */
export const CLOSE_TIMEOUT_MS = 10_000;

export interface PgliteEvents {
  /** The worker stopped unexpectedly; a new one is being started. */
  onWorkerExit?: (error: Error) => void;
  /** A new worker has the database open again. */
  onWorkerRestart?: () => void;
}

type DatabaseErrorClass = new (message: string, length: number, name: 'error') => Error;

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Listening {
  channel: string;
  onMessage: (payload: string) => void;
  options: ListenOptions;
}

/** One worker and what it was asked: its answers settle its own requests only. */
interface Running {
  worker: Worker;
  pending: Map<number, Pending>;
  ready: boolean;
  /** Transactions begun on this worker and not yet ended. */
  transactions: number;
  /** Called when nothing is pending and no transaction is open (a reopen waits for it). */
  onIdle?: (() => void) | undefined;
}

/**
 * `template` (for `memory://` only) is a data directory from `PgliteDb.dump()` the database starts as,
 * instead of an empty one: tests start each database from one migrated copy.
 */
/** How the worker starts PostgreSQL. */
export interface PgliteSettings {
  /** shared_buffers in MB; PGlite's default (128) when not given. */
  sharedBuffersMb?: number | undefined;
}

export async function openPglite(dir: string, events: PgliteEvents = {}, template?: Uint8Array, settings: PgliteSettings = {}): Promise<PgliteDb> {
  if (template && !dir.startsWith('memory://')) throw new Error('a PGlite template is for an in-memory database only');
  let release = async () => {};
  if (!dir.startsWith('memory://')) {
    mkdirSync(dir, { recursive: true });
    // Every opener takes the directory's lock before the worker opens it, so no caller can forget it
    // (DESIGN "Running safely"); the worker is a thread of this process, covered by the same lock.
    release = await lockDataDir(dir);
  }
  try {
    // Errors PostgreSQL reported come back as PGlite's own DatabaseError; loaded here, not with the driver,
    // so a server on PostgreSQL never loads PGlite.
    const { messages } = await import('@electric-sql/pglite');
    const url = await workerUrl('pglite-worker', new URL('./pglite-worker.ts', import.meta.url));
    const db = new PgliteDb(dir, url, release, events, messages.DatabaseError, template, await pgliteWasm(), settings);
    await db.start();
    return db;
  } catch (error) {
    await release();
    throw error;
  }
}

let wasm: Promise<PgliteWasm> | undefined;

/**
 * PGlite's WebAssembly modules and file-system bundle, compiled and read once per process: a worker
 * started later (a second database, a replacement after a crash) instantiates them without compiling.
 */
function pgliteWasm(): Promise<PgliteWasm> {
  wasm ??= (async () => {
    const dist = new URL('.', import.meta.resolve('@electric-sql/pglite'));
    const [pglite, initdb, data] = await Promise.all([
      readFile(new URL('pglite.wasm', dist)).then((bytes) => WebAssembly.compile(bytes)),
      readFile(new URL('initdb.wasm', dist)).then((bytes) => WebAssembly.compile(bytes)),
      readFile(new URL('pglite.data', dist)),
    ]);
    const fsBundle = new Uint8Array(new SharedArrayBuffer(data.byteLength));
    fsBundle.set(data);
    return { pglite, initdb, fsBundle };
  })();
  wasm.catch(() => (wasm = undefined));
  return wasm;
}

export class PgliteDb implements Db {
  readonly engine = 'pglite' as const;
  private running: Running | undefined;
  private nextId = 1;
  private nextListener = 1;
  private readonly listening = new Map<number, Listening>();
  private attempt = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private opened = false;
  private closed = false;
  private closing: Promise<void> | undefined;
  /** Settles once a reopen is over; never rejects, so work waiting for it goes on. */
  private reopening: Promise<void> | undefined;
  /** The same reopen as its caller sees it: rejects when it failed. */
  private reopened: Promise<void> | undefined;

  constructor(
    private readonly dir: string,
    private readonly url: URL,
    private readonly release: () => Promise<void>,
    private readonly events: PgliteEvents,
    private readonly DatabaseError: DatabaseErrorClass,
    private readonly template: Uint8Array | undefined,
    private readonly wasm: PgliteWasm,
    private readonly settings: PgliteSettings = {},
  ) {}

  /** The worker now serving (tests stop it to check recovery). */
  get worker(): Worker | undefined {
    return this.running?.worker;
  }

  /** Requests sent and not yet answered. */
  get busy(): number {
    return this.running?.pending.size ?? 0;
  }

  /** Starts the first worker; fails with PGlite's own error when the database cannot be opened. */
  async start(): Promise<void> {
    try {
      await this.spawn();
      this.opened = true;
    } catch (error) {
      this.closed = true;
      await this.running?.worker.terminate();
      throw error;
    }
  }

  query<R = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<R[]> {
    return this.send({ type: 'query', sql, params }) as Promise<R[]>;
  }

  async exec(sql: string): Promise<void> {
    await this.send({ type: 'exec', sql });
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    // A transaction begun while the database reopens begins on the new worker.
    while (this.reopening && !this.closed) await this.reopening;
    const running = this.closed ? undefined : this.running;
    if (running) running.transactions++;
    try {
      const tx = (await this.post({ type: 'begin' }, running)) as number;
      // Statements of the transaction go to the worker that opened it, or fail if it has died since.
      const inTx = (body: RequestBody) => this.send(body, running);
      const scope: Queryable = {
        query: <R>(sql: string, params: unknown[] = []) => inTx({ type: 'query', sql, params, tx }) as Promise<R[]>,
        exec: async (sql: string) => {
          await inTx({ type: 'exec', sql, tx });
        },
      };
      let result: T;
      try {
        result = await work(scope);
      } catch (error) {
        // Rolled back; when the worker is gone, so is the transaction.
        await inTx({ type: 'end', tx, commit: false }).catch(() => undefined);
        throw error;
      }
      await inTx({ type: 'end', tx, commit: true });
      return result;
    } finally {
      if (running) {
        running.transactions--;
        idleCheck(running);
      }
    }
  }

  /**
   * Closes the database and opens it again in a new worker, so that the memory the old one grew to is
   * given back to the system: WebAssembly memory never shrinks, and a large import leaves PGlite's heap
   * (and what its thread allocated) at its peak. Waits for the requests already sent and the
   * transactions already open; requests made meanwhile wait and go to the new worker, in their order.
   * An in-memory database is not reopened (closing it would lose it).
   */
  reopen(): Promise<void> {
    if (this.dir.startsWith('memory://') || this.closed || !this.running?.ready) return this.reopened ?? Promise.resolve();
    if (this.reopened) return this.reopened;
    let failure: unknown;
    this.reopening = (async () => {
      const old = this.running;
      if (!old) return;
      await new Promise<void>((resolve) => {
        old.onIdle = resolve;
        idleCheck(old);
      });
      old.onIdle = undefined;
      if (this.closed || old !== this.running) return;
      // A worker that fails to close its database ends like one that died: its exit starts a new one.
      await this.post({ type: 'close' }, old);
      this.running = undefined;
      await old.worker.terminate();
      if (this.closed) return;
      await this.spawn();
      const running = this.running;
      await Promise.all([...this.listening].map(([listener, { channel }]) => this.post({ type: 'listen', listener, channel }, running)));
    })().catch((error: unknown) => {
      // Work waiting for the reopen goes on either way: a worker that failed ends and is restarted.
      failure = error;
    }).finally(() => {
      this.reopening = undefined;
      this.reopened = undefined;
    });
    // The caller hears of a failure (to log it); a close meanwhile is not one.
    this.reopened = this.reopening.then(() => {
      if (failure !== undefined && !this.closed) throw failure;
    });
    return this.reopened;
  }

  /** The whole data directory as an uncompressed tarball, taken between statements. */
  async dump(): Promise<Uint8Array> {
    return (await this.send({ type: 'dump' })) as Uint8Array;
  }

  async listen(channel: string, onMessage: (payload: string) => void, options: ListenOptions = {}): Promise<() => Promise<void>> {
    const listener = this.nextListener++;
    this.listening.set(listener, { channel, onMessage, options });
    try {
      await this.send({ type: 'listen', listener, channel });
    } catch (error) {
      this.listening.delete(listener);
      throw error;
    }
    return async () => {
      if (!this.listening.delete(listener) || this.closed) return;
      await this.send({ type: 'unlisten', listener }).catch(() => undefined);
    };
  }

  /**
   * Refuses new work, lets the worker finish what was sent (an open transaction may still send its
   * statements), closes the database, stops the worker and releases the directory's lock.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      clearTimeout(this.restartTimer);
      const running = this.running;
      if (running) {
        const stop = setTimeout(() => void running.worker.terminate(), CLOSE_TIMEOUT_MS);
        await this.send({ type: 'close' }, running).catch(() => undefined);
        clearTimeout(stop);
        await running.worker.terminate();
      }
      await this.release();
    })();
    return this.closing;
  }

  /**
   * Sends a request to the worker. Without `to`, it goes to the current worker, and is refused once
   * closing; with `to` (a transaction's statements, closing itself), only to that worker.
   */
  private send(body: RequestBody, to?: Running): Promise<unknown> {
    if (!to && this.reopening && !this.closed) return this.reopening.then(() => this.send(body));
    return this.post(body, to ?? (this.closed ? undefined : this.running));
  }

  /** Sends a request to this worker, if it is still the one serving. */
  private post(body: RequestBody, running: Running | undefined): Promise<unknown> {
    if (!running || running !== this.running) {
      const why = this.closed ? 'the database is closed' : 'the PGlite worker is restarting';
      return Promise.reject(new DatabaseUnavailableError(new Error(why)));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      running.pending.set(id, { resolve, reject });
      hold(running);
      running.worker.postMessage({ ...body, id });
    });
  }

  private spawn(): Promise<void> {
    const worker = new Worker(this.url, { workerData: { dir: this.dir, template: this.template, wasm: this.wasm, sharedBuffersMb: this.settings.sharedBuffersMb } });
    const running: Running = { worker, pending: new Map(), ready: false, transactions: 0 };
    hold(running);
    this.running = running;
    let failure: Error | undefined;
    return new Promise<void>((resolve, reject) => {
      worker.on('message', (reply: Reply) => {
        switch (reply.type) {
          case 'result': {
            const pending = running.pending.get(reply.id);
            if (!pending) return;
            running.pending.delete(reply.id);
            hold(running);
            if (reply.ok) pending.resolve(reply.value);
            else pending.reject(this.deserializeError(reply.error));
            idleCheck(running);
            return;
          }
          case 'notify':
            this.listening.get(reply.listener)?.onMessage(reply.payload);
            return;
          case 'ready':
            running.ready = true;
            hold(running);
            resolve();
            return;
          case 'failed':
            failure = this.deserializeError(reply.error);
            reject(failure);
            void worker.terminate();
            return;
        }
      });
      worker.on('error', (error) => {
        failure ??= error;
      });
      worker.on('exit', (code) => {
        const error = failure ?? new Error(`the PGlite worker stopped (exit code ${code})`);
        reject(error);
        this.exited(running, error);
      });
    });
  }

  private exited(running: Running, error: Error): void {
    const unavailable = new DatabaseUnavailableError(error);
    for (const pending of running.pending.values()) pending.reject(unavailable);
    running.pending.clear();
    idleCheck(running);
    if (running !== this.running) return;
    this.running = undefined;
    if (this.closed || !this.opened) return;
    this.events.onWorkerExit?.(error);
    for (const { options } of this.listening.values()) options.onDisconnect?.(error);
    this.restart();
  }

  /** The worker's error as an Error of this thread, with every field PostgreSQL reported (code, detail, position…). */
  private deserializeError(serialized: SerializedError): Error {
    const error = serialized.database ? new this.DatabaseError(serialized.message, 0, 'error') : new Error(serialized.message);
    Object.assign(error, serialized.fields);
    if (serialized.stack) error.stack = serialized.stack;
    return error;
  }

  private restart(): void {
    const wait = this.attempt === 0 ? 0 : backoffMs(this.attempt - 1);
    this.attempt++;
    this.restartTimer = setTimeout(() => {
      if (this.closed) return;
      // A failed start ends in the exit handler, which schedules the next attempt.
      this.spawn().then(() => this.restored(), () => undefined);
    }, wait);
    this.restartTimer.unref();
  }

  /** A new worker has the database open: listeners listen again and hear that they may have missed a NOTIFY. */
  private async restored(): Promise<void> {
    const running = this.running;
    try {
      await Promise.all([...this.listening].map(([listener, { channel }]) => this.send({ type: 'listen', listener, channel })));
    } catch {
      return; // the new worker died too; its exit schedules another attempt
    }
    if (running !== this.running) return;
    this.attempt = 0;
    this.events.onWorkerRestart?.();
    for (const { options } of this.listening.values()) options.onReconnect?.();
  }
}

/**
 * The worker keeps the process alive while it opens the database or has work, and not while idle:
 * PGlite in-process kept nothing alive, and a script that forgets to close must still end.
 */
function hold(running: Running): void {
  if (!running.ready || running.pending.size > 0) running.worker.ref();
  else running.worker.unref();
}

function idleCheck(running: Running): void {
  if (running.onIdle && running.pending.size === 0 && running.transactions === 0) running.onIdle();
}

