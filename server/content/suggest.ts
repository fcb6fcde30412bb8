/** 'Did you mean …' for names an author misspelt: the nearest known names by edit distance. */

/** Levenshtein distance, giving up past `max` (returns max + 1). */
export function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      row.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length] as number;
}

/**
 * The known names nearest to `name` (case and `-`/`_` ignored; a shared prefix counts as closer), at
 * most `count`, nearest first. `key` gives the form compared (the name itself by default).
 */
export function nearestNames(name: string, known: Iterable<string>, count = 3, key: (n: string) => string = fold): string[] {
  const k = key(name);
  const limit = Math.max(2, Math.floor(k.length / 3));
  const scored: { name: string; d: number }[] = [];
  for (const candidate of known) {
    const c = key(candidate);
    const d = distance(k, c, limit);
    if (d <= limit) scored.push({ name: candidate, d: d - (c.startsWith(k) || k.startsWith(c) ? 2 : 0) });
  }
  scored.sort((a, b) => a.d - b.d || a.name.length - b.name.length || a.name.localeCompare(b.name));
  return [...new Set(scored.map((s) => s.name))].slice(0, count);
}

function fold(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`. */
export function quotedList(names: string[]): string {
  const q = names.map((n) => `"${n}"`);
  return q.length <= 1 ? (q[0] ?? '') : `${q.slice(0, -1).join(', ')} or ${q[q.length - 1]}`;
}

/** `did you mean "x"?` when something is near, else undefined. */
export function didYouMean(name: string, known: Iterable<string>): string | undefined {
  const near = nearestNames(name, known);
  return near.length > 0 ? `did you mean ${quotedList(near)}?` : undefined;
}
