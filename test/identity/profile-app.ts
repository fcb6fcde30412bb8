import Fastify, { type FastifyInstance } from 'fastify';
import { loadConfig, trustProxyOption } from '../../server/config.ts';
import app, { serverOptions } from '../../server/app.ts';
import type { Account, ThrottleOptions } from '../../server/identity/accounts.ts';
import type { SessionUser } from '../../server/identity/types.ts';
import { FIXTURE, testDb } from '../helpers/build.ts';
import { sealed } from './helpers.ts';

type Test = { teardown: (fn: () => unknown) => void };

export const ORIGIN = 'https://help.example.test';
export const PASSWORD = 'first password 1';

/**
 * The app as build() makes it; the signed-in person is whoever the request's `x-test-user` header
 * names: the header becomes that person's sealed session cookie before the app reads the session.
 * 'robin' is an author at the staff domain with PASSWORD.
 */
export async function profileApp(t: Test, env: Record<string, string> = {}, signInThrottle?: Partial<ThrottleOptions>): Promise<{ server: FastifyInstance; account: Account; users: Map<string, SessionUser> }> {
  const db = await testDb(t);
  const config = loadConfig({
    CONTENT_DIR: FIXTURE, PUBLIC_URL: ORIGIN, LOG_LEVEL: 'silent', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', STAFF_EMAIL_DOMAIN: 'staff.example', ...env,
  });
  const server = Fastify({ ...serverOptions, logger: { level: 'silent' }, trustProxy: trustProxyOption(config.trustProxy) });
  t.teardown(() => server.close());
  const users = new Map<string, SessionUser>();
  server.addHook('onRequest', async (request) => {
    const user = users.get(String(request.headers['x-test-user'] ?? ''));
    if (user) request.headers.cookie = [request.headers.cookie, sealed(server, user)].filter(Boolean).join('; ');
  });
  await server.register(app, { config, db, signInThrottle });
  await server.ready();
  await server.contentReady;
  const account = await server.accounts.create({ email: 'Robin@Staff.Example', displayName: 'Robin Reader', password: PASSWORD, canEdit: true });
  users.set('robin', { sub: account.id, email: account.email, emailVerified: true, name: 'Robin Reader', canEdit: true, partner: false });
  return { server, account, users };
}
