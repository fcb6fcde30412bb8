import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openDb, pgliteDirFor } from '../../server/db/driver.ts';
import { DataDirLockedError } from '../../server/db/data-dir-lock.ts';
import { ROOT, runScript, tempDataDir } from '../helpers/server-process.ts';

// PGlite is one process's database (DESIGN "Running safely"): a second opener is refused.
t.test('a second open of a PGlite data directory is refused while the first is open', async (t) => {
  const dir = pgliteDirFor(await tempDataDir(t));
  const first = await openDb({ pgliteDir: dir });
  const error = await openDb({ pgliteDir: dir }).then(() => undefined, (e: unknown) => e);
  t.ok(error instanceof DataDirLockedError, 'refused with DataDirLockedError');
  t.match((error as Error).message, dir, 'the message names the directory');
  t.match((error as Error).message, /npm run import/, 'and says what to do');
  t.match((error as Error).message, `process ${process.pid}`, 'and who holds it');
  await first.close();
  const again = await openDb({ pgliteDir: dir });
  t.same(await again.query('select 1 as n'), [{ n: 1 }], 'opens again once the first is closed');
  await again.close();
  t.notOk(existsSync(`${dir}.lock`), 'the lock is gone after close');
});

t.test('another process cannot open a directory this process holds', async (t) => {
  const dataDir = await tempDataDir(t);
  const db = await openDb({ pgliteDir: pgliteDirFor(dataDir) });
  t.teardown(() => db.close());
  const res = await runScript('scripts/import.ts', ['test/fixtures/minimal'], { DATA_DIR: dataDir });
  t.equal(res.code, 1, 'the import command fails');
  t.match(res.stderr, `${pgliteDirFor(dataDir)} is open in another process`);
  t.match(res.stderr, /No running server announced itself/, 'no server to hand over to: it says so');
  t.same(await db.query('select count(*)::int as n from content_entries').catch(() => [{ n: 0 }]), [{ n: 0 }], 'nothing written');
});

t.test('a lock left by a process that crashed is taken over at once', async (t) => {
  const dataDir = await tempDataDir(t);
  const dir = pgliteDirFor(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', '-e',
    `const { openDb } = await import(${JSON.stringify(join(ROOT, 'server/db/driver.ts'))});
     await openDb({ pgliteDir: ${JSON.stringify(dir)} }); console.log('open'); setInterval(() => {}, 1000);`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => d.toString().includes('open') && resolve()));
  const refused = await openDb({ pgliteDir: dir }).then(() => false, (e: unknown) => e instanceof DataDirLockedError);
  t.ok(refused, 'refused while the other process runs');
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  t.ok(existsSync(`${dir}.lock`), 'the killed process left its lock behind');
  const db = await openDb({ pgliteDir: dir });
  t.pass('opened after the holder died');
  await db.close();
});
