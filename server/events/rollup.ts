/**
 * Roll-up and retention: every complete UTC day with events is summed into `analytics_daily` and
 * marked in `analytics_rollups` (running it again changes nothing), then raw events older than the
 * retention are deleted (only of rolled-up days), and page views are written where search ranking
 * reads them (`entry_stats.num_views`, which a content import leaves alone, and the copies in
 * `content_entries` and `search_documents`).
 */
import type { Db } from '../db/driver.ts';

/** A day is complete once its last event can no longer arrive: the clock window after midnight, and a margin. */
export const ROLLUP_DELAY_MS = 2 * 60 * 60 * 1000;

export interface RollUpResult {
  /** Days rolled up by this run. */
  days: string[];
  /** Raw events deleted by the retention. */
  deleted: number;
}

export async function rollUp(db: Db, options: { now: Date; retentionDays: number }): Promise<RollUpResult> {
  const cutoff = new Date(options.now.getTime() - ROLLUP_DELAY_MS);
  cutoff.setUTCHours(0, 0, 0, 0);
  const keepFrom = new Date(options.now.getTime() - options.retentionDays * 86_400_000);
  const result = await db.transaction(async (tx): Promise<RollUpResult> => {
    // One run at a time across instances; another one running means this one has nothing to do.
    const [lock] = await tx.query<{ ok: boolean }>(`select pg_try_advisory_xact_lock(hashtext('signpost analytics roll-up')) as ok`);
    if (!lock?.ok) return { days: [], deleted: 0 };
    const days = await tx.query<{ day: string }>(
      `with fresh as (
         select (e.occurred_at at time zone 'UTC')::date as day, e.type, e.path, e.product, e.term, e.key,
                count(*)::bigint as count, coalesce(sum(e.value), 0)::float8 as total
         from analytics_events e
         where e.occurred_at < $1::timestamptz
           and not exists (select 1 from analytics_rollups r where r.day = (e.occurred_at at time zone 'UTC')::date)
         group by 1, 2, 3, 4, 5, 6),
       daily as (
         insert into analytics_daily (day, type, path, product, term, key, count, total)
         select day, type, path, product, term, key, count, total from fresh
         on conflict (day, type, path, product, term, key) do update set count = excluded.count, total = excluded.total)
       insert into analytics_rollups (day) select distinct day from fresh on conflict (day) do nothing
       returning to_char(day, 'YYYY-MM-DD') as day`,
      [cutoff.toISOString()],
    );
    const deleted = await tx.query<{ id: string }>(
      `delete from analytics_events e where e.occurred_at < $1::timestamptz
         and exists (select 1 from analytics_rollups r where r.day = (e.occurred_at at time zone 'UTC')::date)
       returning e.id`,
      [keepFrom.toISOString()],
    );
    await writeViews(tx);
    return { days: days.map((d) => d.day).sort(), deleted: deleted.length };
  });
  // Fresh statistics for the insights' joins over raw events (by query id and visit): the embedded
  // database has no autovacuum, and without them a join of thousands of events is planned as a nested loop.
  // A PostgreSQL server's autovacuum keeps them, so a fleet's instances do not analyse on every run.
  if (db.engine === 'pglite') await db.exec('analyze analytics_events, analytics_daily');
  return result;
}

/** Page views per entry (all of its routes, all days) into the search trust factor. */
async function writeViews(tx: Pick<Db, 'query'>): Promise<void> {
  await tx.query(`create temporary table if not exists analytics_views (entry_id text primary key, views integer not null) on commit drop`);
  await tx.query(
    `insert into analytics_views (entry_id, views)
     select r.entry_id, least(sum(c.count), 2147483647)::int from analytics_counts c join content_routes r on r.path = c.path
     where c.type = 'page_view' group by r.entry_id`,
  );
  await tx.query(
    `insert into entry_stats (entry_id, num_views) select entry_id, views from analytics_views
     on conflict (entry_id) do update set num_views = excluded.num_views`,
  );
  await tx.query(`update content_entries e set num_views = v.views from analytics_views v where v.entry_id = e.id and e.num_views <> v.views`);
  await tx.query(`update search_documents d set num_views = v.views from analytics_views v where v.entry_id = d.id and d.num_views <> v.views`);
}
