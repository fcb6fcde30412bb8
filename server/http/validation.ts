/**
 * How route schemas check input. Query strings, parameters and headers are text, so their schemas
 * coerce ('2' is the number 2); a JSON body is typed already, so its schema does not: `"query": 5` is
 * a 400 naming the field, never the text '5'.
 */
import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';

type RouteSchema = { httpPart?: string };
type Validate = (route: RouteSchema) => unknown;

const coercing = AjvCompiler();
const exact = AjvCompiler();

/** Fastify's own Ajv compiler twice: as configured for text, and without coercion for JSON bodies. */
export const buildValidator: AjvCompiler.BuildCompilerFromPool = (externalSchemas, options) => {
  const text = coercing(externalSchemas, options) as unknown as Validate;
  const json = exact(externalSchemas, { ...options, customOptions: { ...options?.customOptions, coerceTypes: false } } as typeof options) as unknown as Validate;
  // Fastify calls what this returns with the route and the part of the request it checks.
  return ((route: RouteSchema) => (route.httpPart === 'body' ? json : text)(route)) as unknown as ReturnType<AjvCompiler.BuildCompilerFromPool>;
};

/**
 * One message per field: a value that must be one of a list names the list once (an `anyOf` of
 * constants otherwise says 'must be equal to constant' once per constant).
 */
export function schemaErrorFormatter(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const byPath = new Map<string, FastifySchemaValidationError[]>();
  for (const e of errors) byPath.set(e.instancePath, [...(byPath.get(e.instancePath) ?? []), e]);
  const messages: string[] = [];
  for (const [path, list] of byPath) {
    const where = `${dataVar}${path}`;
    const constants = list.filter((e) => e.keyword === 'const').map((e) => (e.params as { allowedValue?: unknown }).allowedValue);
    const allowed = list.find((e) => e.keyword === 'enum')?.params as { allowedValues?: unknown[] } | undefined;
    const values = allowed?.allowedValues ?? (list.some((e) => e.keyword === 'anyOf') && constants.length > 0 ? constants : undefined);
    if (values) {
      messages.push(`${where} must be one of: ${values.map((v) => String(v)).join(', ')}`);
      continue;
    }
    for (const e of list) {
      if (e.keyword === 'anyOf' && list.length > 1) continue;
      const message = `${where} ${e.message ?? 'is not valid'}`;
      if (!messages.includes(message)) messages.push(message);
    }
  }
  return new Error(messages.join(', '));
}
