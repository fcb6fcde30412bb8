/**
 * Messages between the server's thread and the PGlite worker (server/db/pglite.ts and
 * pglite-worker.ts). Values cross by structured clone, which keeps what PGlite returns as it is: Date,
 * parsed JSON, arrays, Uint8Array.
 */

/** PGlite's WebAssembly, compiled once by the server's thread and shared by every worker it starts. */
export interface PgliteWasm {
  pglite: WebAssembly.Module;
  initdb: WebAssembly.Module;
  /** pglite.data, in shared memory: each worker reads it without a copy of its own. */
  fsBundle: Uint8Array;
}

export type Request =
  | { type: 'query'; id: number; sql: string; params: unknown[]; tx?: number }
  | { type: 'exec'; id: number; sql: string; tx?: number }
  /** Opens a transaction; the answer is its number, which later requests name in `tx`. */
  | { type: 'begin'; id: number }
  /** Commits or rolls back; answered once the transaction is over. */
  | { type: 'end'; id: number; tx: number; commit: boolean }
  | { type: 'listen'; id: number; listener: number; channel: string }
  | { type: 'unlisten'; id: number; listener: number }
  /** The data directory as an uncompressed tarball (a Uint8Array), to start another database from. */
  | { type: 'dump'; id: number }
  /** Closes the database once the work already sent is done; the worker is then terminated. */
  | { type: 'close'; id: number };

/** Distributes Omit over the union, so each request type keeps its own fields. */
export type RequestBody = Request extends infer R ? R extends Request ? Omit<R, 'id'> : never : never;

export type Reply =
  | { type: 'ready' }
  /** The database could not be opened, or PGlite broke for good: the worker ends. */
  | { type: 'failed'; error: SerializedError }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: SerializedError }
  | { type: 'notify'; listener: number; payload: string };

export interface SerializedError {
  message: string;
  stack: string | undefined;
  /** PostgreSQL's error fields (name, code, detail, position…) and any other own property. */
  fields: Record<string, unknown>;
  /** Whether it was PGlite's DatabaseError (an error reported by PostgreSQL). */
  database: boolean;
}

/** The parts of an error that survive a structured clone, with every own property. */
export function serializeError(error: unknown, isDatabaseError: (e: Error) => boolean): SerializedError {
  if (!(error instanceof Error)) return { message: String(error), stack: undefined, fields: {}, database: false };
  const fields: Record<string, unknown> = { name: error.name };
  for (const [key, value] of Object.entries(error)) fields[key] = value;
  return { message: error.message, stack: error.stack, fields, database: isDatabaseError(error) };
}

/** The same without values a structured clone refuses (kept only for the rare error that carries one). */
export function primitiveFields(error: SerializedError): SerializedError {
  const fields = Object.fromEntries(Object.entries(error.fields).filter(([, v]) => v === null || typeof v !== 'object' && typeof v !== 'function'));
  return { ...error, fields };
}
