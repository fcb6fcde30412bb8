/**
 * The second content tree and its judged set (bench:assistant's second block): the tree imports, and
 * the phrase each answerable question's answer must quote is in the text of its imported pages (their
 * callouts included), as the judge reads it. A key in no passage (a callout's text, or text past a
 * section's first PASSAGE_CHARS) is listed: the extractive assistant cannot quote it.
 */
import t from 'tap';
import { join } from 'node:path';
import { checkContent, importContent } from '../../server/content/import.ts';
import { readJudged } from '../../server/assistant/quality.ts';
import { textOf } from '../../server/content/rich-text.ts';
import type { Document } from '@contentful/rich-text-types';
import { testDb } from '../helpers/build.ts';

const TREE = join(import.meta.dirname, '../fixtures/assistant-second');
const JUDGED = join(import.meta.dirname, '../fixtures/assistant-judged-second.yaml');
const plain = (text: string) => text.replace(/\*\*/g, '').replace(/\s+/g, ' ').toLowerCase();

t.test('the second tree checks with no error; its only warnings are the source\'s own links to missing headings', async (t) => {
  const { problems, warnings } = await checkContent(TREE);
  t.same(problems, []);
  t.same(warnings.filter((w) => !/has no heading or anchor/.test(w.reason)), []);
});

t.test('the judged set is well formed and every key is in the text of the imported tree', async (t) => {
  const set = await readJudged(JUDGED);
  t.ok(set.answerable.length >= 20 && set.unanswerable.length >= 12, `${set.answerable.length} answerable, ${set.unanswerable.length} unanswerable`);
  t.same(set.answerable.filter((a) => !a.q || !a.key || !a.kind), [], 'every answerable question has its kind and key phrase');
  t.equal(new Set([...set.answerable.map((a) => a.q), ...set.unanswerable]).size, set.answerable.length + set.unanswerable.length, 'no question twice');

  const db = await testDb(t);
  await importContent(db, TREE);
  const text = (doc: Document) => doc.content.map((node) => textOf(node)).join('\n');
  const pages = (await db.query<{ document: { document: Document; links: Record<string, { body?: Document }> } }>(
    "select document from content_entries where type = 'topic' and published and document is not null"))
    .map(({ document: d }) => plain([text(d.document), ...Object.values(d.links).flatMap((l) => (l.body ? [text(l.body)] : []))].join('\n')));
  t.ok(pages.length >= 20, `${pages.length} topics`);
  t.same(set.answerable.filter((a) => !pages.some((p) => p.includes(plain(a.key)))).map((a) => a.key), [], 'no key is missing from the pages');
  const passages = (await db.query<{ body: string }>('select body from assistant_passages')).map((r) => plain(r.body));
  for (const a of set.answerable.filter((a) => !passages.some((p) => p.includes(plain(a.key))))) t.comment(`in no passage: ${a.key}`);
});
