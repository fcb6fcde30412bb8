import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { didYouMean, nearestNames, quotedList } from './suggest.ts';

export interface FieldError {
  /** Path of the field inside the entry, e.g. ['productVersions', 0, 'platform']. */
  path: (string | number)[];
  reason: string;
  /** What to do about it: the nearest known field, the allowed values. */
  hint?: string;
  /** The problem is the field's name (an unknown field), not its value. */
  on?: 'key';
}

/** Validates a value and turns the schema's errors into one plain sentence per field. */
export function schemaErrors(schema: TSchema, value: unknown): FieldError[] {
  const variant = pickVariant(schema, value);
  const raw = [...Value.Errors(variant, value)];
  const byPath = new Map<string, typeof raw>();
  for (const e of raw) {
    if (e.keyword === 'boolean') continue; // repeated by the additionalProperties error
    const list = byPath.get(e.instancePath) ?? [];
    list.push(e);
    byPath.set(e.instancePath, list);
  }
  const out: FieldError[] = [];
  for (const [pointer, errors] of byPath) {
    const path = pointer.split('/').slice(1).map((p) => (/^\d+$/.test(p) ? Number(p) : p.replace(/~1/g, '/').replace(/~0/g, '~')));
    const consts = errors.filter((e) => e.keyword === 'const').map((e) => String((e.params as { allowedValue?: unknown }).allowedValue));
    if (errors.some((e) => e.keyword === 'anyOf') && consts.length > 0) {
      const given = valueAt(value, path);
      const near = typeof given === 'string' ? nearestNames(given, consts, 1) : [];
      out.push({
        path, reason: typeof given === 'string' || typeof given === 'number' ? `"${given}" is not one of the allowed values` : `must be one of: ${consts.join(', ')}`,
        hint: `${near.length > 0 ? `did you mean ${quotedList(near)}? ` : ''}allowed: ${consts.join(', ')}`,
      });
      continue;
    }
    for (const e of errors) {
      const params = e.params as { requiredProperties?: string[]; additionalProperties?: string[] };
      if (e.keyword === 'required') {
        for (const name of params.requiredProperties ?? []) out.push({ path: [...path, name], reason: 'is required' });
      } else if (e.keyword === 'additionalProperties') {
        const known = Object.keys(propertiesAt(schema, path, value));
        for (const name of params.additionalProperties ?? []) {
          const hint = didYouMean(name, known);
          out.push({ path: [...path, name], reason: 'unknown field', on: 'key', ...(hint ? { hint } : {}) });
        }
      } else if (e.keyword !== 'anyOf') {
        out.push({ path, reason: e.message });
      }
    }
  }
  return out;
}

/** For unions of objects told apart by `type`, validate against the variant the value names. */
function pickVariant(schema: TSchema, value: unknown): TSchema {
  const anyOf = (schema as { anyOf?: TSchema[] }).anyOf;
  if (!anyOf || typeof value !== 'object' || value === null) return schema;
  const type = (value as { type?: unknown }).type;
  const match = anyOf.find((s) => (s as { properties?: { type?: { const?: unknown } } }).properties?.type?.const === type);
  if (match) return match;
  const allowed = anyOf.map((s) => (s as { properties?: { type?: { const?: unknown } } }).properties?.type?.const).filter(Boolean);
  if (allowed.length === anyOf.length) {
    return { type: 'object', properties: { type: { anyOf: allowed.map((c) => ({ const: c })) } }, required: ['type'] } as unknown as TSchema;
  }
  return schema;
}

function valueAt(value: unknown, path: (string | number)[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/** The properties the schema allows for the object at `path` of the value (unions read by `type`). */
function propertiesAt(schema: TSchema, path: (string | number)[], value: unknown): Record<string, unknown> {
  let s: TSchema | undefined = schema;
  let v = value;
  for (const key of [...path, undefined]) {
    if (!s) return {};
    s = pickVariant(s, v);
    if (key === undefined) break;
    const shape = s as { properties?: Record<string, TSchema>; items?: TSchema };
    s = typeof key === 'number' ? shape.items : shape.properties?.[key];
    v = v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[key] : undefined;
  }
  return (s as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
}
