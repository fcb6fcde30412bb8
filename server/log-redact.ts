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

/** Free text (an error message, a stack) with URL secrets and e-mail-like text masked. */
export function redactText(text: string): string {
  return maskEmails(text.replace(/([?&](?:preview|_csrf|code|id_token_hint)=)[^&\s'"]*/gi, `$1${REDACTED}`));
}
