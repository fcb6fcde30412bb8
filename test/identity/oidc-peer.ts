/**
 * A second, independently configured OpenID provider for the client tests (issue "Tests and figures"):
 * oidc-provider with its in-memory adapter on 127.0.0.1, its own accounts and claim names, and a tiny
 * interaction that signs in whichever account the test names (or refuses, when told to).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The little of oidc-provider's API the peer uses (the package ships no types). */
interface Interaction {
  params: Record<string, unknown>;
  prompt: { name: string; details: Record<string, unknown> };
  session?: { accountId?: string } | undefined;
}
interface PeerProvider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options: { mergeWithLastSubmission: boolean }): Promise<void>;
  Grant: new (input: { accountId: string; clientId: string }) => { addOIDCScope(s: string): void; addOIDCClaims(c: string[]): void; save(): Promise<string> };
  on(event: string, listener: (...args: unknown[]) => void): void;
}
const providerModule = 'oidc-provider';
const Provider = ((await import(providerModule)) as { default: new (issuer: string, configuration: Record<string, unknown>) => PeerProvider }).default;

export interface PeerAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  /** This provider's groups claim is `grp` (the app is configured with OIDC_GROUPS_CLAIM=grp). */
  grp?: string[];
  partner_flag?: boolean;
  cohort?: Record<string, string | number | boolean | null>;
}

export interface Peer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, PeerAccount>;
  /** The account the next interaction signs in. */
  next: { account: string; deny?: boolean };
  /** The prompts the interactions saw (select_account reaches the provider). */
  prompts: string[];
  /** What each interaction asked for: 'login' when the peer had no session, 'consent' over a live one. */
  steps: string[];
  server: Server;
  close(): Promise<void>;
}

/** A free port on 127.0.0.1 (for a peer that is not running yet). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The peer's scopes and their claims, unless a test gives its own (role claims under a scope of their own). */
const DEFAULT_CLAIMS = { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture', 'grp', 'partner_flag', 'cohort'] };

export async function startPeer(t: { teardown: (fn: () => unknown) => void },
  opts: { publicUrl: string; port?: number; claims?: Record<string, string[]> }): Promise<Peer> {
  const clientId = 'signpost-test';
  const clientSecret = randomBytes(24).toString('base64url');
  const accounts = new Map<string, PeerAccount>();
  let provider: PeerProvider | undefined;
  const peer = { next: { account: '' } as Peer['next'], prompts: [] as string[], steps: [] as string[] };

  const server = createServer(async (req, res) => {
    if (!provider) return void res.writeHead(503).end();
    if (!req.url?.startsWith('/interaction/')) return provider.callback()(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      peer.prompts.push(String(details.params.prompt ?? ''));
      peer.steps.push(details.prompt.name);
      if (peer.next.deny) {
        return await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person said no.' }, { mergeWithLastSubmission: false });
      }
      if (details.prompt.name === 'login') {
        return await provider.interactionFinished(req, res, { login: { accountId: peer.next.account } }, { mergeWithLastSubmission: false });
      }
      const grant = new provider.Grant({ accountId: String(details.session?.accountId), clientId: String(details.params.client_id) });
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      const grantId = await grant.save();
      return await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  provider = new Provider(issuer, {
    clients: [{
      client_id: clientId, client_secret: clientSecret, redirect_uris: [`${opts.publicUrl}/auth/callback`],
      post_logout_redirect_uris: [`${opts.publicUrl}/`], token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'ES256',
    }],
    jwks: { keys: [{ ...key, alg: 'ES256', use: 'sig', kid: 'peer-1' }] },
    pkce: { methods: ['S256'], required: () => true },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: opts.claims ?? DEFAULT_CLAIMS,
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...account }) };
    },
  });
  provider.on('server_error', () => {});
  const close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  t.teardown(close);
  return Object.assign(peer, { issuer, clientId, clientSecret, accounts, server, close }) as Peer;
}

/** Cookies of one browser for the peer, by name (the peer's paths are ignored: one site, one jar). */
export class Jar {
  private readonly cookies = new Map<string, string>();
  take(setCookie: string[] | string | undefined): void {
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join('; ');
  }
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

/**
 * Follows the peer's redirects (fetch, manual) from `location` until one leads back to `publicUrl`;
 * returns that address (the callback, or the post-logout page).
 */
export async function followPeer(location: string, publicUrl: string, jar: Jar, limit = 10): Promise<string> {
  let url = location;
  for (let i = 0; i < limit; i += 1) {
    if (url.startsWith(publicUrl)) return url;
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(response.headers.getSetCookie());
    const next = response.headers.get('location');
    if (!next) throw new Error(`the peer answered ${response.status} without a redirect at ${url}: ${(await response.text()).slice(0, 300)}`);
    url = new URL(next, url).href;
  }
  throw new Error('too many redirects at the peer');
}
