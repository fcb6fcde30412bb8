import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import type { SessionUser } from '../../server/identity/types.ts';

export const SESSION_SECRET = 'session-secret-for-tests-0123456789abcdef';

export const ADA: SessionUser = {
  sub: 'acct-ada', email: 'ada@customer.example', emailVerified: true, name: 'Ada Lovelace', canEdit: false, partner: false,
  cohort: { plan: 'premium', seats: 25, trial: false, region: null },
};

/** A session cookie as the app seals it (the library's own encoder, with the app's keys). */
export function sealed(app: FastifyInstance, user: SessionUser, times: { iat?: number; seen?: number } = {}): string {
  const now = Date.now();
  const session = app.createSecureSession({ user, iat: times.iat ?? now, seen: times.seen ?? now, sid: randomBytes(16).toString('base64url') });
  return `sp_session=${encodeURIComponent(app.encodeSecureSession(session, 'session'))}`;
}

/** The Set-Cookie lines of a response. */
export function setCookies(res: LightMyRequestResponse): string[] {
  const raw = res.headers['set-cookie'];
  return raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
}

/** `name=value` of the cookie a response sets, when it sets one with a value. */
export function cookieFrom(res: LightMyRequestResponse, name: string): string | undefined {
  const line = setCookies(res).find((l) => l.startsWith(`${name}=`));
  if (!line) return undefined;
  const pair = line.split(';')[0] ?? '';
  return pair === `${name}=` ? undefined : pair;
}

/** Whether a response clears the cookie. */
export function clears(res: LightMyRequestResponse, name: string): boolean {
  return setCookies(res).some((l) => l.startsWith(`${name}=;`) && /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(l));
}
