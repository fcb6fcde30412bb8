import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import secureSession from '@fastify/secure-session';
import { sessionKey } from '../../server/identity/session.ts';
import type { SessionUser } from '../../server/identity/types.ts';

/** A session cookie's value for `user`, sealed with the server's key (from `secret`) as the sign-in callback seals it. */
export async function sealedSession(user: SessionUser, secret: string): Promise<string> {
  const sealer = Fastify();
  await sealer.register(secureSession, { sessionName: 'session', cookieName: 'sp_session', key: [sessionKey(secret)] });
  await sealer.ready();
  const now = Date.now();
  const value = sealer.encodeSecureSession(sealer.createSecureSession({ user, iat: now, seen: now, sid: randomBytes(16).toString('base64url') }), 'session');
  await sealer.close();
  return value;
}
