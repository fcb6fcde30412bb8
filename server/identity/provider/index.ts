import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { default as Provider, KoaContextWithOIDC, ErrorOut } from 'oidc-provider';
import type { Config } from '../../config.ts';
import type { AccountStore } from '../accounts.ts';
import { DatabaseUnavailableError, isDatabaseUnavailable } from '../../db/unavailable.ts';
import { RETRY_AFTER_SECONDS } from '../../plugins/unavailable.tsx';
import { callbackUrl } from '../types.ts';
import { DbAdapter } from './adapter.ts';
import { providerKeys } from './keys.ts';
import registerInteractions from './interactions.tsx';
import { renderIdentityError, renderSignedOut, renderSignOut } from './screens.tsx';

export interface ProviderOptions {
  config: Config;
  accounts: AccountStore;
  /** The identity base path (IDENTITY_URL), e.g. /auth: the provider is mounted at {base}/oidc. */
  base: string;
  /** The issuer URL: embeddedIssuer(publicUrl, base). */
  issuer: string;
  /** The built-in client (the site itself): id and secret, redirect URI {publicUrl}{base}/callback. */
  client: { id: string; secret: string };
}

/** The claims of each scope (DESIGN "People"): the `roles` scope carries what roles are decided from. */
export const SCOPE_CLAIMS = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['name', 'picture'],
  roles: ['groups', 'canEdit', 'partner', 'cohort'],
} as const;

/** The provider's own cookies: signed, under the identity base only, never on the site's pages. */
export const PROVIDER_COOKIES = { session: 'sp_op', interaction: 'sp_op_interaction', resume: 'sp_op_resume' } as const;

/** The provider, built on first use; `undefined` until a request has needed it. */
export type LazyProvider = () => Promise<Provider>;

/**
 * The embedded OpenID provider (issue "The embedded default"), mounted under the identity base: the
 * protocol endpoints at {base}/oidc/*, answered by oidc-provider, and the sign-in and consent screens
 * at {base}/interaction/:uid, answered by Fastify routes with the site's views. The provider is built
 * on the first request that needs it, so an app that never signs anyone in pays nothing for it.
 */
export async function registerProvider(app: FastifyInstance, opts: ProviderOptions): Promise<void> {
  for (const c of opts.config.oidcProviderClients) {
    const alg = (c as { id_token_signed_response_alg?: unknown }).id_token_signed_response_alg;
    // Checked at start, not when the provider is first built: a bad client stops start-up, naming it.
    if (alg !== undefined && alg !== 'ES256' && alg !== 'RS256') {
      throw new Error(`OIDC_PROVIDER_CLIENTS: ${c.client_id}: id_token_signed_response_alg must be ES256 or RS256`);
    }
  }
  let built: Promise<Provider> | undefined;
  const provider: LazyProvider = () => {
    built ??= buildProvider(app, opts).catch((error: unknown) => {
      // A failure (the database away while the keys are read) is not kept: the next request tries again.
      built = undefined;
      throw error;
    });
    return built;
  };

  const mount = `${opts.base}/oidc`;
  let handle: { op: Provider; callback: ReturnType<Provider['callback']> } | undefined;
  const publicUrl = new URL(opts.config.publicUrl);
  await app.register(async (scope) => {
    // oidc-provider reads the request body itself: this scope's parser leaves the stream alone.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request: FastifyRequest, _payload: IncomingMessage, done: (error: null) => void) => done(null));
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const op = await provider();
      if (handle?.op !== op) handle = { op, callback: op.callback() };
      const raw = request.raw;
      // request.originalUrl keeps the whole path for the access log; the provider sees its own part.
      const own = request.originalUrl.slice(mount.length) || '/';
      // The resume endpoint (auth/{uid}) is reached only by the provider's own redirect, with no query; a
      // query naming a client there makes oidc-provider's error handler read parameters it never parsed (a 500).
      raw.url = /^\/auth\/[^/?]+\?/.test(own) ? own.slice(0, own.indexOf('?')) : own;
      // The provider is the issuer at PUBLIC_URL: its endpoint URLs and the Secure flag of its cookies
      // follow that origin (as canonical links do), the client address is the one Fastify trusted.
      raw.headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
      raw.headers['x-forwarded-host'] = publicUrl.host;
      raw.headers['x-forwarded-for'] = request.ip;
      reply.hijack();
      // Headers the app's hooks set so far (security headers) go out with the provider's answer.
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
      await handle.callback(raw, reply.raw);
    };
    scope.route({ method: ['GET', 'POST', 'OPTIONS'], url: mount, handler });
    scope.route({ method: ['GET', 'POST', 'OPTIONS'], url: `${mount}/*`, handler });
  });
  await app.register(registerInteractions, { ...opts, provider });
}

async function buildProvider(app: FastifyInstance, opts: ProviderOptions): Promise<Provider> {
  const { config, accounts, base, issuer, client } = opts;
  const { default: Provider, interactionPolicy } = await import('oidc-provider');
  // ES256 by default; a configured client may ask for RS256 ID tokens instead, and then has an RSA key.
  const algs = new Set(config.oidcProviderClients.map((c) => (c as { id_token_signed_response_alg?: unknown }).id_token_signed_response_alg ?? 'ES256'));
  const rsa = algs.has('RS256');
  const keys = await providerKeys(app.db, { rsa });
  const https = config.publicUrl.startsWith('https:');
  const cookie = { path: base, httpOnly: true, sameSite: 'lax', signed: true, secure: https };
  const seconds = (hours: number) => hours * 3600;

  const policy = interactionPolicy.base();
  // "Switch account" (prompt=select_account) shows the sign-in screen even over a live session.
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 0);

  const firstParty = new Set([client.id]);
  const provider = new Provider(issuer, {
    adapter: (name: string) => new DbAdapter(app.db, name, {
      onSweepError: (err: unknown) => app.log.warn({ err }, 'identity provider: expired rows not swept'),
    }),
    jwks: keys.jwks,
    cookies: { keys: keys.cookieKeys, long: cookie, short: cookie, names: PROVIDER_COOKIES },
    clients: [
      {
        client_id: client.id, client_secret: client.secret,
        redirect_uris: [callbackUrl(config.publicUrl, base)], post_logout_redirect_uris: [`${config.publicUrl}/`],
        response_types: ['code'], grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic', id_token_signed_response_alg: 'ES256',
      },
      ...config.oidcProviderClients.map((c) => ({
        response_types: ['code'], grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic', id_token_signed_response_alg: 'ES256', ...c,
      })),
    ],
    clientDefaults: { grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic', id_token_signed_response_alg: 'ES256' },
    responseTypes: ['code'],
    // No refresh tokens: the site keeps its own session and signs in again when it ends.
    scopes: ['openid'],
    claims: SCOPE_CLAIMS,
    // The ID token carries the scopes' claims too, so a sign-in needs no userinfo call.
    conformIdTokenClaims: false,
    pkce: { required: () => true, methods: ['S256'] },
    enabledJWA: { idTokenSigningAlgValues: rsa ? ['ES256', 'RS256'] : ['ES256'] },
    async findAccount(_ctx: KoaContextWithOIDC, sub: string) {
      // A disabled or deleted account is not found: no tokens, no claims.
      const account = await accounts.byId(sub);
      if (!account || account.disabled) return undefined;
      return {
        accountId: account.id,
        async claims() {
          return {
            sub: account.id, email: account.email, email_verified: true, name: account.displayName || account.email,
            groups: account.groups, canEdit: account.canEdit, partner: account.partner, cohort: account.attributes,
          };
        },
      };
    },
    // The site itself is first-party: what it asks for is granted without a consent screen; other
    // clients are asked about (interactions.tsx).
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { oidc } = ctx;
      const clientId = oidc.client!.clientId;
      const accountId = oidc.account!.accountId;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session!.grantIdFor(clientId);
      const found = grantId ? await oidc.provider.Grant.find(grantId) : undefined;
      const grant = found && found.accountId === accountId && found.clientId === clientId ? found : undefined;
      if (!firstParty.has(clientId)) return grant;
      const firstPartyGrant = grant ?? new oidc.provider.Grant({ accountId, clientId });
      firstPartyGrant.addOIDCScope([...oidc.requestParamOIDCScopes].join(' '));
      if (oidc.requestParamClaims.size) firstPartyGrant.addOIDCClaims([...oidc.requestParamClaims]);
      await firstPartyGrant.save();
      return firstPartyGrant;
    },
    interactions: {
      policy,
      url: (_ctx: KoaContextWithOIDC, interaction: { uid: string }) => `${base}/interaction/${interaction.uid}`,
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: KoaContextWithOIDC, form: string) => renderSignOut(app, ctx, form),
        postLogoutSuccessSource: (ctx: KoaContextWithOIDC) => renderSignedOut(app, ctx),
      },
    },
    renderError: (ctx: KoaContextWithOIDC, out: ErrorOut, error: unknown) => renderIdentityError(app, opts, ctx, out, error),
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Session: seconds(config.sessionMaxHours),
      Grant: seconds(config.sessionMaxHours),
    },
  });
  // Proxy headers reaching the provider are the ones the mount sets from PUBLIC_URL (above), never a client's.
  provider.proxy = true;
  const mountPath = new URL(issuer).pathname.replace(/\/$/, '');
  provider.use(async (ctx: KoaContextWithOIDC & { mountPath?: string }, next: () => Promise<void>) => {
    ctx.mountPath = mountPath;
    await next();
    if (ctx.state.databaseUnavailable) {
      // The database is away: 503 with Retry-After like the rest of the app (DESIGN "Running safely"),
      // rather than an error sent on to the client as if the request itself were wrong.
      ctx.remove('location');
      ctx.status = 503;
      ctx.set('retry-after', String(RETRY_AFTER_SECONDS));
      if (ctx.accepts('json', 'html') === 'html') await renderIdentityError(app, opts, ctx, { error: 'temporarily_unavailable' }, new DatabaseUnavailableError(null));
      else ctx.body = { error: 'temporarily_unavailable', error_description: 'The service is unavailable for a moment; try again.' };
    }
    // As for every answer of the app (server/plugins/cache-rules.ts): an error is never stored.
    if (ctx.status >= 400 && !/no-store/.test(String(ctx.res.getHeader('cache-control') ?? ''))) ctx.set('cache-control', 'no-store');
    // oidc-provider answers a sign-out without a provider session with a form that a script submits;
    // the pages' CSP allows no inline script, so the visitor is sent on directly (RP-initiated logout).
    if (ctx.oidc?.route === 'end_session' && ctx.status === 200 && !ctx.oidc.session?.accountId) {
      const state = (ctx.oidc.session as { state?: { postLogoutRedirectUri?: string; state?: string } } | undefined)?.state;
      const target = state?.postLogoutRedirectUri ? new URL(state.postLogoutRedirectUri) : new URL(ctx.oidc.urlFor('end_session_success'));
      if (state?.postLogoutRedirectUri && state.state != null) target.searchParams.set('state', state.state);
      ctx.status = 303;
      ctx.redirect(target.href);
    }
  });
  provider.on('server_error', (ctx: KoaContextWithOIDC, err: unknown) => {
    if (isDatabaseUnavailable(err)) {
      ctx.state.databaseUnavailable = true;
      app.log.warn({ err, route: ctx.oidc?.route }, 'identity provider: database unavailable');
    } else {
      app.log.error({ err, route: ctx.oidc?.route }, 'identity provider error');
    }
  });
  return provider;
}
