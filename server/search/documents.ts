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

/** Replaces the search rows from content_entries; run inside the import's transaction. */
export async function rebuildSearchDocuments(tx: Queryable, frequentTerm = FREQUENT_TERM): Promise<void> {
  await tx.query('delete from search_term_counts');
  await tx.query('delete from search_documents');
  await tx.query('delete from search_facet_keys');
  await tx.query(
    `create temporary table searchable on commit drop as
       select id, type, split_part(language, '-', 1) as lang, product_name_id,
         case when deployment = 'Cloud' then 'cloud' else 'data_center' end as platform, versions, last_published, num_views,
         title, description, search_text,
         (select string_agg(h->>'text', ' ; ') from jsonb_array_elements(
           case when jsonb_typeof(fields->'tableOfContents') = 'array' then fields->'tableOfContents' else '[]'::jsonb end) as h) as headings
       from content_entries
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
       select id, key, last_published, num_views, head || search_vector_of(search_text, 'D'), head
       from (
         select s.id, k.key, s.last_published, s.num_views, s.search_text,
           search_vector_of(s.title, 'A') || search_vector_of(s.headings, 'B') || search_vector_of(s.description, 'C') as head
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
