/**
 * What the security log says about a person: never the e-mail address they typed or signed in with.
 * A failed sign-in names the account by a hash of its id, so attempts against one account can be told
 * apart from a spray over many, and matched to the account by whoever can read the accounts table.
 */
import { createHash } from 'node:crypto';

/** The first 16 hex digits of the SHA-256 of an account id. */
export function accountHash(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 16);
}

/** An issuer's subject as a log field: left out when it is an e-mail address (some issuers use one). */
export function loggableSubject(sub: string): string | undefined {
  return sub.includes('@') ? undefined : sub;
}
