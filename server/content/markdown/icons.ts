/**
 * Body icons come from Lucide (ISC), the whole set: an author names any of its icons in kebab case
 * (`:icon{key="calendar-check"}`). The drawing is looked up at import and stored with the body, so a
 * page pays nothing for it. The ten names bodies used before Lucide keep working as aliases.
 */
import { createRequire } from 'node:module';
import type { IconNodes } from '../rich-text.ts';

const ALIASES: Record<string, string> = { add: 'plus', more: 'ellipsis', warning: 'triangle-alert' };

let table: Map<string, { name: string; nodes: IconNodes }> | undefined;

/** `calendar-check`, `CalendarCheck`, `calendar_check` all name one icon. */
function keyOf(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

function kebab(pascal: string): string {
  return pascal.replace(/([a-z])([A-Z0-9])/g, '$1-$2').replace(/([0-9])([A-Za-z])/g, '$1-$2').replace(/([A-Z])([A-Z][a-z])/g, '$1-$2').toLowerCase();
}

function icons() {
  if (!table) {
    // Loaded on first use: one CommonJS file with every icon.
    const { icons: all } = createRequire(import.meta.url)('lucide') as { icons: Record<string, IconNodes> };
    table = new Map();
    for (const [name, nodes] of Object.entries(all)) {
      const key = keyOf(name);
      if (!table.has(key)) table.set(key, { name: kebab(name), nodes });
    }
  }
  return table;
}

export function lookupIcon(name: string): { name: string; nodes: IconNodes } | undefined {
  const alias = ALIASES[name];
  return icons().get(keyOf(alias ?? name));
}

/** The names nearest to a misspelt one (edit distance, then shared prefix), at most `count`. */
export function nearestIcons(name: string, count = 3): string[] {
  const key = keyOf(name);
  const scored: { name: string; d: number }[] = [];
  const limit = Math.max(2, Math.floor(key.length / 3));
  for (const [k, icon] of icons()) {
    const d = distance(key, k, limit);
    if (d <= limit) scored.push({ name: icon.name, d: d - (k.startsWith(key) || key.startsWith(k) ? 2 : 0) });
  }
  scored.sort((a, b) => a.d - b.d || a.name.length - b.name.length || a.name.localeCompare(b.name));
  return [...new Set(scored.map((s) => s.name))].slice(0, count);
}

/** Levenshtein distance, giving up past `max`. */
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
