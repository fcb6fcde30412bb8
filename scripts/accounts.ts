/**
 * npm run accounts -- <command>: the accounts of the embedded identity provider (docs/ "Accounts").
 *   add --email E [--name N] [--editor] [--partner] [--group G]… [--attribute key=value]…
 *   list
 *   disable EMAIL | enable EMAIL
 *   reset EMAIL [--generate]
 * Passwords are read from standard input when it is piped, or prompted for without echo on a terminal;
 * never from the command line (it shows in the process list and the shell history). Refusals are
 * printed as `field: reason`, exit code 1. Like `npm run import`, a PGlite data directory held by a
 * running server gets the command through that server's admin endpoint.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../server/config.ts';
import { openDb, pgliteDirFor } from '../server/db/driver.ts';
import { migrate } from '../server/db/migrate.ts';
import { DataDirLockedError } from '../server/db/data-dir-lock.ts';
import { AccountError, AccountStore, MIN_PASSWORD_LENGTH, type Account } from '../server/identity/accounts.ts';
import { rolesOf, runAccountCommand, type AccountCommand, type AccountCommandResult } from '../server/identity/account-commands.ts';
import { postToServer } from './import-handover.ts';

const USAGE = `Usage: npm run accounts -- <command>
  add --email EMAIL [--name NAME] [--editor] [--partner] [--group GROUP]... [--attribute KEY=VALUE]...
  list
  disable EMAIL
  enable EMAIL
  reset EMAIL [--generate]
The password of add and reset is read from standard input when piped, or asked for without echo.`;

/** A refusal before anything is done: printed as `field: reason`. */
class UsageError extends Error {}

function fail(field: string, reason: string): never {
  throw new UsageError(`${field}: ${reason}`);
}

/** Attribute values: true/false and plain decimal numbers keep their type; anything else is text. */
function attributeValue(raw: string): string | number | boolean {
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (/^-?(0|[1-9]\d{0,14})(\.\d+)?$/.test(raw)) return Number(raw);
  return raw;
}

function parseCommand(argv: string[]): { input: AccountCommand; generate: boolean } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        email: { type: 'string' }, name: { type: 'string' }, editor: { type: 'boolean' }, partner: { type: 'boolean' },
        group: { type: 'string', multiple: true }, attribute: { type: 'string', multiple: true }, generate: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? 'not understood';
    if (/password/i.test(message)) fail('password', 'is never given on the command line: pipe it on standard input or type it at the prompt');
    fail('arguments', message.replace(/\. To specify a positional argument.*$/, ''));
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || !command) fail('command', `expected one of add, list, disable, enable, reset\n\n${USAGE}`);
  const only = (allowed: string[]) => {
    for (const key of Object.keys(values)) if (!allowed.includes(key)) fail(key, `is not an option of ${command}`);
  };
  switch (command) {
    case 'add': {
      only(['email', 'name', 'editor', 'partner', 'group', 'attribute']);
      if (rest.length > 0) fail('arguments', `unexpected ${rest.join(' ')} (the e-mail address goes after --email)`);
      if (!values.email) fail('email', 'is required (--email EMAIL)');
      const attributes: Record<string, string | number | boolean> = {};
      for (const pair of values.attribute ?? []) {
        const at = pair.indexOf('=');
        const key = at > 0 ? pair.slice(0, at).trim() : '';
        if (!key) fail('attribute', `expected KEY=VALUE, got "${pair}"`);
        attributes[key] = attributeValue(pair.slice(at + 1));
      }
      const groups = values.group ?? [];
      if (groups.some((g) => !g.trim())) fail('group', 'must not be empty');
      return {
        input: {
          command: 'add', email: values.email, ...(values.name !== undefined ? { name: values.name } : {}),
          editor: values.editor === true, partner: values.partner === true, groups: groups.map((g) => g.trim()), attributes,
        },
        generate: false,
      };
    }
    case 'list':
      only([]);
      if (rest.length > 0) fail('arguments', `unexpected ${rest.join(' ')}`);
      return { input: { command: 'list' }, generate: false };
    case 'disable':
    case 'enable':
    case 'reset': {
      only(command === 'reset' ? ['generate'] : []);
      const email = rest[0] ?? values.email;
      if (!email) fail('email', `is required (npm run accounts -- ${command} EMAIL)`);
      if (rest.length > 1) fail('arguments', `unexpected ${rest.slice(1).join(' ')}`);
      return { input: { command, email }, generate: values.generate === true };
    }
    default:
      fail('command', `unknown command "${command}": expected one of add, list, disable, enable, reset`);
  }
}

/** Reads a password typed on the terminal, echoing nothing. */
function promptHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let typed = '';
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer) => {
      for (const char of chunk.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === '\u0004') return done();
        if (char === '\u0003') return done(new UsageError('password: cancelled'));
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else if (char >= ' ') typed += char;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

/** The first line of standard input (piped): `printf '%s\n' "$PASSWORD" | npm run accounts -- add …`. */
async function readPiped(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += (chunk as Buffer).toString('utf8');
    if (text.includes('\n') || text.length > 4096) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

async function readPassword(): Promise<string> {
  let password: string;
  if (process.stdin.isTTY) {
    password = await promptHidden('Password: ');
    if (password.length >= MIN_PASSWORD_LENGTH && (await promptHidden('Password again: ')) !== password) fail('password', 'the two entries differ');
  } else {
    password = await readPiped();
  }
  if (!password) fail('password', 'is required: pipe it on standard input or type it at the prompt');
  if (password.length < MIN_PASSWORD_LENGTH) fail('password', `must be at least ${MIN_PASSWORD_LENGTH} characters`);
  return password;
}

function table(accounts: Account[]): string {
  if (accounts.length === 0) return 'No accounts.';
  const rows = [['EMAIL', 'NAME', 'ROLES', 'DISABLED', 'CREATED'],
    ...accounts.map((a) => [a.email, a.displayName, rolesOf(a), a.disabled ? 'yes' : 'no', a.createdAt.slice(0, 16).replace('T', ' ')])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

function report(result: AccountCommandResult, generated: string | undefined): void {
  if (result.command === 'list') {
    console.log(table(result.accounts));
    return;
  }
  const { account } = result;
  const done = { add: `Added ${account.email} (${rolesOf(account)}).`, disable: `Disabled ${account.email}: it can no longer sign in.`,
    enable: `Enabled ${account.email}.`, reset: `Reset the password of ${account.email}.` }[result.command];
  console.log(done);
  if (generated) console.log(`New password (shown once, not stored anywhere readable): ${generated}`);
}

/** The command through the server that holds the PGlite data directory. */
async function throughServer(dataDir: string, input: AccountCommand): Promise<AccountCommandResult> {
  const answer = await postToServer(dataDir, '/admin/accounts', input, 'the accounts command');
  if (answer.kind === 'failed') throw new UsageError(answer.message);
  const { json } = answer;
  if (answer.status === 200) return json as unknown as AccountCommandResult;
  if (answer.status === 422 && typeof json.field === 'string' && typeof json.reason === 'string') throw new AccountError(json.field, json.reason);
  const message = typeof json.message === 'string' ? json.message : answer.text.slice(0, 200);
  throw new UsageError(`The running server (${answer.url}) refused the command: ${answer.status} ${message}`);
}

async function main(): Promise<number> {
  try {
    const { input, generate } = parseCommand(process.argv.slice(2));
    let generated: string | undefined;
    if (input.command === 'add' || input.command === 'reset') {
      if (generate) input.password = generated = randomBytes(15).toString('base64url');
      else input.password = await readPassword();
    }
    const config = loadConfig();
    let db;
    try {
      db = await openDb({ databaseUrl: config.databaseUrl, pgliteDir: pgliteDirFor(config.dataDir) });
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      console.error(`${error.dir} is open in another process; handing the command to the running server…`);
      report(await throughServer(config.dataDir, input), generated);
      return 0;
    }
    try {
      await migrate(db);
      report(await runAccountCommand(new AccountStore(db), input), generated);
      return 0;
    } finally {
      await db.close();
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof AccountError || error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main();
