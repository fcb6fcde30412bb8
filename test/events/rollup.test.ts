import t from 'tap';
import { build, FIXTURE, testDb } from '../helpers/build.ts';
import { insertEvents, type EventRow } from '../../server/events/store.ts';

const PAGE = '/acme-cloud/docs/first-steps';
const ENTRY = 'acme-cloud-first-steps';

const view = (at: string): EventRow => ({ occurredAt: new Date(at), type: 'page_view', source: 'server', path: PAGE });

t.test('roll-up, retention and page views in search ranking', async (t) => {
  const db = await testDb(t);
  const app = await build(t, { db, env: { ANALYTICS_RETENTION_DAYS: '1' } });
  await insertEvents(db, [
    view('2026-01-10T08:00:00Z'), view('2026-01-10T12:00:00Z'), view('2026-01-10T23:59:00Z'),
    { occurredAt: new Date('2026-01-10T09:00:00Z'), type: 'search', source: 'server', path: '/search-results', term: 'first', key: 'results', value: 5 },
    { occurredAt: new Date('2026-01-10T09:30:00Z'), type: 'search', source: 'server', path: '/search-results', term: 'first', key: 'results', value: 3 },
    view('2026-01-11T10:00:00Z'), view('2026-01-11T23:00:00Z'),
    view('2026-01-12T00:30:00Z'),
  ]);
  const counts = () => db.query<{ day: string; type: string; count: number; total: number }>(
    `select to_char(day, 'YYYY-MM-DD') as day, type, sum(count)::int as count, sum(total)::float8 as total from analytics_counts
     group by day, type order by day, type`);
  const before = await counts();
  t.same(before, [
    { day: '2026-01-10', type: 'page_view', count: 3, total: 0 }, { day: '2026-01-10', type: 'search', count: 2, total: 8 },
    { day: '2026-01-11', type: 'page_view', count: 2, total: 0 }, { day: '2026-01-12', type: 'page_view', count: 1, total: 0 },
  ]);

  t.test('a day is rolled up once it is complete (with a margin for late events)', async (t) => {
    const first = await app.analytics.rollUp(new Date('2026-01-12T01:00:00Z'));
    t.same(first.days, ['2026-01-10'], 'the day before yesterday only: yesterday may still get late events');
    t.equal(first.deleted, 5, "the first day's raw events are past the one-day retention once rolled up");
    t.same(await db.query(`select to_char(day, 'YYYY-MM-DD') as day, type, term, key, count::int, total from analytics_daily order by type`), [
      { day: '2026-01-10', type: 'page_view', term: '', key: '', count: 3, total: 0 },
      { day: '2026-01-10', type: 'search', term: 'first', key: 'results', count: 2, total: 8 },
    ]);
    t.same(await counts(), before, 'the counts read the same before and after');
  });

  t.test('running it again changes nothing; retention deletes only rolled-up raw events', async (t) => {
    const second = await app.analytics.rollUp(new Date('2026-01-12T03:00:00Z'));
    t.same(second.days, ['2026-01-11']);
    t.equal(second.deleted, 0, "the second day's events are within the retention");
    const again = await app.analytics.rollUp(new Date('2026-01-12T03:00:00Z'));
    t.same(again, { days: [], deleted: 0 });
    t.same(await counts(), before, 'counts survive the deletion through the daily aggregates');
    const raw = await db.query<{ n: number }>(`select count(*)::int as n from analytics_events`);
    t.equal(raw[0]?.n, 3, 'events of days kept, and of days not rolled up, stay');
  });

  t.test('page views reach the search trust factor and survive a re-import', async (t) => {
    const [stats] = await db.query<{ num_views: number }>(`select num_views from entry_stats where entry_id = $1`, [ENTRY]);
    t.equal(stats?.num_views, 6);
    await app.importContentTree(FIXTURE, { force: true });
    const res = await app.inject({ method: 'POST', url: '/gateway/api/help-content/v2/search', payload: { query: 'first steps', pagination: { from: 0, size: 7 } } });
    const hit = res.json().results.find((r: { content: { url: string } }) => r.content.url === PAGE);
    t.equal(hit?.content.metadata.trustFactors.numViews, 6);
  });
});
