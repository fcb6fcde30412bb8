/**
 * The links e-mailed to confirm an address or reset a password: `{payload}.{signature}`, the payload
 * (purpose, account, nonce, expiry) signed with HMAC-SHA256 under a key kept in the database, so any
 * instance checks a link another made. A link is good once: its nonce's row in account_links is marked
 * used in the same transaction as what it does.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../db/driver.ts';

export type LinkPurpose = 'verify' | 'reset';

export interface LinkClaims {
  purpose: LinkPurpose;
  accountId: string;
  nonce: string;
  /** ms since the epoch. */
  expiresAt: number;
}

/** How long a link works: a day to confirm an address, an hour to reset a password. */
export const LINK_LIFETIME_MS: Record<LinkPurpose, number> = { verify: 24 * 3600_000, reset: 3600_000 };

/** Why a link cannot be used, in the words its page shows. */
export type LinkProblem = 'malformed' | 'expired' | 'used';

const MAX_TOKEN_LENGTH = 600;

export class AccountLinks {
  constructor(private readonly db: Queryable, private readonly key: string, private readonly clock: () => number = Date.now) {}

  private sign(payload: string): Buffer {
    return createHmac('sha256', this.key).update(`account-link:${payload}`).digest();
  }

  /** A new link's token, recorded so it can be used once; `now` may be given (a link made in the past). */
  async mint(tx: Queryable, purpose: LinkPurpose, accountId: string, now = this.clock()): Promise<string> {
    const claims: LinkClaims = { purpose, accountId, nonce: randomBytes(18).toString('base64url'), expiresAt: now + LINK_LIFETIME_MS[purpose] };
    await tx.query('insert into account_links (nonce, account_id, purpose, expires_at) values ($1, $2, $3, $4)',
      [claims.nonce, accountId, purpose, new Date(claims.expiresAt)]);
    const payload = Buffer.from(JSON.stringify([claims.purpose, claims.accountId, claims.nonce, claims.expiresAt])).toString('base64url');
    return `${payload}.${this.sign(payload).toString('base64url')}`;
  }

  /** The claims of a token made here for `purpose`, or why it cannot be used (not yet checking whether it was). */
  read(token: unknown, purpose: LinkPurpose): LinkClaims | LinkProblem {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return 'malformed';
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined) return 'malformed';
    const given = Buffer.from(signature, 'base64url');
    const expected = this.sign(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'malformed';
    let fields: unknown;
    try {
      fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return 'malformed';
    }
    if (!Array.isArray(fields) || fields.length !== 4) return 'malformed';
    const [p, accountId, nonce, expiresAt] = fields as unknown[];
    if (p !== purpose || typeof accountId !== 'string' || typeof nonce !== 'string' || typeof expiresAt !== 'number') return 'malformed';
    if (expiresAt <= this.clock()) return 'expired';
    return { purpose, accountId, nonce, expiresAt };
  }

  /** Whether the link is still unused (for showing its form; using it is `consume`'s). */
  async unused(claims: LinkClaims): Promise<boolean> {
    const rows = await this.db.query('select 1 from account_links where nonce = $1 and account_id = $2 and used_at is null', [claims.nonce, claims.accountId]);
    return rows.length > 0;
  }

  /** Marks the link used, in the caller's transaction: false when it was already (or never existed). */
  async consume(tx: Queryable, claims: LinkClaims): Promise<boolean> {
    const rows = await tx.query(
      `update account_links set used_at = now() where nonce = $1 and account_id = $2 and purpose = $3 and used_at is null returning nonce`,
      [claims.nonce, claims.accountId, claims.purpose]);
    return rows.length > 0;
  }
}
