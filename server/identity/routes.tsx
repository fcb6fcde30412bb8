/**
 * The sign-in routes under the identity base B (spec §7 login, account and log-out links; issue
 * "Sign-in against any OpenID Connect issuer"): GET B/login, GET B/callback, POST B/logout and
 * GET B/manage-profile. Links, redirects and forms only, so they work without JavaScript.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import type { Config } from '../config.ts';
import { SimpleErrorPage } from '../../views/pages/simple-error-page.tsx';
import { IssuerUnavailable, userFromClaims, type OidcClient } from './client.ts';
import { safeReturnPath } from './return-to.ts';
import { SIGNIN_LIFETIME_S, SIGNOUT_FIELD, bag, type PendingSignIn } from './session.ts';
import { callbackUrl } from './types.ts';
import { endProviderSession } from './revocation.ts';
import { PROVIDER_COOKIES } from './provider/index.ts';
import { siteNameOf } from './provider/screens.tsx';
import { accountHash, loggableSubject } from './security-log.ts';
import { SiteSignedOutPage } from '../../views/pages/identity/sign-out-page.tsx';

/** Sign-ins under way at once per browser (tabs): the oldest goes first. */
const MAX_PENDING = 3;
/** An ID token larger than this is not kept as the end-session hint (the cookie stays small). */
const MAX_ID_TOKEN_HINT = 1200;
/** `prompt` values passed through to the issuer. */
const PROMPTS = new Set(['select_account', 'login']);

export interface IdentityRoutesOptions {
  config: Config;
  client: OidcClient;
  /** The embedded provider serves its own profile page at B/account. */
  embedded: boolean;
  clock?: (() => number) | undefined;
}

function loginHref(base: string, continueTo: string): string {
  return `${base}/login?continue=${encodeURIComponent(continueTo)}`;
}

export default async function identityRoutes(app: FastifyInstance, opts: IdentityRoutesOptions) {
  const { config, client, embedded } = opts;
  const base = config.identityUrl;
  const clock = opts.clock ?? Date.now;
  const publicOrigin = new URL(config.publicUrl).origin;

  function problem(reply: FastifyReply, status: number, title: string, message: string, action?: { label: string; href: string }) {
    reply.header('cache-control', 'no-store');
    if (status === 503) reply.header('retry-after', '30');
    return reply.page(<SimpleErrorPage status={status} title={title} message={message} css={app.pageStylesheetsNow()} action={action} />, { status, cache: 'private' });
  }

  const unavailable = (reply: FastifyReply, continueTo: string) => problem(reply, 503, 'Sign-in is unavailable right now',
    'We could not reach the sign-in service. Please try again in a moment.', { label: 'Try again', href: loginHref(base, continueTo) });

  function pendingOf(request: FastifyRequest, now: number): PendingSignIn[] {
    const list = bag(request.signin).get('pending') as unknown;
    if (!Array.isArray(list)) return [];
    return list.filter((p): p is PendingSignIn => !!p && typeof p === 'object' && typeof p.state === 'string' && typeof p.nonce === 'string' &&
      typeof p.verifier === 'string' && typeof p.continueTo === 'string' && typeof p.at === 'number' && now - p.at < SIGNIN_LIFETIME_S * 1000);
  }

  app.get(`${base}/login`, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const continueTo = safeReturnPath(query.continue, config.publicUrl);
    const prompt = typeof query.prompt === 'string' && PROMPTS.has(query.prompt) ? query.prompt : undefined;
    const now = clock();
    const pending: PendingSignIn = {
      state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(), continueTo, at: now,
    };
    let url: URL;
    try {
      url = await client.authorizationUrl({ scope: config.oidcScopes, ...pending, prompt });
    } catch (error) {
      request.log.warn({ err: error instanceof IssuerUnavailable ? { message: error.message } : error }, 'sign-in unavailable');
      return unavailable(reply, continueTo);
    }
    bag(request.signin).set('pending', [...pendingOf(request, now), pending].slice(-MAX_PENDING));
    reply.header('cache-control', 'no-store');
    return reply.redirect(url.href, 303);
  });

  app.get(`${base}/callback`, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const now = clock();
    const all = pendingOf(request, now);
    const state = typeof query.state === 'string' ? query.state : '';
    const pending = all.find((p) => p.state === state);
    const again = (continueTo: string) => ({ label: 'Try signing in again', href: loginHref(base, continueTo) });
    if (!pending) {
      request.log.info({ hasState: state !== '', pending: all.length }, 'sign-in callback without a matching sign-in');
      return problem(reply, 400, 'Sign-in did not complete',
        'This sign-in link has expired or was already used, or it was started in another browser.', again('/'));
    }
    const rest = all.filter((p) => p !== pending);
    if (rest.length > 0) bag(request.signin).set('pending', rest);
    else request.signin.delete();
    if (typeof query.error === 'string') {
      request.log.info({ error: query.error.slice(0, 64) }, 'sign-in refused by the issuer');
      const message = query.error === 'access_denied' ? 'Sign-in was cancelled.' : 'The sign-in service could not sign you in.';
      return problem(reply, 400, 'Sign-in did not complete', message, again(pending.continueTo));
    }
    const callback = new URL(callbackUrl(config.publicUrl, base));
    callback.search = new URL(request.url, publicOrigin).search;
    let result: Awaited<ReturnType<OidcClient['complete']>>;
    try {
      result = await client.complete(callback, pending);
    } catch (error) {
      if (error instanceof IssuerUnavailable || (error instanceof Error && (error.name === 'TypeError' || error.name === 'AbortError' || error.name === 'TimeoutError'))) {
        request.log.warn({ err: { name: error.name, message: error.message } }, 'sign-in: the issuer could not be reached');
        return unavailable(reply, pending.continueTo);
      }
      request.log.info({ err: { name: (error as Error).name, message: (error as Error).message, code: (error as { code?: string }).code } }, 'sign-in: the response was refused');
      return problem(reply, 400, 'Sign-in did not complete', 'The answer of the sign-in service could not be checked.', again(pending.continueTo));
    }
    const user = userFromClaims(result.claims, config);
    if (!user) {
      request.log.info('sign-in: the issuer gave no subject or e-mail address');
      return problem(reply, 400, 'Sign-in did not complete',
        'Your account has no e-mail address, which this site needs to sign you in.', again(pending.continueTo));
    }
    const hint = result.idToken && result.idToken.length <= MAX_ID_TOKEN_HINT ? result.idToken : undefined;
    await reply.startSession(user, hint);
    request.log.info({ account: loggableSubject(user.sub), accountHash: accountHash(user.sub), issuer: client.issuer }, 'signed in');
    reply.header('cache-control', 'no-store');
    return reply.redirect(pending.continueTo, 303);
  });

  app.post(`${base}/logout`, { config: { stateChanging: { crossSiteMessage: 'You can only log out from this site.' } } }, async (request, reply) => {
    const hint = request.user ? (bag(request.session).get('idt') as string | undefined) : undefined;
    const leaving = request.user;
    const wasSignedIn = leaving !== undefined;
    await reply.endSession();
    if (leaving) request.log.info({ account: loggableSubject(leaving.sub), accountHash: accountHash(leaving.sub), issuer: client.issuer }, 'signed out');
    // The embedded provider's session ends in the same step (its cookie is under this path), so its
    // end-session endpoint below finds none and sends the browser straight home: no second 'Sign out'.
    const providerSession = embedded ? request.cookies[PROVIDER_COOKIES.session] : undefined;
    if (providerSession !== undefined) {
      await endProviderSession(app.db, providerSession);
      for (const name of [PROVIDER_COOKIES.session, `${PROVIDER_COOKIES.session}.sig`]) {
        reply.clearCookie(name, { path: base, httpOnly: true, sameSite: 'lax', secure: config.publicUrl.startsWith('https:') });
      }
    }
    const home = `${config.publicUrl}/`;
    const end = wasSignedIn ? await client.endSessionUrl(home, typeof hint === 'string' ? hint : undefined) : undefined;
    reply.header('cache-control', 'no-store');
    if (!end || end.origin === publicOrigin) return reply.redirect(end?.href ?? '/', 303);
    // Browsers hold the redirect of a form post to the page's `form-action 'self'`: a 303 to another
    // site's end-session endpoint is blocked and the issuer's session lives on. The post ends on this
    // site's signed-out page, which goes on to the issuer as a navigation of its own.
    bag(request.signin).set(SIGNOUT_FIELD, end.href);
    return reply.redirect(`${base}/signed-out`, 303);
  });

  app.get(`${base}/signed-out`, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (request.user) return reply.redirect('/', 303);
    const signin = bag(request.signin);
    const stored = signin.get(SIGNOUT_FIELD);
    let issuer: { href: string; host: string } | undefined;
    if (typeof stored === 'string') {
      // Shown once: a reload later is just the signed-out page.
      if (signin.get('pending')) signin.set(SIGNOUT_FIELD, undefined);
      else request.signin.delete();
      const end = URL.canParse(stored) ? new URL(stored) : undefined;
      if (end && (end.protocol === 'https:' || end.protocol === 'http:')) issuer = { href: end.href, host: end.host };
    }
    return reply.page(<SiteSignedOutPage siteName={await siteNameOf(app).catch(() => 'Help centre')} css={await app.pageStylesheets()} issuer={issuer} />,
      { cache: 'private' });
  });

  app.get(`${base}/manage-profile`, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return reply.redirect(config.oidcAccountUrl ?? (embedded ? `${base}/account` : '/'), 303);
  });
}
