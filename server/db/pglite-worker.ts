/**
 * PGlite in a worker thread, so that a long statement never stalls the event loop that serves pages
 * (server/db/pglite.ts is the other end). PGlite is one session: requests run in the order they came,
 * and a transaction is PGlite's own `transaction()` held open while the server's thread sends the
 * statements that belong to it, so a request from outside waits on PGlite's lock as it would in-process
 * and never sees uncommitted rows.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { messages, PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { primitiveFields, serializeError, type PgliteWasm, type Reply, type Request } from './pglite-protocol.ts';

const port = parentPort;
if (!port) throw new Error('pglite-worker runs as a worker thread');
const { dir, template, wasm, sharedBuffersMb } = workerData as { dir: string; template?: Uint8Array; wasm?: PgliteWasm; sharedBuffersMb?: number };

const isDatabaseError = (error: Error) => error instanceof messages.DatabaseError;

function post(reply: Reply): void {
  try {
    port?.postMessage(reply);
  } catch (error) {
    // A value that does not clone (an error field holding something odd): the answer still goes back.
    if (reply.type === 'result' && !reply.ok) port?.postMessage({ ...reply, error: primitiveFields(reply.error) });
    else if (reply.type === 'result') port?.postMessage({ type: 'result', id: reply.id, ok: false, error: serializeError(error, isDatabaseError) });
    else throw error;
  }
}
const answer = (id: number, value: unknown) => post({ type: 'result', id, ok: true, value });
function refuse(id: number, error: unknown): void {
  if (error instanceof WebAssembly.RuntimeError) {
    // PGlite's WebAssembly aborted (out of memory, a trap): the instance cannot be used again. Ending the
    // thread fails what it had as unavailable, and the server's side starts a new worker.
    post({ type: 'failed', error: serializeError(error, isDatabaseError) });
    process.exit(1);
  }
  post({ type: 'result', id, ok: false, error: serializeError(error, isDatabaseError) });
}
async function run(id: number, work: () => Promise<unknown>): Promise<void> {
  try {
    answer(id, await work());
  } catch (error) {
    refuse(id, error);
  }
}

interface OpenTransaction {
  tx: Transaction;
  end: (commit: boolean, replyTo: number) => void;
}
const transactions = new Map<number, OpenTransaction>();
const unsubscribers = new Map<number, () => Promise<void>>();
let nextTransaction = 1;

function target(pg: PGlite, tx: number | undefined): Pick<Transaction, 'query' | 'exec'> {
  if (tx === undefined) return pg;
  const open = transactions.get(tx);
  if (!open) throw new Error('Transaction is closed');
  return open.tx;
}

function begin(pg: PGlite, id: number): void {
  const number = nextTransaction++;
  let began = false;
  let commit = false;
  let replyTo = id;
  let ended!: () => void;
  const end = new Promise<void>((resolve) => (ended = resolve));
  pg.transaction(async (tx) => {
    began = true;
    transactions.set(number, { tx, end: (c, to) => { commit = c; replyTo = to; ended(); } });
    answer(id, number);
    await end;
    if (!commit) await tx.rollback();
  }).then(() => {
    transactions.delete(number);
    answer(replyTo, undefined);
  }, (error: unknown) => {
    transactions.delete(number);
    // Before it began, the error answers the 'begin'; after, the 'end' (a commit PostgreSQL refused).
    refuse(began ? replyTo : id, error);
  });
}

function handle(pg: PGlite, request: Request): void {
  switch (request.type) {
    case 'query':
      void run(request.id, async () => (await target(pg, request.tx).query(request.sql, request.params)).rows);
      return;
    case 'exec':
      void run(request.id, async () => {
        await target(pg, request.tx).exec(request.sql);
      });
      return;
    case 'begin':
      begin(pg, request.id);
      return;
    case 'end': {
      const open = transactions.get(request.tx);
      if (open) open.end(request.commit, request.id);
      else refuse(request.id, new Error('Transaction is closed'));
      return;
    }
    case 'listen':
      void run(request.id, async () => {
        const { listener } = request;
        unsubscribers.set(listener, await pg.listen(request.channel, (payload) => post({ type: 'notify', listener, payload })));
      });
      return;
    case 'unlisten':
      void run(request.id, async () => {
        const unsubscribe = unsubscribers.get(request.listener);
        unsubscribers.delete(request.listener);
        await unsubscribe?.();
      });
      return;
    case 'dump':
      void run(request.id, async () => new Uint8Array(await (await pg.dumpDataDir('none')).arrayBuffer()));
      return;
    case 'close':
      void run(request.id, () => pg.close());
      return;
  }
}

/**
 * bytea in and out as hex through Buffer: PGlite's own converters go byte by byte through strings
 * (a 4 MB image took seconds to insert and most of a second to read back).
 */
const BYTEA = 17;
const byteaHex = {
  serializers: {
    [BYTEA]: (value: unknown) => {
      if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
      return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
    },
  },
  parsers: { [BYTEA]: (text: string) => Buffer.from(text.slice(2), 'hex') },
};

/**
 * Bytes handed to PGlite where it takes a Blob: it only reads them with arrayBuffer(), and a real Blob's
 * arrayBuffer() in Node 20 costs most of a CPU-second per 40 MB (a test database's template).
 */
function asBlob(bytes: Uint8Array): Blob {
  return { size: bytes.byteLength, type: '', arrayBuffer: async () => bytes.slice().buffer } as unknown as Blob;
}

// A template (an in-memory database only) is unpacked instead of running initdb.
const opening = PGlite.create(dir, {
  extensions: { pg_trgm },
  ...byteaHex,
  // A smaller buffer cache than PostgreSQL's 128 MB: PGlite's memory only grows, and pages it does not hold
  // come from the operating system's file cache (PGLITE_SHARED_BUFFERS_MB).
  ...(sharedBuffersMb ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`] } : {}),
  ...(template ? { loadDataDir: asBlob(template) } : {}),
  ...(wasm ? { pgliteWasmModule: wasm.pglite, initdbWasmModule: wasm.initdb, fsBundle: asBlob(wasm.fsBundle) } : {}),
});
// Requests that come while the database opens wait for it, in their order.
port.on('message', (request: Request) => {
  opening.then((pg) => handle(pg, request), () => undefined);
});
opening.then(
  () => post({ type: 'ready' }),
  (error: unknown) => post({ type: 'failed', error: serializeError(error, isDatabaseError) }),
);
