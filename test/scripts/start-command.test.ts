import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { settingsOf } from '../../scripts/start-settings.ts';

const ROOT = join(import.meta.dirname, '../..');
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const unit = readFileSync(join(ROOT, 'deploy/systemd/signpost@.service'), 'utf8');

t.test('npm start, npm run start:built and the systemd unit start the server with the same memory settings', async (t) => {
  const built = settingsOf(scripts['start:built'] ?? '');
  t.same(built.env, { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '65536' }, 'two malloc arenas, large blocks given back when freed');
  t.ok(built.flags.includes('--max-semi-space-size=4'), 'a young generation of 4 MB semi-spaces');
  t.notOk(built.flags.includes('--optimize-for-size'), 'no --optimize-for-size: it saves memory under load at a third of the page throughput');
  t.ok(built.flags.includes('--enable-source-maps'), 'stack traces name the sources');

  const start = scripts.start ?? '';
  t.match(start, /^node scripts\/build\.mjs && /, 'npm start builds first');
  t.same(settingsOf(start.replace(/^node scripts\/build\.mjs && /, '')), built, 'then starts as start:built does');

  const execStart = /^ExecStart=(.+)$/m.exec(unit)?.[1] ?? '';
  const environment = Object.fromEntries([...unit.matchAll(/^Environment=(MALLOC_[A-Z_]+)=(\S*)$/gm)].map((m) => [m[1]!, m[2]!]));
  t.same({ env: environment, flags: settingsOf(execStart).flags }, built, 'the systemd unit sets the same variables and flags');
});
