import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';

export interface FieldError {
  /** Path of the field inside the entry, e.g. ['productVersions', 0, 'platform']. */
  path: (string | number)[];
  reason: string;
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
      out.push({ path, reason: `must be one of: ${consts.join(', ')}` });
      continue;
    }
    for (const e of errors) {
      const params = e.params as { requiredProperties?: string[]; additionalProperties?: string[] };
      if (e.keyword === 'required') {
        for (const name of params.requiredProperties ?? []) out.push({ path: [...path, name], reason: 'is required' });
      } else if (e.keyword === 'additionalProperties') {
        for (const name of params.additionalProperties ?? []) out.push({ path: [...path, name], reason: 'unknown field' });
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
