/**
 * Passages: the sections of every searchable body (split at its h2-h4 headings), each with its
 * page's URL and the heading's anchor, kept in assistant_passages beside the search tables and
 * written in the import's transaction: all of them on a full import, only the changed entries' on
 * an incremental one (their old rows go with the entry rows, on delete cascade).
 */
import type { Document } from '@contentful/rich-text-types';
import type { Queryable } from '../db/driver.ts';
import { headingAnchors } from '../../views/rich-text/rich-text.tsx';
import { headingLevel, textOf } from '../content/rich-text.ts';
import { SEARCHABLE_TYPES } from '../search/documents.ts';
import { mapSteps, runInSlices } from '../content/slices.ts';

/** A section's text beyond this is cut: a passage is something to quote. */
export const PASSAGE_CHARS = 1200;
const BATCH = 400;

export interface Passage {
  entryId: string;
  position: number;
  anchor: string | null;
  heading: string | null;
  text: string;
}

/** The sections of one body: the text before the first heading, then one per heading. */
export function passagesOf(entryId: string, doc: Document, links: Record<string, never> | object = {}): Passage[] {
  const { ids } = headingAnchors(doc, links as never);
  const passages: Passage[] = [];
  let current: Passage = { entryId, position: 0, anchor: null, heading: null, text: '' };
  const flush = () => {
    const text = current.text.replace(/[ \t]+/g, ' ').replace(/\n{2,}/g, '\n').trim();
    if (text || current.heading) passages.push({ ...current, position: passages.length, text: text.slice(0, PASSAGE_CHARS) });
  };
  for (const node of doc.content) {
    const level = headingLevel(node);
    if (level >= 2) {
      flush();
      current = { entryId, position: 0, anchor: ids.get(node as never) ?? null, heading: textOf(node).trim(), text: '' };
      continue;
    }
    const text = textOf(node as never).trim();
    if (text) current.text += `${text}\n`;
  }
  flush();
  return passages;
}

/** What passages are made of: a published, searchable body with a page. */
interface PassageSource {
  id: string;
  type: string;
  published: boolean;
  path: string | null;
  document: { document: Document; links: object } | null;
}

/**
 * Writes the passages of these entries, or of every entry when `ids` is omitted. `entries`, the rows
 * the import has just written (all of them, or those of `ids`), spares reading every body back.
 */
export async function writePassages(tx: Queryable, ids?: string[], entries?: PassageSource[]): Promise<void> {
  if (ids && ids.length === 0) return;
  if (!ids) await tx.query('delete from assistant_passages');
  else await tx.query('delete from assistant_passages where entry_id = any($1::text[])', [ids]);
  const rows = entries
    ? entries.filter((e) => e.published && e.path !== null && e.document !== null && SEARCHABLE_TYPES.includes(e.type))
    : await tx.query<{ id: string; document: { document: Document; links: object } | null }>(
      `select id, document from content_entries
       where published and path is not null and document is not null and type = any($1::text[])
         ${ids ? 'and id = any($2::text[])' : ''}`,
      ids ? [SEARCHABLE_TYPES, ids] : [SEARCHABLE_TYPES],
    );
  // In slices: cutting every body of a large tree into passages takes longer than a request may wait.
  const passages = (await runInSlices(mapSteps(rows, (r) => (r.document ? passagesOf(r.id, r.document.document, r.document.links) : [])))).flat();
  for (let i = 0; i < passages.length; i += BATCH) {
    await tx.query(
      `insert into assistant_passages (entry_id, position, anchor, heading, body, vector)
         select p.entry_id, p.position, p.anchor, p.heading, p.body,
           search_vector_of(e.title, 'B') || search_vector_of(p.heading, 'A') || search_vector_of(p.body, 'D')
         from jsonb_to_recordset($1::jsonb) as p(entry_id text, position integer, anchor text, heading text, body text)
           join content_entries e on e.id = p.entry_id`,
      [JSON.stringify(passages.slice(i, i + BATCH).map((p) => ({
        entry_id: p.entryId, position: p.position, anchor: p.anchor, heading: p.heading, body: p.text,
      })))],
    );
  }
}
