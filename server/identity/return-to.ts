/**
 * Return addresses (the login link's `continue`, and every other address a visitor is sent back to
 * after signing in or out): only a path on this site, else the support home (issue "Sign-in against any
 * OpenID Connect issuer"). What browsers read as another site — `//host`, `/\host`, a scheme, userinfo,
 * the same hidden behind percent-encoding, whitespace or look-alike slashes — never passes.
 */

/** Longer return addresses are not pages of this site. */
export const MAX_RETURN_LENGTH = 2048;

/**
 * Characters no return address of ours holds: controls and whitespace (browsers strip tabs and newlines
 * inside URLs, and leading spaces, so `/\t/evil` is `//evil`), backslashes (browsers read `\` as `/`), and
 * Unicode characters that look like or normalise to slashes.
 */
const REFUSED = /[\u0000-\u0020\u007f-\u00a0\\\u1680\u2000-\u200f\u2028-\u202f\u205f\u2044\u2215\u2216\u29f5\u29f8\u29f9\u3000\ufe68\ufeff\uff0f\uff3c]/;

/** What a percent-decoded address may not hold: controls (a header split) and backslashes. */
const REFUSED_DECODED = /[\u0000-\u001f\u007f\\]/;

/** `raw` percent-decoded until it stops changing (at most three rounds); undefined when it does not decode. */
function decoded(raw: string): string | undefined {
  let value = raw;
  for (let i = 0; i < 3; i += 1) {
    let next: string;
    try {
      next = decodeURIComponent(value);
    } catch {
      return undefined;
    }
    if (next === value) break;
    value = next;
  }
  return value;
}

/**
 * The path (with query and fragment) of `raw` when it is a page of this site: a path (`/x?y#z`) or an
 * absolute URL on PUBLIC_URL's origin; '/' otherwise.
 */
export function safeReturnPath(raw: unknown, publicUrl: string): string {
  if (typeof raw !== 'string' || raw === '' || raw.length > MAX_RETURN_LENGTH) return '/';
  if (REFUSED.test(raw)) return '/';
  const plain = decoded(raw);
  if (plain === undefined || REFUSED_DECODED.test(plain)) return '/';
  const origin = new URL(publicUrl).origin;
  let target: URL;
  try {
    if (raw.startsWith('/')) {
      if (raw.startsWith('//') || plain.startsWith('//')) return '/';
      target = new URL(raw, origin);
    } else {
      if (!/^https?:\/\//i.test(raw)) return '/';
      target = new URL(raw);
      if (target.username !== '' || target.password !== '') return '/';
    }
  } catch {
    return '/';
  }
  if (target.origin !== origin) return '/';
  const path = `${target.pathname}${target.search}${target.hash}`;
  const pathPlain = decoded(target.pathname);
  if (!path.startsWith('/') || path.startsWith('//') || pathPlain === undefined || pathPlain.startsWith('//')) return '/';
  return path;
}
