/**
 * Insights figures (npm run bench:insights [-- <raw events>]): the sample content and, in a fresh
 * database (PGlite, or a new database on DATABASE_URL's server, dropped at the end), N raw events
 * (200 000 by default) over the last 30 days plus 60 earlier days already rolled up into
 * analytics_daily; then the time to compute every table of each insights section, for the last 30 days
 * and the last 90, p50 / p95 over five rounds.
 */
import { resolve } from 'node:path';
import { freshDb } from './bench-db.ts';
import { migrate } from '../server/db/migrate.ts';
import { importContent } from '../server/content/import.ts';
import { loadSection, SECTIONS } from '../server/insights/tables.ts';
import { defaultRange } from '../server/insights/filters.ts';

const ROUNDS = 5;
const events = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 200_000);
const fresh = await freshDb();
const { db } = fresh;
try {
  await migrate(db);
  await importContent(db, resolve('content'), { force: true });
  const t0 = performance.now();
  // Raw events over the last 30 days: types, terms, paths and products drawn from small sets.
  await db.query(`
    with paths as (select array_agg(path) as p from (select path from content_routes order by path limit 200) x),
         products as (select array_agg(id) as p from content_entries where type = 'product')
    insert into analytics_events (occurred_at, type, source, path, product, term, key, value, data, query_id, session_id)
    select now() - (g % 30) * interval '1 day' - (g % 86400) * interval '1 second',
           (array['page_view','page_view','page_view','search','search','search_result_click','was_this_helpful_click',
                  'page_scrolled','page_dwelled','spelling_rewrite','support_request','results_rendered',
                  'assistant_question','assistant_rendered'])[1 + g % 14],
           'client',
           paths.p[1 + (g * 7) % array_length(paths.p, 1)],
           products.p[1 + (g * 3) % array_length(products.p, 1)],
           'term ' || (g % 500),
           (array['results','no_results','1','2','3','yes','no','25','50','75','100','shown','declined'])[1 + (g * 13) % 13],
           (g % 1000)::float8,
           case when g % 3 = 0 then '{"reason":"not-clear"}'::jsonb else '{}'::jsonb end,
           -- Searches, their results and clicks, and questions and their answers share ids; visits hold a few events each.
           'q' || (g / 14), 's' || (g % 20000)
      from generate_series(1, $1::int) g, paths, products`, [events]);
  await db.exec(`update analytics_events set key = case when id % 2 = 0 then 'unanswered' else 'answered' end where type = 'assistant_question'`);
  // Sixty earlier days, rolled up: a day's aggregates the size of a raw day's.
  await db.query(`
    insert into analytics_daily (day, type, path, product, term, key, count, total)
    select current_date - 30 - d, type, path, product, term, key, count(*), sum(value)
      from analytics_events, generate_series(1, 60) d
     where occurred_at >= current_date - 1 and occurred_at < current_date
     group by 1, 2, 3, 4, 5, 6`);
  await db.query(`insert into analytics_rollups (day) select current_date - 30 - d from generate_series(1, 60) d`);
  // As the hourly roll-up leaves them: analysed (server/events/rollup.ts).
  await db.exec('analyze analytics_events, analytics_daily');
  const [daily] = await db.query<{ n: number }>('select count(*)::int as n from analytics_daily');
  console.log(`data            ${events} raw events (30 days), ${daily?.n} aggregate rows (60 rolled-up days), written in ${Math.round(performance.now() - t0)} ms (${db.engine})`);
  const now = new Date();
  const last30 = { ...defaultRange(now), product: '' };
  const last90 = { ...last30, from: new Date(now.getTime() - 89 * 86_400_000).toISOString().slice(0, 10) };
  for (const [name, range] of [['last 30 days', last30], ['last 90 days', last90]] as const) {
    for (const section of SECTIONS) {
      await loadSection(db, section, range); // warm-up
      const ms: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const start = performance.now();
        await loadSection(db, section, range);
        ms.push(performance.now() - start);
      }
      ms.sort((a, b) => a - b);
      const at = (p: number) => (ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? 0).toFixed(0);
      console.log(`${section.padEnd(9)} ${name}   p50 ${at(0.5)} ms   p95 ${at(0.95)} ms   (every table of the section)`);
    }
  }
} finally {
  await fresh.done();
}
