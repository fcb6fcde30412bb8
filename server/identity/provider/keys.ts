import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/driver.ts';
import { storedSecret } from '../secrets.ts';

/** A private signing key as a JWK (EC P-256 for ES256; RSA for RS256 when a client asks for it), with its key id. */
export type SigningJwk =
  | { kty: 'EC'; crv: 'P-256'; x: string; y: string; d: string; kid: string; alg: 'ES256'; use: 'sig' }
  | { kty: 'RSA'; n: string; e: string; d: string; p: string; q: string; dp: string; dq: string; qi: string; kid: string; alg: 'RS256'; use: 'sig' };

/**
 * A new EC P-256 key for ES256 ID tokens (cheap to make, unlike RSA: every fresh test database makes
 * one). Its kid is the RFC 7638 thumbprint of the public key.
 */
export function makeSigningKey(): SigningJwk {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) as { x: string; y: string; d: string };
  const kid = createHash('sha256').update(JSON.stringify({ crv: 'P-256', kty: 'EC', x: jwk.x, y: jwk.y })).digest('base64url');
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d, kid, alg: 'ES256', use: 'sig' };
}

/** An RSA 2048 key for RS256, made only when a configured client asks for RSA-signed ID tokens (slow to make). */
export function makeRsaSigningKey(): SigningJwk {
  const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }) as Record<'n' | 'e' | 'd' | 'p' | 'q' | 'dp' | 'dq' | 'qi', string>;
  const kid = createHash('sha256').update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n })).digest('base64url');
  return { kty: 'RSA', ...jwk, kid, alg: 'RS256', use: 'sig' };
}

export interface ProviderKeys {
  /** The provider's JWKS (private): ID tokens are signed with it, its public half is published. */
  jwks: { keys: SigningJwk[] };
  /** Keygrip keys that sign the provider's cookies. */
  cookieKeys: string[];
}

/**
 * The provider's keys, made by whichever instance asks first and kept in app_secrets, so every
 * instance sharing the database signs and checks with the same ones (issue "The embedded default").
 */
export async function providerKeys(db: Queryable, options: { rsa?: boolean } = {}): Promise<ProviderKeys> {
  const signing = await storedSecret(db, 'oidc-signing-key', () => JSON.stringify(makeSigningKey()));
  const rsa = options.rsa ? await storedSecret(db, 'oidc-signing-key-rsa', () => JSON.stringify(makeRsaSigningKey())) : undefined;
  const cookie = await storedSecret(db, 'oidc-cookie-key', () => randomBytes(32).toString('base64url'));
  return { jwks: { keys: [signing, ...(rsa ? [rsa] : [])].map((k) => JSON.parse(k) as SigningJwk) }, cookieKeys: [cookie] };
}
