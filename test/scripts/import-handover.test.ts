import t from 'tap';
import { existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openDb, pgliteDirFor } from '../../server/db/driver.ts';
import { adminFilePath, readAdminFile } from '../../server/admin/admin-file.ts';
import { tempContent } from '../helpers/build.ts';
import { runScript, startServer, tempDataDir } from '../helpers/server-process.ts';

// Issue 8 item 2: `npm run import` against a running PGlite server used to open the same directory,
// report success and corrupt it. Now the server holds the lock and the command hands the import over.
t.test('the import command hands the import to the running server', { skip: process.env.DATABASE_URL ? 'PGlite only: PostgreSQL serves several processes' : false }, async (t) => {
  const dataDir = await tempDataDir(t);
  const server = await startServer(t, { DATA_DIR: dataDir, CONTENT_DIR: await tempContent(t) });
  const admin = await readAdminFile(dataDir);
  t.ok(admin, 'the server announced its admin address in the data directory');
  t.equal(statSync(adminFilePath(dataDir)).mode & 0o777, 0o600, 'readable by its owner only');
  t.notMatch(server.output(), admin?.token ?? '-', 'the token is not logged');

  const before = await fetch(`${server.url}/acme-cloud/docs/first-steps`);
  t.match(await before.text(), '<h1>First steps</h1>');

  const changed = await tempContent(t);
  const topic = join(changed, 'topics/acme-cloud/first-steps.md');
  await writeFile(topic, (await readFile(topic, 'utf8')).replace(/^title: .*$/m, 'title: First steps, revised'));
  const res = await runScript('scripts/import.ts', [changed], { DATA_DIR: dataDir });
  t.equal(res.code, 0, `the import succeeds\n${res.stderr}`);
  t.match(res.stderr, 'handing the import to the running server');
  t.match(res.stdout, new RegExp(`^Imported 14 entries \\(7 pages\\) from ${changed} in \\d+ ms \\(read \\d+ ms, check \\d+ ms, write \\d+ ms\\)`));
  const after = await fetch(`${server.url}/acme-cloud/docs/first-steps`);
  t.match(await after.text(), '<h1>First steps, revised</h1>', 'the server serves the new content');

  const again = await runScript('scripts/import.ts', [changed], { DATA_DIR: dataDir });
  t.match(again.stdout, 'is unchanged (14 entries); nothing written', 'unchanged content is reported as locally');

  await writeFile(topic, (await readFile(topic, 'utf8')).replace(/^title: .*$/m, 'title: Broken\ncolour: red'));
  const broken = await runScript('scripts/import.ts', [changed], { DATA_DIR: dataDir });
  t.equal(broken.code, 1, 'problems: exit code 1');
  t.match(broken.stderr, /topics\/acme-cloud\/first-steps\.md:\d+:1: error: colour: unknown field\n \d+ \| colour: red\n/, 'each problem compiler style, its line read from the tree');
  t.match(broken.stderr, '1 error; nothing was written.');

  // Only the token opens the endpoint.
  for (const authorization of [undefined, 'Bearer wrong', `Basic ${admin?.token}`]) {
    const refused = await fetch(`${server.url}/admin/import`, {
      method: 'POST', headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) }, body: '{}',
    });
    t.equal(refused.status, 401, `refused with authorization ${authorization === undefined ? 'missing' : authorization.split(' ')[0]}`);
  }

  server.child.kill('SIGTERM');
  t.equal(await server.exited, 0, 'the server stops cleanly');
  t.notOk(existsSync(adminFilePath(dataDir)), 'the admin file is removed on close');
  const db = await openDb({ pgliteDir: pgliteDirFor(dataDir) });
  t.teardown(() => db.close());
  const rows = await db.query<{ title: string }>(`select title from content_entries where id = 'acme-cloud-first-steps' or path like '%first-steps'`);
  t.same(rows.map((r) => r.title), ['First steps, revised'], 'the data directory opens afterwards and holds the new content');
});

t.test('a left-over admin file of a server that is gone is reported clearly', { skip: process.env.DATABASE_URL ? 'PGlite only' : false }, async (t) => {
  const dataDir = await tempDataDir(t);
  const holder = await openDb({ pgliteDir: pgliteDirFor(dataDir) });
  t.teardown(() => holder.close());
  await writeFile(adminFilePath(dataDir), JSON.stringify({ pid: 999999, url: 'http://127.0.0.1:9', token: 'x' }), { mode: 0o600 });
  const res = await runScript('scripts/import.ts', ['test/fixtures/minimal'], { DATA_DIR: dataDir });
  t.equal(res.code, 1);
  t.match(res.stderr, /does not answer \(ECONNREFUSED\)/);
});
