/**
 * Relevance figures (npm run bench:relevance [-- --misses[=N]]): MRR@10, hit@1 and hit@3 of four
 * judged sets, each searched on a fresh in-memory PGlite with its content tree imported:
 *  - sample titles: every published searchable entry of content/ searched by its own title;
 *  - sample judged: test/fixtures/relevance.yaml over content/;
 *  - corpus titles: the same known-item set over test/fixtures/search-corpus/, a help centre of
 *    another vendor in another domain, not written alongside the engine;
 *  - corpus questions: test/fixtures/search-corpus-questions.yaml, reworded questions over it.
 * With --misses, the worst misses of each set (query, expected id, the top 3 it got instead).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { openDb } from '../server/db/driver.ts';
import { migrate } from '../server/db/migrate.ts';
import { importContent } from '../server/content/import.ts';
import { evaluate, loadJudgements, titleJudgements, type Judgement, type RelevanceFigures } from '../server/search/relevance.ts';

const args = process.argv.slice(2);
const missesArg = args.find((a) => a === '--misses' || a.startsWith('--misses='));
const missLimit = missesArg ? Number(missesArg.split('=')[1] ?? 10) || 10 : 0;

interface Corpus {
  name: string;
  dir: string;
  judged?: { name: string; file: string };
}

const corpora: Corpus[] = [
  { name: 'sample', dir: resolve('content'), judged: { name: 'sample judged', file: resolve('test/fixtures/relevance.yaml') } },
  { name: 'corpus', dir: resolve('test/fixtures/search-corpus'), judged: { name: 'corpus questions', file: resolve('test/fixtures/search-corpus-questions.yaml') } },
];

const rows: { set: string; figures: RelevanceFigures; note?: string }[] = [];
for (const c of corpora) {
  if (!existsSync(c.dir)) {
    console.log(`(${c.dir} not found: ${c.name} sets skipped)`);
    continue;
  }
  const db = await openDb({ pgliteDir: 'memory://' });
  try {
    await migrate(db);
    await importContent(db, c.dir);
    const titles = await titleJudgements(db);
    rows.push({ set: `${c.name} titles`, figures: await evaluate(db, titles.judgements),
      note: titles.shared ? `${titles.shared} share a title with another entry: either counts` : undefined });
    if (c.judged && existsSync(c.judged.file)) {
      const judgements: Judgement[] = await loadJudgements(c.judged.file);
      rows.push({ set: c.judged.name, figures: await evaluate(db, judgements) });
    }
  } finally {
    await db.close();
  }
}

const pad = (s: string, n: number) => s.padEnd(n);
const num = (n: number) => n.toFixed(3).padStart(7);
console.log(`${pad('set', 18)} ${'MRR@10'.padStart(7)} ${'hit@1'.padStart(7)} ${'hit@3'.padStart(7)} ${'n'.padStart(5)}`);
for (const r of rows) {
  console.log(`${pad(r.set, 18)} ${num(r.figures.mrr)} ${num(r.figures.hit1)} ${num(r.figures.hit3)} ${String(r.figures.queries).padStart(5)}${r.note ? `   (${r.note})` : ''}`);
}
if (missLimit > 0) {
  for (const r of rows) {
    console.log(`\nworst misses, ${r.set} (${r.figures.misses.length} not first):`);
    for (const m of r.figures.misses.slice(0, missLimit)) {
      console.log(`  ${m.rank === null ? ' -' : String(m.rank).padStart(2)}  ${JSON.stringify(m.query)}  expected ${m.expected}  got ${m.got.join(', ') || '(nothing)'}`);
    }
  }
}
