/**
 * Every table of the insights section: its heading, columns, rows (from queries.ts) and the column its
 * chart draws. The page and the CSV export are built from the same cells, so the CSV is the table.
 */
import type { Db, Queryable } from '../db/driver.ts';
import * as q from './queries.ts';
import { search } from '../search/engine.ts';
import type { InsightsRange } from './queries.ts';
import type { InsightsCell, InsightsTableModel } from '../../views/pages/insights-page.tsx';
import { stringsFor } from '../../views/i18n/catalogue.tsx';
import { sitePage } from './site-pages.ts';

/** A cell as shown and exported; `href` links it on the page (a page that still exists). */
export type Cell = InsightsCell;

/** A table as the page shows it, before its CSV address is known. */
export type InsightsTable = Omit<InsightsTableModel, 'csvHref'>;

export type Section = 'searches' | 'pages' | 'assistant';
export const SECTIONS: Section[] = ['searches', 'pages', 'assistant'];
export const SECTION_TITLES: Record<Section, string> = { searches: 'Searches', pages: 'Pages', assistant: 'Assistant' };

interface TableSpec {
  title: string;
  about: string;
  columns: [string, 'text' | 'number'][];
  chart: { label: number; value: number; unit: string };
  /** The table's figure per day (its daily chart, and the range's total against the previous range's). */
  daily: { unit: string; load(db: Queryable, range: InsightsRange): Promise<q.DayValue[]> };
  load(db: Queryable, range: InsightsRange): Promise<Cell[][]>;
  /** Fills in what needs the whole database (a search), once the rows are read. */
  complete?(db: Db, rows: Cell[][]): Promise<Cell[][]>;
}

const txt = (text: string, href?: string): Cell => ({ text, href });
const num = (value: number): Cell => ({ text: String(value) });
const pct = (share: number): Cell => ({ text: `${(share * 100).toFixed(1)}%` });
/**
 * A page by its title, linked; one of the site's own pages (results, assistant, requests) by its name;
 * the path alone when the page no longer exists.
 */
const page = (path: string, title: string | null): Cell[] => {
  if (title) return [txt(title, path), txt(path)];
  const own = sitePage(path);
  if (own) return [txt(own.name, own.linked ? path : undefined), txt(path)];
  return [txt(`${path || '(no path)'} (no longer exists)`), txt(path)];
};
/** A 'No' reason in the words the visitor chose (spec §8), not the value the form posts. */
const REASON_LABELS: Record<string, string> = stringsFor('en').feedback.reasons;
const reasonLabel = (reason: string) => (Object.hasOwn(REASON_LABELS, reason) ? REASON_LABELS[reason] as string : reason);
const reasonsText = (reasons: q.ReasonCount[]) => reasons.map((x) => `${reasonLabel(x.reason)} (${x.count})`).join('; ');

const PAGE_COLUMNS: [string, 'text'][] = [['Page', 'text'], ['Path', 'text']];

/** A daily figure read from the counts. */
const counted = (unit: string, measure: q.DailyMeasure): TableSpec['daily'] => ({ unit, load: (db, r) => q.daily(db, r, measure) });
/** Pages as a cell: each linked by its title (or named, or its path), with the visits that opened it. */
const openedAfter = (pages: q.OpenedAfter[]): Cell => txt(pages.length === 0 ? 'none reported'
  : pages.map((p) => `${p.title ?? sitePage(p.path)?.name ?? p.path} (${p.path}, ${p.visits} ${p.visits === 1 ? 'visit' : 'visits'})`).join('; '));

/** Yes, No, the share of Yes and the No reasons per page; the chart draws column `chartColumn`. */
function helpfulnessTable(title: string, about: string, chartColumn: number, load: typeof q.helpfulness): TableSpec {
  return {
    title, about,
    daily: chartColumn === 3
      ? counted("'No' answers", { type: 'was_this_helpful_click', keys: ['no'], measure: 'count' })
      : counted('answers', { type: 'was_this_helpful_click', keys: ['yes', 'no'], measure: 'count' }),
    columns: [...PAGE_COLUMNS, ['Yes', 'number'], ['No', 'number'], ['Helpful', 'number'], ['No reasons', 'text']],
    chart: { label: 0, value: chartColumn, unit: chartColumn === 3 ? 'No answers' : '% answered Yes' },
    load: async (db, r) => (await load(db, r)).map((x) => [
      ...page(x.path, x.title), num(x.yes), num(x.no), pct(x.yes + x.no > 0 ? x.yes / (x.yes + x.no) : 0), txt(reasonsText(x.reasons)),
    ]),
  };
}

export const TABLES: Record<Section, Record<string, TableSpec>> = {
  searches: {
    top: {
      title: 'Top searches', about: 'Terms searched for most often, and how many of those searches found nothing.',
      columns: [['Term', 'text'], ['Searches', 'number'], ['With no results', 'number']],
      chart: { label: 0, value: 1, unit: 'searches' },
      daily: counted('searches', { type: 'search', measure: 'count' }),
      load: async (db, r) => (await q.topSearches(db, r)).map((x) => [txt(x.term), num(x.searches), num(x.noResults)]),
    },
    'no-results': {
      title: 'Searches with no results', about: 'Terms that found nothing, by how often they were searched for.',
      columns: [['Term', 'text'], ['Searches', 'number']],
      chart: { label: 0, value: 1, unit: 'searches' },
      daily: counted('searches with no results', { type: 'search', keys: ['no_results'], measure: 'count' }),
      load: async (db, r) => (await q.noResultSearches(db, r)).map((x) => [txt(x.term), num(x.searches)]),
    },
    'no-click': {
      title: 'Searches with no click', about: 'Terms that found results, none of which was clicked in this date range.',
      columns: [['Term', 'text'], ['Searches', 'number']],
      chart: { label: 0, value: 1, unit: 'searches' },
      daily: { unit: 'searches with no click', load: q.noClickDaily },
      load: async (db, r) => (await q.noClickSearches(db, r)).map((x) => [txt(x.term), num(x.searches)]),
    },
    positions: {
      title: 'Click-through by result position', about: 'Result clicks by the position of the result, and their share of the searches that found something.',
      columns: [['Position', 'text'], ['Clicks', 'number'], ['Click-through', 'number']],
      chart: { label: 0, value: 1, unit: 'clicks' },
      daily: counted('result clicks', { type: 'search_result_click', measure: 'count' }),
      load: async (db, r) => (await q.clicksByPosition(db, r)).map((x) => [txt(String(x.position)), num(x.clicks), pct(x.share)]),
    },
    rewrites: {
      title: 'Spelling rewrites accepted', about: 'Search terms rewritten for spelling: how often the rewrite was shown, declined (the original term asked for), and accepted.',
      columns: [['Term', 'text'], ['Shown', 'number'], ['Declined', 'number'], ['Accepted', 'number']],
      chart: { label: 0, value: 3, unit: 'accepted' },
      daily: counted('rewrites shown', { type: 'spelling_rewrite', keys: ['shown'], measure: 'count' }),
      load: async (db, r) => (await q.spellingRewrites(db, r)).map((x) => [txt(x.term), num(x.shown), num(x.declined), num(x.accepted)]),
    },
    'to-request': {
      title: 'Searches that ended in a request',
      about: 'Terms whose search found nothing, or found results none of which was clicked, followed in the same visit by a support request: through the contact link of the results page (with scripts or without), or in a visit the analytics script reported. Raw events, so within the retention period.',
      columns: [['Term', 'text'], ['Requests after it', 'number'], ['Searches with no results', 'number'], ['Searches with no click', 'number']],
      chart: { label: 0, value: 1, unit: 'requests' },
      daily: { unit: 'requests after a failed search', load: q.searchesToRequestsDaily },
      load: async (db, r) => (await q.searchesToRequests(db, r)).map((x) => [txt(x.term), num(x.requests), num(x.noResults), num(x.noClick)]),
    },
  },
  pages: {
    views: {
      title: 'Pages by views', about: 'Pages viewed most often.',
      columns: [...PAGE_COLUMNS, ['Views', 'number']],
      chart: { label: 0, value: 2, unit: 'views' },
      daily: counted('views', { type: 'page_view', measure: 'count' }),
      load: async (db, r) => (await q.pageViews(db, r)).map((x) => [...page(x.path, x.title), num(x.views)]),
    },
    helpfulness: helpfulnessTable('Helpfulness', "Answers to 'Was this helpful?' per page, with the reasons given for No.", 4, q.helpfulness),
    reasons: {
      title: "Reasons given for 'No'", about: "Every reason given with a 'No' answer, over all pages.",
      columns: [['Reason', 'text'], ['Answers', 'number']],
      chart: { label: 0, value: 1, unit: 'answers' },
      daily: counted("'No' answers", { type: 'was_this_helpful_click', keys: ['no'], measure: 'count' }),
      load: async (db, r) => (await q.noReasons(db, r)).map((x) => [txt(reasonLabel(x.reason)), num(x.count)]),
    },
    'least-helpful': helpfulnessTable('Least helpful pages', "Pages with a 'No' answer, the lowest share of Yes first, with their No reasons.", 3, q.leastHelpful),
    scroll: {
      title: 'Scroll depth', about: 'How many times each quarter of a page was reached (a visit that reached 75% also reached 25% and 50%).',
      columns: [...PAGE_COLUMNS, ['Reached 25%', 'number'], ['Reached 50%', 'number'], ['Reached 75%', 'number'], ['Reached 100%', 'number']],
      chart: { label: 0, value: 5, unit: 'read to the end' },
      daily: counted('read to the end', { type: 'page_scrolled', keys: ['100'], measure: 'count' }),
      load: async (db, r) => (await q.scrollDepth(db, r)).map((x) => [...page(x.path, x.title), num(x.q25), num(x.q50), num(x.q75), num(x.q100)]),
    },
    dwell: {
      title: 'Dwell time', about: 'Time spent on each page: the total reported, and the average per page view, in seconds.',
      columns: [...PAGE_COLUMNS, ['Views', 'number'], ['Total seconds', 'number'], ['Average seconds per view', 'number']],
      chart: { label: 0, value: 3, unit: 'seconds' },
      daily: counted('seconds', { type: 'page_dwelled', measure: 'total', scale: 1 / 1000 }),
      load: async (db, r) => (await q.dwell(db, r)).map((x) => [
        ...page(x.path, x.title), num(x.views), num(Math.round(x.totalMs / 1000)),
        x.averageMs === null ? txt('no views') : num(Math.round(x.averageMs / 100) / 10),
      ]),
    },
    missing: {
      title: 'Missing pages', about: 'Paths that answered "page not found", most requested first (every product), with where to send them: the redirect added since, else the best search hit for the words of the path. Add a redirect in redirects.yaml.',
      columns: [['Path', 'text'], ['Requests', 'number'], ['Suggested target', 'text'], ['Suggested by', 'text']],
      chart: { label: 0, value: 1, unit: 'requests' },
      daily: counted('requests', { type: '', measure: 'misses' }),
      load: async (db, r) => (await q.missingPages(db, r)).map((x) => [
        txt(x.path), num(x.requests), x.redirect ? txt(x.redirect, x.redirect) : txt(''), txt(x.redirect ? 'redirect' : ''),
      ]),
      complete: async (db, rows) => {
        for (const row of rows) {
          if (row[3]?.text === 'redirect') continue;
          const hit = await suggestedTarget(db, row[0]?.text ?? '');
          row[2] = hit ? txt(`${hit.title} (${hit.url})`, hit.url) : txt('none found');
          row[3] = txt(hit ? `search for "${hit.query}"` : '');
        }
        return rows;
      },
    },
    support: {
      title: 'Pages with a support request', about: 'Pages a support request was filed from.',
      columns: [...PAGE_COLUMNS, ['Requests', 'number']],
      chart: { label: 0, value: 2, unit: 'requests' },
      daily: counted('requests', { type: 'support_request', measure: 'count' }),
      load: async (db, r) => (await q.supportRequestsFrom(db, r)).map((x) => [...page(x.path, x.title), num(x.requests)]),
    },
  },
  assistant: {
    unanswered: {
      title: 'Unanswered questions',
      about: `Questions the assistant found no answer to in the help content, most asked first, with the pages opened after them in the same visit (within ${q.AFTER_QUESTION_MINUTES} minutes, as the analytics script reported them). Raw events, so within the retention period.`,
      columns: [['Question', 'text'], ['Asked', 'number'], ['Pages opened after it', 'text']],
      chart: { label: 0, value: 1, unit: 'times asked' },
      daily: counted('unanswered questions', { type: 'assistant_question', keys: ['unanswered'], measure: 'count' }),
      load: async (db, r) => (await q.unansweredQuestions(db, r)).map((x) => [txt(x.question), num(x.asked), openedAfter(x.pages)]),
    },
  },
};

export function isSection(name: string): name is Section {
  return (SECTIONS as string[]).includes(name);
}

export function tableSpec(section: Section, id: string): TableSpec | undefined {
  return Object.hasOwn(TABLES[section], id) ? TABLES[section][id] : undefined;
}

/** Rows of the previous range a trend looks a row up in. */
const PREVIOUS_LIMIT = 1000;
/** How a table is read: its rows, and (on the page and in the CSV) its trend against the previous range. */
export interface LoadOptions { trend?: boolean }

export async function loadTable(db: Queryable, section: Section, id: string, range: InsightsRange, options: LoadOptions = {}): Promise<InsightsTable | undefined> {
  const spec = tableSpec(section, id);
  if (!spec) return undefined;
  let rows = await spec.load(db, range);
  const columns = spec.columns.map(([c]) => c);
  const numeric = spec.columns.map(([, k]) => k === 'number');
  const table: InsightsTable = { id, title: spec.title, about: spec.about, chart: spec.chart, columns, numeric, rows };
  if (options.trend) {
    const previous = q.previousRange(range);
    const before = await spec.load(db, { ...previous, counts: range.counts, limit: PREVIOUS_LIMIT });
    rows = withChange(spec, rows, before, before.length < PREVIOUS_LIMIT);
    table.columns = [...columns, `Change from ${previous.from} to ${previous.to}`];
    table.numeric = [...numeric, true];
    const days = await spec.daily.load(db, { ...range, from: previous.from });
    const sum = (list: q.DayValue[]) => list.reduce((total, d) => total + d.value, 0);
    const current = days.filter((d) => d.day >= range.from);
    table.trend = {
      unit: spec.daily.unit, current: round(sum(current)), previous: round(sum(days.filter((d) => d.day < range.from))),
      previousFrom: previous.from, previousTo: previous.to,
    };
    table.daily = current.map((d) => ({ day: d.day, value: round(d.value) }));
  }
  table.rows = spec.complete && isDb(db) ? await spec.complete(db, rows) : rows;
  return table;
}

const round = (v: number) => Math.round(v * 10) / 10;

/**
 * Each row with its change since the previous range: the chart's figure now less then, looked up by the
 * row's key (a page's path, else its first cell); 'new' when the previous range's table (read in full)
 * does not have it. A share changes in percentage points.
 */
function withChange(spec: TableSpec, rows: Cell[][], before: Cell[][], complete: boolean): Cell[][] {
  const keyAt = spec.columns.findIndex(([c]) => c === 'Path') >= 0 ? spec.columns.findIndex(([c]) => c === 'Path') : 0;
  const at = spec.chart.value;
  const then = new Map(before.map((row) => [row[keyAt]?.text ?? '', row[at]?.text ?? '']));
  return rows.map((row) => {
    const now = row[at]?.text ?? '';
    const old = then.get(row[keyAt]?.text ?? '');
    if (old === undefined) return [...row, txt(complete ? 'new' : 'not in the previous range\'s first rows')];
    const share = now.endsWith('%');
    const delta = round((Number.parseFloat(now) || 0) - (Number.parseFloat(old) || 0));
    // In words: a leading + or − would read as a formula in a spreadsheet, and be escaped in the CSV.
    const change = delta === 0 ? 'no change' : `${delta > 0 ? 'up' : 'down'} ${Math.abs(delta)}${share ? ' pts' : ''}`;
    return [...row, txt(`${change} (was ${old})`)];
  });
}

const isDb = (db: Queryable): db is Db => typeof (db as Partial<Db>).transaction === 'function';

/** The words of a path a search can use: letters and digits, not the site's own route words. */
const ROUTE_WORDS = new Set(['docs', 'doc', 'kb', 'en', 'ja', 'html', 'htm', 'md', 'index', 'page', 'pages', 'www']);
export function pathWords(path: string): string {
  return path.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1 && !/^\d+$/.test(w) && !ROUTE_WORDS.has(w)).slice(0, 8).join(' ');
}

/** The best search hit for the words of a missed path, as the results page would rank it. */
async function suggestedTarget(db: Db, path: string): Promise<{ title: string; url: string; query: string } | undefined> {
  const query = pathWords(path);
  if (!query) return undefined;
  const found = await search(db, { query, pagination: { from: 0, size: 1 }, facets: { enable: false }, highlights: { enable: false } }, { suggest: false });
  const top = found.results[0]?.content;
  return top ? { title: top.title, url: top.url, query } : undefined;
}

/** The event types each section's tables count. */
const SECTION_TYPES: Record<Section, string[]> = {
  searches: ['search', 'search_result_click', 'spelling_rewrite'],
  pages: ['page_view', 'was_this_helpful_click', 'page_scrolled', 'page_dwelled', 'support_request'],
  assistant: ['assistant_question'],
};

/** Every table of a section, from one copy of the range's counts (the raw days grouped once). */
export async function loadSection(db: Db, section: Section, range: InsightsRange): Promise<InsightsTable[]> {
  return db.transaction(async (tx) => {
    // A read replica (server/db/replicas.ts) cannot create the temporary copy: there each table reads the view.
    const [server] = await tx.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
    // The copy covers the previous range too: the trends compare with it.
    const covered = { ...range, from: q.previousRange(range).from };
    const snapshot = server?.standby ? range : { ...range, counts: (await q.snapshotCounts(tx, covered, SECTION_TYPES[section])).counts };
    const out: InsightsTable[] = [];
    for (const id of Object.keys(TABLES[section])) out.push((await loadTable(tx, section, id, snapshot, { trend: true })) as InsightsTable);
    return out;
  }).then(async (tables) => {
    // Searches run in transactions of their own, after the counts' one.
    for (const table of tables) {
      const spec = tableSpec(section, table.id);
      if (spec?.complete) table.rows = await spec.complete(db, table.rows);
    }
    return tables;
  });
}
