/**
 * An OpenID Connect client done by hand with app.inject, for the embedded provider's tests: a cookie
 * jar, the authorization request with PKCE, the sign-in form, the code exchange.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

export const ORIGIN = 'https://help.example.test';
export const ISSUER = `${ORIGIN}/auth/oidc`;
export const CALLBACK = `${ORIGIN}/auth/callback`;
export const CLIENT_ID = 'signpost';
export const CLIENT_SECRET = 'client-secret-for-tests-0123456789';
export const PASSWORD = 'correct horse battery';

/** The browser's cookies for the site (paths are all under the site; tests send them all). */
export class Jar {
  readonly cookies = new Map<string, string>();
  take(res: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of res.cookies as { name: string; value: string; expires?: Date; maxAge?: number }[]) {
      if ((c.expires && c.expires.getTime() <= Date.now()) || c.maxAge === 0 || c.value === '') this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** A browser visit: GET with the jar's cookies, Set-Cookie kept. */
export async function visit(app: FastifyInstance, jar: Jar, url: string): Promise<LightMyRequestResponse> {
  return jar.take(await app.inject({ method: 'GET', url: absolute(url), headers: { cookie: jar.header(), accept: 'text/html' } }));
}

/** A form post from the site's own page (same origin). */
export async function postForm(app: FastifyInstance, jar: Jar, url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return jar.take(await app.inject({
    method: 'POST', url: absolute(url), payload: new URLSearchParams(fields).toString(),
    headers: { cookie: jar.header(), accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, ...headers },
  }));
}

export function absolute(url: string): string {
  return new URL(url, ORIGIN).href;
}

export interface AuthRequest {
  url: string;
  state: string;
  nonce: string;
  verifier: string;
}

/** An authorization request of the built-in client (or another), with state, nonce and PKCE S256. */
export function authorizationRequest(params: Record<string, string> = {}, client = { id: CLIENT_ID, redirect: CALLBACK }): AuthRequest {
  const state = randomBytes(8).toString('base64url');
  const nonce = randomBytes(8).toString('base64url');
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: client.id, response_type: 'code', scope: 'openid email profile roles', redirect_uri: client.redirect, state, nonce,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', ...params,
  });
  return { url: `${ISSUER}/auth?${query}`, state, nonce, verifier };
}

/** Follows redirects (GET) from a response while they stay on the site and short of `stop`. */
export async function follow(app: FastifyInstance, jar: Jar, res: LightMyRequestResponse, stop: (url: URL) => boolean = () => false): Promise<LightMyRequestResponse> {
  let current = res;
  for (let i = 0; i < 10 && current.statusCode >= 300 && current.statusCode < 400; i++) {
    const next = new URL(String(current.headers.location), ORIGIN);
    if (next.origin !== ORIGIN || stop(next)) return current;
    current = await visit(app, jar, next.href);
  }
  return current;
}

/** Starts an authorization request and returns the interaction screen's path. */
export async function startSignIn(app: FastifyInstance, jar: Jar, request: AuthRequest): Promise<{ res: LightMyRequestResponse; path: string }> {
  const res = await visit(app, jar, request.url);
  const location = String(res.headers.location ?? '');
  return { res, path: new URL(location, ORIGIN).pathname };
}

/** Signs in on the interaction screen and follows to the redirect back to the client. */
export async function signIn(app: FastifyInstance, jar: Jar, interactionPath: string, email: string, password = PASSWORD): Promise<LightMyRequestResponse> {
  const res = await postForm(app, jar, `${interactionPath}/login`, { email, password });
  return res.statusCode === 303 ? follow(app, jar, res, (url) => url.pathname === '/auth/callback') : res;
}

/** The code of a redirect to the client, checked against the request's state. */
export function codeOf(res: LightMyRequestResponse, request: AuthRequest, redirect = CALLBACK): string | undefined {
  const location = new URL(String(res.headers.location));
  if (`${location.origin}${location.pathname}` !== redirect || location.searchParams.get('state') !== request.state) return undefined;
  return location.searchParams.get('code') ?? undefined;
}

export async function exchange(app: FastifyInstance, code: string, request: AuthRequest, client = { id: CLIENT_ID, secret: CLIENT_SECRET, redirect: CALLBACK }): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST', url: `${ISSUER}/token`,
    headers: { authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: client.redirect, code_verifier: request.verifier }).toString(),
  });
}
