/**
 * The database server is away (restart, failover, network): the request cannot be answered now but
 * may be in a moment. Routes let it propagate; the app answers 503 with Retry-After (DESIGN "Running
 * safely"). The PostgreSQL message stays in `cause` for the log, never in a response.
 */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
  readonly code = 'DATABASE_UNAVAILABLE';

  constructor(cause: unknown) {
    super('The database is unavailable', { cause });
  }
}

/** Socket-level failures of a connection to the server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * SQLSTATEs of a server going away: 57P01 admin_shutdown (also pg_terminate_backend), 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up or in recovery); class 08 is connection exception.
 */
const SERVER_GONE = new Set(['57P01', '57P02', '57P03']);
/**
 * What pg says when the socket closes, a pooled connection cannot be had in time, or a statement got no
 * answer within its query_timeout (set on replicas only: server/db/replicas.ts).
 */
const MESSAGES = [/^Connection terminated/, /timeout exceeded when trying to connect/, /^Client has encountered a connection error and is not queryable/, /^Connection timed out/, /^Query read timeout/];

/** Whether an error means "the database server cannot be reached now" rather than a bad query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof DatabaseUnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || SERVER_GONE.has(code)) return true;
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return MESSAGES.some((m) => m.test(error.message));
}

/** The error to throw: connection failures become DatabaseUnavailableError, anything else stays as it is. */
export function classify(error: unknown): unknown {
  return !(error instanceof DatabaseUnavailableError) && isDatabaseUnavailable(error) ? new DatabaseUnavailableError(error) : error;
}
