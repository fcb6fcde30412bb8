import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';

/**
 * The HTTP encoding rules pages (server/plugins/page-cache.ts) and static assets (server/plugins/assets.ts)
 * share: which content coding a client gets, whether its validator still matches, and how the brotli
 * and gzip forms are made. Each form is made once and kept, so both use the highest levels.
 */
export type Encoding = 'br' | 'gzip';

/** A q-value (RFC 9110 §12.4.2): a number from 0 to 1; anything else refuses the coding. */
function qValue(text: string): number {
  const q = text === '' ? Number.NaN : Number(text);
  return q >= 0 && q <= 1 ? q : 0;
}

/**
 * The encoding to send for an Accept-Encoding header (RFC 9110 §12.5.3): the highest q-value the client
 * gives an encoding on offer, `*` standing for those it does not name, x-gzip for gzip, brotli on a tie;
 * undefined when the body goes out as it is. With `forms`, only the encodings it holds are on offer.
 */
export function negotiateEncoding(
  header: string | string[] | undefined,
  forms?: Partial<Record<Encoding, unknown>>,
): Encoding | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return undefined;
  const weights = new Map<string, number>();
  for (const part of value.toLowerCase().split(',')) {
    const [coding = '', ...params] = part.split(';');
    const name = coding.trim();
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*(\S*)\s*$/.exec(param);
      if (match) q = qValue(match[1] ?? '');
    }
    weights.set(name === 'x-gzip' ? 'gzip' : name, q);
  }
  const weight = (encoding: Encoding) => (forms && !forms[encoding] ? 0 : weights.get(encoding) ?? weights.get('*') ?? 0);
  const br = weight('br');
  const gz = weight('gzip');
  if (br <= 0 && gz <= 0) return undefined;
  return br >= gz ? 'br' : 'gzip';
}

/** An entity tag, weak or strong, or `*`, as they stand in a list (a comma may sit inside quotes). */
const ENTITY_TAG = /\*|(?:W\/)?"[^"]*"/g;

/**
 * Whether If-None-Match names `etag` (RFC 9110 §13.1.2): a list of entity tags compared weakly (W/ is
 * ignored on either side, since every encoding of a body shares its validator), or `*`.
 */
export function ifNoneMatch(header: string | string[] | undefined, etag: string): boolean {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value || !etag) return false;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const tag of value.match(ENTITY_TAG) ?? []) {
    if (tag === '*' || tag === opaque || tag === `W/${opaque}`) return true;
  }
  return false;
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * A body in one encoding, at the highest level (brotli 11 in text mode, gzip 9): each form is made once
 * per file or per page and content version, not per response, and brotli at 11 comes out smaller than
 * gzip where a per-response level does not. zlib's asynchronous calls run on its thread pool, off the
 * event loop.
 */
export function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'gzip') return gzipAsync(body, { level: 9 });
  return brotli(body, {
    params: {
      [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

/** Every compressed form of a body, made side by side. */
export async function compressAll(body: Buffer): Promise<Record<Encoding, Buffer>> {
  const [br, gz] = await Promise.all([compress(body, 'br'), compress(body, 'gzip')]);
  return { br, gzip: gz };
}
