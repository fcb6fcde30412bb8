/**
 * The second and third content trees and their judged sets (bench:assistant's second and third blocks,
 * the third held out from tuning): each tree imports, and
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

const fixture = (name: string) => join(import.meta.dirname, '../fixtures', name);
/** Each tree, its judged set, and the fewest answerable and unanswerable questions and topics it must have. */
const TREES = [
  { name: 'second', tree: fixture('assistant-second'), judged: fixture('assistant-judged-second.yaml'), answerable: 20, unanswerable: 12, topics: 20 },
  { name: 'third', tree: fixture('assistant-third'), judged: fixture('assistant-judged-third.yaml'), answerable: 10, unanswerable: 6, topics: 9 },
];
const plain = (text: string) => text.replace(/\*\*/g, '').replace(/\s+/g, ' ').toLowerCase();

for (const { name, tree, judged, answerable, unanswerable, topics } of TREES) {
  t.test(`the ${name} tree checks with no error; its only warnings are the source's own links to missing headings`, async (t) => {
    const { problems, warnings } = await checkContent(tree);
    t.same(problems, []);
    t.same(warnings.filter((w) => !/has no heading or anchor/.test(w.reason)), []);
  });

  t.test(`the ${name} judged set is well formed and every key is in the text of the imported tree`, async (t) => {
    const set = await readJudged(judged);
    t.ok(set.answerable.length >= answerable && set.unanswerable.length >= unanswerable, `${set.answerable.length} answerable, ${set.unanswerable.length} unanswerable`);
    t.same(set.answerable.filter((a) => !a.q || !a.key || !a.kind), [], 'every answerable question has its kind and key phrase');
    t.equal(new Set([...set.answerable.map((a) => a.q), ...set.unanswerable]).size, set.answerable.length + set.unanswerable.length, 'no question twice');

    const db = await testDb(t);
    await importContent(db, tree);
    const text = (doc: Document) => doc.content.map((node) => textOf(node)).join('\n');
    const pages = (await db.query<{ document: { document: Document; links: Record<string, { body?: Document }> } }>(
      "select document from content_entries where type = 'topic' and published and document is not null"))
      .map(({ document: d }) => plain([text(d.document), ...Object.values(d.links).flatMap((l) => (l.body ? [text(l.body)] : []))].join('\n')));
    t.ok(pages.length >= topics, `${pages.length} topics`);
    t.same(set.answerable.filter((a) => !pages.some((p) => p.includes(plain(a.key)))).map((a) => a.key), [], 'no key is missing from the pages');
    const passages = (await db.query<{ body: string }>('select body from assistant_passages')).map((r) => plain(r.body));
    for (const a of set.answerable.filter((a) => !passages.some((p) => p.includes(plain(a.key))))) t.comment(`in no passage: ${a.key}`);
  });
}
