import type { Db } from './driver.ts';
import { migrations as allMigrations, type Migration } from './migrations.ts';

// Any fixed number: serialises migration runs of several instances sharing one server.
const LOCK_KEY = 727_401_113;

/** Applies pending migrations; safe to run on every start and from several instances at once. */
export async function migrate(db: Db, migrations: Migration[] = allMigrations): Promise<number[]> {
  await db.exec(`
    create table if not exists schema_migrations (
      version    integer primary key,
      name       text not null,
      applied_at timestamptz not null default now()
    )`);
  const applied: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    const done = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [LOCK_KEY]);
      const rows = await tx.query('select 1 from schema_migrations where version = $1', [migration.version]);
      if (rows.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [migration.version, migration.name]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}
