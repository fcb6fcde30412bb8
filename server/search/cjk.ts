/**
 * Japanese and Chinese have no spaces between words, and the English parser keeps a whole run of
 * them as one word. They are searched by character pairs instead (bigrams, as CJK search engines
 * do): the import stores each run's overlapping pairs and its last character in the document's
 * vectors (migration 6, `search_cjk_grams`), and a query asks for the pairs of its runs, so
 * matching goes through the GIN index like any word. A long run is asked for by at most
 * MAX_CJK_GRAMS pairs spread along it: the cost of a query is bounded whatever its length.
 */

/** Letters only (no punctuation such as ・), so the text parser keeps each pair as one word on every locale. */
export const CJK_LETTERS = '\\u3041-\\u3096\\u309d-\\u309f\\u30a1-\\u30fa\\u30fc-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff';
export const CJK = new RegExp(`[${CJK_LETTERS}]`);
const RUNS = new RegExp(`[${CJK_LETTERS}]+`, 'g');

/** How many pairs one query may ask for, over all its terms. */
export const MAX_CJK_GRAMS = 32;

/** The text without its CJK runs, for the English parser. */
export function withoutCjk(text: string): string {
  return text.replace(RUNS, ' ').replace(/\s+/g, ' ').trim();
}

/** The pairs a document stores for a text (what search_cjk_grams does in SQL, for tests). */
export function documentGrams(text: string): string[] {
  return (text.match(RUNS) ?? []).flatMap((run) => {
    const chars = Array.from(run);
    return chars.map((c, i) => (i < chars.length - 1 ? c + chars[i + 1] : c));
  });
}

/**
 * The tsquery of a text's CJK runs: each run needs all its pairs (a one-character run, any pair
 * starting with it); runs are joined by `joiner` (& for all words, | for any). Null without CJK.
 * Over MAX_CJK_GRAMS pairs, pairs evenly spread over the runs are kept.
 */
export function cjkTsQuery(text: string, joiner: '&' | '|'): { query: string; grams: number } | null {
  const runs = (text.match(RUNS) ?? []).map((run) => Array.from(run));
  if (runs.length === 0) return null;
  const all = runs.flatMap((chars, run) => chars.length === 1
    ? [{ run, lexeme: `'${chars[0]}':*` }]
    : chars.slice(0, -1).map((c, i) => ({ run, lexeme: `'${c}${chars[i + 1]}'` })));
  const unique = all.filter((g, i) => all.findIndex((o) => o.run === g.run && o.lexeme === g.lexeme) === i);
  const kept = unique.length <= MAX_CJK_GRAMS
    ? unique
    : Array.from({ length: MAX_CJK_GRAMS }, (_, k) => unique[Math.floor((k * unique.length) / MAX_CJK_GRAMS)] as { run: number; lexeme: string });
  const groups = new Map<number, string[]>();
  for (const g of kept) groups.set(g.run, [...(groups.get(g.run) ?? []), g.lexeme]);
  const query = [...groups.values()].map((lexemes) => `(${lexemes.join(' & ')})`).join(` ${joiner} `);
  return { query, grams: kept.length };
}
