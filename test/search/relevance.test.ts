import t from 'tap';
import { join } from 'node:path';
import { importContent } from '../../server/content/import.ts';
import { loadJudgements, meanReciprocalRank } from '../../server/search/relevance.ts';
import { testDb, SAMPLE_CONTENT } from '../helpers/build.ts';

t.test('search relevance over the sample content: MRR@10 of the judged queries', async (t) => {
  const db = await testDb(t);
  await importContent(db, SAMPLE_CONTENT);
  const judgements = await loadJudgements(join(import.meta.dirname, '../fixtures/relevance.yaml'));
  t.ok(judgements.length >= 40, `${judgements.length} judged queries`);
  const { mrr, misses } = await meanReciprocalRank(db, judgements);
  t.ok(mrr >= 0.8, `MRR@10 ${mrr.toFixed(3)} is at least 0.8`);
  if (mrr < 0.8) t.comment(misses.map((m) => `${m.rank ?? '-'} ${m.query} -> ${m.got.join(', ')}`).join('\n'));
});
