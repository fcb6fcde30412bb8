/**
 * Relevance measured on a judged query set: mean reciprocal rank of the first expected document
 * within the top 10 (MRR@10). Shared by the relevance test and the search benchmark.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import type { Db } from '../db/driver.ts';
import { search } from './engine.ts';

export interface Judgement {
  query: string;
  expected: string[];
  note?: string;
}

export async function loadJudgements(file: string): Promise<Judgement[]> {
  return parse(await readFile(file, 'utf8')) as Judgement[];
}

/** The search language the results page sends for a term. */
export function languageOf(term: string): string {
  return /[\u3040-\u30ff\u3400-\u9fff]/.test(term) ? 'ja' : 'en';
}

export async function meanReciprocalRank(db: Db, judgements: Judgement[]) {
  const misses: { query: string; expected: string; got: string[]; rank: number | null }[] = [];
  let sum = 0;
  for (const j of judgements) {
    const res = await search(db, { query: j.query, language: languageOf(j.query), pagination: { from: 0, size: 10 }, facets: { enable: false }, highlights: { enable: false } });
    const ids = res.results.map((r) => r.content.contentAri.split('/').pop() ?? '');
    const ranks = j.expected.map((id) => ids.indexOf(id)).filter((i) => i >= 0);
    const best = ranks.length > 0 ? Math.min(...ranks) : -1;
    // Any judged-relevant document counts; the first listed is the best answer.
    sum += best >= 0 ? 1 / (best + 1) : 0;
    if (best !== 0) misses.push({ query: j.query, expected: j.expected[0] ?? '', got: ids.slice(0, 3), rank: best >= 0 ? best + 1 : null });
  }
  return { mrr: sum / judgements.length, queries: judgements.length, misses };
}
