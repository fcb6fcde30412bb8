/**
 * Rendered public pages kept in memory, with their compressed forms and their validator: the page
 * cache answers them until the content changes, and while the database is away they are still
 * answered (DESIGN "Running safely": cached pages keep serving). Bounded by count and by total bytes;
 * the least recently used copy goes first.
 */
import type { Encoding } from '../http/encoding.ts';

export interface PageCopy {
  status: number;
  /** The page as rendered (identity encoding). */
  body: Buffer;
  /** Strong validator, computed once when the page was rendered. */
  etag: string;
  /** Headers to answer with (content type, CSP, cache lifetime, …); no per-response ones. */
  headers: Record<string, string>;
  /** Until when (ms since the epoch) the copy may be answered as the current page. */
  expires: number;
  /** Compressed forms, each made once, on the first request that asks for it. */
  encoded: Partial<Record<Encoding, Buffer>>;
  /** Compressions under way, shared by the requests that wait for them. */
  pending: Partial<Record<Encoding, Promise<Buffer>>>;
  /** Bytes counted against the bound: the key, the body and every compressed form. */
  bytes: number;
}

export type NewPageCopy = Pick<PageCopy, 'body' | 'headers'> & Partial<Pick<PageCopy, 'status' | 'etag' | 'expires'>>;

export const PAGE_COPIES_MAX = 1000;
export const PAGE_COPIES_MAX_BYTES = 32 * 1024 * 1024;

export class PageCopies {
  private copies = new Map<string, PageCopy>();
  private total = 0;

  constructor(private readonly max = PAGE_COPIES_MAX, private readonly maxBytes = PAGE_COPIES_MAX_BYTES) {}

  get size(): number {
    return this.copies.size;
  }

  get bytes(): number {
    return this.total;
  }

  keep(key: string, copy: NewPageCopy): PageCopy | undefined {
    const kept: PageCopy = {
      status: 200, etag: '', expires: Infinity, ...copy, encoded: {}, pending: {}, bytes: copy.body.length + key.length,
    };
    this.drop(key);
    if (kept.bytes > this.maxBytes) return undefined;
    this.copies.set(key, kept);
    this.total += kept.bytes;
    this.trim();
    return kept;
  }

  /** The copy, now the most recently used. */
  get(key: string): PageCopy | undefined {
    const copy = this.copies.get(key);
    if (!copy) return undefined;
    this.copies.delete(key);
    this.copies.set(key, copy);
    return copy;
  }

  /** Adds a compressed form to a copy, counted against the bound while the copy is kept. */
  addEncoded(key: string, copy: PageCopy, encoding: Encoding, body: Buffer): void {
    copy.encoded[encoding] = body;
    delete copy.pending[encoding];
    copy.bytes += body.length;
    if (this.copies.get(key) !== copy) return;
    this.total += body.length;
    this.trim();
  }

  clear(): void {
    this.copies.clear();
    this.total = 0;
  }

  private trim(): void {
    while (this.copies.size > this.max || this.total > this.maxBytes) {
      this.drop(this.copies.keys().next().value as string);
    }
  }

  /** Forgets the copy kept under a key, if any. */
  drop(key: string): void {
    const copy = this.copies.get(key);
    if (!copy) return;
    this.copies.delete(key);
    this.total -= copy.bytes;
  }
}

/** Page URLs (no query string): one per stored page at most, so they cannot grow without bound. */
export const PAGES_MAX = 4000;
export const PAGES_MAX_BYTES = 64 * 1024 * 1024;
/** URLs with a query string (search results, form states, made-up parameters) are kept apart. */
export const QUERIES_MAX = 1000;
export const QUERIES_MAX_BYTES = 16 * 1024 * 1024;
/** Not-found pages: any made-up path is one, so they get a small bound of their own. */
export const MISSING_MAX = 256;
export const MISSING_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The page cache's three partitions, so that made-up URLs (unknown paths, invented query strings)
 * only ever evict each other, never the site's own pages.
 */
export class PageCache {
  readonly pages: PageCopies;
  readonly queries: PageCopies;
  readonly missing: PageCopies;
  /** Grows each time the copies are dropped: a page rendered before a change is not kept after it. */
  generation = 0;

  constructor(bounds: { pages?: [number, number]; queries?: [number, number]; missing?: [number, number] } = {}) {
    this.pages = new PageCopies(...(bounds.pages ?? [PAGES_MAX, PAGES_MAX_BYTES]));
    this.queries = new PageCopies(...(bounds.queries ?? [QUERIES_MAX, QUERIES_MAX_BYTES]));
    this.missing = new PageCopies(...(bounds.missing ?? [MISSING_MAX, MISSING_MAX_BYTES]));
  }

  /** Where a response of this status at this URL is kept. */
  partitionOf(url: string, status: number): PageCopies {
    if (status !== 200) return this.missing;
    return url.includes('?') ? this.queries : this.pages;
  }

  /** The copy kept under a key, and the partition that holds it. */
  find(key: string, url: string): { copy: PageCopy; partition: PageCopies } | undefined {
    for (const partition of [url.includes('?') ? this.queries : this.pages, this.missing]) {
      const copy = partition.get(key);
      if (copy) return { copy, partition };
    }
    return undefined;
  }

  get size(): number {
    return this.pages.size + this.queries.size + this.missing.size;
  }

  get bytes(): number {
    return this.pages.bytes + this.queries.bytes + this.missing.bytes;
  }

  clear(): void {
    this.generation++;
    this.pages.clear();
    this.queries.clear();
    this.missing.clear();
  }
}
