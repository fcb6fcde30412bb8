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

t.test('the search-table migration carries searchable entries of an existing database across', async (t) => {
  const { openDb } = await import('../../server/db/driver.ts');
  const { migrations } = await import('../../server/db/migrations.ts');
  const db = await openDb({ pgliteDir: 'memory://' });
  t.teardown(() => db.close());
  await migrate(db, migrations.filter((m) => m.version <= 3));
  const row = `insert into content_entries (id, type, published, source, title, description, search_text, deployment, versions, language, fields)
    values ($1, $2, $3, 'x.md', $4, 'A description', 'Body words about lanterns', $5, $6, $7, '{}')`;
  await db.query(row, ['t1', 'topic', true, 'Lantern setup', 'Data Center', ['2.0', '1.0'], 'ja-JP']);
  await db.query(row, ['t2', 'topic', false, 'Lantern draft', 'Cloud', [], 'en-US']);
  await db.query(row, ['p1', 'product', true, 'Lantern', 'Cloud', [], 'en-US']);
  t.same(await migrate(db, migrations.filter((m) => m.version <= 4)), [4]);
  const docs = await db.query<Record<string, unknown>>(
    `select d.id, k.type, k.lang, k.platform, k.versions, search_vector @@ to_tsquery('english', 'lantern') as body, head_vector @@ to_tsquery('english', 'setup') as head
     from search_documents d join search_facet_keys k on k.key = d.facet_key`);
  t.same(docs, [{ id: 't1', type: 'topic', lang: 'ja', platform: 'data_center', versions: ['2.0', '1.0'], body: true, head: true }], 'published searchable entries only');
  const columns = await db.query(`select 1 from information_schema.columns where table_name = 'content_entries' and column_name in ('search_vector', 'head_vector')`);
  t.same(columns, [], 'the vectors live in the search table only');
});

t.test('answers stored before helpfulness was counted per network keep counting, one per visitor', async (t) => {
  const { openDb } = await import('../../server/db/driver.ts');
  const { migrations } = await import('../../server/db/migrations.ts');
  const db = await openDb({ pgliteDir: 'memory://' });
  t.teardown(() => db.close());
  await migrate(db, migrations.filter((m) => m.version <= 4));
  await db.query(`insert into feedback (entry_id, visitor_key, helpful) values ('e', 'v1', true), ('e', 'v2', true), ('e', 'v3', false)`);
  t.same(await migrate(db, migrations.filter((m) => m.version <= 5)), [5]);
  const rows = await db.query<{ n: number }>(
    `select count(distinct (network_key, answered_on))::int as n from feedback where entry_id = 'e' and helpful and counted`);
  t.same(rows, [{ n: 2 }]);
  t.same(await db.query('select count(*)::int as n from rate_limits'), [{ n: 0 }], 'the rate-limit table exists');
});
