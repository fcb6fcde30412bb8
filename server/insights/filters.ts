/**
 * The insights filters from the query string: `from` and `to` (YYYY-MM-DD, UTC days, both inclusive; by
 * default the last 30 days up to today) and `product` (a product entry's id; empty is every product).
 * A value that cannot be used is an error naming the field, which the page shows on its form with a 400.
 */
import type { InsightsRange } from './queries.ts';

export type Filters = InsightsRange;

export interface FilterError {
  field: 'from' | 'to' | 'product';
  message: string;
}

export type Parsed = { ok: true; filters: Filters } | { ok: false; error: FilterError; shown: Filters };

/** The longest range a page may ask for. */
export const MAX_DAYS = 731;
const DAY_MS = 86_400_000;

const iso = (d: Date) => d.toISOString().slice(0, 10);

/** A real calendar date written YYYY-MM-DD, or undefined. */
export function parseDay(value: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const d = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || iso(d) !== value ? undefined : d;
}

export function defaultRange(now: Date): { from: string; to: string } {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { from: iso(new Date(today.getTime() - 29 * DAY_MS)), to: iso(today) };
}

export function parseFilters(query: unknown, products: string[], now: Date): Parsed {
  const q = (query ?? {}) as Record<string, unknown>;
  const defaults = defaultRange(now);
  const raw = (name: string): string | string[] | undefined => {
    const v = q[name];
    return typeof v === 'string' ? v.trim() : Array.isArray(v) ? v.map(String) : undefined;
  };
  const values = { from: raw('from'), to: raw('to'), product: raw('product') };
  // What the form shows back: what was sent (cut short), else the default.
  const shown: Filters = {
    from: typeof values.from === 'string' && values.from ? values.from.slice(0, 40) : defaults.from,
    to: typeof values.to === 'string' && values.to ? values.to.slice(0, 40) : defaults.to,
    product: typeof values.product === 'string' ? values.product.slice(0, 200) : '',
  };
  const fail = (field: FilterError['field'], message: string): Parsed => ({ ok: false, error: { field, message }, shown });
  for (const field of ['from', 'to', 'product'] as const) {
    if (Array.isArray(values[field])) return fail(field, `Give one '${field}' value, not several.`);
  }
  const from = parseDay(shown.from);
  if (!from) return fail('from', `The start date '${shown.from}' is not a date: write it as YYYY-MM-DD, for example ${defaults.from}.`);
  const to = parseDay(shown.to);
  if (!to) return fail('to', `The end date '${shown.to}' is not a date: write it as YYYY-MM-DD, for example ${defaults.to}.`);
  if (from > to) return fail('from', `The start date ${shown.from} is after the end date ${shown.to}.`);
  if ((to.getTime() - from.getTime()) / DAY_MS + 1 > MAX_DAYS) return fail('from', `The range is longer than ${MAX_DAYS} days: choose a later start date.`);
  if (shown.product && !products.includes(shown.product)) return fail('product', `There is no product '${shown.product}': choose one from the list.`);
  return { ok: true, filters: shown };
}
