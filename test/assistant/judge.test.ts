/** The judge of bench:assistant's judged set: what an answer says, not only which page it cites. */
import t from 'tap';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { judge, type JudgedSet } from '../../server/assistant/quality.ts';

const quote = (text: string) => ({ mode: 'extractive' as const, citations: [{ title: 'T', heading: null, url: '/t', quote: text }, { title: 'U', heading: null, url: '/u', quote: 'expire after 72 hours' }] });

t.test('an answer is judged by its first quote', async (t) => {
  t.equal(judge(quote('Approval requests **expire after 72 hours**.'), '72 hours'), 'correct', 'emphasis and case do not matter');
  t.equal(judge(quote('Approval  requests\nexpire after 72   hours.'), 'expire after 72 hours'), 'correct', 'nor line breaks and spaces');
  t.equal(judge(quote('Open the deployment project.'), '72 hours'), 'wrong', 'the key in a later quote is not the answer');
  t.equal(judge({ mode: 'nothing', citations: [] }, '72 hours'), 'refused');
  t.equal(judge({ mode: 'nothing', citations: [] }, undefined), 'refused', 'a refusal is right for a question the content cannot answer');
  t.equal(judge(quote('Anything at all.'), undefined), 'shown', 'anything shown for it is a wrong answer');
});

t.test('the judged set is well formed', async (t) => {
  const set = parse(await readFile(join(import.meta.dirname, '../fixtures/assistant-judged.yaml'), 'utf8')) as JudgedSet;
  t.ok(set.answerable.length >= 15 && set.unanswerable.length >= 10, `${set.answerable.length} answerable, ${set.unanswerable.length} unanswerable`);
  t.same(set.answerable.filter((a) => !a.q || !a.key), [], 'every answerable question has its key phrase');
  t.equal(new Set([...set.answerable.map((a) => a.q), ...set.unanswerable]).size, set.answerable.length + set.unanswerable.length, 'no question twice');
});
