/**
 * Assistant figures (npm run bench:assistant [-- <corpus dir>]). For each tree (the sample content, the
 * second tree, test/fixtures/assistant-second, and the held-out third, test/fixtures/assistant-third, by
 * default; else the one given), imports it into an
 * in-memory PGlite of its own, then asks the checked-in questions (test/fixtures/assistant-questions.yaml)
 * of the extractive default, three rounds, and prints how often a right page is cited in the top 3
 * (sample content only: the questions are about it) and the answer time p50 / p95 (ms); then, on a tree
 * with a judged set (the sample content: test/fixtures/assistant-judged.yaml; the second tree:
 * test/fixtures/assistant-judged-second.yaml, written from pages the assistant was not written against; the
 * third tree: test/fixtures/assistant-judged-third.yaml, held out from tuning):
 * answered correctly / answerable, refused / unanswerable, and the wrong answers shown to questions the
 * content cannot answer. With --explain, each question judged wrong is followed by its kind and every
 * candidate passage with its score, confidence and the sentence it would quote, marking the key phrase.
 */
import { resolve } from 'node:path';
import { openDb } from '../server/db/driver.ts';
import { migrate } from '../server/db/migrate.ts';
import { importContent } from '../server/content/import.ts';
import { explain, measureJudged, measureQuality, readJudged, readQuestions } from '../server/assistant/quality.ts';

const ROUNDS = 3;
const fixtures = resolve(import.meta.dirname, '../test/fixtures');
const SAMPLE = resolve('content');
const SECOND = resolve(fixtures, 'assistant-second');
/** Held out: scored, never tuned against; a rule that helps the other two and hurts this one is over-fitted. */
const THIRD = resolve(fixtures, 'assistant-third');
/** The judged set of each tree that has one. */
const JUDGED = new Map([[SAMPLE, resolve(fixtures, 'assistant-judged.yaml')], [SECOND, resolve(fixtures, 'assistant-judged-second.yaml')],
  [THIRD, resolve(fixtures, 'assistant-judged-third.yaml')]]);
const LABEL = new Map([[SAMPLE, 'sample content'], [SECOND, 'second tree'], [THIRD, 'third tree (held out)']]);

const explaining = process.argv.includes('--explain');
const given = process.argv.slice(2).find((a) => !a.startsWith('--'));
const trees = given === undefined ? [SAMPLE, SECOND, THIRD] : [resolve(given)];
const questions = await readQuestions(resolve(fixtures, 'assistant-questions.yaml'));

for (const [i, corpus] of trees.entries()) {
  if (i > 0) console.log('');
  console.log(`== ${LABEL.get(corpus) ?? 'corpus'}: ${corpus}`);
  await bench(corpus);
}

async function bench(corpus: string) {
  const sample = corpus === SAMPLE;
  const db = await openDb({ pgliteDir: 'memory://' });
  try {
    await migrate(db);
    const t0 = performance.now();
    const imported = await importContent(db, corpus, { force: true });
    const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from assistant_passages') as [{ n: number }];
    console.log(`corpus          ${imported.entries} entries, ${n} passages (import ${Math.round(performance.now() - t0)} ms)`);
    await measureQuality(db, questions.slice(0, 5)); // warm-up
    const ms: number[] = [];
    let share = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const result = await measureQuality(db, questions);
      ms.push(...result.ms);
      share = result.share;
      if (round === 0 && sample) for (const miss of result.misses) console.log(`  missed: ${miss.question} -> ${miss.cited.join(', ') || 'nothing'}`);
    }
    ms.sort((a, b) => a - b);
    const at = (p: number) => (ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? 0).toFixed(1);
    if (sample) console.log(`right page in top 3   ${(share * 100).toFixed(1)} % of ${questions.length} questions`);
    console.log(`answer time (extractive)   p50 ${at(0.5)} ms   p95 ${at(0.95)} ms   (${ms.length} answers)`);
    const judgedFile = JUDGED.get(corpus);
    if (judgedFile) {
      // The judged set: what the answers say, not only which pages they cite.
      const judged = await measureJudged(db, await readJudged(judgedFile));
      for (const [i, miss] of judged.misses.entries()) {
        console.log(`  ${miss}`);
        const failed = judged.failed[i];
        if (explaining && failed) for (const line of await explain(db, failed.q, failed.key)) console.log(`      ${line}`);
      }
      console.log(`answered correctly    ${judged.correct} / ${judged.answerable} answerable (${judged.refusedAnswerable} refused)`);
      console.log(`refused               ${judged.refused} / ${judged.unanswerable} unanswerable`);
      console.log(`wrong answers shown   ${judged.shown}`);
    }
  } finally {
    await db.close();
  }
}
