/**
 * PostgreSQL full-text search over published documentation (DESIGN 'Storage'): weighted
 * tsvector, GIN index, websearch_to_tsquery. Broad queries rank only the documents whose title or
 * description match; the rest follow newest first. Facets count the whole match set, highlights are
 * made for the returned page only, and a query that finds very little is retried with spelling
 * suggestions from the corpus vocabulary (pg_trgm).
 */
import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/driver.ts';
import { markHighlights } from './highlight.ts';
import type { ContentTypeKey, SearchRequest, SearchResponse, SearchResult } from './schemas.ts';

const TYPE_OF: Record<ContentTypeKey, string> = { topic: 'topic', topic_set: 'topicSet', collection: 'collection', kb_article: 'kbArticle' };
const KEY_OF: Record<string, ContentTypeKey> = { topic: 'topic', topicSet: 'topic_set', collection: 'collection', kbArticle: 'kb_article' };

export const SEARCH_SOURCE = 'signpost-postgres-fts';
export const DEFAULT_PAGE_SIZE = 10;
/** Above this many matches a query is broad: only title and description matches are ranked. */
export const RANK_ALL_LIMIT = 1500;
/** Fewer results than this and a spelling suggestion is tried. */
export const SUGGEST_BELOW = 3;
const HIGHLIGHT_START = '\u0002';
const HIGHLIGHT_STOP = '\u0003';

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/;

interface Plan {
  where: string;
  params: unknown[];
}

/**
 * 'all' needs every word (websearch syntax: quotes, or, -word); 'any' is the fallback for
 * questions typed in full sentences, where ranking rewards documents matching more of the words.
 */
export type MatchMode = 'all' | 'any';

function tsQuery(mode: MatchMode): string {
  return mode === 'all'
    ? `websearch_to_tsquery('english', $1)`
    : `nullif(replace(plainto_tsquery('english', $1)::text, ' & ', ' | '), '')::tsquery`;
}

/** Japanese and Chinese have no word breaks the English parser knows: match the terms as substrings. */
function cjkMatch(text: string, mode: MatchMode, add: (v: unknown) => string): string {
  const terms = text.split(/\s+/).filter(Boolean).map((t) => `%${t.replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
  const one = (p: string) => `(e.title ilike ${p} or e.search_text ilike ${p})`;
  return `($1::text <> '' and (${terms.map((t) => one(add(t))).join(mode === 'all' ? ' and ' : ' or ')}))`;
}

/** Filters shared by every query of one search; $1 is always the query text. */
function plan(request: SearchRequest, text: string, mode: MatchMode, omit?: 'contentTypes' | 'products'): Plan {
  const params: unknown[] = [text];
  const add = (v: unknown) => `$${params.push(v)}`;
  const cjk = CJK.test(text);
  const where = [
    'e.published',
    `e.type = any(${add(Object.values(TYPE_OF))}::text[])`,
    cjk ? cjkMatch(text, mode, add) : `e.search_vector @@ ${tsQuery(mode)}`,
  ];
  if (request.language) where.push(`split_part(e.language, '-', 1) = ${add(request.language.split('-')[0])}`);
  const types = request.facetFilters?.contentTypes;
  if (omit !== 'contentTypes' && types && types.length > 0) where.push(`e.type = any(${add(types.map((t) => TYPE_OF[t]))}::text[])`);
  const products = request.facetFilters?.products;
  if (omit !== 'products' && products && products.length > 0) {
    where.push(`exists (select 1 from jsonb_to_recordset(${add(JSON.stringify(products))}::jsonb) as f(platform text, key text, versions text[])
      where f.key = e.product_name_id
        and f.platform = (case when e.deployment = 'Cloud' then 'cloud' else 'data_center' end)
        and (f.versions is null or cardinality(f.versions) = 0 or e.versions && f.versions))`);
  }
  return { where: where.join(' and '), params };
}

export interface SearchOptions {
  /** Spell-correct queries that find little (default on). */
  suggest?: boolean;
}

export async function search(db: Queryable, request: SearchRequest, options: SearchOptions = {}): Promise<SearchResponse> {
  const original = request.query.trim().replace(/\s+/g, ' ');
  let response = await run(db, request, original, 'all');
  let searched = original;
  let rewrittenQuery: string | null = null;
  if (options.suggest !== false && response.pagination.total < SUGGEST_BELOW && !CJK.test(original)) {
    const rewritten = await suggest(db, original);
    if (rewritten && rewritten !== original.toLowerCase()) {
      const second = await run(db, request, rewritten, 'all');
      if (second.pagination.total > response.pagination.total) {
        response = second;
        searched = rewritten;
        rewrittenQuery = rewritten;
      }
    }
  }
  if (response.pagination.total < SUGGEST_BELOW && /\s/.test(searched)) {
    const loose = await run(db, request, searched, 'any');
    if (loose.pagination.total > response.pagination.total) response = loose;
  }
  response.metadata.query = { originalQuery: original, rewrittenQuery, searchedQuery: searched };
  return response;
}

async function run(db: Queryable, request: SearchRequest, text: string, mode: MatchMode): Promise<SearchResponse> {
  const from = request.pagination?.from ?? 0;
  const size = request.pagination?.size ?? DEFAULT_PAGE_SIZE;
  const sort = request.sort?.by ?? 'relevance';
  const facetsOn = request.facets?.enable !== false;
  const cjk = CJK.test(text);

  const all = plan(request, text, mode);
  // Without a content-type filter the type facet already counts every match: no separate count.
  const facetResult = facetsOn ? await facets(db, request, text, mode) : { contentTypes: [], products: [] };
  const total = facetsOn && !(request.facetFilters?.contentTypes?.length)
    ? facetResult.contentTypes.reduce((sum, c) => sum + c.count, 0)
    : (await db.query<{ total: number }>(`select count(*)::int as total from content_entries e where ${all.where}`, all.params))[0]?.total ?? 0;

  const broad = total > RANK_ALL_LIMIT;
  const q = tsQuery(mode);
  const textRank = cjk
    ? `(case when e.title ilike '%' || $1 || '%' then 2 else 1 end)::real`
    : broad
      ? `(case when e.head_vector @@ ${q} then 1 + ts_rank(e.head_vector, ${q}) else 0 end)`
      : `ts_rank(e.search_vector, ${q}, 1)`;
  // Overview pages (collections, topic sets) gather their children's words; the page itself answers better.
  const kind = `(case when e.type in ('collection', 'topicSet') then 0.6 else 1 end)`;
  // Trust (helpful answers, views) and freshness (halves over two years) lift the text rank.
  const score = `${textRank} * ${kind}
    * (1 + 0.15 * ln(1 + coalesce(s.helpful_count, 0)) + 0.03 * ln(1 + coalesce(s.num_views, e.num_views)))
    * (1 / (1 + greatest(0, extract(epoch from (now() - coalesce(e.last_published, now())))) / (2 * 365 * 86400.0)))`;
  // A data center result links to the version the visitor filtered by, when it exists there.
  const wantedVersions = [...new Set((request.facetFilters?.products ?? []).flatMap((p) => p.versions ?? []))];
  const versionPath = wantedVersions.length > 0
    ? `coalesce((select r.path from content_routes r where r.entry_id = e.id and r.version = any($${all.params.push(wantedVersions)}::text[])
         order by string_to_array(r.version, '.')::int[] desc limit 1), e.path)`
    : 'e.path';
  const order = sort === 'last_published' ? 'e.last_published desc nulls last, e.id' : `score desc, e.last_published desc nulls last, e.id`;
  const page = await db.query<PageRow>(
    `select e.id, e.type, e.title, e.description, ${versionPath} as path, e.product_name_id, e.deployment, e.versions, e.last_published,
       e.fields->>'parentId' as parent_id, coalesce(s.helpful_count, 0)::int as helpful_count,
       coalesce(s.num_views, e.num_views)::int as num_views, ${score} as score
     from content_entries e left join entry_stats s on s.entry_id = e.id
     where ${all.where}
     order by ${order}
     limit ${Number(size)} offset ${Number(from)}`,
    all.params,
  );

  const highlights = request.highlights?.enable !== false && page.length > 0 && !cjk
    ? await highlight(db, page.map((r) => r.id), text, mode)
    : new Map<string, string>();
  const names = await productNames(db, page.map((r) => r.product_name_id).filter((k): k is string => !!k));
  const parents = await titles(db, page.map((r) => r.parent_id).filter((k): k is string => !!k));

  const results: SearchResult[] = page.map((r) => {
    const platform = r.deployment === 'Cloud' ? 'cloud' as const : 'data_center' as const;
    const description = r.description ?? '';
    const result: SearchResult = {
      content: {
        contentAri: `ari:cloud:help::${KEY_OF[r.type] ?? r.type}/${r.id}`,
        title: r.title ?? r.id,
        description,
        url: r.path ?? '/',
        contentType: KEY_OF[r.type] ?? 'topic',
        products: r.product_name_id
          ? [{ key: r.product_name_id, name: names.get(r.product_name_id) ?? r.product_name_id, platform, versions: platform === 'data_center' ? r.versions : [] }]
          : [],
        breadcrumbs: [
          ...(r.product_name_id ? [`${names.get(r.product_name_id) ?? r.product_name_id} ${platform === 'cloud' ? 'Cloud' : 'Data Center'}`] : []),
          ...(r.parent_id && parents.get(r.parent_id) ? [parents.get(r.parent_id) as string] : []),
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

  return {
    queryId: randomUUID(),
    results,
    facets: facetResult,
    pagination: { from, size, total },
    metadata: { query: { originalQuery: text, rewrittenQuery: null, searchedQuery: text }, sort: { by: sort }, source: SEARCH_SOURCE },
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
  versions: string[];
  last_published: Date | null;
  parent_id: string | null;
  helpful_count: number;
  num_views: number;
}

/** Counts over the whole match set; each dimension ignores its own filter so other choices stay visible. */
async function facets(db: Queryable, request: SearchRequest, text: string, mode: MatchMode): Promise<SearchResponse['facets']> {
  const byType = plan(request, text, mode, 'contentTypes');
  const byProduct = plan(request, text, mode, 'products');
  const [types, products] = await Promise.all([
    db.query<{ type: string; count: number }>(
      `select e.type, count(*)::int as count from content_entries e where ${byType.where} group by e.type`, byType.params),
    db.query<{ key: string; platform: 'cloud' | 'data_center'; count: number; versions: string[] }>(
      `select e.product_name_id as key, case when e.deployment = 'Cloud' then 'cloud' else 'data_center' end as platform,
         count(*)::int as count, coalesce(array_agg(distinct v) filter (where v is not null), '{}') as versions
       from content_entries e left join lateral unnest(e.versions) v on true
       where ${byProduct.where} and e.product_name_id is not null
       group by 1, 2`, byProduct.params),
  ]);
  const names = await productNames(db, [...new Set(products.map((p) => p.key))]);
  const platforms = (['cloud', 'data_center'] as const).map((platform) => ({
    platform,
    products: products.filter((p) => p.platform === platform)
      .map((p) => ({ key: p.key, name: names.get(p.key) ?? p.key, count: p.count, versions: p.versions.sort(versionOrder) }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
  })).filter((p) => p.products.length > 0);
  return {
    contentTypes: types.map((t) => ({ key: KEY_OF[t.type] ?? 'topic', count: t.count })).sort((a, b) => b.count - a.count),
    products: platforms,
  };
}

function versionOrder(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pb[i] ?? 0) - (pa[i] ?? 0);
  return 0;
}

/** Marked snippets for the returned page only: the description when it matches, else body fragments. */
async function highlight(db: Queryable, ids: string[], text: string, mode: MatchMode): Promise<Map<string, string>> {
  const opts = `StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_STOP}`;
  const q = tsQuery(mode);
  const rows = await db.query<{ id: string; snippet: string }>(
    `select e.id,
       case when to_tsvector('english', coalesce(e.description, '')) @@ ${q}
         then ts_headline('english', e.description, ${q}, $3)
         else ts_headline('english', coalesce(e.search_text, e.description, ''), ${q}, $4)
       end as snippet
     from content_entries e where e.id = any($2::text[])`,
    [text, ids, `${opts}, HighlightAll=true`, `${opts}, MaxFragments=2, MaxWords=28, MinWords=12, FragmentDelimiter=" … "`],
  );
  return new Map(rows.map((r) => [r.id, markHighlights(r.snippet, HIGHLIGHT_START, HIGHLIGHT_STOP)]));
}

async function productNames(db: Queryable, keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db.query<{ key: string; name: string }>(
    `select distinct fields->>'productNameId' as key, fields->>'productName' as name from content_entries
     where type = 'product' and fields->>'productNameId' = any($1::text[])`, [[...new Set(keys)]]);
  return new Map(rows.map((r) => [r.key, r.name]));
}

async function titles(db: Queryable, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ id: string; title: string }>(`select id, title from content_entries where id = any($1::text[])`, [[...new Set(ids)]]);
  return new Map(rows.map((r) => [r.id, r.title]));
}

/** Each word the corpus does not know is replaced by its closest known word, if one is close enough. */
export async function suggest(db: Queryable, text: string): Promise<string | null> {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 8) return null;
  let changed = false;
  const out: string[] = [];
  for (const word of words) {
    if (!/^[a-z][a-z'-]{2,}$/.test(word)) {
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
