import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { compress, ifNoneMatch, negotiateEncoding, type Encoding } from '../http/encoding.ts';
import { PageCache, type PageCopies, type PageCopy } from '../pages/page-copies.ts';
import { carriesPreviewToken, isPersonalRequest } from './cache-rules.ts';
import { pageOptionsOf } from './render.ts';
import { TOKEN_WINDOW_MS } from './secrets.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Rendered public pages, answered from memory until the content changes (and during outages). */
    pageCopies: PageCache;
  }
  interface FastifyReply {
    /** Answers the last good copy of the requested page, marked no-store, if one is kept; false when there is none. */
    sendPageCopy(): boolean;
  }
}

export interface PageCacheOptions {
  /** The clock form tokens are issued by (tests move it to roll the token window over). */
  clock?: (() => number) | undefined;
}

/**
 * Whether a request may get an answer personal to the visitor: it carries the session cookie (valid or
 * not; the cookie is opened later, and an unreadable one is cleared by a personal answer). Such requests
 * are never answered from the page cache nor stored in it: they render every time.
 */
export function isPersonal(request: FastifyRequest): boolean {
  return isPersonalRequest(request);
}

/** Whether a request may be answered with, and its answer kept as, the page every visitor gets. */
function isShared(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && !carriesPreviewToken(request) && !isPersonal(request);
}

/**
 * A page and its htmx region are different bodies at one URL (DESIGN request flow: they vary on
 * HX-Request; boosted and history-restore requests get the whole page), so each kind has its own copy.
 */
export function keyOf(request: FastifyRequest): string {
  const h = request.headers;
  if (h['hx-request'] === undefined) return request.url;
  return `hx:${String(h['hx-request'])}${h['hx-boosted'] === undefined ? '' : ':boosted'}${h['hx-history-restore-request'] === undefined ? '' : ':restore'} ${request.url}`;
}

/** The end of the token window `now` is in: a page kept past it would carry a form token about to expire. */
export function windowEnd(now: number): number {
  return (Math.floor(now / TOKEN_WINDOW_MS) + 1) * TOKEN_WINDOW_MS;
}

/** Smaller bodies go out as they are: compressing them saves less than the header costs. */
export const COMPRESS_MIN_BYTES = 1024;
/** Headers that belong to one response, or that are answered from the copy's own fields. */
const NOT_KEPT = new Set([
  'etag', 'content-length', 'content-encoding', 'set-cookie', 'date', 'connection', 'keep-alive', 'transfer-encoding',
]);

export function keptHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined && !NOT_KEPT.has(name)) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}

/**
 * The render cache. Public pages (reply.page with `cache: 'public'`, a 200 or a 404, no cookie set)
 * are kept as rendered, with their ETag, and answered from an onRequest hook: a hit runs no loader,
 * database query, React render or hash, and a 304 is answered from the copy's validator. Brotli and
 * gzip forms are made once, in the background after the first request that asks for each, and sent with Content-Encoding
 * set so @fastify/compress and @fastify/etag leave them as they are.
 *
 * A copy is answered until the content changes (the store's invalidation, which every instance hears
 * through NOTIFY), until the end of the form-token window it was rendered in (secrets.ts: a page must
 * never carry an expired token), and no longer than the page's `lifetimeMs` (search results). Requests
 * carrying a preview token and personal requests neither read nor fill the cache.
 *
 * DESIGN "Running safely": while the database is away, a page asked for before is answered from its
 * copy, even one past its lifetime, marked no-store; and while the content-change listener is away,
 * copies are answered no-store too (a change elsewhere may go unannounced until it is back).
 *
 * Registered before compression and ETags, so the onSend hook sees the page as rendered.
 */
export default fp<PageCacheOptions>(async (app, opts) => {
  const clock = opts.clock ?? Date.now;
  const cache = new PageCache();
  app.decorate('pageCopies', cache);
  app.content.onInvalidate(() => cache.clear());

  /** The cache generation a request started in: a page rendered across a content change is not kept. */
  const startedIn = new WeakMap<FastifyRequest, number>();
  /** Requests answered from a copy: their onSend must not keep them again. */
  const answered = new WeakSet<FastifyRequest>();

  /** A compressed form of a copy: made once, shared by the requests waiting for it; undefined if it fails. */
  function encodedForm(key: string, partition: PageCopies | undefined, copy: PageCopy, encoding: Encoding): Promise<Buffer | undefined> {
    const made = copy.encoded[encoding];
    if (made) return Promise.resolve(made);
    let pending = copy.pending[encoding];
    if (!pending) {
      pending = compress(copy.body, encoding).then((body) => {
        if (partition) partition.addEncoded(key, copy, encoding, body);
        return body;
      }, (error: unknown) => {
        delete copy.pending[encoding];
        throw error;
      });
      copy.pending[encoding] = pending;
    }
    return pending.catch((error: unknown) => {
      app.log.error({ err: error, encoding }, 'page compression failed; answered uncompressed');
      return undefined;
    });
  }

  /** The encoding a copy is answered in; undefined when the body goes out as it is. */
  function encodingFor(request: FastifyRequest, copy: PageCopy): Encoding | undefined {
    if (copy.body.length < COMPRESS_MIN_BYTES) return undefined;
    return negotiateEncoding(request.headers['accept-encoding']);
  }

  function setHeaders(reply: FastifyReply, copy: PageCopy, encoding: Encoding | undefined, noStore: boolean): void {
    reply.headers(copy.headers);
    reply.header('vary', copy.headers.vary ? `Accept-Encoding, ${copy.headers.vary}` : 'Accept-Encoding');
    if (copy.etag) reply.header('etag', copy.etag);
    if (noStore) reply.header('cache-control', 'no-store');
    if (encoding) reply.header('content-encoding', encoding);
  }

  app.addHook('onRequest', async (request, reply) => {
    if (!isShared(request)) return;
    startedIn.set(request, cache.generation);
    const key = keyOf(request);
    const found = cache.find(key, request.url);
    if (!found || found.copy.expires <= clock()) return;
    const { copy, partition } = found;
    answered.add(request);
    request.cacheStatus = 'hit';
    const noStore = !app.contentChangesHeard();
    if (copy.status === 200 && ifNoneMatch(request.headers['if-none-match'], copy.etag)) {
      setHeaders(reply, copy, undefined, noStore);
      reply.code(304).send();
      return reply;
    }
    let encoding = encodingFor(request, copy);
    const body = encoding ? await encodedForm(key, partition, copy, encoding) : copy.body;
    if (!body) encoding = undefined;
    setHeaders(reply, copy, encoding, noStore);
    reply.code(copy.status).send(body ?? copy.body);
    return reply;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    if (answered.has(request) || typeof payload !== 'string') return payload;
    const options = pageOptionsOf(request);
    if (options?.cache !== 'public' || !isShared(request)) return payload;
    // A page every visitor gets, rendered because no copy was kept: the access line says so.
    request.cacheStatus = 'miss';
    if (reply.hasHeader('set-cookie')) return payload;
    const status = reply.statusCode;
    if (status !== 200 && status !== 404) return payload;
    const now = clock();
    const key = keyOf(request);
    const partition = cache.partitionOf(request.url, status);
    const copy = {
      status, body: Buffer.from(payload), etag: String(reply.getHeader('etag') ?? ''), headers: keptHeaders(reply),
      expires: Math.min(windowEnd(now), now + (options.lifetimeMs ?? Infinity)),
    };
    // Rendered from content that has changed since the request started: answered, not kept.
    if (startedIn.get(request) !== cache.generation) return payload;
    for (const other of [cache.pages, cache.queries, cache.missing]) if (other !== partition) other.drop(key);
    // Requests that rendered the same page side by side share one copy, and so one compression.
    const same = partition.get(key);
    const kept = same && same.etag === copy.etag && same.status === status && same.expires === copy.expires ? same : partition.keep(key, copy);
    if (!kept) return payload;
    if (status === 200 && ifNoneMatch(request.headers['if-none-match'], kept.etag)) {
      setHeaders(reply, kept, undefined, false);
      reply.code(304);
      return '';
    }
    // The form at the highest level is made once, in the background, for the requests that follow: this
    // visitor does not wait for it (brotli 11 takes tens of milliseconds, the render one or two), and
    // gets the page as @fastify/compress makes it at its quick default level. Only for the site's own
    // paths: a made-up query string or path costs its sender a render, never tens of milliseconds of
    // compression (those copies get their form when someone asks for them again).
    const encoding = partition === cache.pages ? encodingFor(request, kept) : undefined;
    if (encoding) void encodedForm(key, partition, kept, encoding);
    return payload;
  });

  app.decorateReply('sendPageCopy', function sendPageCopy(this: FastifyReply) {
    const request = this.request;
    if (!isShared(request)) return false;
    const found = cache.find(keyOf(request), request.url);
    if (!found || found.copy.status !== 200) return false;
    const { copy } = found;
    answered.add(request);
    request.cacheStatus = 'stale';
    // Only a form already made: an outage is no time to start compressing.
    const wanted = encodingFor(request, copy);
    const encoding = wanted && copy.encoded[wanted] ? wanted : undefined;
    setHeaders(this, copy, encoding, true);
    this.code(200).send(encoding ? copy.encoded[encoding] : copy.body);
    return true;
  });
}, { name: 'page-cache', dependencies: ['content', 'render', 'access-log'] });
