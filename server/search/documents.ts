/**
 * The search tables: search_documents holds one narrow row per published, searchable entry with
 * its weighted vectors (title A, section headings B, description C, body D; broad queries rank by
 * the vector of title, headings and description alone) and its facet key; search_facet_keys names what each key stands for.
 * search_vector_of (migration 6) gives a text's English words and its Japanese and Chinese
 * character pairs (cjk.ts).
 */
import type { Queryable } from '../db/driver.ts';

export const SEARCHABLE_TYPES = ['topic', 'topicSet', 'collection', 'kbArticle'];
/** Words in at least this many documents have their counts kept in search_term_counts. */
export const FREQUENT_TERM = 1500;

/** The section headings of an entry's fields (its table of contents) as one text. */
const headingsOf = (fields: string) => `(select string_agg(h->>'text', ' ; ') from jsonb_array_elements(
  case when jsonb_typeof(${fields}->'tableOfContents') = 'array' then ${fields}->'tableOfContents' else '[]'::jsonb end) as h)`;
/**
 * The deployments (spec §9 values) an entry is found under, sorted and space-separated: its product's,
 * and those a KB article names in productVersions (`fields.deployments`, derived at import), so an article
 * for both editions is one key with 'cloud data_center'.
 */
const platformsOf = (e: string) => `(select string_agg(p, ' ' order by p) from (
    select case when ${e}.deployment = 'Cloud' then 'cloud' else 'data_center' end
    union select jsonb_array_elements_text(case when jsonb_typeof(${e}.fields->'deployments') = 'array' then ${e}.fields->'deployments' else '[]'::jsonb end)
  ) as covered(p))`;

/** Title above headings above description: what broad queries rank by. */
const headVector = (title: string, headings: string, description: string) =>
  `search_vector_of(${title}, 'A') || search_vector_of(${headings}, 'B') || search_vector_of(${description}, 'C')`;
const BODY_VECTOR = `search_vector_of(search_text, 'D')`;

/** Replaces the search rows from content_entries; run inside the import's transaction. */
export async function rebuildSearchDocuments(tx: Queryable, frequentTerm = FREQUENT_TERM): Promise<void> {
  await tx.query('delete from search_term_counts');
  await tx.query('delete from search_documents');
  await tx.query('delete from search_facet_keys');
  await tx.query(
    `create temporary table searchable on commit drop as
       select id, type, split_part(language, '-', 1) as lang, product_name_id,
         ${platformsOf('e')} as platform, versions, last_published, num_views,
         title, description, search_text,
         ${headingsOf('fields')} as headings
       from content_entries e
       where published and type = any($1::text[])`,
    [SEARCHABLE_TYPES],
  );
  await tx.query(
    `insert into search_facet_keys (key, type, lang, product_name_id, platform, versions)
       select row_number() over (order by type, lang, product_name_id, platform, versions), *
       from (select distinct type, lang, product_name_id, platform, versions from searchable) as combinations`,
  );
  await tx.query(
    `insert into search_documents (id, facet_key, last_published, num_views, search_vector, head_vector)
       select id, key, last_published, num_views, head || ${BODY_VECTOR}, head
       from (
         select s.id, k.key, s.last_published, s.num_views, s.search_text,
           ${headVector('s.title', 's.headings', 's.description')} as head
         from searchable s join search_facet_keys k
           on k.type = s.type and k.lang = s.lang and coalesce(k.product_name_id, '') = coalesce(s.product_name_id, '')
           and k.platform = s.platform and k.versions = s.versions
       ) as x
       -- Stored newest first, the order newest-first scans read them in.
       order by last_published desc nulls last, id`,
  );
  await tx.query('drop table searchable');
  await tx.query('delete from search_term_counts');
  await tx.query(
    `insert into search_term_counts (lexeme, facet_key, count)
       select lexeme, facet_key, count from (
         select u.lexeme, d.facet_key, count(*)::int as count, sum(count(*)) over (partition by u.lexeme) as documents
         from search_documents d, unnest(tsvector_to_array(d.search_vector)) as u(lexeme)
         group by 1, 2
       ) as per_key
       where documents >= $1`,
    [frequentTerm],
  );
}

/**
 * Writes the search rows of only these entries (changed, added or removed, already written to
 * content_entries), in the import's transaction, leaving the tables as rebuildSearchDocuments would:
 * the facet keys are renumbered by a rebuild when a combination appears or its last document goes,
 * and the kept counts of frequent words follow the documents that changed: a word that falls below
 * the threshold loses its counts, one that reaches it is counted from the index.
 */
export async function updateSearchDocuments(tx: Queryable, ids: string[], frequentTerm = FREQUENT_TERM): Promise<void> {
  if (ids.length === 0) return;
  const oldKeys = await tx.query<{ facet_key: number }>(
    'select distinct facet_key from search_documents where id = any($1::text[])', [ids]);
  await tx.query(
    `create temporary table search_delta on commit drop as
       select u.lexeme, d.facet_key, -count(*)::int as n
       from search_documents d, unnest(tsvector_to_array(d.search_vector)) as u(lexeme)
       where d.id = any($1::text[]) group by 1, 2`,
    [ids],
  );
  await tx.query('delete from search_documents where id = any($1::text[])', [ids]);
  const searchable = await tx.query<{ id: string; key: number | null }>(
    `select e.id, k.key from content_entries e left join search_facet_keys k
       on k.type = e.type and k.lang = split_part(e.language, '-', 1)
       and coalesce(k.product_name_id, '') = coalesce(e.product_name_id, '')
       and k.platform = ${platformsOf('e')} and k.versions = e.versions
     where e.id = any($1::text[]) and e.published and e.type = any($2::text[])`,
    [ids, SEARCHABLE_TYPES],
  );
  const rebuild = async () => {
    await tx.query('drop table search_delta');
    await rebuildSearchDocuments(tx, frequentTerm);
  };
  // A combination no key stands for yet: the keys are numbered again, as a full import numbers them.
  if (searchable.some((r) => r.key === null)) return rebuild();
  await tx.query(
    `insert into search_documents (id, facet_key, last_published, num_views, search_vector, head_vector)
       select id, key, last_published, num_views, head || ${BODY_VECTOR}, head
       from (
         select e.id, x.key, e.last_published, e.num_views, e.search_text,
           ${headVector('e.title', headingsOf('e.fields'), 'e.description')} as head
         from content_entries e join jsonb_to_recordset($1::jsonb) as x(id text, key integer) on x.id = e.id
       ) as rows`,
    [JSON.stringify(searchable)],
  );
  // A key whose last document went: likewise.
  const unused = await tx.query(
    `select 1 from unnest($1::int[]) as k(key) where not exists (select 1 from search_documents d where d.facet_key = k.key) limit 1`,
    [oldKeys.map((k) => k.facet_key)],
  );
  if (unused.length > 0) return rebuild();
  await tx.query(
    `insert into search_delta (lexeme, facet_key, n)
       select u.lexeme, d.facet_key, count(*)::int
       from search_documents d, unnest(tsvector_to_array(d.search_vector)) as u(lexeme)
       where d.id = any($1::text[]) group by 1, 2`,
    [ids],
  );
  await tx.query(
    `create temporary table search_change on commit drop as
       select c.lexeme, c.facet_key, c.n, exists (select 1 from search_term_counts t where t.lexeme = c.lexeme) as kept
       from (select lexeme, facet_key, sum(n)::int as n from search_delta group by 1, 2 having sum(n) <> 0) as c`,
  );
  // Words counted already: their counts move by the change; a word now under the threshold is dropped.
  await tx.query(
    `insert into search_term_counts (lexeme, facet_key, count)
       select lexeme, facet_key, n from search_change where kept
     on conflict (lexeme, facet_key) do update set count = search_term_counts.count + excluded.count`,
  );
  await tx.query(
    `delete from search_term_counts t using (
       select lexeme from search_term_counts where lexeme in (select lexeme from search_change where kept)
       group by lexeme having sum(count) < $1
     ) as fallen where t.lexeme = fallen.lexeme`,
    [frequentTerm],
  );
  await tx.query('delete from search_term_counts where count <= 0 and lexeme in (select lexeme from search_change where kept)');
  // Words not counted that gained documents: counted from the index, kept if they reach the threshold.
  await tx.query(
    `insert into search_term_counts (lexeme, facet_key, count)
       select lexeme, facet_key, count from (
         select w.lexeme, d.facet_key, count(*)::int as count, sum(count(*)) over (partition by w.lexeme) as documents
         from (select lexeme from search_change where not kept group by lexeme having sum(n) > 0) as w
           cross join lateral (
             select facet_key from search_documents d where d.search_vector @@ array_to_tsvector(array[w.lexeme])::text::tsquery
           ) as d
         group by 1, 2
       ) as per_key
       where documents >= $1`,
    [frequentTerm],
  );
  await tx.query('drop table search_change');
  await tx.query('drop table search_delta');
}
