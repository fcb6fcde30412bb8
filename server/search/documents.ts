/**
 * The search table (search_documents): one narrow row per published, searchable entry, with its
 * weighted vectors. Title weighs more than description, description more than body; broad
 * queries rank by the title-and-description vector alone.
 */
import type { Queryable } from '../db/driver.ts';

export const SEARCHABLE_TYPES = ['topic', 'topicSet', 'collection', 'kbArticle'];

/** Replaces the search rows from content_entries; run inside the import's transaction. */
export async function rebuildSearchDocuments(tx: Queryable): Promise<void> {
  await tx.query('delete from search_documents');
  await tx.query(
    `insert into search_documents (id, type, lang, product_name_id, platform, versions, last_published, num_views, search_vector, head_vector)
     select id, type, lang, product_name_id, platform, versions, last_published, num_views, head || body, head
     from (
       select id, type, split_part(language, '-', 1) as lang, product_name_id,
         case when deployment = 'Cloud' then 'cloud' else 'data_center' end as platform, versions, last_published, num_views,
         setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(description, '')), 'B') as head,
         setweight(to_tsvector('english', coalesce(search_text, '')), 'C') as body
       from content_entries
       where published and type = any($1::text[])
     ) as x`,
    [SEARCHABLE_TYPES],
  );
}
