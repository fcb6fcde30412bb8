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
  add: (value: unknown) => string;
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
  return `($1::text <> '' and exists (select 1 from content_entries e where e.id = d.id and (${terms.map((t) => one(add(t))).join(mode === 'all' ? ' and ' : ' or ')})))`;
}

/** The content-type filter as a condition on search_documents d; 'true' when there is none. */
function typeCondition(request: SearchRequest, add: (v: unknown) => string): string {
  const types = request.facetFilters?.contentTypes;
  return types && types.length > 0 ? `d.type = any(${add(types.map((t) => TYPE_OF[t]))}::text[])` : 'true';
}

/** The product filter (any of the chosen products, each in its platform and versions); 'true' when there is none. */
function productCondition(request: SearchRequest, add: (v: unknown) => string): string {
  const products = request.facetFilters?.products;
  if (!products || products.length === 0) return 'true';
  return `(${products.map((p) => {
    const versions = p.versions && p.versions.length > 0 ? ` and d.versions && ${add(p.versions)}::text[]` : '';
    return `(d.product_name_id = ${add(p.key)} and d.platform = ${add(p.platform)}${versions})`;
  }).join(' or ')})`;
}

/** The match and language conditions shared by every query of one search; $1 is always the query text. */
function base(request: SearchRequest, text: string, mode: MatchMode): Plan {
  const params: unknown[] = [text];
  const add = (v: unknown) => `$${params.push(v)}`;
  const where = [CJK.test(text) ? cjkMatch(text, mode, add) : `d.search_vector @@ ${tsQuery(mode)}`];
  if (request.language) where.push(`d.lang = ${add(request.language.split('-')[0])}`);
  return { where: where.join(' and '), params, add };
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

  const counted = facetsOn ? await facets(db, request, text, mode) : undefined;
  const all = base(request, text, mode);
  const where = `${all.where} and ${typeCondition(request, all.add)} and ${productCondition(request, all.add)}`;
  const total = counted?.total
    ?? (await db.query<{ total: number }>(`select count(*)::int as total from search_documents d where ${where}`, all.params))[0]?.total ?? 0;

  const broad = total > RANK_ALL_LIMIT;
  const q = tsQuery(mode);
  // Trust (helpful answers, views) and freshness (halves over two years) lift the text rank;
  // overview pages (collections, topic sets) gather their children's words, so the page itself answers better.
  const lift = `(case when d.type in ('collection', 'topicSet') then 0.6 else 1 end)
    * (1 + 0.15 * ln(1 + coalesce(s.helpful_count, 0)) + 0.03 * ln(1 + coalesce(s.num_views, d.num_views)))
    * (1 / (1 + greatest(0, extract(epoch from (now() - coalesce(d.last_published, now())))) / (2 * 365 * 86400.0)))`;
  const limit = `limit ${Number(size)} offset ${Number(from)}`;
  let page: { id: string }[];
  if (total === 0) {
    page = [];
  } else if (sort === 'last_published') {
    page = await db.query(`select d.id from search_documents d where ${where} order by d.last_published desc nulls last, d.id ${limit}`, all.params);
  } else if (broad && !cjk) {
    // Broad: documents whose title or description match, ranked; then the rest, newest first.
    const depth = Number(from) + Number(size);
    page = await db.query(
      `(select d.id, (1 + ts_rank(d.head_vector, ${q})) * ${lift} as score, d.last_published
          from search_documents d left join entry_stats s on s.entry_id = d.id
         where ${where} and d.head_vector @@ ${q}
         order by score desc, d.last_published desc nulls last, d.id limit ${depth})
       union all
       (select d.id, 0, d.last_published from search_documents d
         where ${where} and not (d.head_vector @@ ${q})
         order by d.last_published desc nulls last, d.id limit ${depth})
       order by 2 desc, 3 desc nulls last, 1 ${limit}`,
      all.params,
    );
  } else {
    const textRank = cjk ? `(case when exists (select 1 from content_entries e where e.id = d.id and e.title ilike '%' || $1 || '%') then 2 else 1 end)::real` : `ts_rank(d.search_vector, ${q}, 1)`;
    page = await db.query(
      `select d.id from search_documents d left join entry_stats s on s.entry_id = d.id where ${where}
       order by ${textRank} * ${lift} desc, d.last_published desc nulls last, d.id ${limit}`,
      all.params,
    );
  }
  const ids = page.map((r) => r.id);

  // A data center result links to the version the visitor filtered by, when it exists there.
  const wantedVersions = [...new Set((request.facetFilters?.products ?? []).flatMap((p) => p.versions ?? []))];
  const [rows, highlights] = await Promise.all([
    ids.length === 0 ? [] : db.query<PageRow>(
      `select e.id, e.type, e.title, e.description, e.product_name_id, e.deployment, e.versions, e.last_published,
         e.fields->>'parentId' as parent_id, coalesce(s.helpful_count, 0)::int as helpful_count,
         coalesce(s.num_views, e.num_views)::int as num_views,
         coalesce((select r.path from content_routes r where r.entry_id = e.id and r.version = any($2::text[])
           order by string_to_array(r.version, '.')::int[] desc limit 1), e.path) as path
       from content_entries e left join entry_stats s on s.entry_id = e.id
       where e.id = any($1::text[])`,
      [ids, wantedVersions],
    ),
    request.highlights?.enable !== false && ids.length > 0 && !cjk ? highlight(db, ids, text, mode) : new Map<string, string>(),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.map((id) => byId.get(id)).filter((r): r is PageRow => r !== undefined);
  const [names, parents] = await Promise.all([
    productNames(db, ordered.map((r) => r.product_name_id).filter((k): k is string => !!k)),
    titles(db, ordered.map((r) => r.parent_id).filter((k): k is string => !!k)),
  ]);

  const results: SearchResult[] = ordered.map((r) => {
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
    facets: counted?.facets ?? { contentTypes: [], products: [] },
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

/**
 * Counts over the whole match set in one pass; each dimension ignores its own filter so the other
 * choices stay visible. The total is the type counts the content-type filter keeps.
 */
async function facets(db: Queryable, request: SearchRequest, text: string, mode: MatchMode): Promise<{ facets: SearchResponse['facets']; total: number }> {
  const all = base(request, text, mode);
  const byProduct = productCondition(request, all.add);
  const byType = typeCondition(request, all.add);
  const rows = await db.query<{ type: string | null; key: string | null; platform: 'cloud' | 'data_center' | null; versions: string[] | null; count: number }>(
    `select d.type, d.product_name_id as key, d.platform, d.versions,
       (case when grouping(d.type) = 0 then count(*) filter (where ${byProduct}) else count(*) filter (where ${byType}) end)::int as count
     from search_documents d where ${all.where}
     group by grouping sets ((d.type), (d.product_name_id, d.platform, d.versions))`,
    all.params,
  );
  const wanted = new Set((request.facetFilters?.contentTypes ?? []).map((t) => TYPE_OF[t]));
  let total = 0;
  const types: { key: ContentTypeKey; count: number }[] = [];
  const products = new Map<string, { key: string; platform: 'cloud' | 'data_center'; count: number; versions: Set<string> }>();
  for (const row of rows) {
    if (row.count === 0) continue;
    if (row.type !== null) {
      types.push({ key: KEY_OF[row.type] ?? 'topic', count: row.count });
      if (wanted.size === 0 || wanted.has(row.type)) total += row.count;
    } else if (row.key !== null && row.platform !== null) {
      const id = `${row.platform}\0${row.key}`;
      const product = products.get(id) ?? { key: row.key, platform: row.platform, count: 0, versions: new Set<string>() };
      product.count += row.count;
      for (const v of row.versions ?? []) product.versions.add(v);
      products.set(id, product);
    }
  }
  const names = await productNames(db, [...new Set([...products.values()].map((p) => p.key))]);
  const platforms = (['cloud', 'data_center'] as const).map((platform) => ({
    platform,
    products: [...products.values()].filter((p) => p.platform === platform)
      .map((p) => ({ key: p.key, name: names.get(p.key) ?? p.key, count: p.count, versions: [...p.versions].sort(versionOrder) }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
  })).filter((p) => p.products.length > 0);
  return { facets: { contentTypes: types.sort((a, b) => b.count - a.count), products: platforms }, total };
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
