/**
 * Retrieval for the assistant (DESIGN 'People, flags, assistant, events'): a question is read as a
 * search (query.ts, with the content team's synonyms and stop phrases) in 'any' mode, since
 * questions come as sentences, and matched against the passages' vectors through their GIN index.
 * Passages rank by section heading, page title and body (weights A, B, D) with how many of the
 * question's words they hold; one passage per page, so the top few cite different pages.
 */
import type { Db } from '../db/driver.ts';
import { boundQuery } from '../search/bounds.ts';
import { cjkTsQuery, withoutCjk } from '../search/cjk.ts';
import { searchSettingsIn } from '../search/engine.ts';
import { clauseTsQuerySql, parseQuery, tsQuerySql, type SearchSettings } from '../search/query.ts';

export interface Retrieved {
  entryId: string;
  title: string;
  heading: string | null;
  /** The page's URL with the section's anchor. */
  url: string;
  text: string;
  rank: number;
  /** The share of the question's words (clauses) the passage holds, 0 to 1. */
  coverage: number;
}

export interface RetrieveOptions {
  /** How many passages (default 3). */
  limit?: number;
  /** Only pages in this language (its primary subtag, default 'en'). */
  language?: string;
  /** How many passages of one page (default 1): more give the answer's choice the page's other sections. */
  perPage?: number;
  /** The content team's search settings, when the caller keeps them; else read in the transaction. */
  settings?: SearchSettings | undefined;
}

/** Matches beyond this many are not ranked: the newest first stand for the rest. */
const CANDIDATES = 2000;
/** Weights of body (D), -, page title (B) and section heading (A). */
const WEIGHTS = '{0.25, 0.3, 0.6, 1.0}';

export async function retrieve(db: Db, question: string, options: RetrieveOptions = {}): Promise<Retrieved[]> {
  const text = boundQuery(question).query;
  const lang = (options.language ?? 'en').split('-')[0] ?? 'en';
  return db.transaction(async (tx) => {
    await tx.exec(`set local enable_seqscan = off; set local max_parallel_workers_per_gather = 0`);
    const settings = options.settings ?? await searchSettingsIn(tx);
    const params: unknown[] = [];
    const add = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const parsed = parseQuery(withoutCjk(text), settings);
    const english = tsQuerySql(parsed, 'any', add);
    const cjk = cjkTsQuery(text, '|');
    const query = cjk ? `(${english} || ${add(cjk.query)}::tsquery)` : english;
    // Each clause of the question the passage holds adds to its rank: a passage answering more of it wins.
    // Stop words ('how', 'do', 'the') make empty queries: they count for nothing either way.
    const clauseQueries = parsed.clauses.filter((c) => !c.exclude)
      .map((c) => clauseTsQuerySql(c, add));
    const held = clauseQueries.length > 0 ? clauseQueries.map((q) => `(case when p.vector @@ ${q} then 1 else 0 end)`).join(' + ') : '0';
    const counted = clauseQueries.length > 0 ? clauseQueries.map((q) => `(case when numnode(${q}) > 0 then 1 else 0 end)`).join(' + ') : '0';
    const rows = await tx.query<{ entry_id: string; title: string; heading: string | null; url: string; body: string; rank: number; held: number; counted: number }>(
      `with q as (select ${query} as q),
       matched as (
         select p.entry_id, p.position, p.anchor, p.heading, p.body, p.vector from assistant_passages p, q
         where p.vector @@ q.q limit ${CANDIDATES}
       ),
       ranked as (
         select p.entry_id, p.heading, p.anchor, p.body, (${held})::int as held,
           (${held})::float8 + ts_rank('${WEIGHTS}', p.vector, q.q, 1) as rank
         from matched p, q
       ),
       best as (
         select r.*, row_number() over (partition by r.entry_id order by r.rank desc) as nth from ranked r
       )
       select b.entry_id, e.title, b.heading, e.path || coalesce('#' || b.anchor, '') as url, b.body, b.rank, b.held, (${counted})::int as counted
       from best b join content_entries e on e.id = b.entry_id
       where b.nth <= ${add(options.perPage ?? 1)} and split_part(e.language, '-', 1) = ${add(lang)}
       order by b.rank desc, e.id limit ${add(options.limit ?? 3)}`,
      params,
    );
    return rows.map((r) => ({ entryId: r.entry_id, title: r.title, heading: r.heading, url: r.url, text: r.body, rank: Number(r.rank),
      coverage: r.counted > 0 ? Number(r.held) / Number(r.counted) : 0 }));
  });
}

/** How many passages there are, and how many hold each term: a term few passages hold says most about a question. */
export interface Frequencies {
  passages: number;
  /** Passages holding each term (any of its words or phrases), in the order given. */
  holding: number[];
}

/** Keeps what depends only on the content for as long as it does not change (the content store's search cache). */
export type Memo = <T>(key: string, load: () => Promise<T>) => Promise<T>;

const noMemo: Memo = (_key, load) => load();

/**
 * One query, through the GIN index; kept per set of terms and content version when `memo` is given,
 * since the counts depend only on the terms and the language.
 */
export async function frequencies(db: Db, terms: readonly (readonly string[])[], language = 'en', memo: Memo = noMemo): Promise<Frequencies> {
  const lang = language.split('-')[0] ?? 'en';
  return memo(JSON.stringify(['assistant-frequencies', lang, terms]), async () => {
    const params: unknown[] = [lang];
    // A term the English parser drops entirely (a stop word) counts as held everywhere.
    const counts = terms.map((alternatives, i) => {
      const q = alternatives.map((a) => {
        params.push(a);
        return `phraseto_tsquery('english', $${params.length})`;
      }).join(' || ');
      return `(case when numnode(${q}) = 0 then null else (select count(*) from assistant_passages p join content_entries e on e.id = p.entry_id
        where p.vector @@ (${q}) and split_part(e.language, '-', 1) = $1) end)::int as t${i}`;
    });
    const [row] = await db.query<Record<string, number | null>>(
      `select (select count(*) from assistant_passages p join content_entries e on e.id = p.entry_id
         where split_part(e.language, '-', 1) = $1)::int as total${counts.length > 0 ? `, ${counts.join(', ')}` : ''}`, params);
    const passages = Number(row?.total ?? 0);
    return { passages, holding: terms.map((_, i) => row?.[`t${i}`] ?? passages) };
  });
}
