/**
 * How often the extractive answer cites a right page in its top 3, over a checked-in set of
 * questions with the pages that answer them (test/fixtures/assistant-questions.yaml).
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import type { Db } from '../db/driver.ts';
import { answer } from './answer.ts';

export interface QualityQuestion {
  question: string;
  pages: string[];
}

export async function readQuestions(file: string): Promise<QualityQuestion[]> {
  return parse(await readFile(file, 'utf8')) as QualityQuestion[];
}

export interface QualityResult {
  share: number;
  misses: { question: string; cited: string[] }[];
  ms: number[];
}

export async function measureQuality(db: Db, questions: QualityQuestion[]): Promise<QualityResult> {
  const misses: QualityResult['misses'] = [];
  const ms: number[] = [];
  for (const q of questions) {
    const t0 = performance.now();
    const a = await answer(db, q.question);
    ms.push(performance.now() - t0);
    const cited = a.citations.slice(0, 3).map((c) => c.url.split('#')[0] as string);
    if (!cited.some((url) => q.pages.includes(url))) misses.push({ question: q.question, cited });
  }
  return { share: (questions.length - misses.length) / questions.length, misses, ms };
}
