import t from 'tap';
import { spawn } from 'node:child_process';
import { openDb, pgliteDirFor } from '../../server/db/driver.ts';
import { AccountStore } from '../../server/identity/accounts.ts';
import { readAdminFile } from '../../server/admin/admin-file.ts';
import { tempContent, scratchDatabase } from '../helpers/build.ts';
import { ROOT, entryArgs, startServer, tempDataDir } from '../helpers/server-process.ts';

type Run = { code: number | null; stdout: string; stderr: string };

/** `npm run accounts -- …` as a child process, with `stdin` piped in (the password, when asked for). */
function accounts(args: string[], env: Record<string, string>, stdin = ''): Promise<Run> {
  const { DATABASE_URL: _unused, ...base } = process.env;
  const child = spawn(process.execPath, [...entryArgs('scripts/accounts.ts'), ...args], {
    cwd: ROOT, env: { ...base, LOG_LEVEL: 'silent', ...env }, stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** Where the command keeps its accounts: a temporary PGlite directory, or its own PostgreSQL database. */
async function target(t: { teardown: (fn: () => unknown) => void }): Promise<{ env: Record<string, string>; store: () => Promise<AccountStore> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const dataDir = await tempDataDir(t);
    return {
      env: { DATA_DIR: dataDir },
      store: async () => {
        const db = await openDb({ pgliteDir: pgliteDirFor(dataDir) });
        t.teardown(() => db.close());
        return new AccountStore(db);
      },
    };
  }
  const testUrl = await scratchDatabase(t, url, 'signpost_accounts');
  return {
    env: { DATABASE_URL: testUrl, DATA_DIR: await tempDataDir(t) },
    store: async () => {
      const db = await openDb({ databaseUrl: testUrl, pgliteDir: '' });
      t.teardown(() => db.close());
      return new AccountStore(db);
    },
  };
}

t.test('add, list, disable, enable and reset on the database directly', async (t) => {
  const { env, store } = await target(t);
  const added = await accounts(['add', '--email', 'Ann@Example.com', '--name', 'Ann Author', '--editor', '--group', 'beta', '--group', 'docs',
    '--attribute', 'plan=gold', '--attribute', 'seats=5', '--attribute', 'trial=false'], env, 'a good password 1\n');
  t.equal(added.code, 0, added.stderr);
  t.equal(added.stdout, 'Added Ann@Example.com (editor, group:beta, group:docs).\n');
  const partner = await accounts(['add', '--email', 'pat@partner.example', '--partner'], env, 'another password\n');
  t.equal(partner.code, 0, partner.stderr);

  const listed = await accounts(['list'], env);
  t.equal(listed.code, 0, listed.stderr);
  const lines = listed.stdout.trimEnd().split('\n');
  t.match(lines[0], /^EMAIL\s+NAME\s+ROLES\s+DISABLED\s+CREATED$/);
  t.match(lines[1], /^Ann@Example\.com\s+Ann Author\s+editor, group:beta, group:docs\s+no\s+\d{4}-\d\d-\d\d \d\d:\d\d$/);
  t.match(lines[2], /^pat@partner\.example\s+partner\s+no\s+/);
  t.notMatch(listed.stdout, /scrypt|\$/, 'no hash in the list');

  const disabled = await accounts(['disable', 'ann@example.com'], env);
  t.equal(disabled.code, 0, disabled.stderr);
  t.match((await accounts(['list'], env)).stdout, /Ann@Example\.com.*\byes\b/);
  t.equal((await accounts(['enable', 'ann@example.com'], env)).code, 0);

  const reset = await accounts(['reset', 'ann@example.com', '--generate'], env);
  t.equal(reset.code, 0, reset.stderr);
  const generated = /New password \(shown once[^)]*\): (\S+)\n/.exec(reset.stdout)?.[1];
  t.ok(generated && generated.length >= 16, 'a generated password is printed once');
  t.equal((await accounts(['reset', 'pat@partner.example'], env, 'typed new password\n')).code, 0, 'reset with a piped password');

  const accountsStore = await store();
  const ann = await accountsStore.byEmail('ann@example.com');
  t.match(ann, { displayName: 'Ann Author', canEdit: true, partner: false, groups: ['beta', 'docs'], attributes: { plan: 'gold', seats: 5, trial: false }, disabled: false });
  t.equal((await accountsStore.signIn('ann@example.com', generated!)).ok, true, 'the generated password signs in');
  t.equal((await accountsStore.signIn('pat@partner.example', 'typed new password')).ok, true, 'the piped password signs in');
  t.equal((await accountsStore.signIn('pat@partner.example', 'another password')).ok, false, 'the old one no longer does');
});

t.test('refusals are `field: reason` with exit code 1', async (t) => {
  const { env } = await target(t);
  const cases: [string[], string, RegExp][] = [
    [['add', '--email', 'x@example.com', '--password', 'secret secret'], '', /^password: is never given on the command line/],
    [['add', '--email', 'x@example.com'], 'short\n', /^password: must be at least 10 characters$/m],
    [['add', '--email', 'x@example.com'], '', /^password: is required/],
    [['add', '--email', 'not-an-address'], 'long enough pw\n', /^email: must be an e-mail address$/m],
    [['add'], '', /^email: is required/],
    [['add', '--email', 'x@example.com', '--attribute', 'novalue'], '', /^attribute: expected KEY=VALUE/],
    [['disable', 'nobody@example.com'], '', /^email: no account for nobody@example\.com$/m],
    [['reset'], '', /^email: is required/],
    [['list', '--editor'], '', /^editor: is not an option of list$/m],
    [['rename', 'x'], '', /^command: unknown command "rename"/],
    [[], '', /^command: expected one of add, list, disable, enable, reset/],
  ];
  for (const [args, stdin, expected] of cases) {
    const res = await accounts(args, env, stdin);
    t.equal(res.code, 1, `${args.join(' ')}: exit code 1`);
    t.match(res.stderr, expected, res.stderr);
    t.notMatch(res.stderr, /\n\s+at /, 'no stack trace');
  }
  t.equal((await accounts(['add', '--email', 'x@example.com'], env, 'long enough pw\n')).code, 0);
  const twice = await accounts(['add', '--email', 'X@example.com'], env, 'long enough pw\n');
  t.equal(twice.code, 1);
  t.match(twice.stderr, /^email: an account for X@example\.com already exists$/m);
});

t.test('while a server holds the PGlite data directory the command goes through it', { skip: process.env.DATABASE_URL ? 'PGlite only: PostgreSQL serves several processes' : false }, async (t) => {
  const dataDir = await tempDataDir(t);
  const server = await startServer(t, { DATA_DIR: dataDir, CONTENT_DIR: await tempContent(t), LOG_LEVEL: 'info' });
  const env = { DATA_DIR: dataDir };

  const added = await accounts(['add', '--email', 'sam@example.com', '--name', 'Sam', '--partner', '--attribute', 'tier=2'], env, 'handed over pw 1\n');
  t.equal(added.code, 0, added.stderr);
  t.match(added.stderr, 'handing the command to the running server');
  t.equal(added.stdout, 'Added sam@example.com (partner).\n');
  const twice = await accounts(['add', '--email', 'sam@example.com'], env, 'handed over pw 1\n');
  t.equal(twice.code, 1);
  t.match(twice.stderr, /^email: an account for sam@example\.com already exists$/m, 'the server\'s refusal as field: reason');
  const missing = await accounts(['enable', 'nobody@example.com'], env);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /^email: no account for nobody@example\.com$/m);

  const listed = await accounts(['list'], env);
  t.equal(listed.code, 0, listed.stderr);
  t.match(listed.stdout, /^sam@example\.com\s+Sam\s+partner\s+no\s+\d{4}-/m);
  t.notMatch(listed.stdout, /scrypt/);
  const reset = await accounts(['reset', 'sam@example.com', '--generate'], env);
  t.equal(reset.code, 0, reset.stderr);
  const generated = /New password \(shown once[^)]*\): (\S+)\n/.exec(reset.stdout)?.[1];
  t.ok(generated);

  // Only the token opens the endpoint, and a bad body is a JSON 400.
  const admin = await readAdminFile(dataDir);
  for (const authorization of [undefined, 'Bearer wrong']) {
    const refused = await fetch(`${server.url}/admin/accounts`, {
      method: 'POST', headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) }, body: '{"command":"list"}',
    });
    t.equal(refused.status, 401);
  }
  const bad = await fetch(`${server.url}/admin/accounts`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${admin?.token}` }, body: '{"command":"drop"}',
  });
  t.equal(bad.status, 400);
  t.match(await bad.json(), { statusCode: 400, message: /command/ });
  t.match(server.output(), '"command":"add"', 'the server logs the command');
  t.notMatch(server.output(), /handed over pw 1|sam@example\.com|scrypt\$/, 'but neither the password, its hash nor the address');

  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0);
  const db = await openDb({ pgliteDir: pgliteDirFor(dataDir) });
  t.teardown(() => db.close());
  const store = new AccountStore(db);
  t.match(await store.byEmail('sam@example.com'), { displayName: 'Sam', partner: true, attributes: { tier: 2 } });
  t.equal((await store.signIn('sam@example.com', generated!)).ok, true, 'the password reset through the server signs in');
});
