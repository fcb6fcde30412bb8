import t from 'tap';
import { join } from 'node:path';
import { checkContent } from '../../server/content/import.ts';
import { figuresOf, loadJudgements, SEARCHABLE_TYPES, titleSetOf } from '../../server/search/relevance.ts';

const CORPUS = join(import.meta.dirname, '../fixtures/search-corpus');

t.test('MRR@10, hit@1 and hit@3 of a hand-made ranking', async (t) => {
  const f = figuresOf([
    { query: 'first', expected: ['a'], got: ['a', 'b', 'c'] },
    // The second listed answer counts as well as the first.
    { query: 'second', expected: ['x', 'b'], got: ['c', 'b', 'x'] },
    { query: 'fourth', expected: ['d'], got: ['a', 'b', 'c', 'd'] },
    // Beyond the tenth result is not found.
    { query: 'eleventh', expected: ['k'], got: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'] },
    { query: 'nothing', expected: ['z'], got: [] },
  ]);
  t.equal(f.queries, 5);
  t.equal(f.mrr.toFixed(6), ((1 + 1 / 2 + 1 / 4) / 5).toFixed(6));
  t.equal(f.hit1, 1 / 5);
  t.equal(f.hit3, 2 / 5);
  t.same(f.misses.map((m) => [m.query, m.rank]), [['eleventh', null], ['nothing', null], ['fourth', 4], ['second', 2]]);
  t.same(f.misses.find((m) => m.query === 'second')?.got, ['c', 'b', 'x']);
});

t.test('an empty set scores zero', async (t) => {
  t.same(figuresOf([]), { mrr: 0, hit1: 0, hit3: 0, queries: 0, misses: [] });
});

t.test('a known-item title set: one query per published searchable entry, shared titles answered by either', async (t) => {
  const { judgements, shared } = titleSetOf([
    { id: 'b-cloud', type: 'topic', published: true, title: 'Configure health checks' },
    { id: 'a-self-hosted', type: 'topic', published: true, title: 'Configure health checks' },
    { id: 'kb', type: 'kbArticle', published: true, title: 'HTTP 502 Bad Gateway' },
    { id: 'draft', type: 'topic', published: false, title: 'Not yet' },
    { id: 'home', type: 'page', published: true, title: 'Help Center' },
    { id: 'untitled', type: 'collection', published: true, title: null },
  ]);
  t.same(judgements, [
    { query: 'Configure health checks', expected: ['a-self-hosted', 'b-cloud'] },
    { query: 'Configure health checks', expected: ['b-cloud', 'a-self-hosted'] },
    { query: 'HTTP 502 Bad Gateway', expected: ['kb'] },
  ]);
  t.equal(shared, 2);
});

t.test('the search corpus checks with no problems, and every judged id is a published searchable entry', async (t) => {
  // What an import checks before it writes anything (npm run content:check).
  const { plan, problems, warnings } = await checkContent(CORPUS);
  t.same([...problems, ...warnings], [], 'no problems or warnings');
  const entries = new Map(plan.entries.map((e) => [e.id, e]));
  const titles = titleSetOf(plan.entries).judgements;
  t.ok(titles.length >= 150, `${titles.length} known-item titles`);
  const questions = await loadJudgements(join(import.meta.dirname, '../fixtures/search-corpus-questions.yaml'));
  t.ok(questions.length >= 60, `${questions.length} questions`);
  const bad = questions.flatMap((q) => {
    const found: string[] = [];
    if (q.expected.length < 1 || q.expected.length > 3) found.push(`${q.query}: ${q.expected.length} expected ids`);
    for (const id of q.expected) {
      const e = entries.get(id);
      if (!e || !e.published || !SEARCHABLE_TYPES.includes(e.type)) found.push(`${q.query}: ${id} is ${e ? `a ${e.published ? '' : 'unpublished '}${e.type}` : 'not in the corpus'}`);
    }
    return found;
  });
  t.same(bad, [], 'every expected id exists, is published and is searchable');
});
