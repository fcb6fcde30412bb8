import type { Queryable } from '../db/driver.ts';

/**
 * A secret kept in the database (app_secrets), made once by whichever instance asks first, so every
 * instance sharing the store agrees on it (session keys, the embedded provider's keys and client secret).
 */
export async function storedSecret(db: Queryable, name: string, make: () => string | Promise<string>): Promise<string> {
  const found = await db.query<{ value: string }>('select value from app_secrets where name = $1', [name]);
  if (found[0]) return found[0].value;
  await db.query('insert into app_secrets (name, value) values ($1, $2) on conflict (name) do nothing', [name, await make()]);
  const rows = await db.query<{ value: string }>('select value from app_secrets where name = $1', [name]);
  if (!rows[0]) throw new Error(`app_secrets: ${name} was not stored`);
  return rows[0].value;
}
