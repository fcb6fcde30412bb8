/**
 * How often the extractive answer cites a right page in its top 3, over a checked-in set of
 * questions with the pages that answer them (test/fixtures/assistant-questions.yaml).
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import type { Db } from '../db/driver.ts';
import { answer, candidatesFor, type Answer } from './answer.ts';
import { kindOf, MIN_CONFIDENCE, scoreAll } from './choose.ts';

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

/**
 * A judged set (test/fixtures/assistant-judged.yaml): questions the content answers, each with a phrase
 * the answer's first quote must hold, and questions it cannot answer, which must be refused.
 */
export interface JudgedSet {
  answerable: { q: string; kind?: string; key: string }[];
  unanswerable: string[];
}

export async function readJudged(file: string): Promise<JudgedSet> {
  return parse(await readFile(file, 'utf8')) as JudgedSet;
}

export type Verdict = 'correct' | 'wrong' | 'refused' | 'shown';

const plain = (text: string) => text.replace(/\*\*/g, '').replace(/\s+/g, ' ').toLowerCase();

/**
 * One answer judged: to an answerable question, 'correct' when it answers and its first quote holds the
 * key phrase, 'refused' when it says it found nothing, else 'wrong'; to an unanswerable one (no key),
 * 'refused' is right and anything shown is 'shown'.
 */
export function judge(a: Pick<Answer, 'mode' | 'citations'>, key: string | undefined): Verdict {
  if (a.mode === 'nothing') return 'refused';
  if (key === undefined) return 'shown';
  return plain(a.citations[0]?.quote ?? '').includes(plain(key)) ? 'correct' : 'wrong';
}

export interface JudgedResult {
  answerable: number;
  correct: number;
  refusedAnswerable: number;
  unanswerable: number;
  refused: number;
  shown: number;
  misses: string[];
  /** The questions answered wrongly or refused wrongly, with their key phrases (none for an unanswerable one). */
  failed: { q: string; key?: string }[];
}

export async function measureJudged(db: Db, set: JudgedSet): Promise<JudgedResult> {
  const out: JudgedResult = { answerable: set.answerable.length, correct: 0, refusedAnswerable: 0, unanswerable: set.unanswerable.length, refused: 0, shown: 0, misses: [], failed: [] };
  for (const { q, key } of set.answerable) {
    const a = await answer(db, q);
    const verdict = judge(a, key);
    if (verdict === 'correct') out.correct += 1;
    else {
      if (verdict === 'refused') out.refusedAnswerable += 1;
      out.misses.push(`${verdict}: ${q} -> ${a.citations[0]?.url ?? 'no answer'}`);
      out.failed.push({ q, key });
    }
  }
  for (const q of set.unanswerable) {
    const a = await answer(db, q);
    if (judge(a, undefined) === 'refused') out.refused += 1;
    else { out.shown += 1; out.misses.push(`shown: ${q} -> ${a.citations[0]?.url}`); out.failed.push({ q }); }
  }
  return out;
}

/**
 * Why a question got the answer it got (bench:assistant --explain): its kind, every candidate passage
 * (page, heading, rank, coverage, score, confidence and the sentence it would quote, best first), and
 * which candidates hold the key phrase, if one is given.
 */
export async function explain(db: Db, question: string, key?: string): Promise<string[]> {
  const { retrieved, corpus } = await candidatesFor(db, question);
  const scored = scoreAll(question, retrieved, corpus);
  const holding = (text: string) => key !== undefined && plain(text).includes(plain(key));
  const lines = [`kind ${kindOf(question)}; ${retrieved.length} candidates; refused below confidence ${MIN_CONFIDENCE}`];
  for (const s of scored) {
    const p = s.passage;
    lines.push(`${s.score.toFixed(2)} conf ${s.confidence.toFixed(2)} rank ${p.rank.toFixed(2)} cov ${p.coverage.toFixed(2)} ${p.url}${holding(p.text) ? '  [holds the key]' : ''}`);
    lines.push(`     quote: ${s.quote.slice(0, 160)}${s.quote.length > 160 ? '…' : ''}${holding(s.quote) ? '  [quote holds the key]' : ''}`);
  }
  if (key !== undefined && !retrieved.some((p) => holding(p.text))) lines.push('no candidate holds the key');
  return lines;
}
