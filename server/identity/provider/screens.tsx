import type { FastifyInstance } from 'fastify';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { ErrorOut, KoaContextWithOIDC } from 'oidc-provider';
import { PAGE_CSP } from '../../plugins/render.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { RETRY_AFTER_SECONDS } from '../../plugins/unavailable.tsx';
import { SignedOutPage, SignOutPage } from '../../../views/pages/identity/sign-out-page.tsx';
import { IdentityErrorPage } from '../../../views/pages/identity/identity-error-page.tsx';
import type { ProviderOptions } from './index.ts';

/** The site's name for the screens, from the content's metadata. */
export async function siteNameOf(app: FastifyInstance): Promise<string> {
  const name = (await app.content.singleton('metadata'))?.fields.siteName;
  return typeof name === 'string' && name ? name : 'Help centre';
}

/** Scope names a client may ask for, in words, for the consent screen. */
export const SCOPE_WORDS: Record<string, string> = {
  openid: 'Know which account you signed in with',
  email: 'See your e-mail address',
  profile: 'See your name and picture',
  roles: 'See your roles (editor, partner, groups) and account attributes',
};

/**
 * The pages' CSP with the origins a form on the page may end up at: browsers apply `form-action` to
 * every redirect after the post, and a sign-in or sign-out ends at the application's own address.
 */
export function cspWithFormTargets(urls: Iterable<string | undefined>): string {
  const origins = new Set<string>();
  for (const url of urls) {
    try {
      if (url) origins.add(new URL(url).origin);
    } catch {
      // Not a URL: nothing to allow.
    }
  }
  return origins.size ? PAGE_CSP.replace("form-action 'self'", `form-action 'self' ${[...origins].join(' ')}`) : PAGE_CSP;
}

/** A screen answered by oidc-provider itself (sign-out, errors): the site's view, never stored. */
function send(ctx: KoaContextWithOIDC, view: ReactElement, csp = PAGE_CSP): void {
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('cache-control', 'private, no-store');
  ctx.set('content-security-policy', csp);
  ctx.body = `<!doctype html>${renderToString(view)}`;
}

async function siteName(app: FastifyInstance): Promise<string> {
  // The name is not worth a failure of its own on a screen that is already an error.
  return siteNameOf(app).catch(() => 'Help centre');
}

/** features.rpInitiatedLogout.logoutSource: "Sign out of <site>?" with one button. */
export async function renderSignOut(app: FastifyInstance, ctx: KoaContextWithOIDC, form: string): Promise<void> {
  const action = /action="([^"]+)"/.exec(form)?.[1] ?? '';
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(form)?.[1] ?? '';
  const state = (ctx.oidc.session as { state?: { postLogoutRedirectUri?: string } } | undefined)?.state;
  send(ctx, <SignOutPage siteName={await siteName(app)} css={await app.pageStylesheets()} action={action} xsrf={xsrf} />,
    cspWithFormTargets([state?.postLogoutRedirectUri, ctx.oidc.urlFor('end_session_success')]));
}

/** features.rpInitiatedLogout.postLogoutSuccessSource: signed out, no application to return to. */
export async function renderSignedOut(app: FastifyInstance, ctx: KoaContextWithOIDC): Promise<void> {
  send(ctx, <SignedOutPage siteName={await siteName(app)} css={await app.pageStylesheets()} />);
}

const TITLES: Record<number, string> = {
  400: 'This sign-in cannot go on', 401: 'This sign-in cannot go on', 403: 'This sign-in cannot go on',
  404: 'Page not found', 503: 'Sign-in is unavailable for a moment',
};

/**
 * renderError: an error of the provider's, in the site's words and look. The status is kept; no
 * internals are shown (a server error says only that it happened); the database being away is a 503
 * with Retry-After, as everywhere else in the app.
 */
export async function renderIdentityError(app: FastifyInstance, opts: ProviderOptions, ctx: KoaContextWithOIDC, out: ErrorOut, error: unknown): Promise<void> {
  if (isDatabaseUnavailable(error)) {
    ctx.status = 503;
    ctx.set('retry-after', String(RETRY_AFTER_SECONDS));
  }
  const status = ctx.status >= 400 ? ctx.status : 500;
  const server = status >= 500;
  const message = status === 503
    ? 'The sign-in service cannot be reached right now. Please try again in a moment.'
    : server
      ? 'Something went wrong on our side. Please try again in a moment.'
      : status === 404
        ? 'There is no such page.'
        : `The sign-in request was refused (${out.error}${out.error_description ? `: ${out.error_description}` : ''}). Start again from the site.`;
  send(ctx, <IdentityErrorPage siteName={await siteName(app)} css={await app.pageStylesheets()} status={status}
    title={TITLES[status] ?? (server ? 'Something went wrong' : 'This sign-in cannot go on')} message={message}
    restartHref={status === 404 ? undefined : `${opts.base}/login`} />);
}
