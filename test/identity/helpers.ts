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

/** The site's origin in the identity tests' requests (PUBLIC_URL of their apps). */
export const ORIGIN = 'https://help.example.test';

/** What a browser holds between requests: cookies in, Set-Cookie kept (oidc-peer.ts's Jar). */
interface CookieJar {
  header(): string;
  take(setCookie: string[] | string | undefined): void;
}

/** A browser's GET: the jar's cookies sent, its Set-Cookie kept. */
export async function visit(app: FastifyInstance, jar: CookieJar, url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const res = await app.inject({ url: new URL(url, ORIGIN).href, headers: { cookie: jar.header(), ...headers } });
  jar.take(res.headers['set-cookie'] as string[] | string | undefined);
  return res;
}

/** A browser's form post from the site itself. */
export async function postForm(app: FastifyInstance, jar: CookieJar, url: string, fields: Record<string, string>,
  headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const res = await app.inject({ method: 'POST', url: new URL(url, ORIGIN).href, payload: new URLSearchParams(fields).toString(),
    headers: { cookie: jar.header(), origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded', ...headers } });
  jar.take(res.headers['set-cookie'] as string[] | string | undefined);
  return res;
}

/** Follows redirects while they stay on the site, as a browser does. */
export async function follow(app: FastifyInstance, jar: CookieJar, res: LightMyRequestResponse, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  let current = res;
  for (let i = 0; i < 10 && current.statusCode >= 300 && current.statusCode < 400; i++) {
    const next = new URL(String(current.headers.location), ORIGIN);
    if (next.origin !== ORIGIN) return current;
    current = await visit(app, jar, next.href, headers);
  }
  return current;
}
