/**
 * What may appear in a log line: no secret and no e-mail address (spec §5: e-mail-like text in a
 * search term is masked before it reaches logs). URLs carry both: `?preview=TOKEN`, and search terms,
 * which forms send percent-encoded (`a%40b.example`), so text is decoded before it is looked at.
 */
import { maskEmails } from './search/highlight.ts';

/**
 * Query parameters whose value is a secret: the preview token, form tokens, and sign-in's authorization
 * code and ID token hint (the callback's and the end-session endpoint's URLs).
 */
const SECRET_PARAMS = new Set(['preview', '_csrf', 'code', 'id_token_hint']);
export const REDACTED = '[redacted]';

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** One path segment or query part: masked (and re-encoded) when it holds e-mail-like text. */
function maskPart(raw: string): string {
  const decoded = decode(raw);
  const masked = maskEmails(decoded);
  return masked === decoded ? maskEmails(raw) : encodeURIComponent(masked);
}

/** A request URL fit for a log line: secret parameters replaced, e-mail-like text masked. */
export function redactUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q)).split('/').map(maskPart).join('/');
  if (q < 0) return path;
  const query = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (eq < 0) return maskPart(pair);
    return SECRET_PARAMS.has(decode(key).trim().toLowerCase()) ? `${maskPart(key)}=${REDACTED}` : `${maskPart(key)}=${maskPart(pair.slice(eq + 1))}`;
  });
  return `${path}?${query.join('&')}`;
}

/**
 * An address in free text: neither side holds a path's `/` or `:`, so a stack frame through a scoped
 * package (`(file:///app/node_modules/@fastify/multipart/index.js:1:2)`) stays readable, and a domain
 * ends in a label starting with a letter (`.pnpm/fastify@5.1.0` is a version); an address in a message,
 * quoted or in brackets, or a folder named after one, is still masked.
 */
const ADDRESS_IN_TEXT = /[^\s@<>()[\]/\\:;,"'`]+@[^\s@<>()[\]/\\:;,"'`]+\.[A-Za-z][^\s@<>()[\]/\\:;,"'`]*/g;

/** Free text (an error message, a stack) with URL secrets and e-mail addresses masked. */
export function redactText(text: string): string {
  return text.replace(/([?&](?:preview|_csrf|code|id_token_hint)=)[^&\s'"]*/gi, `$1${REDACTED}`).replace(ADDRESS_IN_TEXT, '[email]');
}

/**
 * Fields of a database error that hold the statement's values: PGlite attaches `params` (and the
 * options it ran with) to the errors it throws; no value a visitor sent belongs in a log line.
 */
const VALUE_FIELDS = new Set(['params', 'parameters', 'queryParams', 'queryOptions', 'values', 'bindings']);

/**
 * A serialized error fit for a log line, at any depth (a cause, an error kept on another): no field
 * holding a statement's values, and every string with its secrets and addresses masked.
 */
export function redactError(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => redactError(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (!VALUE_FIELDS.has(key)) out[key] = redactError(v, depth + 1);
  return out;
}
