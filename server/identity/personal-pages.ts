/**
 * Signed-in pages without a render per request (issue "Tests and figures": a signed-in topic at half
 * the anonymous page's throughput or better). A page a signed-in visitor gets differs from the
 * anonymous one only by their role (signed in, author, staff, partner) and by their name, e-mail and
 * picture in the account menu. So a page is rendered once per role with placeholders where those three
 * go (`template`: no personal data in it, by construction), kept in this instance's memory, and filled
 * in, escaped, for each visitor; its text between the placeholders is gzipped once, so a visitor's page
 * is assembled rather than compressed (server/http/gzip-pieces.ts). The answer stays `private, no-store` without an ETag; the shared page
 * cache never sees it.
 *
 * Kept like the page cache's copies (server/plugins/page-cache.ts): dropped when the content changes,
 * at the end of the form-token window, after a page's own lifetime; not used while content changes may
 * go unheard; only 200s at addresses without a query string, a bounded number, oldest out first.
 */
import { randomBytes } from 'node:crypto';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { negotiateEncoding } from '../http/encoding.ts';
import { GzipPieces } from '../http/gzip-pieces.ts';
import type { Visitor } from '../../views/view-model.ts';
import { initials } from '../../views/parts/account-menu.tsx';
import { COMPRESS_MIN_BYTES, keptHeaders, keyOf, windowEnd } from '../plugins/page-cache.ts';
import { isPersonalRequest } from '../plugins/cache-rules.ts';
import { pageOptionsOf } from '../plugins/render.ts';
import { requestVisitor } from './roles.ts';
import { SLOT_CLOSE, SLOT_OPEN } from '../content/slot-markers.ts';
import type { Config } from '../config.ts';

/**
 * A personal slot: U+E000, a nonce made for this one render, the field, U+E001. Only the slots this
 * render put in are filled: text a page shows that someone else wrote (a body, a title, a request's
 * message) cannot name a slot, even if it slipped past the import's check (server/content/slot-markers.ts),
 * because it cannot know the nonce: it is never sent (every slot is filled first), and no other render
 * uses it.
 */
const FIELDS = ['name', 'email', 'avatar', 'initials'] as const;
type Field = (typeof FIELDS)[number];
const slot = (nonce: string, field: Field) => `${SLOT_OPEN}${nonce}:${field}${SLOT_CLOSE}`;
/** 128 random bits, hex: nothing in them that HTML or JSON escaping would change. */
export const slotNonce = () => randomBytes(16).toString('hex');
const slotsOf = (nonce: string) => new RegExp(`${SLOT_OPEN}${nonce}:(${FIELDS.join('|')})${SLOT_CLOSE}`, 'g');

/** Role templates kept at most (pages × roles); about 20 KB each. */
export const MAX_TEMPLATES = 1000;

interface Template {
  /** The page split at its placeholders: text at even indexes, a field's name at odd ones (split). */
  parts: string[];
  /** The text between the placeholders, gzip-compressed once (server/http/gzip-pieces.ts). */
  gzip: GzipPieces;
  /** Characters of the text between the placeholders. */
  size: number;
  headers: Record<string, string>;
  expires: number;
}

/** Requests whose page is being rendered as a role template (chrome.ts asks), with their render's nonce. */
const rendering = new WeakMap<FastifyRequest, string>();
/** Requests answered from a template. */
const answered = new WeakSet<FastifyRequest>();

/** The visitor to render: the real one, or for a role template its role with placeholders for the rest. */
export function renderedVisitor(request: FastifyRequest, visitor: Visitor): Visitor {
  const nonce = rendering.get(request);
  if (nonce === undefined || !visitor.signedIn) return visitor;
  return {
    ...visitor, id: undefined,
    displayName: visitor.displayName ? slot(nonce, 'name') : undefined,
    email: slot(nonce, 'email'),
    avatarUrl: visitor.avatarUrl ? slot(nonce, 'avatar') : undefined,
    initials: slot(nonce, 'initials'),
  };
}

/** Which template a visitor's page comes from: their role, and which of the personal fields they have. */
function roleKey(visitor: Visitor): string {
  const bit = (b: unknown) => (b ? '1' : '0');
  return [visitor.signedIn, visitor.canEdit, visitor.staff, visitor.partner, visitor.displayName, visitor.avatarUrl].map(bit).join('');
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A value inside a JSON string of an island's props block (<script type="application/json">, written by
 * islandJson in views/rich-text/safe-html.tsx): JSON-escaped, with `<`, U+2028 and U+2029 escaped as
 * islandJson does, so neither `</script>` nor `<!--` can end or change the block. HTML escaping there
 * would be wrong: the browser does not decode entities in a script's text, so `&#39;` would show.
 */
export const escapeJsonString = (text: string) => JSON.stringify(text).slice(1, -1)
  .replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** A field name at an odd index of a split template, marked so when its placeholder is inside a JSON data block. */
const JSON_FIELD = 'json:';

/**
 * A rendered template split at its render's slots (`nonce`), once, so filling it is a join. Each slot's
 * context is decided here: inside a JSON data block (an island's props) its field name is marked
 * `json:`, elsewhere (text and attributes) it is plain.
 */
export function split(template: string, nonce: string): string[] {
  const parts = template.split(slotsOf(nonce));
  let inJson = false;
  for (let i = 0; i < parts.length; i += 2) {
    const text = (parts[i] as string).toLowerCase();
    const open = text.lastIndexOf('<script');
    const close = text.lastIndexOf('</script');
    if (open > close) inJson = /^<script[^>]*type="application\/json"/.test(text.slice(open));
    else if (close >= 0) inJson = false;
    if (inJson && i + 1 < parts.length) parts[i + 1] = JSON_FIELD + (parts[i + 1] as string);
  }
  return parts;
}

/** The placeholders' values for this visitor, escaped for where each one is, in template order. */
function valuesFor(parts: string[], visitor: Visitor): string[] {
  const who = visitor.displayName || visitor.email;
  const values: Record<string, string> = {
    name: visitor.displayName ?? '', email: visitor.email ?? '', avatar: visitor.avatarUrl ?? '', initials: initials(who),
  };
  const out: string[] = [];
  for (let i = 1; i < parts.length; i += 2) {
    const field = parts[i] as string;
    out.push(field.startsWith(JSON_FIELD)
      ? escapeJsonString(values[field.slice(JSON_FIELD.length)] ?? '')
      : escapeHtml(values[field] ?? ''));
  }
  return out;
}

/** A template with this visitor's name, e-mail and picture, each escaped for where it is. */
export function fill(parts: string[], visitor: Visitor): string {
  const values = valuesFor(parts, visitor);
  let out = '';
  for (let i = 0; i < parts.length; i += 1) out += i % 2 === 1 ? values[(i - 1) / 2] : parts[i];
  return out;
}

/** The fixed text of a split template: its even parts. */
const fixedOf = (parts: string[]) => parts.filter((_, i) => i % 2 === 0);


/**
 * The filled page in the client's encoding, compressed here at a quick level (brotli 1, gzip 1: about a
 * twentieth of a millisecond for a 20 KB page) and marked, so @fastify/compress leaves it as it is. A
 * personal page is compressed for every request, so speed matters more than the last few hundred bytes.
 */
function encoded(request: FastifyRequest, reply: FastifyReply, body: string): string | Buffer {
  if (body.length < COMPRESS_MIN_BYTES || reply.hasHeader('content-encoding')) return body;
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  if (!encoding) return body;
  markEncoded(reply, encoding);
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 1, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : gzipSync(body, { level: 1 });
}

function markEncoded(reply: FastifyReply, encoding: string): void {
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `Accept-Encoding, ${String(vary)}` : 'Accept-Encoding');
  reply.header('content-encoding', encoding);
}

/**
 * A kept template filled for this visitor: its pieces are gzipped already, so gzip whenever the client
 * takes it (no compression per request), else as any other personal page.
 */
function fromTemplate(request: FastifyRequest, reply: FastifyReply, template: Template, visitor: Visitor): string | Buffer {
  const values = valuesFor(template.parts, visitor);
  if (template.size >= COMPRESS_MIN_BYTES && !reply.hasHeader('content-encoding') && negotiateEncoding(request.headers['accept-encoding'], { gzip: true })) {
    markEncoded(reply, 'gzip');
    return template.gzip.body(values);
  }
  return encoded(request, reply, fill(template.parts, visitor));
}

export interface PersonalPagesOptions {
  config: Pick<Config, 'staffDomain' | 'partnerHosts'>;
  clock?: (() => number) | undefined;
}

export default fp<PersonalPagesOptions>(async (app, opts) => {
  const clock = opts.clock ?? Date.now;
  const templates = new Map<string, Template>();
  let generation = 0;
  const startedIn = new WeakMap<FastifyRequest, number>();
  app.content.onInvalidate(() => {
    templates.clear();
    generation += 1;
  });

  const visitorOf = (request: FastifyRequest) => requestVisitor(app, request, opts.config);


  const eligible = (request: FastifyRequest) =>
    request.method === 'GET' && request.user !== undefined && isPersonalRequest(request) && !request.url.includes('?') &&
    !request.url.startsWith('/assets/') && !request.url.startsWith('/gateway/') && app.contentChangesHeard();

  app.addHook('onRequest', async (request, reply) => {
    if (!eligible(request)) return;
    const visitor = await visitorOf(request);
    const key = `${roleKey(visitor)} ${keyOf(request)}`;
    const found = templates.get(key);
    if (found && found.expires > clock()) {
      templates.delete(key);
      templates.set(key, found);
      answered.add(request);
      request.cacheStatus = 'hit';
      reply.headers(found.headers).code(200);
      reply.send(fromTemplate(request, reply, found, visitor));
      return reply;
    }
    if (found) templates.delete(key);
    rendering.set(request, slotNonce());
    startedIn.set(request, generation);
    return undefined;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const nonce = rendering.get(request);
    if (answered.has(request) || nonce === undefined || typeof payload !== 'string') return payload;
    const options = pageOptionsOf(request);
    const visitor = await visitorOf(request);
    // Whatever happens to the template, this visitor gets their own page.
    const parts = split(payload, nonce);
    // (A Set-Cookie here is this visitor's session being re-sealed: not part of the page, not kept.)
    if (options?.sharedByRole && reply.statusCode === 200 && startedIn.get(request) === generation) {
      const now = clock();
      const fixed = fixedOf(parts);
      const template: Template = {
        parts, gzip: new GzipPieces(fixed), size: fixed.reduce((n, p) => n + p.length, 0),
        headers: keptHeaders(reply), expires: Math.min(windowEnd(now), now + (options.lifetimeMs ?? Infinity)),
      };
      templates.set(`${roleKey(visitor)} ${keyOf(request)}`, template);
      while (templates.size > MAX_TEMPLATES) templates.delete(templates.keys().next().value as string);
      request.cacheStatus = 'miss';
      return fromTemplate(request, reply, template, visitor);
    }
    return encoded(request, reply, fill(parts, visitor));
  });
}, { name: 'personal-pages', dependencies: ['content', 'render', 'session'] });
