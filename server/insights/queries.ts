/**
 * The figures staff see under /insights, read from the analytics contract of migration 13: every day's
 * counts from the view `analytics_counts` (rolled-up days from `analytics_daily`, the others from the raw
 * events), and the raw `analytics_events` only where a figure needs a field the aggregates do not keep
 * (the 'No' reasons of `was_this_helpful_click`, which live in `data.reason`, within retention). What each
 * event type puts in key, value and term is listed in server/events/catalogue.ts.
 */
import type { Queryable } from '../db/driver.ts';

/** The days (UTC, both inclusive, YYYY-MM-DD) and the product (a product entry's id; '' is every product). */
export interface InsightsRange {
  from: string;
  to: string;
  product: string;
  /**
   * Where the counts are read: the view itself, or `insights_counts`, a temporary copy of the range's
   * rows made by snapshotCounts() so that a page of tables groups the raw days once, not once a table.
   */
  counts?: 'analytics_counts' | 'insights_counts' | undefined;
  /** Rows a table reads at most (TABLE_LIMIT by default; more for the previous range a trend compares with). */
  limit?: number | undefined;
}

const counts = (r: InsightsRange) => r.counts ?? 'analytics_counts';

/**
 * Copies the range's counts of the given event types into a temporary table dropped at the end of the
 * transaction `tx`; queries given the returned range read that copy.
 */
export async function snapshotCounts(tx: Queryable, r: InsightsRange, types: string[]): Promise<InsightsRange> {
  await tx.exec(`create temporary table insights_counts on commit drop as select * from analytics_counts with no data`);
  await tx.query(`insert into insights_counts select * from analytics_counts c where c.type = any($4::text[]) and ${RANGE}`, params(r, types));
  await tx.exec('analyze insights_counts');
  return { ...r, counts: 'insights_counts' };
}

/** Rows per table: the tables are for reading, the CSV has the same rows. */
export const TABLE_LIMIT = 50;
const lim = (r: InsightsRange) => r.limit ?? TABLE_LIMIT;

/** The filter every query shares: $1 from, $2 to, $3 product ('' for all). */
const RANGE = `c.day between $1::date and $2::date and ($3 = '' or c.product = $3)`;
/** The same days as RANGE for raw events, in UTC whatever the session's time zone. */
const RAW_RANGE = `e.occurred_at >= ($1::date)::timestamp at time zone 'UTC' and e.occurred_at < ($2::date + 1)::timestamp at time zone 'UTC'
  and ($3 = '' or e.product = $3)`;

const params = (r: InsightsRange, ...more: unknown[]) => [r.from, r.to, r.product, ...more];

/** A page's title by the path it answers on (any version's path); none when the page no longer exists. */
const TITLE = `(select ce.title from content_routes cr join content_entries ce on ce.id = cr.entry_id where cr.path = t.path limit 1)`;

export interface TermCount { term: string; searches: number; noResults: number }
export interface TermOnly { term: string; searches: number }
export interface PositionClicks { position: number; clicks: number; share: number }
export interface Rewrite { term: string; shown: number; declined: number; accepted: number }
export interface PageViews { path: string; title: string | null; views: number }
export interface Helpfulness { path: string; title: string | null; yes: number; no: number; reasons: ReasonCount[] }
export interface ReasonCount { reason: string; count: number }
export interface ScrollDepth { path: string; title: string | null; q25: number; q50: number; q75: number; q100: number }
export interface Dwell { path: string; title: string | null; views: number; totalMs: number; averageMs: number | null }
export interface SupportFrom { path: string; title: string | null; requests: number }

const n = (v: unknown) => Number(v ?? 0);

export async function totalSearches(db: Queryable, r: InsightsRange): Promise<number> {
  const [row] = await db.query<{ count: unknown }>(`select coalesce(sum(c.count), 0) as count from ${counts(r)} c where c.type = 'search' and ${RANGE}`, params(r));
  return n(row?.count);
}

/** Search terms by how often they were searched for, with how many of those found nothing. */
export async function topSearches(db: Queryable, r: InsightsRange): Promise<TermCount[]> {
  const rows = await db.query<{ term: string; searches: unknown; no_results: unknown }>(
    `select c.term, sum(c.count) as searches, sum(case when c.key = 'no_results' then c.count else 0 end) as no_results
       from ${counts(r)} c where c.type = 'search' and c.term <> '' and ${RANGE}
       group by c.term order by searches desc, c.term limit $4`, params(r, lim(r)));
  return rows.map((x) => ({ term: x.term, searches: n(x.searches), noResults: n(x.no_results) }));
}

/** Search terms that found nothing, by how often. */
export async function noResultSearches(db: Queryable, r: InsightsRange): Promise<TermOnly[]> {
  const rows = await db.query<{ term: string; searches: unknown }>(
    `select c.term, sum(c.count) as searches from ${counts(r)} c
      where c.type = 'search' and c.key = 'no_results' and c.term <> '' and ${RANGE}
      group by c.term order by searches desc, c.term limit $4`, params(r, lim(r)));
  return rows.map((x) => ({ term: x.term, searches: n(x.searches) }));
}

/** Search terms with results whose results nobody clicked in the range, by how often they were searched. */
export async function noClickSearches(db: Queryable, r: InsightsRange): Promise<TermOnly[]> {
  const rows = await db.query<{ term: string; searches: unknown }>(
    `select t.term, t.searches from (
       select c.term, sum(case when c.type = 'search' and c.key = 'results' then c.count else 0 end) as searches,
              sum(case when c.type = 'search_result_click' then c.count else 0 end) as clicks
         from ${counts(r)} c where c.type in ('search', 'search_result_click') and c.term <> '' and ${RANGE} group by c.term) t
      where t.searches > 0 and t.clicks = 0 order by t.searches desc, t.term limit $4`, params(r, lim(r)));
  return rows.map((x) => ({ term: x.term, searches: n(x.searches) }));
}

/** Result clicks by position (1-based), with each position's share of the searches that found something. */
export async function clicksByPosition(db: Queryable, r: InsightsRange): Promise<PositionClicks[]> {
  const [withResults] = await db.query<{ count: unknown }>(
    `select coalesce(sum(c.count), 0) as count from ${counts(r)} c where c.type = 'search' and c.key = 'results' and ${RANGE}`, params(r));
  const base = n(withResults?.count);
  const rows = await db.query<{ position: string; clicks: unknown }>(
    `select c.key as position, sum(c.count) as clicks from ${counts(r)} c
      where c.type = 'search_result_click' and c.key ~ '^[0-9]{1,6}$' and ${RANGE}
      group by c.key order by c.key::int limit $4`, params(r, lim(r)));
  return rows.map((x) => ({ position: Number(x.position), clicks: n(x.clicks), share: base > 0 ? n(x.clicks) / base : 0 }));
}

/** Spelling rewrites: how often each was shown, declined, and accepted (shown minus declined). */
export async function spellingRewrites(db: Queryable, r: InsightsRange): Promise<Rewrite[]> {
  const rows = await db.query<{ term: string; shown: unknown; declined: unknown }>(
    `select t.term, t.shown, t.declined from (
       select c.term, sum(case when c.key = 'shown' then c.count else 0 end) as shown,
              sum(case when c.key = 'declined' then c.count else 0 end) as declined
         from ${counts(r)} c where c.type = 'spelling_rewrite' and ${RANGE} group by c.term) t
      order by t.shown - t.declined desc, t.term limit $4`, params(r, lim(r)));
  return rows.map((x) => {
    const shown = n(x.shown);
    const declined = n(x.declined);
    return { term: x.term, shown, declined, accepted: Math.max(0, shown - declined) };
  });
}

/** Events of one type per page, most first, with the page's title. */
async function countByPath(db: Queryable, r: InsightsRange, type: string): Promise<{ path: string; title: string | null; count: number }[]> {
  const rows = await db.query<{ path: string; title: string | null; count: unknown }>(
    `select t.path, ${TITLE} as title, t.count from (
       select c.path, sum(c.count) as count from ${counts(r)} c where c.type = $5 and ${RANGE} group by c.path) t
      order by t.count desc, t.path limit $4`, params(r, lim(r), type));
  return rows.map((x) => ({ path: x.path, title: x.title, count: n(x.count) }));
}

export async function pageViews(db: Queryable, r: InsightsRange): Promise<PageViews[]> {
  return (await countByPath(db, r, 'page_view')).map((x) => ({ path: x.path, title: x.title, views: x.count }));
}

/**
 * The CTE `reasons (path, reason, count)`: the 'No' reasons per page from the raw events (data.reason),
 * within retention. A reason comes with a 'No' or after it (key 'reason': the reasons form completing a
 * 'No' already counted), so a 'No' without one is 'none given' only when no reason followed it: the
 * answers without a reason less the reasons that came after.
 */
const REASONS = (where: string) => `with raw as (
    select e.path, e.key, nullif(e.data->>'reason', '') as reason
      from analytics_events e where e.type = 'was_this_helpful_click' and e.key in ('no', 'reason') and ${RAW_RANGE} and ${where}),
  reasons as (
    select path, reason, count(*) as count from raw where reason is not null group by 1, 2
    union all
    select path, 'none given', count(*) filter (where key = 'no' and reason is null) - count(*) filter (where key = 'reason' and reason is not null)
      from raw group by 1
     having count(*) filter (where key = 'no' and reason is null) > count(*) filter (where key = 'reason' and reason is not null))`;

/** The 'No' reasons per page, within retention. */
async function reasonsByPath(db: Queryable, r: InsightsRange, paths: string[]): Promise<Map<string, ReasonCount[]>> {
  const out = new Map<string, ReasonCount[]>();
  if (paths.length === 0) return out;
  const rows = await db.query<{ path: string; reason: string; count: unknown }>(
    `${REASONS('e.path = any($4::text[])')} select path, reason, count from reasons order by count desc, reason`, params(r, paths));
  for (const x of rows) {
    const list = out.get(x.path) ?? [];
    list.push({ reason: x.reason, count: n(x.count) });
    out.set(x.path, list);
  }
  return out;
}

/** Every 'No' reason over the range (raw events, within retention). */
export async function noReasons(db: Queryable, r: InsightsRange): Promise<ReasonCount[]> {
  const rows = await db.query<{ reason: string; count: unknown }>(
    `${REASONS('true')} select reason, sum(count) as count from reasons group by reason order by count desc, reason`, params(r));
  return rows.map((x) => ({ reason: x.reason, count: n(x.count) }));
}

const HELPFUL = (r: InsightsRange, order: string) => `select t.path, ${TITLE} as title, t.yes, t.no from (
    select c.path, sum(case when c.key = 'yes' then c.count else 0 end) as yes,
           sum(case when c.key = 'no' then c.count else 0 end) as no
      from ${counts(r)} c where c.type = 'was_this_helpful_click' and ${RANGE} group by c.path) t
   ${order} limit $4`;

/** Yes and No answers per page, most answered first. */
export async function helpfulness(db: Queryable, r: InsightsRange): Promise<Helpfulness[]> {
  return withReasons(db, r, await db.query(HELPFUL(r, 'order by t.yes + t.no desc, t.path'), params(r, lim(r))));
}

/** Pages with a 'No', the least helpful first (the lowest share of Yes, then the most No). */
export async function leastHelpful(db: Queryable, r: InsightsRange): Promise<Helpfulness[]> {
  return withReasons(db, r, await db.query(HELPFUL(r, 'where t.no > 0 order by t.yes::float8 / (t.yes + t.no), t.no desc, t.path'), params(r, lim(r))));
}

async function withReasons(db: Queryable, r: InsightsRange, rows: { path: string; title: string | null; yes: unknown; no: unknown }[]): Promise<Helpfulness[]> {
  const reasons = await reasonsByPath(db, r, rows.map((x) => x.path));
  return rows.map((x) => ({ path: x.path, title: x.title, yes: n(x.yes), no: n(x.no), reasons: reasons.get(x.path) ?? [] }));
}

/** How many page_scrolled reports reached each quarter (a report of 75 % reached 25 % and 50 % too). */
export async function scrollDepth(db: Queryable, r: InsightsRange): Promise<ScrollDepth[]> {
  const rows = await db.query<{ path: string; title: string | null; q25: unknown; q50: unknown; q75: unknown; q100: unknown }>(
    `select t.path, ${TITLE} as title, t.q25, t.q50, t.q75, t.q100 from (
       select c.path,
              sum(case when c.key in ('25', '50', '75', '100') then c.count else 0 end) as q25,
              sum(case when c.key in ('50', '75', '100') then c.count else 0 end) as q50,
              sum(case when c.key in ('75', '100') then c.count else 0 end) as q75,
              sum(case when c.key = '100' then c.count else 0 end) as q100
         from ${counts(r)} c where c.type = 'page_scrolled' and ${RANGE} group by c.path) t
      where t.q25 > 0 order by t.q25 desc, t.path limit $4`, params(r, lim(r)));
  return rows.map((x) => ({ path: x.path, title: x.title, q25: n(x.q25), q50: n(x.q50), q75: n(x.q75), q100: n(x.q100) }));
}

/** Dwell time per page: the total reported, and the average per page view. */
export async function dwell(db: Queryable, r: InsightsRange): Promise<Dwell[]> {
  const rows = await db.query<{ path: string; title: string | null; views: unknown; total: unknown }>(
    `select t.path, ${TITLE} as title, t.total, t.views from (
       select c.path, sum(case when c.type = 'page_dwelled' then c.total else 0 end) as total,
              sum(case when c.type = 'page_dwelled' then c.count else 0 end) as reports,
              sum(case when c.type = 'page_view' then c.count else 0 end) as views
         from ${counts(r)} c where c.type in ('page_dwelled', 'page_view') and ${RANGE} group by c.path) t
      where t.reports > 0 order by t.total desc, t.path limit $4`, params(r, lim(r)));
  return rows.map((x) => {
    const views = n(x.views);
    const totalMs = Math.round(n(x.total));
    return { path: x.path, title: x.title, views, totalMs, averageMs: views > 0 ? Math.round(totalMs / views) : null };
  });
}

/** Pages a support request was filed from, most first. */
export async function supportRequestsFrom(db: Queryable, r: InsightsRange): Promise<SupportFrom[]> {
  return (await countByPath(db, r, 'support_request')).map((x) => ({ path: x.path, title: x.title, requests: x.count }));
}

export interface MissedPath { path: string; requests: number; redirect: string | null }

/**
 * Paths the not-found page answered (page_misses, server/events/misses.ts), most requested first, with
 * the redirect that now sends them on when one was added since. Misses belong to no product: the product
 * filter does not apply.
 */
export async function missingPages(db: Queryable, r: InsightsRange): Promise<MissedPath[]> {
  const rows = await db.query<{ path: string; requests: unknown; redirect: string | null }>(
    `select t.path, t.requests, (select cr.to_path from content_redirects cr where cr.from_path = t.path) as redirect from (
       select m.path, sum(m.count) as requests from page_misses m where m.day between $1::date and $2::date group by m.path) t
      order by t.requests desc, t.path limit $3`, [r.from, r.to, lim(r)]);
  return rows.map((x) => ({ path: x.path, requests: n(x.requests), redirect: x.redirect }));
}

const DAY_MS = 86_400_000;
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The range of the same length that ends the day before `r` starts: what a trend compares with. */
export function previousRange(r: InsightsRange): InsightsRange {
  const days = Math.round((dayOf(r.to) - dayOf(r.from)) / DAY_MS) + 1;
  return { from: isoOf(dayOf(r.from) - days * DAY_MS), to: isoOf(dayOf(r.from) - DAY_MS), product: r.product };
}

/** Every day of a range, in order. */
export function daysOf(r: Pick<InsightsRange, 'from' | 'to'>): string[] {
  const out: string[] = [];
  for (let t = dayOf(r.from); t <= dayOf(r.to); t += DAY_MS) out.push(isoOf(t));
  return out;
}

/**
 * What a table's daily chart counts: events of `type` (with one of `keys`, when given), their number or
 * the sum of their values times `scale`; `misses` counts the not-found page's answers (page_misses).
 */
export interface DailyMeasure {
  type: string;
  keys?: string[] | undefined;
  measure: 'count' | 'total' | 'misses';
  scale?: number | undefined;
}

export interface DayValue { day: string; value: number }

/** A measure per day over the range, 0 on the days without any. */
export async function daily(db: Queryable, r: InsightsRange, m: DailyMeasure): Promise<DayValue[]> {
  const rows = m.measure === 'misses'
    ? await db.query<{ day: string; value: unknown }>(
      `select to_char(m.day, 'YYYY-MM-DD') as day, sum(m.count) as value from page_misses m
        where m.day between $1::date and $2::date group by m.day`, [r.from, r.to])
    : await db.query<{ day: string; value: unknown }>(
      `select to_char(c.day, 'YYYY-MM-DD') as day, sum(${m.measure === 'total' ? 'c.total' : 'c.count'}) as value
         from ${counts(r)} c where c.type = $4 and ($5::text[] is null or c.key = any($5::text[])) and ${RANGE} group by c.day`,
      params(r, m.type, m.keys ?? null));
  const byDay = new Map(rows.map((x) => [x.day, n(x.value) * (m.scale ?? 1)]));
  return daysOf(r).map((day) => ({ day, value: byDay.get(day) ?? 0 }));
}

/** Searches with results whose term got no click in the range, per day (the no-click table's days). */
export async function noClickDaily(db: Queryable, r: InsightsRange): Promise<DayValue[]> {
  const rows = await db.query<{ day: string; value: unknown }>(
    `with unclicked as (
       select c.term from ${counts(r)} c where c.type in ('search', 'search_result_click') and c.term <> '' and ${RANGE}
        group by c.term
       having sum(case when c.type = 'search' and c.key = 'results' then c.count else 0 end) > 0
          and sum(case when c.type = 'search_result_click' then c.count else 0 end) = 0)
     select to_char(c.day, 'YYYY-MM-DD') as day, sum(c.count) as value from ${counts(r)} c
      where c.type = 'search' and c.key = 'results' and c.term in (select term from unclicked) and ${RANGE} group by c.day`, params(r));
  const byDay = new Map(rows.map((x) => [x.day, n(x.value)]));
  return daysOf(r).map((day) => ({ day, value: byDay.get(day) ?? 0 }));
}

/**
 * The raw events of the visits that matter to the two tables below (within retention): searches that
 * found nothing, or found results none of which was clicked (by the search's query id), each with the
 * visit (session) the results page reported when scripts ran.
 */
const FROM_START = (alias: string) => `${alias}.occurred_at >= ($1::date)::timestamp at time zone 'UTC'`;
const FAILED_SEARCHES = `rendered as (
    select rr.query_id, min(rr.session_id) as session_id from analytics_events rr
     where rr.type = 'results_rendered' and rr.query_id is not null and rr.session_id is not null and ${FROM_START('rr')}
     group by rr.query_id),
  clicked as (
    select distinct c.query_id from analytics_events c
     where c.type = 'search_result_click' and c.query_id is not null and ${FROM_START('c')}),
  failed as (
    select e.term, e.occurred_at, e.key, rendered.session_id
      from analytics_events e
      left join rendered on rendered.query_id = e.query_id
      left join clicked on clicked.query_id = e.query_id
     where e.type = 'search' and e.term <> '' and ${RAW_RANGE}
       and (e.key = 'no_results' or (e.query_id is not null and clicked.query_id is null))),
  requests as (
    select e.id, e.term, e.session_id, e.occurred_at from analytics_events e where e.type = 'support_request' and ${RAW_RANGE}),
  ended as (
    select f.term, q.id, q.occurred_at from failed f join requests q on q.term <> '' and q.term = f.term and q.occurred_at >= f.occurred_at
    union
    select f.term, q.id, q.occurred_at from failed f join requests q on q.session_id = f.session_id and q.occurred_at >= f.occurred_at)`;

export interface SearchToRequest { term: string; noResults: number; noClick: number; requests: number }

/**
 * Searches that ended in a request: a support request filed in the same visit after a search that found
 * nothing or whose results got no click. A request belongs to a visit by the term the results page's
 * contact link carried into the form (scripts or not), or by the visit (session) the analytics script
 * added to the form; a search belongs to it by its term, or by the session its results page reported.
 */
export async function searchesToRequests(db: Queryable, r: InsightsRange): Promise<SearchToRequest[]> {
  const rows = await db.query<{ term: string; no_results: unknown; no_click: unknown; requests: unknown }>(
    `with ${FAILED_SEARCHES},
     searched as (
       select f.term, count(*) filter (where f.key = 'no_results') as no_results, count(*) filter (where f.key <> 'no_results') as no_click
         from failed f group by f.term)
     select d.term, s.no_results, s.no_click, count(distinct d.id) as requests
       from ended d join searched s on s.term = d.term
      group by d.term, s.no_results, s.no_click
      order by requests desc, d.term limit $4`, params(r, lim(r)));
  return rows.map((x) => ({ term: x.term, noResults: n(x.no_results), noClick: n(x.no_click), requests: n(x.requests) }));
}

/** Support requests that followed a failed search, per day of the request. */
export async function searchesToRequestsDaily(db: Queryable, r: InsightsRange): Promise<DayValue[]> {
  const rows = await db.query<{ day: string; value: unknown }>(
    `with ${FAILED_SEARCHES}
     select to_char((d.occurred_at at time zone 'UTC')::date, 'YYYY-MM-DD') as day, count(distinct d.id) as value from ended d group by 1`, params(r));
  const byDay = new Map(rows.map((x) => [x.day, n(x.value)]));
  return daysOf(r).map((day) => ({ day, value: byDay.get(day) ?? 0 }));
}

export interface OpenedAfter { path: string; title: string | null; visits: number }
export interface Unanswered { question: string; asked: number; pages: OpenedAfter[] }

/** How long after an unanswered question a page opened in the same visit still counts as 'after it'. */
export const AFTER_QUESTION_MINUTES = 30;

/**
 * The assistant's unanswered questions (masked, as asked), most asked first, each with the pages opened
 * after it in the same visit (within AFTER_QUESTION_MINUTES), as the analytics script reported them
 * (a page counts once per visit). Raw events, within retention.
 */
export async function unansweredQuestions(db: Queryable, r: InsightsRange): Promise<Unanswered[]> {
  const rows = await db.query<{ question: string; asked: unknown }>(
    `select e.term as question, count(*) as asked from analytics_events e
      where e.type = 'assistant_question' and e.key = 'unanswered' and e.term <> '' and ${RAW_RANGE}
      group by e.term order by asked desc, e.term limit $4`, params(r, lim(r)));
  if (rows.length === 0) return [];
  const after = await db.query<{ question: string; path: string; title: string | null; visits: unknown }>(
    `with seen as (
       select e.term as question, s.session_id, s.path as asked_on, s.occurred_at
         from analytics_events e join analytics_events s on s.type = 'assistant_rendered' and s.query_id = e.query_id and s.session_id is not null
        where e.type = 'assistant_question' and e.key = 'unanswered' and e.term = any($4::text[]) and ${RAW_RANGE}),
     opened as (
       select distinct s.question, s.session_id, x.path from seen s join analytics_events x
           on x.session_id = s.session_id and x.source = 'client' and x.path <> '' and x.path <> s.asked_on
          and ${FROM_START('x')} and x.occurred_at >= s.occurred_at and x.occurred_at <= s.occurred_at + interval '${AFTER_QUESTION_MINUTES} minutes')
     select t.question, t.path, ${TITLE} as title, t.visits from (
       select o.question, o.path, count(*) as visits from opened o group by o.question, o.path) t
      order by t.visits desc, t.path`, params(r, rows.map((x) => x.question)));
  const pages = new Map<string, OpenedAfter[]>();
  for (const x of after) {
    const list = pages.get(x.question) ?? [];
    if (list.length < 5) list.push({ path: x.path, title: x.title, visits: n(x.visits) });
    pages.set(x.question, list);
  }
  return rows.map((x) => ({ question: x.question, asked: n(x.asked), pages: pages.get(x.question) ?? [] }));
}
