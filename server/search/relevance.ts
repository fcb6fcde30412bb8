/**
 * Relevance measured on a judged query set: mean reciprocal rank of the first expected document
 * within the top 10 (MRR@10), and how often an expected document is first (hit@1) or in the top
 * three (hit@3). Judged sets are hand-written (a YAML list of queries and expected ids) or
 * known-item title sets made from an imported content tree: every published searchable entry's own
 * title as the query, the entry itself as the answer. Shared by the relevance tests and the
 * search and relevance benchmarks.
 */
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import type { Db } from '../db/driver.ts';
import { search } from './engine.ts';

export interface Judgement {
  query: string;
  /** Ids of the entries that answer the query, best first; any of them counts as a hit. */
  expected: string[];
  note?: string;
}

/** One judged query and the ids the search returned for it, best first. */
export interface Ranking {
  query: string;
  expected: string[];
  got: string[];
}

export interface Miss {
  query: string;
  expected: string;
  got: string[];
  /** 1-based rank of the best expected id within the top 10; null when none is there. */
  rank: number | null;
}

export interface RelevanceFigures {
  mrr: number;
  hit1: number;
  hit3: number;
  /** How many judged queries (the former name `queries` is kept for existing callers). */
  queries: number;
  /** Every query whose best answer is not first, worst first (not found, then lowest rank). */
  misses: Miss[];
}

/** How many results a judged query looks at (the @10 of MRR@10). */
export const CUTOFF = 10;

export async function loadJudgements(file: string): Promise<Judgement[]> {
  return parse(await readFile(file, 'utf8')) as Judgement[];
}

/** The search language the results page sends for a term. */
export function languageOf(term: string): string {
  return /[\u3040-\u30ff\u3400-\u9fff]/.test(term) ? 'ja' : 'en';
}

/** 0-based position of the first expected id within the cutoff, or -1. */
function bestRank(r: Ranking): number {
  const ranks = r.expected.map((id) => r.got.slice(0, CUTOFF).indexOf(id)).filter((i) => i >= 0);
  return ranks.length > 0 ? Math.min(...ranks) : -1;
}

/** The figures of a set of rankings: pure arithmetic, no search. An empty set scores zero. */
export function figuresOf(rankings: Ranking[]): RelevanceFigures {
  let rr = 0;
  let hit1 = 0;
  let hit3 = 0;
  const misses: Miss[] = [];
  for (const r of rankings) {
    const best = bestRank(r);
    if (best >= 0) rr += 1 / (best + 1);
    if (best === 0) hit1 += 1;
    if (best >= 0 && best < 3) hit3 += 1;
    if (best !== 0) misses.push({ query: r.query, expected: r.expected[0] ?? '', got: r.got.slice(0, 3), rank: best >= 0 ? best + 1 : null });
  }
  misses.sort((a, b) => (b.rank ?? Infinity) - (a.rank ?? Infinity));
  const n = rankings.length;
  return { mrr: n ? rr / n : 0, hit1: n ? hit1 / n : 0, hit3: n ? hit3 / n : 0, queries: n, misses };
}

/** Runs each judged query through the search as the results page does and keeps the top 10 ids. */
export async function rank(db: Db, judgements: Judgement[]): Promise<Ranking[]> {
  const rankings: Ranking[] = [];
  for (const j of judgements) {
    const res = await search(db, { query: j.query, language: languageOf(j.query), pagination: { from: 0, size: CUTOFF }, facets: { enable: false }, highlights: { enable: false } });
    const got = res.results.map((r) => r.content.contentAri.split('/').pop() ?? '');
    rankings.push({ query: j.query, expected: j.expected, got });
  }
  return rankings;
}

export async function evaluate(db: Db, judgements: Judgement[]): Promise<RelevanceFigures> {
  return figuresOf(await rank(db, judgements));
}

/** MRR@10 of a judged set (with hit@1, hit@3 and the misses); the name existing callers use. */
export const meanReciprocalRank = evaluate;

/** The entry types search returns (and so the entries of a known-item title set). */
export const SEARCHABLE_TYPES = ['topic', 'topicSet', 'collection', 'kbArticle'];

interface TitledEntry {
  id: string;
  type: string;
  published: boolean;
  title: string | null;
}

/**
 * The known-item title set of a content tree: for every published topic, KB article, topic set
 * and collection, its own title as the query and itself as the answer. When entries share a title
 * exactly (the same page in two deployments, say) any of them counts as the answer; `shared`
 * counts the entries whose title another entry also has.
 */
export function titleSetOf(entries: TitledEntry[]): { judgements: Judgement[]; shared: number } {
  const titled = entries.filter((e): e is TitledEntry & { title: string } => e.published && SEARCHABLE_TYPES.includes(e.type) && !!e.title)
    .sort((a, b) => a.id.localeCompare(b.id));
  const byTitle = new Map<string, string[]>();
  for (const e of titled) byTitle.set(e.title, [...(byTitle.get(e.title) ?? []), e.id]);
  const judgements = titled.map((e) => ({ query: e.title, expected: [e.id, ...(byTitle.get(e.title) ?? []).filter((id) => id !== e.id)] }));
  return { judgements, shared: judgements.filter((j) => j.expected.length > 1).length };
}

/** The known-item title set of the content imported into db. */
export async function titleJudgements(db: Db): Promise<{ judgements: Judgement[]; shared: number }> {
  return titleSetOf(await db.query<TitledEntry>('select id, type, published, title from content_entries where type = any($1::text[])', [SEARCHABLE_TYPES]));
}
