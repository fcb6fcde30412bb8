import t from 'tap';
import { figuresOf } from '../../server/search/relevance.ts';

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
