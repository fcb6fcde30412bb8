/**
 * What a visitor typed, read as a search (issue 15). Only three things are operators: a quoted
 * phrase, `-word` (a minus directly before a word or a quoted phrase, at the start of a word:
 * exclude it) and `or` between two words or phrases. Every other character is text: a dash between
 * spaces ('Install and Deploy - Linux'), `A/B`, `C++`, `Q&A`. A code pasted from a product
 * (`java.lang.OutOfMemoryError`, `ERR_CERT_DATE_INVALID`) is searched as the phrase of its parts,
 * which the index also stores (migration 'search by title, headings and codes').
 *
 * The content team's stop phrases ('how do i') are dropped, and a word or phrase of a synonym group
 * stands for any member of its group. Pure: the engine compiles the clauses to a tsquery.
 */

/** The content team's search settings (content/search.yaml). */
export interface SearchSettings {
  /** Groups of words or phrases that mean the same; a query word or phrase of a group matches any of them. */
  synonyms: string[][];
  /** Phrases taken out of a query before it is searched ('how do i'). */
  stopPhrases: string[];
}

export const NO_SETTINGS: SearchSettings = { synonyms: [], stopPhrases: [] };

/** One thing the results must hold (or, excluded, must not): any of its alternatives, each a phrase. */
export interface Clause {
  alternatives: string[];
  exclude: boolean;
  /** What the visitor typed for it (before synonyms). */
  typed: string;
}

export interface ParsedQuery {
  clauses: Clause[];
  /** The words the visitor asked for (no exclusions, no synonyms): what a title is compared with. */
  positive: string;
}

interface Token {
  text: string;
  quoted: boolean;
  exclude: boolean;
}

const LETTER = /[\p{L}\p{N}]/u;
/** Characters that glue a code's parts together: `java.lang.X`, `ERR_CERT`, `A/B`, `C:\dir`. */
const GLUE = /[._/:\\]+/g;
/** Dashes of every kind, and other punctuation, are only text. */
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}+#]+$/gu;

/** Lower case, single spaces, no punctuation at word edges: how stop phrases and synonyms are compared. */
export function normalise(text: string): string {
  return text.toLowerCase().split(/\s+/).map((w) => w.replace(EDGE_PUNCTUATION, '')).filter(Boolean).join(' ');
}

/** The text of a word as searched: a code's glued parts become words of one phrase. */
function wordText(word: string): string {
  const trimmed = word.replace(EDGE_PUNCTUATION, '');
  return /[\p{L}\p{N}][._/:\\]+[\p{L}\p{N}]/u.test(trimmed) ? trimmed.replace(GLUE, ' ').trim() : trimmed;
}

function tokenise(text: string): Token[] {
  const tokens: Token[] = [];
  const re = /(-?)"([^"]*)("?)|(\S+)/g;
  for (const m of text.matchAll(re)) {
    if (m[2] !== undefined && (m[0].startsWith('"') || m[0].startsWith('-"'))) {
      const phrase = m[2].trim();
      if (phrase && LETTER.test(phrase)) tokens.push({ text: phrase, quoted: true, exclude: m[1] === '-' });
      continue;
    }
    const raw = m[4] ?? '';
    // `-word`: a minus right before a letter or digit at the start of a word excludes it.
    const exclude = /^-[\p{L}\p{N}]/u.test(raw);
    const word = exclude ? raw.slice(1) : raw;
    if (!LETTER.test(word)) continue; // a lone dash, slash, ampersand: only punctuation
    tokens.push({ text: word, quoted: false, exclude });
  }
  return tokens;
}

/** Removes each stop phrase where it stands as whole words; the words of the text otherwise stay. */
function dropStopPhrases(text: string, stopPhrases: string[]): string {
  let out = ` ${text} `;
  const phrases = [...stopPhrases].map(normalise).filter(Boolean).sort((a, b) => b.length - a.length);
  for (const phrase of phrases) {
    const pattern = phrase.split(' ').map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+');
    out = out.replace(new RegExp(`(?<=^|[\\s\\p{P}])${pattern}(?=[\\s\\p{P}]|$)`, 'giu'), ' ');
  }
  return out.trim();
}

/** Reads a query. Stop phrases are dropped unless nothing would be left. */
export function parseQuery(text: string, settings: SearchSettings = NO_SETTINGS): ParsedQuery {
  const unquoted = text.split('"');
  // Stop phrases apply outside quotes only (even parts of the split are outside).
  const stripped = unquoted.map((part, i) => (i % 2 === 0 ? dropStopPhrases(part, settings.stopPhrases) : part)).join('"');
  let tokens = tokenise(stripped);
  if (!tokens.some((t) => !t.exclude)) tokens = tokenise(text);

  // Synonyms: the longest group member matching the next words of the query.
  const members = new Map<string, string[]>();
  let longest = 1;
  for (const group of settings.synonyms) {
    const clean = [...new Set(group.map(normalise).filter(Boolean))];
    for (const member of clean) {
      members.set(member, clean);
      longest = Math.max(longest, member.split(' ').length);
    }
  }

  const clauses: Clause[] = [];
  let pendingOr = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (!token.quoted && !token.exclude && token.text.toLowerCase() === 'or' && clauses.length > 0 && i + 1 < tokens.length) {
      pendingOr = true;
      continue;
    }
    let clause: Clause | undefined;
    if (!token.quoted && !token.exclude && members.size > 0) {
      for (let n = Math.min(longest, tokens.length - i); n >= 1 && !clause; n--) {
        const run = tokens.slice(i, i + n);
        if (run.some((t) => t.quoted || t.exclude)) continue;
        const key = normalise(run.map((t) => t.text).join(' '));
        const group = members.get(key);
        if (group) {
          clause = { alternatives: group, exclude: false, typed: run.map((t) => t.text).join(' ') };
          i += n - 1;
        }
      }
    }
    if (!clause) {
      const searched = token.quoted ? token.text : wordText(token.text);
      if (!LETTER.test(searched)) continue;
      clause = { alternatives: [searched], exclude: token.exclude, typed: token.text };
    }
    const previous = clauses[clauses.length - 1];
    if (pendingOr && previous && !previous.exclude && !clause.exclude) {
      previous.alternatives = [...new Set([...previous.alternatives, ...clause.alternatives])];
      previous.typed = `${previous.typed} ${clause.typed}`;
    } else {
      clauses.push(clause);
    }
    pendingOr = false;
  }
  const positive = clauses.filter((c) => !c.exclude).map((c) => c.typed.replace(GLUE, ' ')).join(' ');
  return { clauses, positive };
}

/**
 * The clauses as SQL building a tsquery: 'all' needs every clause; 'any' (the fallback for
 * questions typed as sentences) any of them. Each clause is any of its alternatives
 * (clauseTsQuerySql), so a code's parts must stand together. `add` names a parameter.
 */
export function tsQuerySql(parsed: ParsedQuery, mode: 'all' | 'any', add: (v: unknown) => string): string {
  const clauseSql = (c: Clause) => clauseTsQuerySql(c, add);
  const positive = parsed.clauses.filter((c) => !c.exclude).map(clauseSql);
  const negative = parsed.clauses.filter((c) => c.exclude).map((c) => `(!! ${clauseSql(c)})`);
  const parts = mode === 'all' ? [...positive, ...negative] : [positive.length > 0 ? `(${positive.join(' || ')})` : '', ...negative].filter(Boolean);
  return parts.length > 0 ? `(${parts.join(' && ')})` : `''::tsquery`;
}

/**
 * One clause as SQL building a tsquery: any of its alternatives. An alternative of several words
 * (a quoted phrase, a code's parts, a synonym phrase) is a phrase; a single word is the AND of its
 * lexemes. A hyphenated word ('start-up') is indexed as the whole and its parts side by side, so
 * both forms find the same pages, but only a phrase makes the index check every match's positions.
 */
export function clauseTsQuerySql(clause: Clause, add: (v: unknown) => string): string {
  return `(${clause.alternatives.map((a) => `${/\s/.test(a.trim()) ? 'phraseto_tsquery' : 'plainto_tsquery'}('english', ${add(a)})`).join(' || ')})`;
}
