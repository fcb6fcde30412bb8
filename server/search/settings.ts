/**
 * The checks of content/search.yaml beyond its shape (schemas.ts checks that): a word or phrase
 * belongs to one synonym group only, a stop phrase is not also a synonym, and every term has a
 * letter or digit to search for. Each problem names the term's line and column.
 */
import type { Problem } from '../content/problems.ts';
import { normalise, type SearchSettings } from './query.ts';

export type PositionOf = (path: (string | number)[]) => { line: number; column?: number };

export function searchSettingsProblems(file: string, fields: Partial<SearchSettings>, positionOf: PositionOf): Problem[] {
  const problems: Problem[] = [];
  const at = (path: (string | number)[], reason: string, hint?: string, warning = false) => problems.push({
    file, ...positionOf(path), field: path.join('.'), reason, ...(hint ? { hint } : {}), ...(warning ? { severity: 'warning' as const } : {}),
  });
  const groupOf = new Map<string, { group: number; path: (string | number)[] }>();
  const synonyms = Array.isArray(fields.synonyms) ? fields.synonyms : [];
  synonyms.forEach((group, g) => {
    if (!Array.isArray(group)) return;
    group.forEach((term, i) => {
      if (typeof term !== 'string') return;
      const path = ['synonyms', g, i];
      const key = normalise(term);
      if (!key) return at(path, `"${term}" has no letter or digit to search for`, 'remove it, or write the word it stands for');
      if (term.includes('"')) return at(path, `"${term}" holds a quote`, 'write the words without quotes: a term of several words is matched as a phrase');
      const first = groupOf.get(key);
      if (!first) return groupOf.set(key, { group: g, path });
      if (first.group === g) return at(path, `"${term}" is in this group twice`, 'remove one of them', true);
      at(path, `"${term}" is already in another synonym group (line ${positionOf(first.path).line})`,
        'a word or phrase belongs to one group only: merge the two groups or remove it from one');
    });
  });
  const stopPhrases = Array.isArray(fields.stopPhrases) ? fields.stopPhrases : [];
  const seen = new Set<string>();
  stopPhrases.forEach((phrase, i) => {
    if (typeof phrase !== 'string') return;
    const path = ['stopPhrases', i];
    const key = normalise(phrase);
    if (!key) return at(path, `"${phrase}" has no letter or digit`, 'remove it');
    if (groupOf.has(key)) return at(path, `"${phrase}" is also a synonym (line ${positionOf(groupOf.get(key)?.path ?? []).line})`,
      'a stop phrase is taken out of queries, so it cannot also stand for other words: remove it from one list');
    if (seen.has(key)) return at(path, `"${phrase}" is listed twice`, 'remove one of them', true);
    seen.add(key);
  });
  return problems;
}
