import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Queryable } from '../../db/driver.ts';
import { storedSecret } from '../secrets.ts';

/** A private signing key as a JWK (EC P-256, ES256), with its key id. */
export interface SigningJwk {
  kty: 'EC'; crv: 'P-256'; x: string; y: string; d: string; kid: string; alg: 'ES256'; use: 'sig';
}

/**
 * A new EC P-256 key for ES256 ID tokens (cheap to make, unlike RSA: every fresh test database makes
 * one). Its kid is the RFC 7638 thumbprint of the public key.
 */
export function makeSigningKey(): SigningJwk {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) as { x: string; y: string; d: string };
  const kid = createHash('sha256').update(JSON.stringify({ crv: 'P-256', kty: 'EC', x: jwk.x, y: jwk.y })).digest('base64url');
  return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d, kid, alg: 'ES256', use: 'sig' };
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
export async function providerKeys(db: Queryable): Promise<ProviderKeys> {
  const signing = await storedSecret(db, 'oidc-signing-key', () => JSON.stringify(makeSigningKey()));
  const cookie = await storedSecret(db, 'oidc-cookie-key', () => randomBytes(32).toString('base64url'));
  return { jwks: { keys: [JSON.parse(signing) as SigningJwk] }, cookieKeys: [cookie] };
}
