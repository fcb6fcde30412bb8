/**
 * The OpenID Connect client (issue "Sign-in against any OpenID Connect issuer"): one code path for any
 * issuer found by discovery. For the embedded issuer (OIDC_ISSUER unset, the provider mounted at
 * {identity base}/oidc) the client reaches the provider in-process: its requests are answered by
 * app.inject, so the site never makes an HTTP request to itself.
 */
import type { FastifyInstance } from 'fastify';
import * as oidc from 'openid-client';
import type { Config } from '../config.ts';
import type { SessionUser } from './types.ts';

/** How long discovery and the token and userinfo calls may take. */
const TIMEOUT_S = 10;
/** After a failed discovery, the next sign-in tries again, but not sooner than this. */
const RETRY_AFTER_MS = 5_000;

export type ClaimNames = Pick<Config, 'oidcEditorClaim' | 'oidcPartnerClaim' | 'oidcGroupsClaim' | 'oidcEditorGroup' | 'oidcPartnerGroup'>;

/** The issuer cannot be reached or did not answer as an OpenID provider: sign-in is unavailable for now. */
export class IssuerUnavailable extends Error {
  override name = 'IssuerUnavailable';
}

export interface ClientOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Reaches the embedded provider in-process (requests under this URL go to app.inject). */
  inProcess?: { app: FastifyInstance; prefix: string } | undefined;
  clock?: (() => number) | undefined;
  /** Scopes added to the request when the issuer's discovery lists them (the default scopes only). */
  scopesWhenOffered?: string[] | undefined;
  /** Told once, when discovery first succeeds, what the issuer offers of the claims roles come from. */
  report?: ((issuer: string, metadata: oidc.ServerMetadata, scopesWhenOffered: string[]) => void) | undefined;
}

export interface ClaimsReport {
  level: 'info' | 'warn';
  fields: { issuer: string; scopesAdded: string[]; roleClaimsNotOffered?: string[] };
  msg: string;
}

/**
 * What an issuer's discovery says about the claims roles come from (spec §6 author and partner):
 * a warning when it lists its claims and none of them is among them, since every author and partner
 * would then arrive as a customer. Names only, never a value.
 */
export function claimsReport(issuer: string, metadata: Pick<oidc.ServerMetadata, 'claims_supported' | 'scopes_supported'>, names: ClaimNames,
  scopesWhenOffered: string[]): ClaimsReport {
  const scopesAdded = scopesWhenOffered.filter((s) => metadata.scopes_supported?.includes(s));
  const roleClaims = [...new Set([names.oidcEditorClaim, names.oidcPartnerClaim, names.oidcGroupsClaim])];
  const offered = metadata.claims_supported;
  if (!offered) {
    return { level: 'info', fields: { issuer, scopesAdded }, msg: 'issuer discovered; it does not list its claims, so roles depend on what it sends' };
  }
  const missing = roleClaims.filter((c) => !offered.includes(c));
  if (missing.length === roleClaims.length) {
    return {
      level: 'warn', fields: { issuer, scopesAdded, roleClaimsNotOffered: missing },
      msg: 'issuer discovered; it offers none of the claims roles come from: authors and partners sign in as customers (see OIDC_SCOPES and OIDC_*_CLAIM)',
    };
  }
  return { level: 'info', fields: { issuer, scopesAdded, roleClaimsNotOffered: missing }, msg: 'issuer discovered' };
}

/** A fetch answered by the app itself, for the embedded provider. */
function injectFetch(app: FastifyInstance, publicUrl: URL): oidc.CustomFetch {
  return async (url, options) => {
    const target = new URL(url);
    const headers: Record<string, string> = { ...options.headers, host: publicUrl.host, 'x-forwarded-proto': publicUrl.protocol.replace(':', '') };
    const body = options.body;
    const payload = body === undefined || body === null ? undefined
      : typeof body === 'string' ? body
        : body instanceof URLSearchParams ? body.toString()
          : Buffer.from(await new Response(body as BodyInit).arrayBuffer());
    const response = await app.inject({
      method: (options.method ?? 'GET') as 'GET', url: `${target.pathname}${target.search}`, headers,
      ...(payload === undefined ? {} : { payload }),
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [String(value)]) out.append(name, v);
    }
    const noBody = response.statusCode === 204 || response.statusCode === 304;
    return new Response(noBody ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers: out });
  };
}

/**
 * Discovery, cached: the issuer's metadata is read once; a failure is not kept, so the next sign-in
 * (RETRY_AFTER_MS later at the soonest) tries again and the site recovers without a restart.
 */
export class OidcClient {
  private config: oidc.Configuration | undefined;
  private pending: Promise<oidc.Configuration> | undefined;
  private failedAt = -Infinity;

  constructor(private readonly opts: ClientOptions) {}

  get issuer(): string {
    return this.opts.issuer;
  }

  private now(): number {
    return (this.opts.clock ?? Date.now)();
  }

  /** The discovered configuration; IssuerUnavailable when the issuer cannot be reached or read. */
  async configuration(): Promise<oidc.Configuration> {
    if (this.config) return this.config;
    if (this.pending) return this.pending;
    if (this.now() - this.failedAt < RETRY_AFTER_MS) throw new IssuerUnavailable('sign-in is unavailable: the issuer failed moments ago');
    const { issuer, clientId, clientSecret, inProcess } = this.opts;
    const server = new URL(issuer);
    const execute = server.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
    const customFetch = inProcess ? injectFetch(inProcess.app, new URL(inProcess.prefix)) : undefined;
    this.pending = oidc.discovery(server, clientId, { client_secret: clientSecret },
      oidc.ClientSecretBasic(clientSecret), { execute, timeout: TIMEOUT_S, ...(customFetch ? { [oidc.customFetch]: customFetch } : {}) })
      .then((config) => {
        if (customFetch) config[oidc.customFetch] = customFetch;
        config.timeout = TIMEOUT_S;
        this.config = config;
        this.opts.report?.(issuer, config.serverMetadata(), this.opts.scopesWhenOffered ?? []);
        return config;
      }, (error: unknown) => {
        this.failedAt = this.now();
        throw new IssuerUnavailable(`discovery of the issuer failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  /** The authorization request: PKCE S256, state and nonce; prompt=select_account passes through. */
  async authorizationUrl(input: { scope: string; state: string; nonce: string; verifier: string; prompt?: string | undefined }): Promise<URL> {
    const config = await this.configuration();
    const offered = config.serverMetadata().scopes_supported ?? [];
    const asked = input.scope.split(/\s+/).filter(Boolean);
    const scope = [...asked, ...(this.opts.scopesWhenOffered ?? []).filter((s) => offered.includes(s) && !asked.includes(s))].join(' ');
    const params: Record<string, string> = {
      redirect_uri: this.opts.redirectUri, scope, response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(input.verifier), code_challenge_method: 'S256',
      state: input.state, nonce: input.nonce,
    };
    if (input.prompt) params.prompt = input.prompt;
    return oidc.buildAuthorizationUrl(config, params);
  }

  /** The code exchange, ID token checks and userinfo: all the claims the issuer gave. */
  async complete(callback: URL, expected: { state: string; nonce: string; verifier: string }): Promise<{ claims: Record<string, unknown>; idToken?: string | undefined }> {
    const config = await this.configuration();
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: expected.verifier, expectedState: expected.state, expectedNonce: expected.nonce, idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new oidc.ClientError('the issuer returned no ID token');
    let info: Record<string, unknown> = {};
    if (config.serverMetadata().userinfo_endpoint) {
      info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub) as Record<string, unknown>;
    }
    return { claims: { ...idClaims, ...info }, idToken: tokens.id_token };
  }

  /** Where log-out sends the browser: the issuer's end-session endpoint, when it has one. */
  async endSessionUrl(postLogoutRedirectUri: string, idTokenHint?: string): Promise<URL | undefined> {
    let config: oidc.Configuration;
    try {
      config = await this.configuration();
    } catch {
      return undefined;
    }
    if (!config.serverMetadata().end_session_endpoint) return undefined;
    const params: Record<string, string> = { client_id: this.opts.clientId, post_logout_redirect_uri: postLogoutRedirectUri };
    if (idTokenHint) params.id_token_hint = idTokenHint;
    return oidc.buildEndSessionUrl(config, params);
  }
}

/** Small, flat cohort attributes only: a claim that would bloat the cookie or nest objects is left out. */
const MAX_COHORT_KEYS = 32;
const MAX_COHORT_BYTES = 1024;

function flatCohort(value: unknown): SessionUser['cohort'] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_COHORT_KEYS) return undefined;
  const out: NonNullable<SessionUser['cohort']> = {};
  for (const [key, v] of entries) {
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[key] = v;
    else return undefined;
  }
  return JSON.stringify(out).length <= MAX_COHORT_BYTES ? out : undefined;
}

function text(value: unknown, max: number): string {
  return typeof value === 'string' ? value.trim().slice(0, max) : '';
}

function truthy(value: unknown): boolean {
  return value === true || value === 'true';
}

/**
 * The session's user from the issuer's claims, with the claim names of the configuration (spec §6):
 * editor and partner from a boolean claim or a group in the groups claim. Undefined without a subject
 * and an e-mail address: such a person is not signed in as spec §6 means it.
 */
export function userFromClaims(claims: Record<string, unknown>, names: ClaimNames): SessionUser | undefined {
  const sub = text(claims.sub, 255);
  const email = text(claims.email, 254);
  if (!sub || !email || !email.includes('@')) return undefined;
  const groupsClaim = claims[names.oidcGroupsClaim];
  const groups = Array.isArray(groupsClaim) ? groupsClaim.filter((g): g is string => typeof g === 'string')
    : typeof groupsClaim === 'string' ? groupsClaim.split(/[\s,]+/).filter(Boolean) : [];
  const picture = text(claims.picture, 1024);
  return {
    sub, email,
    emailVerified: claims.email_verified !== false && claims.email_verified !== 'false',
    name: text(claims.name, 200) || [text(claims.given_name, 100), text(claims.family_name, 100)].filter(Boolean).join(' '),
    picture: /^https:\/\//i.test(picture) || picture.startsWith('/') && !picture.startsWith('//') ? picture : undefined,
    canEdit: truthy(claims[names.oidcEditorClaim]) || groups.includes(names.oidcEditorGroup),
    partner: truthy(claims[names.oidcPartnerClaim]) || groups.includes(names.oidcPartnerGroup),
    cohort: flatCohort(claims.cohort),
  };
}
