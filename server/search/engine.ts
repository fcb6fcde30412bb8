/**
 * PostgreSQL full-text search over published documentation (DESIGN 'Storage'): weighted
 * tsvectors in a narrow search table, GIN indexes, websearch_to_tsquery. Each document carries a
 * facet key (its type, language, product, platform and versions), so one grouped count per search
 * gives the total and every facet, and filters become a list of keys. Broad queries rank only the
 * documents whose title or description match; the rest follow newest first. Highlights are made
 * for the returned page only, and a query that finds very little is retried with spelling
 * suggestions from the corpus vocabulary (pg_trgm).
 */
import { deploymentNames, deploymentsOf } from '../content/deployments.ts';
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db/driver.ts';
import { boundQuery } from './bounds.ts';
import { CJK, cjkTsQuery, withoutCjk } from './cjk.ts';
import { markHighlights } from './highlight.ts';
import { NO_SETTINGS, parseQuery, tsQuerySql, type SearchSettings } from './query.ts';
import type { ContentTypeKey, SearchRequest, SearchResponse, SearchResult } from './schemas.ts';

const TYPE_OF: Record<ContentTypeKey, string> = { topic: 'topic', topic_set: 'topicSet', collection: 'collection', kb_article: 'kbArticle' };
const KEY_OF: Record<string, ContentTypeKey> = { topic: 'topic', topicSet: 'topic_set', collection: 'collection', kbArticle: 'kb_article' };

export const SEARCH_SOURCE = 'signpost-postgres-fts';
export const DEFAULT_PAGE_SIZE = 10;
/** Above this many matches a query is broad: only title and description matches are ranked. */
export const RANK_ALL_LIMIT = 1500;
/** How many of a broad query's newest title or description matches are ranked. */
export const BROAD_CANDIDATES = 500;
/** Fewer results than this and a spelling suggestion is tried. */
export const SUGGEST_BELOW = 3;
/** Below this many distinct words a document ranks as if it had this many: short pages gain nothing. */
export const FLOOR_LEXEMES = 80;
/** How much a title's fit (0 to 1) adds to the text rank. */
export const TITLE_WEIGHT = 2;
/** Weights of body (D), description (C), section headings (B) and title (A) in the text rank. */
export const FIELD_WEIGHTS = '{0.2, 0.3, 0.5, 1.0}';
/** How much holding the query's words as a phrase adds to the text rank. */
export const PHRASE_WEIGHT = 1;
const HIGHLIGHT_START = '\u0002';
const HIGHLIGHT_STOP = '\u0003';

/**
 * On PostgreSQL no statement of a search may run longer than this (a search takes milliseconds).
 * PGlite does not honour it (single-threaded WebAssembly: no timer interrupts a statement), so
 * there the bounds on the query itself (bounds.ts, cjk.ts) are what limit a search's cost.
 */
export const SEARCH_STATEMENT_TIMEOUT = '3s';

/**
 * Settings for the queries of one search. Matching a tsvector row by row reads its whole body
 * vector, which the planner does not count: the GIN indexes are always the better way in. Exact
 * bitmaps need some memory; parallel workers only add overhead to queries this short.
 */
const SEARCH_SETTINGS = `set local enable_seqscan = off; set local max_parallel_workers_per_gather = 0; set local work_mem = '32MB';
  set local statement_timeout = '${SEARCH_STATEMENT_TIMEOUT}'`;

/**
 * 'all' needs every word (quotes, or, -word: query.ts); 'any' is the fallback for questions typed
 * in full sentences, where ranking rewards documents matching more of the words.
 */
export type MatchMode = 'all' | 'any';

/** Title matches above this share of the query's words count as matching the title well. */
export const GOOD_TITLE_FIT = 0.5;

/**
 * The tsquery of a search as SQL: the English clauses of the text (query.ts, with the content
 * team's synonyms and stop phrases) joined to the character pairs of its CJK runs (cjk.ts), so
 * every search goes through the GIN indexes and asks for a bounded number of lexemes.
 */
function tsQuery(text: string, mode: MatchMode, settings: SearchSettings, add: (v: unknown) => string) {
  const parsed = parseQuery(withoutCjk(text), settings);
  const english = tsQuerySql(parsed, mode, add);
  const cjk = cjkTsQuery(text, mode === 'all' ? '&' : '|');
  const sql = cjk ? `(${english} ${mode === 'all' ? '&&' : '||'} ${add(cjk.query)}::tsquery)` : english;
  return { sql, positive: parsed.positive };
}

/** What a facet key stands for (a row of search_facet_keys). */
interface FacetKey {
  key: number;
  type: string;
  lang: string;
  product_name_id: string | null;
  /** The deployments its entries are found under, space-separated ('cloud', 'data_center' or both: server/search/documents.ts). */
  platform: string;
  versions: string[];
}

type Platform = 'cloud' | 'data_center';
const platformsOf = (k: FacetKey) => k.platform.split(' ') as Platform[];

/** The request's filters, each a test on a facet key. */
function filtersOf(request: SearchRequest) {
  const lang = request.language?.split('-')[0];
  const types = new Set((request.facetFilters?.contentTypes ?? []).map((t) => TYPE_OF[t]));
  const products = request.facetFilters?.products ?? [];
  return {
    language: (k: FacetKey) => !lang || k.lang === lang,
    type: (k: FacetKey) => types.size === 0 || types.has(k.type),
    // Any of the chosen products, each in its platform and, when given, one of its versions.
    product: (k: FacetKey) => products.length === 0 || products.some((p) => p.key === k.product_name_id && platformsOf(k).includes(p.platform)
      && (!p.versions || p.versions.length === 0 || p.versions.some((v) => k.versions.includes(v)))),
  };
}

export interface SearchOptions {
  /** Spell-correct queries that find little (default on). */
  suggest?: boolean;
  /**
   * Keeps match counts for a while (the content store's cache): they depend only on the words and
   * the language, so paging, sorting and filtering the same search count nothing again.
   */
  memo?: <T>(key: string, load: () => Promise<T>) => Promise<T>;
  /** Above this many matches a query is broad (default RANK_ALL_LIMIT). */
  rankAllLimit?: number;
  /** How many title or description matches a broad query ranks (default BROAD_CANDIDATES). */
  broadCandidates?: number;
  /**
   * How a broad query finds its other matches, newest first: walking the table newest first, or
   * collecting every match through the indexes and sorting them. Both give the same results; by
   * default the cheaper for how dense the matches are.
   */
  broadRest?: 'walk' | 'collect';
}

export async function search(db: Db, request: SearchRequest, options: SearchOptions = {}): Promise<SearchResponse> {
  return db.transaction(async (tx) => {
    await tx.exec(SEARCH_SETTINGS);
    const memo = options.memo ?? ((_key, load) => load());
    // Both change only with an import.
    const { keys, documents, names, deploymentNames: labels, settings } = await memo('search-keys', async () => ({
      keys: await tx.query<FacetKey>('select key, type, lang, product_name_id, platform, versions from search_facet_keys'),
      documents: (await tx.query<{ n: number }>('select count(*)::int as n from search_documents'))[0]?.n ?? 0,
      names: new Map((await tx.query<{ key: string; name: string }>(
        `select distinct fields->>'productNameId' as key, fields->>'productName' as name from content_entries where type = 'product'`))
        .map((r) => [r.key, r.name])),
      // The site's deployment labels name each edition in result breadcrumbs.
      deploymentNames: deploymentNames(deploymentsOf((await tx.query<{ fields: Record<string, unknown> }>(
        `select fields from content_entries where type = 'metadata' limit 1`))[0]?.fields)),
      settings: await searchSettingsIn(tx),
    }));
    const engine: Engine = {
      db: tx, keys, documents, names, labels, memo, settings,
      rankAllLimit: options.rankAllLimit ?? RANK_ALL_LIMIT, broadCandidates: options.broadCandidates ?? BROAD_CANDIDATES, broadRest: options.broadRest,
    };
    // The engine bounds what it searches for whatever the caller checked (bounds.ts).
    const original = boundQuery(request.query).query;
    let { response, titleFit } = await run(engine, request, original, 'all');
    let searched = original;
    let rewrittenQuery: string | null = null;
    // Spelling fixes when little is found, or when nothing found matches the title words well; a
    // query whose words the corpus all knows is never rewritten (suggest).
    if (options.suggest !== false && (response.pagination.total < SUGGEST_BELOW || titleFit < GOOD_TITLE_FIT) && !CJK.test(original)) {
      const rewritten = await suggest(tx, original, settingsWords(settings));
      if (rewritten && rewritten !== original.toLowerCase()) {
        const second = await run(engine, request, rewritten, 'all');
        const better = second.response.pagination.total > response.pagination.total
          || (second.response.pagination.total > 0 && second.titleFit > titleFit);
        if (better) {
          ({ response, titleFit } = second);
          searched = rewritten;
          rewrittenQuery = rewritten;
        }
      }
    }
    if (response.pagination.total < SUGGEST_BELOW && /\s/.test(searched)) {
      const loose = await run(engine, request, searched, 'any');
      if (loose.response.pagination.total > response.pagination.total) response = loose.response;
    }
    response.metadata.query = { originalQuery: original, rewrittenQuery, searchedQuery: searched };
    return response;
  });
}

interface Engine {
  db: Queryable;
  keys: FacetKey[];
  /** How many documents the search table holds. */
  documents: number;
  /** Product names by product family key. */
  names: Map<string, string>;
  /** The site's deployment labels. */
  labels: { cloud: string; dataCenter: string };
  memo: NonNullable<SearchOptions['memo']>;
  /** The content team's synonyms and stop phrases (search.yaml). */
  settings: SearchSettings;
  rankAllLimit: number;
  broadCandidates: number;
  broadRest: SearchOptions['broadRest'];
}

async function run(engine: Engine, request: SearchRequest, text: string, mode: MatchMode): Promise<{ response: SearchResponse; titleFit: number }> {
  const { db, keys, documents, names, labels } = engine;
  const from = request.pagination?.from ?? 0;
  const size = request.pagination?.size ?? DEFAULT_PAGE_SIZE;
  const sort = request.sort?.by ?? 'relevance';
  const cjk = CJK.test(text);
  const filters = filtersOf(request);

  // The query once as a tsquery (and the lexemes of the words asked for, which titles are compared
  // with); every statement below takes it as $1. It changes only with the text and an import.
  const { tsquery, words, phrase } = await engine.memo(JSON.stringify(['tsquery', text, mode]), async () => {
    const params: unknown[] = [];
    const add = (v: unknown) => `$${params.push(v)}`;
    const { sql, positive } = tsQuery(text, mode, engine.settings, add);
    const positiveParam = add(positive);
    const [row] = await db.query<{ tsquery: string; words: string[]; phrase: string }>(
      `select (${sql})::text as tsquery, tsvector_to_array(to_tsvector('english', ${positiveParam}::text)) as words,
         phraseto_tsquery('english', ${positiveParam}::text)::text as phrase`, params);
    return { tsquery: row?.tsquery ?? '', words: row?.words ?? [], phrase: row?.phrase ?? '' };
  });

  // Matches per facet key, for the words only; the language and every filter are applied on the keys.
  // A one-word query for a frequent word reads the counts kept for it instead of visiting every match.
  const languageKeys = keys.filter(filters.language);
  const counts = tsquery === '' ? [] : await engine.memo(JSON.stringify(['counts', tsquery]), async () => {
    const rows = await db.query<{ key: number; count: number }>(
      `with query as (select $1::tsquery as q),
           kept as (
             select c.facet_key as key, c.count from search_term_counts c, query
             where numnode(query.q) = 1 and c.lexeme = trim(both '''' from query.q::text))
         select key, count from kept
         union all
         select d.facet_key, count(*)::int from search_documents d, query
         where d.search_vector @@ query.q and not exists (select 1 from kept)
         group by 1`,
    [tsquery]);
    return rows.map((r): [number, number] => [r.key, r.count]);
  });
  const countOf = new Map(counts);
  const kept = languageKeys.filter((k) => filters.type(k) && filters.product(k));
  const total = kept.reduce((sum, k) => sum + (countOf.get(k.key) ?? 0), 0);

  const params: unknown[] = [tsquery];
  const add = (v: unknown) => `$${params.push(v)}`;
  const q = '$1::tsquery';
  const match = `d.search_vector @@ ${q}`;
  const filtered = kept.length < keys.length ? ` and d.facet_key = any(${add(kept.map((k) => k.key))}::int[])` : '';
  const where = `${match}${filtered}`;
  // Overview pages (collections, topic sets) gather their children's words; the page itself answers better.
  const overviews = keys.filter((k) => k.type === 'collection' || k.type === 'topicSet').map((k) => k.key);
  // Trust (helpful answers, views) and freshness (halves over two years) lift the text rank.
  // Double precision throughout: numeric arithmetic costs several times more per row.
  const lift = (alias: string) => `(case when ${alias}.facet_key = any(${add(overviews)}::int[]) then 0.6::float8 else 1::float8 end)
    * (1 + 0.15::float8 * ln(1 + coalesce(s.helpful_count, 0)::float8) + 0.03::float8 * ln(1 + coalesce(s.num_views, ${alias}.num_views)::float8))
    * (1 / (1 + greatest(0, date_part('epoch', now() - coalesce(${alias}.last_published, now()))) / ${2 * 365 * 86400}::float8))`;
  // How a title matches the words asked for (docs/ 'Search'): coverage is the share of the query's
  // words in the title, precision the share of the title's words in the query; both 1 is an exact title.
  const wordsParam = add(words);
  const titleMatch = (alias: string) => `left join lateral (
      select count(*) filter (where w = any(${wordsParam}::text[]))::float8 / greatest(cardinality(${wordsParam}::text[]), 1) as coverage,
        count(*) filter (where w = any(${wordsParam}::text[]))::float8 / greatest(count(*), 1) as precision
      from unnest(tsvector_to_array(ts_filter(${alias}.head_vector, '{a}'))) as w) as t on true`;
  const exact = `(t.coverage >= 1 and t.precision >= 1)`;
  const titleScore = `(t.coverage * t.coverage * t.precision)`;
  const limit = `limit ${Number(size)} offset ${Number(from)}`;
  let page: { id: string; coverage: number | null }[] = [];
  if (total === 0 || from >= total) {
    page = [];
  } else if (sort === 'last_published') {
    page = await db.query(`select d.id, t.coverage from search_documents d ${titleMatch('d')} where ${where}
      order by d.last_published desc nulls last, d.id ${limit}`, params);
  } else if (total > engine.rankAllLimit) {
    // Broad: the newest documents whose title, headings or description match are ranked; then every
    // other match, newest first. A head match is a match of the whole document unless the query
    // excludes words.
    const excludes = tsquery.includes('!');
    const head = `d.head_vector @@ ${q}${excludes ? ` and ${match}` : ''}${filtered}`;
    const depth = Number(from) + Number(size);
    // The rest, newest first, is found by walking the table newest first while matches are dense.
    // While they are sparse (a rarer word, a filter) that walk reads the vectors of many documents
    // that do not match before it has enough; collecting every match through the indexes and sorting
    // them costs about one row per match. The walk reads about (depth + candidates) / share rows.
    const sparse = engine.broadRest ? engine.broadRest === 'collect' : total * total < (depth + engine.broadCandidates) * documents;
    if (sparse) await db.exec('set local enable_indexscan = off');
    page = await db.query(
      `with candidates as materialized (
         select d.id, d.facet_key, d.num_views, d.last_published, d.head_vector from search_documents d
         where ${head} order by d.last_published desc nulls last, d.id limit ${Number(engine.broadCandidates)})
       (select c.id, t.coverage, ${exact}::int as exact,
           (1 + ts_rank(c.head_vector, ${q}) + ${TITLE_WEIGHT} * ${titleScore}) * ${lift('c')} as score, c.last_published
          from candidates c left join entry_stats s on s.entry_id = c.id ${titleMatch('c')}
         order by exact desc, score desc, c.last_published desc nulls last, c.id limit ${depth})
       union all
       (select d.id, null, 0, 0, d.last_published from search_documents d
         where ${where} and d.id not in (select id from candidates)
         order by d.last_published desc nulls last, d.id limit ${depth})
       order by 3 desc, 4 desc, 5 desc nulls last, 1 ${limit}`,
      params,
    );
    if (sparse) await db.exec('set local enable_indexscan = on');
  } else {
    // Text rank without length normalisation (ts_rank and, for proximity, cover density), divided
    // by the log of the document's length floored at FLOOR_LEXEMES, so an empty or near-empty page
    // gains nothing from being short; the title's fit is added and exact titles come first.
    const weights = `'${FIELD_WEIGHTS}'::float4[]`;
    // In 'any' mode a document holding more of the query's words ranks higher: the share it holds, squared.
    const coordination = mode === 'any' && words.length > 1
      ? ` * power((length(d.search_vector) - length(ts_delete(d.search_vector, ${wordsParam}::text[])))::float8 / ${words.length}, 2)` : '';
    const textRank = `((ts_rank(${weights}, d.search_vector, ${q}, 0) + ts_rank_cd(${weights}, d.search_vector, ${q}, 0))
      / (1 + ln(greatest(length(d.search_vector), ${FLOOR_LEXEMES})::float8))${coordination})`;
    // The words asked for, in their order, side by side.
    const phraseBonus = words.length > 1 && phrase ? ` + ${PHRASE_WEIGHT} * (d.search_vector @@ ${add(phrase)}::tsquery)::int` : '';
    page = await db.query(
      `select d.id, t.coverage from search_documents d left join entry_stats s on s.entry_id = d.id ${titleMatch('d')}
       where ${where}
       order by ${exact} desc, (${textRank} + ${TITLE_WEIGHT} * ${titleScore}${phraseBonus}) * ${lift('d')} desc, d.last_published desc nulls last, d.id ${limit}`,
      params,
    );
  }
  const ids = page.map((r) => r.id);
  const titleFit = Math.max(0, ...page.map((r) => r.coverage ?? 0));

  // A data center result links to the version the visitor filtered by, when it exists there.
  const wantedVersions = [...new Set((request.facetFilters?.products ?? []).flatMap((p) => p.versions ?? []))];
  // The page's rows, with their marked snippets: the description when it matches, else fragments of
  // the section whose text holds the words best (the import's passages, server/assistant/passages.ts),
  // else of the whole body. Marking a section costs a fraction of marking the body, which the English
  // parser reads whole. Not for CJK text: the English headline parser does not see its pairs. A
  // result whose title does not match the query but one of its section headings does links to that
  // section.
  const highlighting = request.highlights?.enable !== false && !cjk;
  const marks = `StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_STOP}`;
  const rows = ids.length === 0 ? [] : await db.query<PageRow>(
    `select e.id, e.type, e.title, e.description, e.product_name_id, e.deployment, e.fields->'deployments' as deployments, e.versions, e.last_published,
       parent.title as parent_title, coalesce(s.helpful_count, 0)::int as helpful_count,
       coalesce(s.num_views, e.num_views)::int as num_views,
       coalesce((select r.path from content_routes r where r.entry_id = e.id and r.version = any($3::text[])
         order by string_to_array(r.version, '.')::int[] desc limit 1), e.path) as path,
       ${highlighting ? `case when to_tsvector('english', coalesce(e.description, '')) @@ $1::tsquery
         then ts_headline('english', e.description, $1::tsquery, $4)
         else ts_headline('english', coalesce(
           (select p.body from assistant_passages p where p.entry_id = e.id and p.vector @@ $1::tsquery
             order by ts_rank('{1, 0, 0, 0}', p.vector, $1::tsquery) desc, p.position limit 1),
           e.search_text, e.description, ''), $1::tsquery, $5)
       end` : 'null::text'} as snippet,
       section.id as section_id, section.text as section_title
     from content_entries e left join entry_stats s on s.entry_id = e.id
       left join content_entries parent on parent.id = e.fields->>'parentId'
       left join lateral (
         select h->>'id' as id, h->>'text' as text
         from jsonb_array_elements(case when jsonb_typeof(e.fields->'tableOfContents') = 'array' then e.fields->'tableOfContents' else '[]'::jsonb end)
           with ordinality as x(h, n)
         where numnode($1::tsquery) > 0 and not (to_tsvector('english', coalesce(e.title, '')) @@ $1::tsquery)
           and to_tsvector('english', h->>'text') @@ $1::tsquery
         order by ts_rank(to_tsvector('english', h->>'text'), $1::tsquery, 1) desc, n limit 1) as section on true
     where e.id = any($2::text[])`,
    [tsquery, ids, wantedVersions, ...(highlighting ? [`${marks}, HighlightAll=true`, `${marks}, MaxFragments=2, MaxWords=28, MinWords=12, FragmentDelimiter=" … "`] : [])],
  );
  const highlights = new Map(rows.filter((r) => r.snippet !== null).map((r) => [r.id, markHighlights(r.snippet ?? '', HIGHLIGHT_START, HIGHLIGHT_STOP)]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.map((id) => byId.get(id)).filter((r): r is PageRow => r !== undefined);
  const facetsOn = request.facets?.enable !== false;

  const results: SearchResult[] = ordered.map((r) => {
    const platform = r.deployment === 'Cloud' ? 'cloud' as const : 'data_center' as const;
    const description = r.description ?? '';
    const result: SearchResult = {
      content: {
        contentAri: `ari:cloud:help::${KEY_OF[r.type] ?? r.type}/${r.id}`,
        title: r.title ?? r.id,
        description,
        url: r.section_id ? `${r.path ?? '/'}#${encodeURIComponent(r.section_id)}` : r.path ?? '/',
        contentType: KEY_OF[r.type] ?? 'topic',
        ...(r.section_id ? { section: { id: r.section_id, title: r.section_title ?? '' } } : {}),
        // Its own deployment first, then any other a KB article names.
        products: r.product_name_id
          ? [...new Set([platform, ...(Array.isArray(r.deployments) ? r.deployments.filter((d): d is Platform => d === 'cloud' || d === 'data_center') : [])])]
            .map((p) => ({ key: r.product_name_id as string, name: names.get(r.product_name_id as string) ?? (r.product_name_id as string), platform: p, versions: p === 'data_center' ? r.versions : [] }))
          : [],
        breadcrumbs: [
          ...(r.product_name_id ? [`${names.get(r.product_name_id) ?? r.product_name_id} ${platform === 'cloud' ? labels.cloud : labels.dataCenter}`] : []),
          ...(r.parent_title ? [r.parent_title] : []),
        ],
        metadata: {
          lastPublishedAt: r.last_published ? new Date(r.last_published).toISOString() : null,
          trustFactors: { helpfulCount: r.helpful_count, numViews: r.num_views },
        },
      },
    };
    const marked = highlights.get(r.id);
    if (request.highlights?.enable !== false) result.highlights = { description: marked ?? markHighlights(description) };
    return result;
  });

  const response: SearchResponse = {
    queryId: randomUUID(),
    results,
    facets: facetsOn ? facetsFrom(languageKeys, countOf, filters, names) : { contentTypes: [], products: [] },
    pagination: { from, size, total },
    metadata: { query: { originalQuery: text, rewrittenQuery: null, searchedQuery: text }, sort: { by: sort }, source: SEARCH_SOURCE },
  };
  return { response, titleFit };
}

/** The content team's search settings stored in a database (none when the content has none). */
export async function searchSettingsIn(db: Queryable): Promise<SearchSettings> {
  return settingsOf((await db.query<{ fields: Partial<SearchSettings> }>(
    `select fields from content_entries where type = 'searchSettings' limit 1`))[0]?.fields);
}

/** The content team's settings as stored (the import validated them); none when there are none. */
function settingsOf(fields: Partial<SearchSettings> | undefined): SearchSettings {
  if (!fields) return NO_SETTINGS;
  return {
    synonyms: Array.isArray(fields.synonyms) ? fields.synonyms.filter(Array.isArray) : [],
    stopPhrases: Array.isArray(fields.stopPhrases) ? fields.stopPhrases.filter((p) => typeof p === 'string') : [],
  };
}

interface PageRow {
  id: string;
  type: string;
  title: string | null;
  description: string | null;
  path: string | null;
  product_name_id: string | null;
  deployment: string | null;
  /** The deployments a KB article names (fields.deployments, derived at import). */
  deployments: unknown;
  versions: string[];
  last_published: Date | null;
  parent_title: string | null;
  section_id: string | null;
  section_title: string | null;
  helpful_count: number;
  num_views: number;
  snippet: string | null;
}

/** Facets over the whole match set; each dimension ignores its own filter so the other choices stay visible. */
function facetsFrom(keys: FacetKey[], countOf: Map<number, number>, filters: ReturnType<typeof filtersOf>, names: Map<string, string>): SearchResponse['facets'] {
  const types = new Map<string, number>();
  const products = new Map<string, { key: string; platform: 'cloud' | 'data_center'; count: number; versions: Set<string> }>();
  for (const k of keys) {
    const count = countOf.get(k.key) ?? 0;
    if (count === 0) continue;
    if (filters.product(k)) types.set(k.type, (types.get(k.type) ?? 0) + count);
    // An entry of several deployments counts under each of them.
    if (filters.type(k) && k.product_name_id) for (const platform of platformsOf(k)) {
      const id = `${platform}\0${k.product_name_id}`;
      const product = products.get(id) ?? { key: k.product_name_id, platform, count: 0, versions: new Set<string>() };
      product.count += count;
      for (const v of k.versions) product.versions.add(v);
      products.set(id, product);
    }
  }
  const platforms = (['cloud', 'data_center'] as const).map((platform) => ({
    platform,
    products: [...products.values()].filter((p) => p.platform === platform)
      .map((p) => ({ key: p.key, name: names.get(p.key) ?? p.key, count: p.count, versions: [...p.versions].sort(versionOrder) }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
  })).filter((p) => p.products.length > 0);
  return {
    contentTypes: [...types].map(([type, count]) => ({ key: KEY_OF[type] ?? 'topic', count })).sort((a, b) => b.count - a.count),
    products: platforms,
  };
}

function versionOrder(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pb[i] ?? 0) - (pa[i] ?? 0);
  return 0;
}

/** The words of the content team's synonyms and stop phrases: words a query may use as they are. */
function settingsWords(settings: SearchSettings): Set<string> {
  return new Set([...settings.synonyms.flat(), ...settings.stopPhrases].flatMap((term) => term.toLowerCase().split(/\s+/)));
}

/**
 * The spelling suggestion for a query, as the search would try it (suggest, with the content team's
 * words known), for a page that offers it rather than searching it; null when there is none.
 */
export async function spellingSuggestion(db: Queryable, text: string): Promise<string | null> {
  const query = boundQuery(text).query;
  if (!query || CJK.test(query)) return null;
  const settings = await searchSettingsIn(db);
  const suggested = await suggest(db, query, settingsWords(settings));
  return suggested && suggested !== query.toLowerCase() ? suggested : null;
}

/**
 * Each word the corpus does not know (nor the content team's synonyms and stop phrases) is replaced
 * by its closest known word, if one is close enough.
 */
export async function suggest(db: Queryable, text: string, alsoKnown: Set<string> = new Set()): Promise<string | null> {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 8) return null;
  let changed = false;
  const out: string[] = [];
  for (const word of words) {
    if (!/^[a-z][a-z'-]{2,}$/.test(word) || alsoKnown.has(word)) {
      out.push(word);
      continue;
    }
    const [known] = await db.query<{ word: string }>('select word from search_vocabulary where word = $1', [word]);
    if (known) {
      out.push(word);
      continue;
    }
    const [close] = await db.query<{ word: string }>(
      `select word from search_vocabulary where word % $1 and similarity(word, $1) >= 0.45
       order by similarity(word, $1) desc, frequency desc limit 1`, [word]);
    if (close) changed = true;
    out.push(close?.word ?? word);
  }
  return changed ? out.join(' ') : null;
}
