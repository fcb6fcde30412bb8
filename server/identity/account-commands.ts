/**
 * The commands of `npm run accounts` (docs/ "Accounts"), run the same way whether the command opened
 * the database itself or handed the command to the running server's admin endpoint. Answers carry
 * accounts as AccountStore returns them: never a password or its hash.
 */
import { Type, type Static } from 'typebox';
import { AccountError, type Account, type AccountStore } from './accounts.ts';

export const AccountCommand = Type.Object({
  command: Type.Union([Type.Literal('add'), Type.Literal('list'), Type.Literal('disable'), Type.Literal('enable'), Type.Literal('reset')]),
  email: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
  name: Type.Optional(Type.String({ maxLength: 200 })),
  password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  editor: Type.Optional(Type.Boolean()),
  partner: Type.Optional(Type.Boolean()),
  groups: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 })),
  attributes: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 200 }),
    Type.Union([Type.String({ maxLength: 1000 }), Type.Number(), Type.Boolean(), Type.Null()]))),
}, { additionalProperties: false });

export type AccountCommand = Static<typeof AccountCommand>;

export type AccountCommandResult =
  | { command: 'list'; accounts: Account[] }
  | { command: Exclude<AccountCommand['command'], 'list'>; account: Account };

/** A command the store refuses is thrown as AccountError (`field: reason`). */
export async function runAccountCommand(store: AccountStore, input: AccountCommand): Promise<AccountCommandResult> {
  const email = () => {
    if (!input.email?.trim()) throw new AccountError('email', 'is required');
    return input.email;
  };
  const password = () => {
    if (!input.password) throw new AccountError('password', 'is required');
    return input.password;
  };
  switch (input.command) {
    case 'list':
      return { command: 'list', accounts: await store.list() };
    case 'add':
      return {
        command: 'add',
        account: await store.create({
          email: email(), displayName: input.name, password: password(), canEdit: input.editor, partner: input.partner,
          groups: input.groups ? [...new Set(input.groups)] : undefined, attributes: input.attributes,
        }),
      };
    case 'disable':
    case 'enable':
      return { command: input.command, account: await store.setDisabled(email(), input.command === 'disable') };
    case 'reset':
      return { command: 'reset', account: await store.resetPassword(email(), password()) };
  }
}

/** What an account may do, in words (spec §6 roles the account carries; staff follows from the e-mail). */
export function rolesOf(account: Pick<Account, 'canEdit' | 'partner' | 'groups'>): string {
  const roles = [account.canEdit ? 'editor' : '', account.partner ? 'partner' : '', ...account.groups.map((g) => `group:${g}`)].filter(Boolean);
  return roles.length > 0 ? roles.join(', ') : 'customer';
}
