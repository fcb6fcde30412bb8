/**
 * The answer engine (issue 16 'The AI assistant'): retrieval over passages, then either the
 * extractive answer (the default: the best passages quoted, each with its page link) or, with a
 * model configured, a generated answer from those passages only, falling back to the extractive
 * one with a notice when the model is unavailable, slow or failing. Every answer cites its pages;
 * one that finds nothing relevant says so and offers the contact form with the question filled in.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/driver.ts';
import { maskEmails } from '../search/highlight.ts';
import type { Gate } from '../http/gate.ts';
import { generate, GenerationError, type ModelConfig } from './generate.ts';
import { searchSettingsIn } from '../search/engine.ts';
import type { SearchSettings } from '../search/query.ts';
import { choose, MIN_CONFIDENCE, questionWords, synonymsOf, type CorpusCounts, type Synonyms } from './choose.ts';
import { frequencies, retrieve, type Memo, type Retrieved } from './retrieve.ts';

/** Where 'ask support' goes; the form fills its subject from `subject` (server/support/forms/page.tsx). */
export const CONTACT_PATH = '/contact';
/** A passage holding less than this share of the question's words is not an answer. */
export const MIN_COVERAGE = 0.5;
/** A quote is cut at a sentence end near this many characters. */
export const QUOTE_CHARS = 360;
export const MAX_QUESTION = 500;
/** How many passages the answer is chosen among, and how many of them one page may give. */
const CANDIDATES = 20;
const PER_PAGE = 4;

export interface Citation {
  title: string;
  heading: string | null;
  url: string;
  /** The quoted text (extractive answers). */
  quote: string;
}

export interface Answer {
  question: string;
  /** 'generated' has `text`; 'extractive' quotes its citations; 'nothing' found no relevant passage. */
  mode: 'generated' | 'extractive' | 'nothing';
  text?: string;
  citations: Citation[];
  /** Why a configured model's answer is not shown (the extractive answer stands in). */
  notice?: 'slow' | 'unavailable' | 'failed' | 'busy';
  /** The contact form with the question filled in, when nothing relevant was found. */
  contactHref?: string;
  /** The search results for the question, when nothing relevant was found. */
  searchHref?: string;
}

export interface AnswerOptions {
  model?: ModelConfig;
  language?: string;
  /** How many passages to cite (default 3). */
  limit?: number;
  /** Receives the generated answer as it streams. */
  onText?: (piece: string) => void;
  /** Told when a streamed answer is abandoned for the extractive one. */
  onFallback?: () => void;
  signal?: AbortSignal;
  log?: FastifyBaseLogger;
  /** The bound on model calls at once (AI_MAX_CONCURRENT): past it, the passages answer with a notice. */
  modelCalls?: Pick<Gate, 'tryAcquire'>;
  /** The queue in front of the database the retrieval waits in (server/plugins/search-gate.ts). */
  searches?: Pick<Gate, 'run'>;
  /** Keeps what depends only on the content (word counts, synonyms) until it changes. */
  memo?: Memo;
}

export function quoteOf(text: string, max = QUOTE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('? '), cut.lastIndexOf('! '));
  return end > max / 3 ? cut.slice(0, end + 1) : `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : max)}…`;
}

const relevant = (p: Retrieved) => p.coverage >= MIN_COVERAGE;

export function contactHrefOf(question: string, search?: string): string {
  // `search`: the search whose results page offers the link, counted with the request it leads to (insights).
  return `${CONTACT_PATH}?${new URLSearchParams({ subject: question.slice(0, 200), ...(search ? { search: search.slice(0, 200) } : {}) })}`;
}

/** Where the refusal's search link goes. */
export const SEARCH_RESULTS_PATH = '/search-results/';

export function searchHrefOf(question: string): string {
  return `${SEARCH_RESULTS_PATH}?${new URLSearchParams({ searchTerm: question.slice(0, 200) })}`;
}

/** The content team's search settings, and their synonyms as the answer's choice reads them: kept per content version. */
function settingsIn(db: Db, memo: Memo): Promise<{ settings: SearchSettings; synonyms: Synonyms }> {
  return memo('assistant-settings', async () => {
    const settings = await searchSettingsIn(db);
    return { settings, synonyms: synonymsOf(settings.synonyms) };
  });
}

/** The passages an answer is chosen among (those holding enough of the question), with the corpus' counts of its words. */
export async function candidatesFor(db: Db, question: string, options: Pick<AnswerOptions, 'language' | 'searches' | 'memo'> = {}): Promise<{ retrieved: Retrieved[]; corpus: CorpusCounts }> {
  const memo = options.memo ?? ((_key, load) => load());
  const retrieval = async () => {
    const { settings, synonyms } = await settingsIn(db, memo);
    const words = questionWords(question, synonyms);
    const passages = await retrieve(db, question, { limit: CANDIDATES, perPage: PER_PAGE, language: options.language, settings });
    const counts = await frequencies(db, [...words.values()], options.language, memo);
    return { passages, synonyms, corpus: { passages: counts.passages, holding: new Map([...words.keys()].map((w, i) => [w, counts.holding[i] ?? counts.passages])), synonyms } };
  };
  const { passages, corpus } = await (options.searches ? options.searches.run(retrieval) : retrieval());
  return { retrieved: passages.filter(relevant), corpus };
}

export async function answer(db: Db, rawQuestion: string, options: AnswerOptions = {}): Promise<Answer> {
  const started = performance.now();
  const question = rawQuestion.replace(/\s+/g, ' ').trim().slice(0, MAX_QUESTION);
  const limit = options.limit ?? 3;
  const { retrieved, corpus } = await candidatesFor(db, question, options);
  // The passage whose sentence answers the question's kind leads, quoted at that sentence; below
  // the confidence no passage is shown rather than quotes unrelated to the question. The others cited
  // are the best passage of each other page, in rank order.
  const choice = choose(question, retrieved, MIN_CONFIDENCE, corpus);
  const found: Retrieved[] = [];
  for (const p of choice ? [choice.passage, ...retrieved] : []) {
    if (found.length < limit && !found.some((f) => f.entryId === p.entryId)) found.push(p);
  }
  const citations = found.map((p) => ({ title: p.title, heading: p.heading, url: p.url,
    quote: p === choice?.passage ? choice.quote : quoteOf(p.text) }));
  let result: Answer;
  if (found.length === 0) {
    result = { question, mode: 'nothing', citations: [], contactHref: contactHrefOf(question), searchHref: searchHrefOf(question) };
  } else if (!options.model) {
    result = { question, mode: 'extractive', citations };
  } else {
    // Every model call is held while it streams: past the bound, the passages answer at once rather
    // than the question waiting behind others' answers (or the model's own queue) for seconds.
    const release = options.modelCalls ? options.modelCalls.tryAcquire() : () => {};
    if (!release) {
      options.log?.warn('assistant model busy (AI_MAX_CONCURRENT); answering from passages');
      result = { question, mode: 'extractive', citations, notice: 'busy' };
    } else {
      try {
        const text = await generate(options.model, question, found, options.onText, options.signal);
        result = { question, mode: 'generated', text, citations };
      } catch (err) {
        const reason = err instanceof GenerationError ? err.reason : 'failed';
        options.log?.warn({ reason, err: err instanceof GenerationError ? err.message : String(err) }, 'assistant model failed; answering from passages');
        options.onFallback?.();
        result = { question, mode: 'extractive', citations, notice: reason };
      } finally {
        release();
      }
    }
  }
  // Spec §5: a question reaches the log only with its e-mail-like text masked.
  options.log?.info({ question: maskEmails(question), mode: result.mode, cited: result.citations.map((c) => c.url),
    ms: Math.round(performance.now() - started) }, 'assistant answered');
  return result;
}
