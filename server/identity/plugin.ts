/**
 * People (spec §6, §7; DESIGN "People"): the session cookie, sign-in through OpenID Connect against
 * OIDC_ISSUER or the embedded provider, roles decided on the server, and the §7 customer-context calls.
 */
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { AccountStore, type ThrottleOptions } from './accounts.ts';
import { registerProvider } from './provider/index.ts';
import { seedDemoAccounts } from './demo-accounts.ts';
import { storedSecret } from './secrets.ts';
import { callbackUrl, embeddedIssuer } from './types.ts';
import { randomBytes } from 'node:crypto';
import session from './session.ts';
import { OidcClient, claimsReport } from './client.ts';
import identityRoutes from './routes.tsx';
import customerContextApi from './api.ts';
import accountRoutes from './account-routes.tsx';
import personalPages from './personal-pages.ts';
import selfServiceRoutes from './self-service/routes.tsx';

declare module 'fastify' {
  interface FastifyInstance {
    /** Accounts of the embedded provider (also managed by `npm run accounts`). */
    accounts: AccountStore;
    /** The OpenID Connect client of the sign-in routes (OIDC_ISSUER or the embedded provider). */
    oidcClient: OidcClient;
  }
}

export interface IdentityOptions {
  config: Config;
  clock?: (() => number) | undefined;
  /** Failed sign-in throttling (tests shorten it). */
  throttle?: Partial<ThrottleOptions> | undefined;
}

export default fp<IdentityOptions>(async (app, opts) => {
  const { config } = opts;
  const base = config.identityUrl;
  const accounts = new AccountStore(app.db, { clock: opts.clock, throttle: opts.throttle });
  app.decorate('accounts', accounts);

  const embedded = !config.oidcIssuer;
  const issuer = config.oidcIssuer ?? embeddedIssuer(config.publicUrl, base);
  const clientSecret = config.oidcClientSecret ?? await storedSecret(app.db, 'oidc-client-secret', () => randomBytes(32).toString('base64url'));
  // The session first: the provider's own pages (B/account) read the signed-in person from it.
  await app.register(session, { config, clock: opts.clock });
  // Signed-in pages filled in from a template per role, after the session is read.
  await app.register(personalPages, { config, clock: opts.clock });
  if (embedded) {
    await registerProvider(app, { config, accounts, base, issuer, client: { id: config.oidcClientId, secret: clientSecret } });
    await seedDemoAccounts(accounts, config.contentDir, app.log);
  }

  // One client path for any issuer; the embedded one is reached in-process (no HTTP to ourselves).
  const client = new OidcClient({
    issuer, clientId: config.oidcClientId, clientSecret, redirectUri: callbackUrl(config.publicUrl, base), clock: opts.clock,
    inProcess: embedded ? { app, prefix: config.publicUrl } : undefined,
    scopesWhenOffered: config.oidcScopesWhenOffered,
    report: embedded ? undefined : (at, metadata, whenOffered) => {
      const { level, fields, msg } = claimsReport(at, metadata, config, whenOffered);
      app.log[level]({ ...fields, scope: config.oidcScopes }, msg);
    },
  });
  app.decorate('oidcClient', client);
  if (!embedded) {
    // Discovery at start, not awaited: what the issuer offers is said once at start-up, and a down
    // issuer delays nothing (the first sign-in tries again).
    app.addHook('onReady', async () => {
      client.configuration().catch((error: unknown) => app.log.warn({ issuer, err: { message: (error as Error).message } }, 'issuer discovery failed at start; sign-in will try again'));
    });
  }
  await app.register(identityRoutes, { config, client, embedded, clock: opts.clock });
  await app.register(customerContextApi, { accounts: embedded ? accounts : undefined });
  // 'Manage profile' of the embedded provider: the person, their roles, a password change.
  await app.register(accountRoutes, { config, currentUser: (request) => request.user });
  // Sign-up, confirming an address and resetting a password, by links e-mailed through SMTP_URL.
  if (embedded) await app.register(selfServiceRoutes, { config, clock: opts.clock });
}, { name: 'identity', dependencies: ['db'] });
