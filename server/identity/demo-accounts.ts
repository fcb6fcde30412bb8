/**
 * Demo accounts (docs/ "Demo accounts"): a content tree may hold demo-accounts.yaml, one account per
 * role of spec §6, so anyone can try each variant of the site on the embedded provider. At start the
 * missing ones are added and existing ones left as they are (a changed password stays changed). A file
 * that cannot be used is a logged warning, never a reason to stop the site.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Type, type Static } from 'typebox';
import { parseDocument } from 'yaml';
import { schemaErrors } from '../content/schema-errors.ts';
import { AccountError, MIN_PASSWORD_LENGTH, type AccountStore } from './accounts.ts';

export const DEMO_ACCOUNTS_FILE = 'demo-accounts.yaml';

const DemoAccount = Type.Object({
  /** What the account shows (customer, author, vendor staff, partner): documentation only. */
  role: Type.String({ minLength: 1, maxLength: 100 }),
  email: Type.String({ minLength: 3, maxLength: 254 }),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  password: Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: 1024 }),
  canEdit: Type.Optional(Type.Boolean()),
  partner: Type.Optional(Type.Boolean()),
  groups: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }))),
  attributes: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]))),
}, { additionalProperties: false });

const DemoFile = Type.Object({ accounts: Type.Array(DemoAccount, { maxItems: 100 }) }, { additionalProperties: false });

export type DemoAccount = Static<typeof DemoAccount>;

/** A demo accounts file that cannot be used: `file: field: reason`. */
export class DemoAccountsError extends Error {
  override name = 'DemoAccountsError';
}

/**
 * The demo accounts of a content tree; undefined when it has no demo-accounts.yaml. Throws
 * DemoAccountsError naming the file and the first fields at fault (never a password).
 */
export async function readDemoAccounts(contentDir: string): Promise<DemoAccount[] | undefined> {
  const file = join(contentDir, DEMO_ACCOUNTS_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DemoAccountsError(`${file}: file: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    const line = doc.errors[0]?.linePos?.[0]?.line;
    throw new DemoAccountsError(`${file}${line ? `:${line}` : ''}: yaml: ${(doc.errors[0]?.message.split('\n')[0] ?? 'invalid YAML').replace(/ at line \d+, column \d+:?$/, '')}`);
  }
  const value = doc.toJS() as unknown;
  const errors = schemaErrors(DemoFile, value);
  if (errors.length > 0) {
    const fields = errors.slice(0, 3).map((e) => `${e.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '') || 'file'}: ${e.reason}`);
    throw new DemoAccountsError(`${file}: ${fields.join('; ')}`);
  }
  return (value as Static<typeof DemoFile>).accounts;
}

export interface SeedResult {
  /** Accounts the file lists. */
  listed: number;
  /** Of those, added now (the others existed already or could not be added). */
  added: number;
}

/** Adds the demo accounts of {contentDir}/demo-accounts.yaml that are missing (docs/ "Demo accounts"). */
export async function seedDemoAccounts(accounts: AccountStore, contentDir: string, log: FastifyBaseLogger): Promise<SeedResult | undefined> {
  let demo: DemoAccount[] | undefined;
  try {
    demo = await readDemoAccounts(contentDir);
  } catch (error) {
    if (!(error instanceof DemoAccountsError)) throw error;
    log.warn({ problem: error.message }, 'demo accounts file not used: no demo accounts were added');
    return undefined;
  }
  if (!demo || demo.length === 0) return undefined;
  let added = 0;
  for (const [index, account] of demo.entries()) {
    if (await accounts.byEmail(account.email)) continue;
    try {
      await accounts.create({
        email: account.email, displayName: account.name, password: account.password, canEdit: account.canEdit,
        partner: account.partner, groups: account.groups, attributes: account.attributes,
      });
      added++;
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      // Another instance starting at the same time added it first; anything else names the entry, not the address.
      if (/already exists/.test(error.reason)) continue;
      log.warn({ problem: `${DEMO_ACCOUNTS_FILE}: accounts[${index}].${error.field}: ${error.reason}` }, 'demo account not added');
    }
  }
  log.warn({ demoAccounts: demo.length, added },
    `demo accounts are active (${demo.length}, passwords in ${DEMO_ACCOUNTS_FILE}): remove the file and disable them before going live`);
  return { listed: demo.length, added };
}
