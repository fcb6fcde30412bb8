import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { AccountStore } from '../accounts.ts';

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

/** The embedded OpenID provider, mounted under the identity base. */
export async function registerProvider(_app: FastifyInstance, _opts: ProviderOptions): Promise<void> {
  // Implemented in this folder: adapter, keys, provider configuration, interactions.
}
