/**
 * The last good copy of public HTML pages, kept so they can still be answered while the database is
 * away (DESIGN "Running safely": cached pages keep serving). Bounded by count and by total bytes; the
 * least recently used copy goes first.
 */
export interface PageCopy {
  body: string;
  /** The CSP nonce the body was rendered with, replaced by the new response's own when served. */
  nonce: string;
  headers: Record<string, string>;
  bytes: number;
}

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

  keep(key: string, copy: Omit<PageCopy, 'bytes'>): void {
    const bytes = Buffer.byteLength(copy.body) + key.length;
    this.drop(key);
    if (bytes > this.maxBytes) return;
    this.copies.set(key, { ...copy, bytes });
    this.total += bytes;
    while (this.copies.size > this.max || this.total > this.maxBytes) {
      this.drop(this.copies.keys().next().value as string);
    }
  }

  get(key: string): PageCopy | undefined {
    const copy = this.copies.get(key);
    if (!copy) return undefined;
    this.copies.delete(key);
    this.copies.set(key, copy);
    return copy;
  }

  clear(): void {
    this.copies.clear();
    this.total = 0;
  }

  private drop(key: string): void {
    const copy = this.copies.get(key);
    if (!copy) return;
    this.copies.delete(key);
    this.total -= copy.bytes;
  }
}
