/**
 * Accounts of the embedded identity provider, in the database (DESIGN "People"): e-mail, name, scrypt
 * password hash, roles (editor, partner, groups), cohort attributes, disabled. Sign-in goes through
 * signIn(), which also slows and then refuses repeated failures for a login name.
 */
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db/driver.ts';
import { dummyHash, hashPassword, verifyPassword } from './passwords.ts';
import { endAccountSessions } from './revocation.ts';
import { MIN_PASSWORD_LENGTH, passwordProblem } from './password-rules.ts';

export { MIN_PASSWORD_LENGTH };

export interface Account {
  id: string;
  email: string;
  displayName: string;
  canEdit: boolean;
  partner: boolean;
  groups: string[];
  attributes: Record<string, string | number | boolean | null>;
  disabled: boolean;
  /** False for an account opened on the sign-up page until its owner follows the link e-mailed to them. */
  emailVerified: boolean;
  createdAt: string;
}

export interface NewAccount {
  email: string;
  displayName?: string | undefined;
  password: string;
  canEdit?: boolean | undefined;
  partner?: boolean | undefined;
  groups?: string[] | undefined;
  attributes?: Account['attributes'] | undefined;
  /** Operators' accounts are confirmed (the default); a sign-up's is not until its link is followed. */
  emailVerified?: boolean | undefined;
}

/** A request the store refuses: `field: reason`, shown to the operator as it is. */
export class AccountError extends Error {
  override name = 'AccountError';
  constructor(readonly field: string, readonly reason: string) {
    super(`${field}: ${reason}`);
  }
}

export interface ThrottleOptions {
  /** Failures within this window count together. */
  windowMs: number;
  /** From this many failures on, each answer waits `delayStepMs` longer (capped at `maxDelayMs`). */
  slowAfter: number;
  delayStepMs: number;
  maxDelayMs: number;
  /** This many failures lock the login name for `lockMs`. */
  lockAfter: number;
  lockMs: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = {
  windowMs: 15 * 60_000, slowAfter: 3, delayStepMs: 1000, maxDelayMs: 5000, lockAfter: 5, lockMs: 15 * 60_000,
};

/**
 * A refusal says which account the login name belongs to (`accountId`, when it names one) and whether
 * this failure is the one that locked it (`lockedNow`), for the security log: never to the person.
 */
export type SignInResult =
  | { ok: true; account: Account }
  | { ok: false; reason: 'invalid'; accountId?: string | undefined }
  /** The right password for an account whose address is not confirmed yet. */
  | { ok: false; reason: 'unverified'; accountId: string }
  | { ok: false; reason: 'locked'; retryAfterS: number; accountId?: string | undefined; lockedNow?: boolean };

/** Too many wrong passwords for the account: refused, whatever is sent, for `retryAfterS`. */
export class AccountLockedError extends AccountError {
  override name = 'AccountLockedError';
  constructor(readonly retryAfterS: number) {
    super('current', 'is locked after too many wrong passwords');
  }
}

interface FailureState {
  row: { failures: number; first_at: Date | string } | undefined;
  /** ms since the epoch; 0 when not locked. */
  lockedUntil: number;
}

/** The throttle's key for a login name (an e-mail address as typed, or an account's own). */
function loginKey(login: string): string {
  return login.trim().toLowerCase().slice(0, 320);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface AccountRow {
  id: string; email: string; display_name: string; password_hash: string; can_edit: boolean; partner: boolean;
  groups: string[]; attributes: Account['attributes'] | string; disabled: boolean; email_verified: boolean; created_at: Date | string;
}

function toAccount(row: AccountRow): Account {
  return {
    id: row.id, email: row.email, displayName: row.display_name, canEdit: row.can_edit, partner: row.partner,
    groups: row.groups ?? [], attributes: typeof row.attributes === 'string' ? JSON.parse(row.attributes) : row.attributes ?? {},
    disabled: row.disabled, emailVerified: row.email_verified !== false, createdAt: new Date(row.created_at).toISOString(),
  };
}

function checkPassword(password: string, email?: string): void {
  const problem = passwordProblem(password, email);
  if (problem) throw new AccountError('password', problem);
}

export class AccountStore {
  constructor(
    private readonly db: Db,
    private readonly options: { clock?: () => number; throttle?: Partial<ThrottleOptions>; sleep?: (ms: number) => Promise<void> } = {},
  ) {}

  private get throttle(): ThrottleOptions {
    return { ...DEFAULT_THROTTLE, ...this.options.throttle };
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }

  async create(input: NewAccount): Promise<Account> {
    const email = input.email.trim();
    if (!EMAIL.test(email) || email.length > 254) throw new AccountError('email', 'must be an e-mail address');
    checkPassword(input.password, email);
    const hash = await hashPassword(input.password);
    const rows = await this.db.query<AccountRow>(
      `insert into accounts (id, email, display_name, password_hash, can_edit, partner, groups, attributes, email_verified)
       values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)
       on conflict (lower(email)) do nothing returning *`,
      [randomUUID(), email, (input.displayName ?? '').trim(), hash, input.canEdit ?? false, input.partner ?? false,
        input.groups ?? [], JSON.stringify(input.attributes ?? {}), input.emailVerified ?? true],
    );
    if (!rows[0]) throw new AccountError('email', `an account for ${email} already exists`);
    return toAccount(rows[0]);
  }

  async list(): Promise<Account[]> {
    return (await this.db.query<AccountRow>('select * from accounts order by lower(email)')).map(toAccount);
  }

  async byId(id: string): Promise<Account | undefined> {
    const rows = await this.db.query<AccountRow>('select * from accounts where id = $1', [id]);
    return rows[0] ? toAccount(rows[0]) : undefined;
  }

  async byEmail(email: string): Promise<Account | undefined> {
    const rows = await this.db.query<AccountRow>('select * from accounts where lower(email) = lower($1)', [email.trim()]);
    return rows[0] ? toAccount(rows[0]) : undefined;
  }

  /** Disabling an account also ends every session of it, on every instance. */
  async setDisabled(email: string, disabled: boolean): Promise<Account> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<AccountRow>(
        'update accounts set disabled = $2, updated_at = now() where lower(email) = lower($1) returning *', [email.trim(), disabled]);
      if (!rows[0]) throw new AccountError('email', `no account for ${email.trim()}`);
      if (disabled) await endAccountSessions(tx, rows[0].id);
      return toAccount(rows[0]);
    });
  }

  async resetPassword(email: string, password: string): Promise<Account> {
    checkPassword(password, email);
    const hash = await hashPassword(password);
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<AccountRow>(
        'update accounts set password_hash = $2, updated_at = now() where lower(email) = lower($1) returning *', [email.trim(), hash]);
      if (!rows[0]) throw new AccountError('email', `no account for ${email.trim()}`);
      // A reset also lifts a lock on the login name, and ends every session signed in with the old password.
      await tx.query('delete from sign_in_failures where login = lower($1)', [email.trim()]);
      await endAccountSessions(tx, rows[0].id);
      return toAccount(rows[0]);
    });
  }

  /**
   * Sets a new password through a reset link: `consume` uses the link up in the same transaction (false:
   * it was used already, and nothing changes). Following the link proves the address, so it is confirmed
   * too; the lock on the login name is lifted and every session of the account ends.
   */
  async resetById(id: string, password: string, consume: (tx: Queryable) => Promise<boolean>): Promise<Account | undefined> {
    const account = await this.byId(id);
    if (!account) return undefined;
    checkPassword(password, account.email);
    const hash = await hashPassword(password);
    return this.db.transaction(async (tx) => {
      if (!(await consume(tx))) return undefined;
      const rows = await tx.query<AccountRow>(
        'update accounts set password_hash = $2, email_verified = true, updated_at = now() where id = $1 returning *', [id, hash]);
      if (!rows[0]) return undefined;
      await tx.query('delete from sign_in_failures where login = lower($1)', [rows[0].email]);
      await endAccountSessions(tx, id);
      return toAccount(rows[0]);
    });
  }

  /** Confirms an account's address (its link was followed): `consume` uses the link up in the same transaction. */
  async verifyEmail(id: string, consume: (tx: Queryable) => Promise<boolean>): Promise<Account | undefined> {
    return this.db.transaction(async (tx) => {
      if (!(await consume(tx))) return undefined;
      const rows = await tx.query<AccountRow>('update accounts set email_verified = true, updated_at = now() where id = $1 returning *', [id]);
      return rows[0] ? toAccount(rows[0]) : undefined;
    });
  }

  /**
   * Changes a signed-in person's own password, after checking the current one under the same lockout
   * as sign-in, counted for the account's login name (not per address): a lock is answered before any
   * hashing, the right password included. A change ends every session of the account (revocation.ts).
   */
  async changePassword(id: string, current: string, next: string): Promise<void> {
    const rows = await this.db.query<AccountRow>('select * from accounts where id = $1 and not disabled', [id]);
    const row = rows[0];
    checkPassword(next, row?.email);
    if (!row) throw new AccountError('current', 'is not your current password');
    const key = loginKey(row.email);
    const now = this.now();
    const state = await this.failures(key);
    if (state.lockedUntil > now) throw new AccountLockedError(Math.ceil((state.lockedUntil - now) / 1000));
    if (!(await verifyPassword(current, row.password_hash))) {
      const outcome = await this.failed(key, state, now);
      if (!outcome.ok && outcome.reason === 'locked') throw new AccountLockedError(outcome.retryAfterS);
      throw new AccountError('current', 'is not your current password');
    }
    const hash = await hashPassword(next);
    await this.db.transaction(async (tx) => {
      await tx.query('update accounts set password_hash = $2, updated_at = now() where id = $1', [id, hash]);
      await tx.query('delete from sign_in_failures where login = $1', [key]);
      await endAccountSessions(tx, id);
    });
  }

  /**
   * Checks a login name and password. The same answer ('invalid') for an unknown login, a wrong
   * password and a disabled account, after the same hashing work; failures per login name are slowed
   * from `slowAfter` on and locked for `lockMs` at `lockAfter` (a lock is answered before any hashing).
   */
  async signIn(login: string, password: string): Promise<SignInResult> {
    const key = loginKey(login);
    const now = this.now();
    const state = await this.failures(key);
    if (state.lockedUntil > now) {
      const id = (await this.db.query<{ id: string }>('select id from accounts where lower(email) = $1', [key]))[0]?.id;
      return { ok: false, reason: 'locked', retryAfterS: Math.ceil((state.lockedUntil - now) / 1000), accountId: id };
    }

    const rows = key ? await this.db.query<AccountRow>('select * from accounts where lower(email) = $1', [key]) : [];
    const row = rows[0];
    const matches = await verifyPassword(password, row?.password_hash ?? (await dummyHash()));
    if (row && matches && !row.disabled) {
      if (state.row) await this.db.query('delete from sign_in_failures where login = $1', [key]);
      if (row.email_verified === false) return { ok: false, reason: 'unverified', accountId: row.id };
      return { ok: true, account: toAccount(row) };
    }
    return { ...(await this.failed(key, state, now)), accountId: row?.id };
  }

  /** The failures counted for a login name. */
  private async failures(key: string): Promise<FailureState> {
    const row = (await this.db.query<{ failures: number; first_at: Date | string; locked_until: Date | string | null }>(
      'select failures, first_at, locked_until from sign_in_failures where login = $1', [key]))[0];
    return { row, lockedUntil: row?.locked_until ? new Date(row.locked_until).getTime() : 0 };
  }

  /** Counts one more failure for a login name: slowed from `slowAfter` on, locked at `lockAfter`. */
  private async failed(key: string, state: FailureState, now: number): Promise<Extract<SignInResult, { reason: 'invalid' | 'locked' }>> {
    const t = this.throttle;
    const { row } = state;
    const inWindow = row && now - new Date(row.first_at).getTime() < t.windowMs && state.lockedUntil === 0;
    const failures = inWindow ? row.failures + 1 : 1;
    const locked = failures >= t.lockAfter ? new Date(now + t.lockMs) : null;
    await this.db.query(
      `insert into sign_in_failures (login, failures, first_at, locked_until) values ($1, $2, $3, $4)
       on conflict (login) do update set failures = excluded.failures, first_at = excluded.first_at, locked_until = excluded.locked_until`,
      [key, locked ? 0 : failures, inWindow ? new Date(row.first_at) : new Date(now), locked],
    );
    if (locked) return { ok: false, reason: 'locked', retryAfterS: Math.ceil(t.lockMs / 1000), lockedNow: true };
    if (failures >= t.slowAfter) {
      const delay = Math.min(t.maxDelayMs, (failures - t.slowAfter + 1) * t.delayStepMs);
      await (this.options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))))(delay);
    }
    return { ok: false, reason: 'invalid' };
  }
}
