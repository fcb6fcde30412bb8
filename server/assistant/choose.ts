/**
 * Choosing the answer among retrieved passages: each passage is split into sentences, and each
 * sentence scores by the weighted share of the question's content words it holds, plus a bonus
 * when it carries what the question's kind asks for (how long: a duration; how many or how big: a
 * number; why: a cause; how to: steps), and when the question asks for a default, a sentence stating
 * one ('By default …'). The best sentence is quoted with its neighbours. The
 * confidence is the weighted share of the question's content words the chosen passage (with its
 * page title and heading) holds; below MIN_CONFIDENCE the assistant says it found no answer.
 */

export type QuestionKind = 'duration' | 'quantity' | 'reason' | 'steps' | 'other';

export interface Candidate {
  title: string;
  heading: string | null;
  text: string;
}

export interface Choice<P extends Candidate> {
  passage: P;
  /** The best sentence with its neighbours. */
  quote: string;
  kind: QuestionKind;
  /** 0 to 1: the weighted share of the question's content words the passage holds. */
  confidence: number;
}

/** Below this confidence the assistant refuses rather than quote an unrelated passage. */
export const MIN_CONFIDENCE = 0.55;
/** Added to a sentence's score when it carries what the question's kind asks for. */
const KIND_BONUS = 0.35;
/** A quote holds the best sentence and, within this length, the sentences either side of it. */
const QUOTE_MAX = 440;
/** A section whose heading names what the question's kind asks for ('Cause', 'Why …', 'Solution', 'How to …'). */
const HEADING: Partial<Record<QuestionKind, RegExp>> = {
  reason: /\b(?:cause|causes|why|reason|reasons)\b/i,
  steps: /\b(?:solution|fix|resolve|resolution|workaround|how to|how do|steps?)\b/i,
};
/** Added when the passage's heading names what the question's kind asks for. */
const HEADING_BONUS = 0.6;
/** Questions whose answer is a measure: how long, how many, how much, how big. */
const MEASURED = /\bhow (?:long|many|much|big|large|often)\b|\bwhen will\b/i;

const STOP = new Set(('a an the and or but if then of to in on at by for with from into about as is are was were be been being '
  + 'do does did doing done have has had can could should would will shall may might must i me my we our you your it its '
  + 'this that these those there here what which who whom whose when where why how much many long big large small '
  + 'any some all no not there get got make need want please tell know see way possible able say says said').split(' '));

export function kindOf(question: string): QuestionKind {
  const q = question.toLowerCase();
  if (/\bwhy\b|\bwhat causes\b|\bfor what reason\b/.test(q)) return 'reason';
  if (/\bhow (long|soon|quickly|often)\b|\bwhen will\b|\bwhat time\b/.test(q)) return 'duration';
  if (/\bhow (many|much|big|large|small|heavy|far|high|wide|tall|fast)\b|\bwhat (size|limit|maximum|minimum)\b|\b(max|maximum|limit)\b/.test(q)) return 'quantity';
  // 'The largest number of …', 'which versions …': answered by a figure.
  if (/\b(?:largest|smallest|biggest|highest|lowest|longest|shortest|most|fewest|least)\b|\b(?:which|what) (?:\w+ )?versions?\b/.test(q)) return 'quantity';
  if (/\bhow (do|can|should|to)\b|\bsteps?\b|\bway to\b/.test(q)) return 'steps';
  return 'other';
}

/** British spellings in -ise, -isation, -yse read as the American ones most documentation uses. */
export function american(word: string): string {
  return word.replace(/(?<=\w{3})is(e|es|ed|ing|ation|ations)$/, 'iz$1').replace(/(?<=\w{3})ys(e|es|ed|ing)$/, 'yz$1');
}

/** Irregular forms read as the verb they inflect, so 'kept' meets 'keep'. */
const IRREGULAR = new Map(Object.entries({ kept: 'keep', sent: 'send', ran: 'run', made: 'make', took: 'take', taken: 'take', gave: 'give',
  given: 'give', went: 'go', gone: 'go', held: 'hold', left: 'leave', lost: 'lose', built: 'build', chosen: 'choose', chose: 'choose',
  written: 'write', wrote: 'write', shown: 'show', known: 'know', found: 'find', paid: 'pay', read: 'read', broken: 'break', broke: 'break' }));

/** A crude stem: enough that 'schedules', 'scheduled' and 'scheduling' meet. */
export function stem(word: string): string {
  let w = american(word.toLowerCase());
  w = IRREGULAR.get(w) ?? w;
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (w.length > suffix.length + 3 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      // 'logging' and 'stopped' meet 'log' and 'stop' ('installed' keeps its 'll'); 'retried' and 'retries' meet 'retry'.
      if (suffix === 'ing' || suffix === 'ed') w = w.replace(/([b-df-hj-kmnp-rt-y])\1$/, '$1');
      if (suffix !== 's' && suffix !== 'ing') w = w.replace(/(?<=\w\w)i$/, 'y');
      break;
    }
  }
  return w.endsWith('e') && w.length > 4 ? w.slice(0, -1) : w;
}

/** Words as written: a text all in capitals reads as lower case. */
const wordsOf = (text: string) => ((text === text.toUpperCase() ? text.toLowerCase() : text).match(/[\p{L}\p{N}_]+/gu) ?? []);

/**
 * A comparative or superlative of a stop word ('bigger', 'largest', 'longer') says no more than the
 * word itself: the question's kind already asks for the size.
 */
function gradedStop(word: string): boolean {
  const m = /^(\w{2,}?)(?:er|est)$/.exec(word);
  if (!m) return false;
  const base = m[1] as string;
  const forms = [base, `${base}e`, base.replace(/(\w)\1$/, '$1'), base.replace(/i$/, 'y')];
  return forms.some((f) => STOP.has(f));
}

/** Not a stop word, or one written in capitals: 'GET' in 'a GET request' names a method, not a verb. */
const kept = (w: string) => w.length > 1 && ((!STOP.has(w.toLowerCase()) && !gradedStop(w.toLowerCase())) || /^[A-Z]+$/.test(w));

/**
 * The content team's synonym groups (the search settings' `synonyms`, which the search reads too): a
 * question's word meets a passage's when both are members of one group ('memory' and 'RAM').
 */
export interface Synonyms {
  /** Each member's stems (joined by a space), to the term that stands for its group. */
  terms: Map<string, string>;
  /** Each group's term, to its members as written. */
  members: Map<string, string[]>;
}

/** The longest member of a group, in words. */
const SYNONYM_WORDS = 4;

export function synonymsOf(groups: readonly (readonly string[])[]): Synonyms {
  const terms = new Map<string, string>();
  const members = new Map<string, string[]>();
  for (const group of groups) {
    const keys = group.map((m) => wordsOf(m.toLowerCase()).map(stem).join(' ')).filter((k) => k.length > 0 && k.split(' ').length <= SYNONYM_WORDS);
    const term = keys[0];
    if (term === undefined || terms.has(term)) continue;
    for (const k of keys) if (!terms.has(k)) terms.set(k, term);
    members.set(term, group.map((m) => m.toLowerCase()));
  }
  return { terms, members };
}

/** The terms of a text: the stem of each word that is not a stop word, a synonym group's term for each of its members. */
function termsOf(text: string, synonyms?: Synonyms): { term: string; written: string }[] {
  const words = wordsOf(text);
  const stems = words.map(stem);
  const out: { term: string; written: string }[] = [];
  for (let i = 0; i < words.length; i++) {
    let n = synonyms && synonyms.terms.size > 0 ? Math.min(SYNONYM_WORDS, words.length - i) : 0;
    for (; n >= 1; n--) {
      const term = synonyms?.terms.get(stems.slice(i, i + n).join(' '));
      if (term !== undefined) { out.push({ term, written: words.slice(i, i + n).join(' ') }); break; }
    }
    if (n >= 1) { i += n - 1; continue; }
    const w = words[i] as string;
    if (kept(w)) out.push({ term: stems[i] as string, written: w });
  }
  return out;
}

export function contentWords(text: string, synonyms?: Synonyms): string[] {
  return [...new Set(termsOf(text, synonyms).map((t) => t.term))];
}

/**
 * The question's terms, each with what the corpus is asked how often it holds: the word as written, or
 * every member of its synonym group.
 */
export function questionWords(text: string, synonyms?: Synonyms): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const { term, written } of termsOf(text, synonyms)) {
    if (!out.has(term)) out.set(term, synonyms?.members.get(term) ?? [american(written.toLowerCase())]);
  }
  return out;
}

/** How many passages the whole corpus has, and how many hold each stem of the question. */
export interface CorpusCounts {
  passages: number;
  holding: Map<string, number>;
  /** The content team's synonyms: a member of a group counts as its group's term. */
  synonyms?: Synonyms;
}

export function sentencesOf(text: string): string[] {
  return text.replace(/\r/g, '').split(/\n+|(?<=[.!?])\s+(?=[A-Z0-9`"'(])/)
    .map((s) => s.replace(/\s+/g, ' ').trim()).filter((s) => s.length > 0);
}

const DURATION = /\b\d+(?:[.,]\d+)?\s*(?:-|to)?\s*\d*\s*(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|ms|s)\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|thirty|sixty)\s+(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)\b|\b(?:in|of) (?:seconds|minutes|hours|days|weeks|months|years)\b|\b(?:immediately|instantly|overnight|daily|weekly|monthly|hourly)\b/i;
const QUANTITY = /\b(?:two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|fifty|hundred|thousand)\b|\b\d+(?:[.,]\d+)?\s*(?:%|kb|mb|gb|tb|kg|g|lbs?|cm|mm|m|km|items?|users?|seats?|requests?|connections?|characters?|files?|pages?|times?)?\b|\b(?:unlimited|up to|at most|at least|no more than|maximum|minimum)\b/i;
const REASON = /^(?:to|in order to) \w+\b[^,.]{0,80}, |\b(?:because|cause[sd]?|due to|since|so that|in order to|reason|results? in|prevents?|otherwise)\b/i;
const STEPS = /^(?:\d+[.)]\s|[-*+]\s)|^(?:to \w+ .{0,120}?, )?(?:run|open|click|select|go|choose|enter|set|add|use|call|pass|install|create|type|press|import|configure|enable|disable)\b|`[^`]+`|\$ |\b(?:you|we) (?:can|need to|should|must|may want to|might want to)(?: also| still)? (?:\w+ )?(?:use|set|pass|install|enable|disable|add|call|configure|modify|change)\b/i;

/** A setting or parameter's name ('follow_redirects'): it tells what to set in a sentence of prose, not in a line of code. */
const IDENTIFIER = /\b[a-z]+_[a-z_]+\b/;
const PROSE = /\b[a-z]+ [a-z]+ [a-z]+\b/i;

export function carries(kind: QuestionKind, sentence: string): boolean {
  switch (kind) {
    case 'duration': return DURATION.test(sentence);
    case 'quantity': return QUANTITY.test(sentence);
    case 'reason': return REASON.test(sentence);
    case 'steps': return STEPS.test(sentence) || (IDENTIFIER.test(sentence) && PROSE.test(sentence));
    default: return false;
  }
}

/**
 * Rarer words weigh more: a word's weight falls with how many passages of the corpus hold it (or, without
 * the corpus' counts, how many candidates do). A word no passage holds weighs most: a question about it
 * is one the content does not answer.
 */
function weightsOf(words: string[], candidates: readonly Candidate[], corpus?: CorpusCounts): Map<string, number> {
  if (corpus && corpus.passages > 0) {
    const n = corpus.passages;
    // A number no passage holds (a count, a year, a ticket's number) weighs nothing rather than most.
    return new Map(words.map((w) => {
      const holding = corpus.holding.get(w) ?? n;
      return [w, holding === 0 && /^\d+$/.test(w) ? 0 : Math.log((n + 1) / (holding + 0.5))];
    }));
  }
  const bags = candidates.map((c) => new Set(contentWords(`${c.title} ${c.heading ?? ''} ${c.text}`, corpus?.synonyms)));
  const n = Math.max(bags.length, 1);
  return new Map(words.map((w) => [w, Math.log(1 + (n + 1) / (1 + bags.filter((b) => b.has(w)).length))]));
}

function share(words: string[], weights: Map<string, number>, bag: Set<string>): number {
  const total = words.reduce((sum, w) => sum + (weights.get(w) ?? 0), 0);
  if (total === 0) return 0;
  return words.reduce((sum, w) => sum + (bag.has(w) ? (weights.get(w) ?? 0) : 0), 0) / total;
}

function quoteAround(sentences: string[], best: number): string {
  let quote = sentences[best] ?? '';
  for (const i of [best + 1, best - 1]) {
    const s = sentences[i];
    if (s === undefined) continue;
    const joined = i > best ? `${quote} ${s}` : `${s} ${quote}`;
    if (joined.length <= QUOTE_MAX) quote = joined;
  }
  return quote.length <= QUOTE_MAX ? quote : `${quote.slice(0, QUOTE_MAX - 1).replace(/\s+\S*$/, '')}…`;
}

/** A question asking which version: the word 'version' is what it asks for. */
const ASKS_VERSION = /\b(?:which|what) (?:\w+ )?versions?\b/i;
/** A name followed by a release number ('Python 3.9+', 'v2.1'); a bare whole number after a name is as often a count. */
const RELEASE = /([\p{L}][\p{L}\p{N}_]*) v?\d+(?:(?:\.\d+)+\+?|\+)/gu;

/** A sentence stating what holds when nothing is set ('By default …', 'Default: 5', 'defaults to'): the answer to a question about the default. */
const STATES_DEFAULT = /\bby default\b|\bdefault:|\bdefaults? (?:to|is)\b/i;
const DEFAULT_BONUS = 0.2;

/** Every candidate scored (how much of the question it covers, and its best sentence), best first. */
export function scoreAll<P extends Candidate>(question: string, candidates: readonly P[], corpus?: CorpusCounts): (Choice<P> & { score: number })[] {
  const syn = corpus?.synonyms;
  const words = contentWords(question, syn);
  if (words.length === 0) return [];
  const kind = kindOf(question);
  const weights = weightsOf(words, candidates, corpus);
  // 'Requires Python 3.9+' says which version without the word.
  // A text holds the version asked for when it gives a release number of something the question names.
  const version = ASKS_VERSION.test(question) ? stem('version') : null;
  const named = new Set(words);
  const bagOf = (text: string) => {
    const bag = new Set(contentWords(text, syn));
    if (version !== null && [...text.matchAll(RELEASE)].some((m) => named.has(stem(m[1] as string)))) bag.add(version);
    return bag;
  };
  const asksDefault = /\bdefault\b/i.test(question);
  const out: (Choice<P> & { score: number })[] = [];
  for (const passage of candidates) {
    const confidence = share(words, weights, bagOf(`${passage.title} ${passage.heading ?? ''} ${passage.text}`));
    const sentences = sentencesOf(passage.text);
    let top = -1;
    let topScore = -1;
    const bags = sentences.map(bagOf);
    sentences.forEach((s, i) => {
      // The sentence's own words count most; its neighbours', quoted with it, a little. What the kind asks
      // for counts only in a sentence about the question: a command in a sentence naming none of its words
      // answers another question.
      const near = new Set([...(bags[i - 1] ?? []), ...(bags[i] ?? []), ...(bags[i + 1] ?? [])]);
      const about = words.some((w) => bags[i]?.has(w));
      const score = 0.4 * share(words, weights, bags[i] ?? new Set()) + 0.3 * share(words, weights, near) + (about && carries(kind, s) ? KIND_BONUS : 0)
        + (asksDefault && about && STATES_DEFAULT.test(s) ? DEFAULT_BONUS : 0);
      if (score > topScore) { top = i; topScore = score; }
    });
    if (top < 0) continue;
    const heading = passage.heading ?? '';
    const headed = HEADING[kind]?.test(heading) ? HEADING_BONUS : 0;
    // A generic heading ('Solution', 'Cause') is about its page: the title counts with it.
    const score = confidence + topScore + headed + 0.3 * share(words, weights, new Set(contentWords(`${passage.title} ${heading}`, syn)));
    out.push({ passage, quote: quoteAround(sentences, top), kind, confidence, score });
  }
  return out.sort((a, b) => b.score - a.score);
}

/** What a figure question counts or measures: the words after 'how many', 'how much', 'number of', 'amount of'. */
const COUNTED = /\b(?:how many|how much|number of|amount of)\s+([\p{L}\p{N}_' -]+)/iu;

/**
 * The terms of what a figure question counts ('redirects' in 'the maximum number of redirects'), up to
 * its first stop word; none when it names nothing ('how much does it cost').
 */
export function countedTerms(question: string, synonyms?: Synonyms): string[] {
  const m = COUNTED.exec(question);
  if (!m) return [];
  const run: string[] = [];
  for (const w of (m[1] as string).split(/[\s-]+/)) {
    if (!w) continue;
    if (!kept(w)) break;
    run.push(w);
  }
  return contentWords(run.join(' '), synonyms);
}

/** The passage and sentence that answer the question, or null when none is confident enough. */
export function choose<P extends Candidate>(question: string, candidates: readonly P[], minConfidence = MIN_CONFIDENCE, corpus?: CorpusCounts): Choice<P> | null {
  const scored = scoreAll(question, candidates, corpus);
  // A figure is an answer only about what the question counts: the connections' limit does not answer
  // a question about redirects. A best quote that does not name it (nor its section's heading or page
  // title) is refused, not replaced by a weaker one.
  const best = scored[0];
  const counted = countedTerms(question, corpus?.synonyms);
  if (best && counted.length > 0) {
    const held = new Set(contentWords(`${best.passage.title} ${best.passage.heading ?? ''} ${best.quote}`, corpus?.synonyms));
    if (!counted.every((w) => held.has(w))) return null;
  }
  if (!best || best.confidence < minConfidence) return null;
  // A question asking how long or how many is not answered by a quote without a duration or a number.
  if ((MEASURED.test(question) || best.kind === 'quantity' || best.kind === 'duration') && !carries(best.kind, best.quote)) return null;
  return { passage: best.passage, quote: best.quote, kind: best.kind, confidence: best.confidence };
}
