/**
 * An account's named support contacts (/named-contact, migration 8's named_contacts): kept by the account
 * itself, read and changed only under its own account id.
 */
import type { Db } from '../../db/driver.ts';

export interface NamedContact {
  id: number;
  name: string;
  email: string;
}

/** Contacts one account may keep: enough for a team, not a mailing list. */
export const MAX_NAMED_CONTACTS = 25;
export const MAX_NAME_LENGTH = 200;
/** RFC 5321's longest forward path. */
export const MAX_EMAIL_LENGTH = 254;

/** One @, something on both sides, a dot in the domain, no spaces or angle brackets: what a helpdesk can mail. */
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;

export type ContactField = 'name' | 'email';

export type ContactProblem = 'nameRequired' | 'nameTooLong' | 'emailRequired' | 'emailInvalid' | 'emailTaken';

/** What is wrong with a new contact, by field; empty when nothing is. */
export function checkContact(name: string, email: string): Partial<Record<ContactField, ContactProblem>> {
  const problems: Partial<Record<ContactField, ContactProblem>> = {};
  if (!name) problems.name = 'nameRequired';
  else if (name.length > MAX_NAME_LENGTH) problems.name = 'nameTooLong';
  if (!email) problems.email = 'emailRequired';
  else if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) problems.email = 'emailInvalid';
  return problems;
}

export class NamedContactStore {
  constructor(private readonly db: Db) {}

  async list(accountId: string): Promise<NamedContact[]> {
    const rows = await this.db.query<{ id: string | number; name: string; email: string }>(
      'select id, name, email from named_contacts where account_id = $1 order by lower(name), id', [accountId],
    );
    return rows.map((r) => ({ id: Number(r.id), name: r.name, email: r.email }));
  }

  /** Whether this address is one of the account's named contacts (they may follow its requests). */
  async isContact(accountId: string, email: string): Promise<boolean> {
    const rows = await this.db.query('select 1 from named_contacts where account_id = $1 and lower(email) = lower($2) limit 1', [accountId, email]);
    return rows.length > 0;
  }

  /** Adds a contact: 'taken' when the account has this address already, 'full' at the limit. */
  async add(accountId: string, name: string, email: string): Promise<'added' | 'taken' | 'full'> {
    return this.db.transaction(async (tx) => {
      // One account's adds are serialised, so two at once cannot pass the limit together.
      await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`named-contacts:${accountId}`]);
      const [count] = await tx.query<{ n: number }>('select count(*)::int as n from named_contacts where account_id = $1', [accountId]);
      if ((count?.n ?? 0) >= MAX_NAMED_CONTACTS) return 'full';
      const inserted = await tx.query(
        `insert into named_contacts (account_id, name, email) values ($1, $2, $3)
         on conflict (account_id, lower(email)) do nothing returning id`,
        [accountId, name, email],
      );
      return inserted.length > 0 ? 'added' : 'taken';
    });
  }

  /** Removes one of the account's contacts; another account's id removes nothing. */
  async remove(accountId: string, id: number): Promise<boolean> {
    const rows = await this.db.query('delete from named_contacts where account_id = $1 and id = $2 returning id', [accountId, id]);
    return rows.length > 0;
  }
}
