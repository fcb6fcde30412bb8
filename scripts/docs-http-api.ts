/**
 * The HTTP API reference page of docs/, written from the OpenAPI document the routes' own schemas make
 * (@fastify/swagger, served at /gateway/api/help-content/v2/openapi.json): every tagged route, by tag, with
 * its parameters, body and responses. A route or field the schemas do not describe is said to be so,
 * never guessed. `npm run docs:reference` writes it; test/docs/docs.test.ts checks it is what the running
 * app's document makes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const HTTP_API_PAGE = join(ROOT, 'docs/topics/reference/http-api.md');
export const OPENAPI_PATH = '/gateway/api/help-content/v2/openapi.json';

/** The parts of an OpenAPI 3 document this page reads. */
export interface OpenApiDocument {
  info?: { title?: string; version?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, { type?: string; scheme?: string; description?: string }> };
}
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}
type Schema = {
  type?: string | string[]; description?: string; enum?: unknown[]; const?: unknown; default?: unknown;
  properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[];
  minLength?: number; maxLength?: number; minimum?: number; maximum?: number; minItems?: number; maxItems?: number;
  pattern?: string; format?: string; additionalProperties?: boolean | Schema; nullable?: boolean;
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');
const code = (text: string) => `\`${text.replace(/`/g, "'")}\``;

/** A schema's type in words: unions, enumerations, arrays of a type. */
export function typeOf(s: Schema | undefined): string {
  if (!s) return 'any';
  if (s.const !== undefined) return code(JSON.stringify(s.const));
  if (s.enum) return s.enum.map((v) => code(JSON.stringify(v))).join(' or ');
  const union = s.anyOf ?? s.oneOf;
  if (union) {
    const consts = union.every((u) => u.const !== undefined);
    return consts ? union.map((u) => code(JSON.stringify(u.const))).join(' or ') : union.map(typeOf).join(' or ');
  }
  const type = Array.isArray(s.type) ? s.type.join(' or ') : s.type ?? (s.properties ? 'object' : 'any');
  if (type === 'array') return `array of ${typeOf(s.items)}`;
  return `${type}${s.nullable ? ' or null' : ''}`;
}

/** What a schema allows beyond its type: lengths, ranges, patterns, defaults, its description. */
function limits(s: Schema | undefined): string {
  if (!s) return '';
  const out: string[] = [];
  if (s.description) out.push(s.description);
  if (s.minLength !== undefined || s.maxLength !== undefined) out.push(`${s.minLength ?? 0}–${s.maxLength ?? '∞'} characters`);
  if (s.minimum !== undefined || s.maximum !== undefined) out.push(`${s.minimum ?? '−∞'} to ${s.maximum ?? '∞'}`);
  if (s.minItems !== undefined || s.maxItems !== undefined) out.push(`${s.minItems ?? 0}–${s.maxItems ?? '∞'} items`);
  if (s.pattern) out.push(`matches ${code(s.pattern)}`);
  if (s.format) out.push(`format ${s.format}`);
  if (s.default !== undefined) out.push(`default ${code(JSON.stringify(s.default))}`);
  if (s.additionalProperties === false && s.properties) out.push('no other fields');
  return out.join('; ');
}

/** Every field of an object schema (nested objects and arrays of objects by dotted name), as table rows. */
export function fieldRows(s: Schema | undefined, prefix = '', depth = 0): string[] {
  const target = s?.type === 'array' && s.items?.properties ? s.items : s;
  if (!target?.properties || depth > 4) return [];
  const rows: string[] = [];
  for (const [name, field] of Object.entries(target.properties)) {
    const full = `${prefix}${name}`;
    const required = target.required?.includes(name) ? 'yes' : 'no';
    rows.push(`| ${code(full)} | ${cell(typeOf(field))} | ${required} | ${cell(limits(field))} |`);
    const inner = field.type === 'array' ? field.items : field;
    if (inner?.properties) rows.push(...fieldRows(inner, `${full}${field.type === 'array' ? '[]' : ''}.`, depth + 1));
  }
  return rows;
}

function schemaBlock(s: Schema | undefined, what: string): string {
  if (!s) return `${what}: not described by a schema.\n`;
  const rows = fieldRows(s);
  if (rows.length === 0) return `${what}: ${typeOf(s)}${limits(s) ? ` (${limits(s)})` : ''}.\n`;
  return `${what}${s.type === 'array' ? ` (an ${typeOf(s)})` : ''}:\n\n| field | type | required | notes |\n|---|---|---|---|\n${rows.join('\n')}\n`;
}

function operationSection(method: string, path: string, op: Operation, doc: OpenApiDocument): string {
  const parts: string[] = [`### ${method.toUpperCase()} ${path}\n`];
  parts.push(`${op.summary ?? 'No summary in the schema'}.${op.description ? ` ${op.description}` : ''}\n`);
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
  if (schemes.length > 0) {
    parts.push(`Authentication: ${schemes.map((name) => {
      const scheme = doc.components?.securitySchemes?.[name];
      return scheme?.scheme === 'bearer' ? `\`Authorization: Bearer …\` (${scheme.description ?? name})` : name;
    }).join(', ')}.\n`);
  }
  const params = op.parameters ?? [];
  if (params.length > 0) {
    parts.push('| parameter | in | type | required | notes |\n|---|---|---|---|---|\n'
      + params.map((p) => `| ${code(p.name)} | ${p.in} | ${cell(typeOf(p.schema))} | ${p.required ? 'yes' : 'no'} | ${cell([p.description, limits(p.schema)].filter(Boolean).join('; '))} |`).join('\n') + '\n');
  } else {
    parts.push('Parameters: none described by the schema.\n');
  }
  if (op.requestBody) {
    for (const [type, media] of Object.entries(op.requestBody.content ?? {})) parts.push(schemaBlock(media.schema, `Body (${code(type)})`));
  }
  const responses = Object.entries(op.responses ?? {});
  for (const [status, response] of responses) {
    const media = Object.entries(response.content ?? {});
    if (media.length === 0) { parts.push(`Response ${status}: ${response.description && response.description !== 'Default Response' ? response.description : 'its body is not described by a schema'}.\n`); continue; }
    for (const [type, m] of media) parts.push(schemaBlock(m.schema, `Response ${status} (${code(type)})`));
  }
  return parts.join('\n');
}

/** The page: every tagged operation of the document, grouped by its first tag, in the document's tag order. */
export function httpApiReference(doc: OpenApiDocument): string {
  const tags = doc.tags ?? [];
  const byTag = new Map<string, string[]>();
  let count = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationSection(method, path, op, doc)]);
      count += 1;
    }
  }
  const order = [...tags.map((t) => t.name), ...[...byTag.keys()].filter((t) => !tags.some((x) => x.name === t))];
  const sections = order.filter((t) => byTag.has(t)).map((t) => {
    const about = tags.find((x) => x.name === t)?.description;
    return `## ${t[0]!.toUpperCase()}${t.slice(1)}\n\n${about ? `${about}\n\n` : ''}${byTag.get(t)!.join('\n')}`;
  });
  return '---\nid: signpost-http-api\ntitle: HTTP API reference\nslug: http-api\ncontext: signpost\nlastPublished: 2026-11-28T12:00:00Z\n---\n'
    + `Every route of Signpost's HTTP API (${count}), written by \`npm run docs:reference\` from the OpenAPI document the routes' own schemas make, `
    + `which a running server also serves at \`${OPENAPI_PATH}\`. Pages, forms and sign-in are HTML for people and are not listed. `
    + 'Errors are JSON `{statusCode, error, message}` whose message names the field at fault.\n\n'
    + `${sections.join('\n')}`;
}

/** The OpenAPI document of the app as configured by default (a throwaway embedded database, nothing imported). */
export async function openApiDocument(): Promise<OpenApiDocument> {
  const [{ default: app, serverOptions }, { loadConfig }] = await Promise.all([import('../server/app.ts'), import('../server/config.ts')]);
  const dataDir = await mkdtemp(join(tmpdir(), 'signpost-openapi-'));
  const config = loadConfig({
    ...process.env, CONTENT_DIR: join(ROOT, 'docs'), DATA_DIR: dataDir, DATABASE_URL: '', DATABASE_READ_URL: '',
    IMPORT_ON_START: 'false', LOG_LEVEL: 'silent',
  });
  const server = Fastify({ ...serverOptions, logger: false });
  try {
    await server.register(app, { config });
    await server.ready();
    return server.swagger() as unknown as OpenApiDocument;
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
