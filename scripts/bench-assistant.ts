/**
 * Assistant figures (npm run bench:assistant [-- <corpus dir>]): imports the corpus (the sample
 * content by default) into an in-memory PGlite, then asks the checked-in questions
 * (test/fixtures/assistant-questions.yaml) of the extractive default, three rounds, and prints how
 * often a right page is cited in the top 3 (sample content only: the questions are about it) and
 * the answer time p50 / p95 (ms); then, on the sample content, the judged set
 * (test/fixtures/assistant-judged.yaml): answered correctly / answerable, refused / unanswerable, and the
 * wrong answers shown to questions the content cannot answer.
 */
import { resolve } from 'node:path';
import { openDb } from '../server/db/driver.ts';
import { migrate } from '../server/db/migrate.ts';
import { importContent } from '../server/content/import.ts';
import { measureJudged, measureQuality, readJudged, readQuestions } from '../server/assistant/quality.ts';

const ROUNDS = 3;
const corpus = resolve(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'content');
const sample = corpus === resolve('content');
const db = await openDb({ pgliteDir: 'memory://' });
try {
  await migrate(db);
  const t0 = performance.now();
  const imported = await importContent(db, corpus, { force: true });
  const [{ n }] = await db.query<{ n: number }>('select count(*)::int as n from assistant_passages') as [{ n: number }];
  console.log(`corpus          ${corpus}: ${imported.entries} entries, ${n} passages (import ${Math.round(performance.now() - t0)} ms)`);
  const questions = await readQuestions(resolve(import.meta.dirname, '../test/fixtures/assistant-questions.yaml'));
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
  if (sample) {
    // The judged set: what the answers say, not only which pages they cite.
    const judged = await measureJudged(db, await readJudged(resolve(import.meta.dirname, '../test/fixtures/assistant-judged.yaml')));
    for (const miss of judged.misses) console.log(`  ${miss}`);
    console.log(`answered correctly    ${judged.correct} / ${judged.answerable} answerable (${judged.refusedAnswerable} refused)`);
    console.log(`refused               ${judged.refused} / ${judged.unanswerable} unanswerable`);
    console.log(`wrong answers shown   ${judged.shown}`);
  }
} finally {
  await db.close();
}
