/**
 * Ending sessions before their time (issue 25 item 3), in the shared database so that every instance
 * sees it on the next request. The session cookie stays sealed and self-contained; what can end it is
 * kept here as two small tables (migration 15):
 * - `session_generations`: per subject (account id), a counter raised by a password change, a reset
 *   and disabling the account. A cookie carries the counter as it was at sign-in; a lower one is over,
 *   so one write ends every session of the account, however many devices hold one.
 * - `ended_sessions`: the ids of single sessions signed out, kept until the cookie would have expired
 *   on its own anyway.
 * Both are read together in one round trip of two primary-key look-ups, only for requests that bring a
 * session cookie (session.ts): anonymous requests never touch them.
 */
import type { Queryable } from '../db/driver.ts';

/** How often, at most, an instance deletes ended sessions whose cookies have expired anyway. */
const SWEEP_INTERVAL_MS = 60_000;
const lastSweep = new WeakMap<Queryable, number>();

/** The generation sessions of `subject` start in (0 while nothing ever ended them). */
export async function sessionGeneration(db: Queryable, subject: string): Promise<number> {
  const rows = await db.query<{ generation: number }>('select generation from session_generations where subject = $1', [subject]);
  return rows[0]?.generation ?? 0;
}

/** Whether a session (its id, its subject and the generation it started in) has been ended. */
export async function sessionEnded(db: Queryable, session: { sid: string; subject: string; generation: number }): Promise<boolean> {
  const rows = await db.query<{ generation: number; ended: boolean }>(
    `select coalesce((select generation from session_generations where subject = $1), 0) as generation,
            exists (select 1 from ended_sessions where sid = $2) as ended`,
    [session.subject, session.sid],
  );
  const row = rows[0];
  return !row || row.ended || Number(row.generation) > session.generation;
}

/** Ends one session (sign-out) until `expiresAt`, when its cookie is refused on its own. */
export async function endOneSession(db: Queryable, sid: string, expiresAt: Date, now: Date): Promise<void> {
  await db.query('insert into ended_sessions (sid, expires_at) values ($1, $2) on conflict (sid) do nothing', [sid, expiresAt]);
  const last = lastSweep.get(db);
  if (last !== undefined && now.getTime() - last < SWEEP_INTERVAL_MS) return;
  lastSweep.set(db, now.getTime());
  await db.query('delete from ended_sessions where expires_at <= $1', [now]);
}

/**
 * Ends every session of an account: the site's (the generation goes up) and the embedded provider's
 * own sign-in sessions, so that no device is signed straight back in without the password.
 */
export async function endAccountSessions(db: Queryable, subject: string): Promise<void> {
  await db.query(
    `insert into session_generations (subject, generation) values ($1, 1)
     on conflict (subject) do update set generation = session_generations.generation + 1`,
    [subject],
  );
  await endProviderSessions(db, `payload->>'accountId' = $1`, subject);
}

/**
 * Ends the embedded provider's sign-in session a browser holds (its `sp_op` cookie names it), so that
 * the next 'Sign in' asks for the password again. The id is not checked against the cookie's signature:
 * whoever knows a session id already holds that session, and can only end it.
 */
export async function endProviderSession(db: Queryable, id: string): Promise<void> {
  if (id === '' || id.length > 200 || id.includes('\u0000')) return;
  await endProviderSessions(db, 'id = $1', id);
}

/** Deletes provider sessions and the grants (with their codes and tokens) they hold, as its own end-session does. */
async function endProviderSessions(db: Queryable, where: string, value: string): Promise<void> {
  const rows = await db.query<{ payload: { authorizations?: Record<string, { grantId?: unknown }> } | string }>(
    `delete from oidc_models where kind = 'Session' and ${where} returning payload`, [value]);
  const grants = rows.flatMap((row) => {
    const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) as { authorizations?: Record<string, { grantId?: unknown }> } : row.payload;
    return Object.values(payload.authorizations ?? {}).map((a) => a?.grantId).filter((g): g is string => typeof g === 'string' && g !== '');
  });
  if (grants.length > 0) await db.query(`delete from oidc_models where grant_id = any($1) or (kind = 'Grant' and id = any($1))`, [grants]);
}
