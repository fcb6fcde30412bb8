/**
 * What one search may ask for. On PGlite every query runs on the thread that serves the pages,
 * so the cost of the worst query a visitor can send must be bounded: at most
 * MAX_QUERY_TERMS words and MAX_QUERY_CHARS characters. The API refuses more (400 naming
 * body/query); the results page searches for the bounded term and says so.
 */
export const MAX_QUERY_CHARS = 256;
export const MAX_QUERY_TERMS = 32;

/** The words of a term, as the engine splits them. */
export function termsOf(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** The first MAX_QUERY_TERMS words, cut to MAX_QUERY_CHARS characters (never inside a character). */
export function boundQuery(text: string): { query: string; shortened: boolean } {
  const normal = termsOf(text).join(' ');
  const chars = Array.from(termsOf(normal).slice(0, MAX_QUERY_TERMS).join(' '));
  const query = chars.slice(0, MAX_QUERY_CHARS).join('').trim();
  return { query, shortened: query !== normal };
}

/** Why the API refuses a term, or null when it is within the bounds. */
export function queryProblem(text: string): string | null {
  if (termsOf(text).length > MAX_QUERY_TERMS) return `body/query must have at most ${MAX_QUERY_TERMS} words`;
  return null;
}
