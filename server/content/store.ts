/**
 * Reads of the stored content. Pages are looked up per request; the few entries every page
 * needs (site metadata, header, not-found page) are cached until the content changes.
 */
import type { Queryable } from '../db/driver.ts';
import type { Document } from './rich-text.ts';
import type { LinkList } from '../../views/rich-text/rich-text.tsx';
import type { EntryKind } from './schemas.ts';
import { Lru } from './lru.ts';
import { LookupCache } from './lookup-cache.ts';

export interface StoredEntry {
  id: string;
  type: EntryKind;
  published: boolean;
  path: string | null;
  title: string | null;
  contextId: string | null;
  productId: string | null;
  deployment: string | null;
  versions: string[];
  language: string;
  lastPublished: Date | null;
  fields: Record<string, unknown>;
  document: { document: Document; links: LinkList } | null;
  html: string | null;
}

export interface RoutedEntry extends StoredEntry {
  /** The version the requested path is for (versioned documentation). */
  routeVersion: string | null;
}

const COLUMNS = `e.id, e.type, e.published, e.path, e.title, e.context_id as "contextId", e.product_id as "productId",
  e.deployment, e.versions, e.language, e.last_published as "lastPublished", e.fields, e.document, e.html`;

/** Page types left out of the sitemap. */
const UNINDEXED_PAGE_TYPES = ['searchResults', 'myRequests', 'fileDownload', 'notFound', 'previewError'];

/**
 * Every cache here is bounded: a distinct made-up id per request must not grow memory.
 * Published pages and entries by id, most recently used first; lookups that found nothing are kept
 * apart in a small cache of their own, so made-up paths and ids cannot evict real pages.
 */
const PAGE_CACHE_SIZE = 2000;
const ID_CACHE_SIZE = 2000;
const MISS_CACHE_SIZE = 256;
/** Shared data keyed by the code and the content (header per language, trees per context and version). */
const SHARED_CACHE_SIZE = 1000;
/** Search responses are kept briefly: popular queries repeat, and helpful counts may lag a minute. */
const SEARCH_CACHE_SIZE = 1000;
const SEARCH_CACHE_MS = 60_000;

export interface CacheSizes {
  shared: { size: number; max: number };
  pages: LookupCache<RoutedEntry>['sizes'];
  ids: LookupCache<StoredEntry>['sizes'];
  searches: { size: number; max: number };
}

export class ContentStore {
  private cache = new Lru<unknown>(SHARED_CACHE_SIZE);
  private pages = new LookupCache<RoutedEntry>(PAGE_CACHE_SIZE, MISS_CACHE_SIZE);
  private ids = new LookupCache<StoredEntry>(ID_CACHE_SIZE, MISS_CACHE_SIZE);
  private searches = new Lru<unknown>(SEARCH_CACHE_SIZE, SEARCH_CACHE_MS);

  private invalidated: (() => void)[] = [];

  constructor(private readonly db: Queryable) {}

  /** Drops cached entries; called when an import commits (on any instance). */
  invalidate(): void {
    this.cache.clear();
    this.pages.clear();
    this.ids.clear();
    this.searches.clear();
    for (const listener of this.invalidated) listener();
  }

  /** Runs `listener` whenever the caches are dropped, so caches of rendered pages follow the content. */
  onInvalidate(listener: () => void): void {
    this.invalidated.push(listener);
  }

  /** How full each cache is, against its bound. */
  cacheSizes(): CacheSizes {
    return {
      shared: { size: this.cache.size, max: this.cache.max },
      pages: this.pages.sizes,
      ids: this.ids.sizes,
      searches: { size: this.searches.size, max: this.searches.max },
    };
  }

  /** A search response from the short-lived cache, or computed now. */
  cachedSearch<T>(key: string, run: () => Promise<T>): Promise<T> {
    return this.searches.get(key, run) as Promise<T>;
  }

  private cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.cache.get(key, load) as Promise<T>;
  }

  /** The published page at a path, from memory when it was asked for recently. */
  byPath(path: string, options: { preview: boolean }): Promise<RoutedEntry | undefined> {
    if (options.preview) return this.queryPath(path, true);
    return this.pages.get(path, () => this.queryPath(path, false));
  }

  private async queryPath(path: string, preview: boolean): Promise<RoutedEntry | undefined> {
    const options = { preview };
    const rows = await this.db.query<RoutedEntry>(
      `select ${COLUMNS}, r.version as "routeVersion" from content_routes r join content_entries e on e.id = r.entry_id
       where r.path = $1 and (e.published or $2)`,
      [path, options.preview],
    );
    return rows[0];
  }

  async byIds(ids: string[], options: { preview: boolean }): Promise<StoredEntry[]> {
    if (ids.length === 0) return [];
    return this.db.query<StoredEntry>(
      `select ${COLUMNS} from content_entries e where e.id = any($1::text[]) and (e.published or $2)`,
      [ids, options.preview],
    );
  }

  async byId(id: string, options: { preview: boolean }): Promise<StoredEntry | undefined> {
    if (!options.preview) return this.ids.get(id, async () => (await this.byIds([id], options))[0]);
    return (await this.byIds([id], options))[0];
  }

  /** The one entry of a page type that has no path of its own (not-found, preview error). */
  pageOfType(pageType: string): Promise<StoredEntry | undefined> {
    return this.cached(`pageType:${pageType}`, async () => {
      const rows = await this.db.query<StoredEntry>(
        `select ${COLUMNS} from content_entries e where e.type = 'page' and e.fields->>'pageType' = $1 and e.published
         order by e.language = 'en-US' desc, e.id limit 1`,
        [pageType],
      );
      return rows[0];
    });
  }

  singleton(type: 'header' | 'metadata'): Promise<StoredEntry | undefined> {
    return this.cached(`singleton:${type}`, async () => {
      const rows = await this.db.query<StoredEntry>(`select ${COLUMNS} from content_entries e where e.type = $1 limit 1`, [type]);
      return rows[0];
    });
  }

  /**
   * Every published page worth indexing, for the sitemap: not the search results (robots.txt disallows
   * them), nor pages that only hold a visitor's own forms or an error.
   */
  async publishedPaths(): Promise<{ path: string; lastPublished: Date | null }[]> {
    return this.db.query(
      `select r.path, e.last_published as "lastPublished" from content_routes r join content_entries e on e.id = r.entry_id
       where e.published and coalesce(e.fields->>'pageType', '') <> all($1::text[]) order by r.path`,
      [UNINDEXED_PAGE_TYPES],
    );
  }

  pathsFor(ids: string[], version: string | null): Promise<Map<string, string>> {
    return pathsFor(this.db, ids, version);
  }

  /** Paths of entries for exactly this version (or unversioned pages): what exists in that version. */
  async exactPaths(ids: string[], version: string | null): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.query<{ entry_id: string; path: string }>(
      `select entry_id, path from content_routes where entry_id = any($1::text[]) and (version is null or version = $2)`,
      [ids, version],
    );
    return new Map(rows.map((r) => [r.entry_id, r.path]));
  }

  /** Every version path of one entry. */
  async routesOf(id: string): Promise<{ path: string; version: string | null }[]> {
    return this.db.query(`select path, version from content_routes where entry_id = $1 order by path`, [id]);
  }

  /** Entries of one type, optionally in one context. */
  async ofType(type: string, options: { preview: boolean; contextId?: string }): Promise<StoredEntry[]> {
    return this.db.query<StoredEntry>(
      `select ${COLUMNS} from content_entries e where e.type = $1 and (e.published or $2)
         and ($3::text is null or e.context_id = $3) order by e.title`,
      [type, options.preview, options.contextId ?? null],
    );
  }

  /** Cached per content version: shared data every page needs (header, products, cards). */
  memo<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.cached(`memo:${key}`, load);
  }

  /** The documentation home of a context (and version). */
  async docsHome(contextId: string, version: string | null): Promise<{ path: string; title: string } | undefined> {
    const rows = await this.db.query<{ path: string; title: string }>(
      `select r.path, e.title from content_entries e join content_routes r on r.entry_id = e.id
       where e.type = 'page' and e.fields->>'pageType' = 'documentedProduct' and e.context_id = $1 and e.published
         and (r.version is not distinct from $2) limit 1`,
      [contextId, version],
    );
    return rows[0];
  }

  async hasContent(): Promise<boolean> {
    const rows = await this.db.query<{ n: number }>('select count(*)::int as n from content_entries');
    return (rows[0]?.n ?? 0) > 0;
  }
}

/** Paths of entries, preferring the route of the given version. */
export async function pathsFor(db: Queryable, ids: string[], version: string | null): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ entry_id: string; path: string }>(
    `select distinct on (entry_id) entry_id, path from content_routes where entry_id = any($1::text[])
     order by entry_id, (version is not distinct from $2) desc, version desc nulls last`,
    [ids, version],
  );
  return new Map(rows.map((r) => [r.entry_id, r.path]));
}
