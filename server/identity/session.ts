/**
 * The session (issue "Sessions"): a sealed (encrypted and authenticated) cookie, so instances keep no
 * session state. `sp_session` holds the signed-in person (SessionUser), when they signed in and when
 * they were last seen; `sp_signin` (path: the identity base, ten minutes) holds a sign-in under way:
 * state, nonce, PKCE verifier and where to return; after a log-out, the issuer's end-session address.
 *
 * Keys: SESSION_SECRET's secrets, newest first (the first seals, every one opens, so a new key can be
 * put in front without signing anyone out), else one secret made once and kept in the database so every
 * instance agrees. Each secret is stretched to a 32-byte key with HKDF-SHA-256.
 *
 * A cookie that is tampered with, sealed with a key we no longer have, past its idle or absolute
 * lifetime, or not what we wrote makes the request anonymous and is cleared: never an error.
 *
 * Ending a session before its time (revocation.ts): the cookie carries a session id and the account's
 * session generation at sign-in; each request that brings a cookie (other than for static assets and
 * analytics beacons, which never look at the person) checks both against the shared database, so a
 * sign-out, a password change or a disabled account ends the session on every instance at once.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import secureSession, { type Session } from '@fastify/secure-session';
import type { Config } from '../config.ts';
import { storedSecret } from './secrets.ts';
import { endOneSession, sessionEnded, sessionGeneration } from './revocation.ts';
import type { SessionUser } from './types.ts';
import { SESSION_COOKIE } from '../plugins/cache-rules.ts';

export { SESSION_COOKIE };
export const SIGNIN_COOKIE = 'sp_signin';
/** A sign-in under way is kept this long: time to type a password, not to leave it for the day. */
export const SIGNIN_LIFETIME_S = 600;
/** sp_signin's field for the issuer's end-session address, between log-out and the signed-out page. */
export const SIGNOUT_FIELD = 'signout';
/** Last-seen is written back at most this often, so a busy visitor's cookie is not re-sealed on every page. */
export const SEEN_RESOLUTION_MS = 60_000;

/**
 * How stale last-seen may get before it is written back: a tenth of the idle limit, at most
 * SEEN_RESOLUTION_MS. Last-seen trails the visitor's last request by less than this, so a visitor is
 * dropped only after nine tenths of the idle limit without a request, whatever the limit (with a
 * fixed minute and SESSION_IDLE_MINUTES=1, a page every 20 s could still be dropped).
 */
export function seenResolutionMs(idleMs: number): number {
  return Math.min(SEEN_RESOLUTION_MS, Math.max(1000, Math.floor(idleMs / 10)));
}

/** A sign-in under way (sp_signin). */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  /** The checked return path. */
  continueTo: string;
  /** When it started (ms). */
  at: number;
}

interface SessionFields {
  user: SessionUser;
  /** Signed in at (ms since the epoch). */
  iat: number;
  /** Last request (ms), at seenResolutionMs() resolution. */
  seen: number;
  /** The ID token, kept when small, as the end-session hint. */
  idt?: string;
  /** This session's id: what a sign-out ends (revocation.ts). */
  sid: string;
  /** The account's session generation at sign-in (0 when absent). */
  gen?: number;
}

/** Whether sp_signin still carries something: a sign-in under way, or a sign-out to finish at the issuer. */
function signinInUse(request: FastifyRequest): boolean {
  return !!request.signin.get('pending') || typeof request.signin.get(SIGNOUT_FIELD) === 'string';
}

/** Requests that never look at the person: they pay no session check (and do not refresh last-seen). */
function sessionless(request: FastifyRequest): boolean {
  return request.url.startsWith('/assets/') || (request.method === 'POST' && request.url === '/api/events');
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person, when the session cookie is valid (roles.ts turns it into a Visitor). */
    user: SessionUser | undefined;
    /** The sign-in under way (sp_signin); session.ts's names for it. */
    signin: Session;
  }
  interface FastifyReply {
    /** Starts the session of a person who has just signed in (a new cookie: never one the browser brought). */
    startSession(user: SessionUser, idToken?: string): Promise<void>;
    /** Ends the session on every instance (recorded in the database) and clears the cookie. */
    endSession(): Promise<void>;
  }
}

/** A session's fields by name (the library types them by an interface it does not export). */
export interface SessionBag {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  data(): Record<string, unknown> | undefined;
  delete(): void;
  regenerate(ignoreFields?: string[]): void;
}
export const bag = (session: Session): SessionBag => session as unknown as SessionBag;

/** A 32-byte key from a secret (HKDF-SHA-256, fixed salt and purpose). */
export function sessionKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), 'signpost session cookie', 'sp_session v1', 32));
}

export interface SessionOptions {
  config: Pick<Config, 'publicUrl' | 'identityUrl' | 'sessionSecrets' | 'sessionIdleMinutes' | 'sessionMaxHours'>;
  clock?: (() => number) | undefined;
}

/** A SessionUser as we wrote it (anything else in a cookie we can open is treated as no session). */
function isSessionUser(value: unknown): value is SessionUser {
  if (!value || typeof value !== 'object') return false;
  const u = value as Record<string, unknown>;
  return typeof u.sub === 'string' && u.sub !== '' && typeof u.email === 'string' && u.email !== '' &&
    typeof u.name === 'string' && typeof u.canEdit === 'boolean' && typeof u.partner === 'boolean' && typeof u.emailVerified === 'boolean';
}

export async function sessionKeys(app: FastifyInstance, secrets: string[] | undefined): Promise<Buffer[]> {
  const list = secrets ?? [await storedSecret(app.db, 'session-key', () => randomBytes(32).toString('base64url'))];
  return list.map(sessionKey);
}

export default fp<SessionOptions>(async (app, opts) => {
  const { config } = opts;
  const clock = opts.clock ?? Date.now;
  const keys = await sessionKeys(app, config.sessionSecrets);
  const secure = config.publicUrl.startsWith('https:');
  const idleMs = config.sessionIdleMinutes * 60_000;
  const seenResolution = seenResolutionMs(idleMs);
  const maxMs = config.sessionMaxHours * 3_600_000;

  await app.register(secureSession, [
    {
      sessionName: 'session', cookieName: SESSION_COOKIE, key: keys,
      // The library's own expiry is a backstop (it restarts whenever the cookie is re-sealed); the absolute
      // lifetime and idle timeout are checked below against our own timestamps.
      expiry: config.sessionMaxHours * 3600,
      cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure },
    },
    {
      sessionName: 'signin', cookieName: SIGNIN_COOKIE, key: keys, expiry: SIGNIN_LIFETIME_S,
      cookie: { path: config.identityUrl, httpOnly: true, sameSite: 'lax', secure, maxAge: SIGNIN_LIFETIME_S },
    },
  ]);

  app.decorateRequest('user', undefined);

  app.addHook('onRequest', async (request) => {
    const session = bag(request.session);
    const brought = request.cookies[SESSION_COOKIE] !== undefined;
    if (!brought) {
      // No cookie came: no cookie goes out unless sign-in starts one.
      if (request.cookies[SIGNIN_COOKIE] !== undefined && !signinInUse(request)) request.signin.delete();
      return;
    }
    if (sessionless(request)) return;
    const fields = session.data() as Partial<SessionFields> | undefined;
    const now = clock();
    const valid = fields && isSessionUser(fields.user) && typeof fields.iat === 'number' && typeof fields.seen === 'number' &&
      typeof fields.sid === 'string' && fields.sid !== '' && (fields.gen === undefined || typeof fields.gen === 'number') &&
      fields.iat <= now + 60_000 && now - fields.iat < maxMs && now - fields.seen < idleMs;
    if (!valid) {
      const reason = !fields || !fields.user ? 'unreadable' : typeof fields.sid !== 'string' ? 'no session id' : 'expired';
      request.log.info({ reason }, 'session cookie refused; visitor is anonymous');
      session.delete();
      request.user = undefined;
      return;
    }
    // Without the database the session cannot be vouched for: the error goes to the app's handler, which
    // answers the page's last good copy or 503 (never the person's pages as if they were still signed in).
    if (await sessionEnded(app.db, { sid: fields.sid as string, subject: fields.user!.sub, generation: fields.gen ?? 0 })) {
      request.log.info({ reason: 'ended' }, 'session cookie refused; visitor is anonymous');
      session.delete();
      request.user = undefined;
      return;
    }
    request.user = fields.user;
    if (now - (fields.seen ?? 0) >= seenResolution) session.set('seen', now);
    if (request.cookies[SIGNIN_COOKIE] !== undefined && !signinInUse(request)) request.signin.delete();
  });

  app.decorateReply('startSession', async function startSession(this: import('fastify').FastifyReply, user: SessionUser, idToken?: string) {
    const generation = await sessionGeneration(app.db, user.sub);
    const session = bag(this.request.session);
    const now = clock();
    // Never continue a session the browser brought (fixation): every field is replaced.
    session.regenerate();
    session.set('user', user);
    session.set('iat', now);
    session.set('seen', now);
    session.set('sid', randomBytes(16).toString('base64url'));
    session.set('gen', generation);
    if (idToken) session.set('idt', idToken);
    this.request.user = user;
  });

  app.decorateReply('endSession', async function endSession(this: import('fastify').FastifyReply) {
    const fields = bag(this.request.session).data() as Partial<SessionFields> | undefined;
    // Recorded first: if the database cannot take it, the cookie stays and the visitor is told to retry.
    if (this.request.user && typeof fields?.sid === 'string' && typeof fields.iat === 'number') {
      await endOneSession(app.db, fields.sid, new Date(fields.iat + maxMs), new Date(clock()));
    }
    this.request.session.delete();
    this.request.user = undefined;
  });
}, { name: 'session', dependencies: ['db'] });

/** Whether the request's session cookie opened to a signed-in person. */
export function signedIn(request: FastifyRequest): boolean {
  return request.user !== undefined;
}
