import t from 'tap';
import { migrate } from '../../server/db/migrate.ts';
import { testDb } from '../helpers/build.ts';

t.test('migrations are versioned and apply once', async (t) => {
  const db = await testDb(t);
  t.same(await migrate(db), [], 'already applied by the helper');
  const rows = await db.query<{ version: number }>('select version from schema_migrations order by version');
  t.ok(rows.length >= 1);
  t.same(await migrate(db), [], 'running again changes nothing');
  const failing = [{ version: 999, name: 'broken', sql: 'create table x (id int); select * from no_such_table;' }];
  await t.rejects(migrate(db, failing));
  t.same(await db.query(`select 1 from information_schema.tables where table_name = 'x'`), [], 'a failed migration leaves nothing behind');
});
