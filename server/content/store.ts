/**
 * Reads of the stored content. Published reads (pages by path, entries by id, outlines, routes, lists
 * of a type) are kept in bounded caches until the content changes; preview reads go to the database.
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
/** Outlines and routes are small (no bodies): enough for the navigation of a few large documentation spaces. */
const OUTLINE_CACHE_SIZE = 5000;
const ROUTE_CACHE_SIZE = 5000;
const MISS_CACHE_SIZE = 256;
/** Shared data keyed by the code and the content (header per language, trees per context and version). */
const SHARED_CACHE_SIZE = 1000;
/** Search responses are kept briefly: popular queries repeat, and helpful counts may lag a minute. */
const SEARCH_CACHE_SIZE = 1000;
const SEARCH_CACHE_MS = 60_000;

/**
 * What navigation needs of an entry (page tree, child lists, guide order): no body, no rich text. The
 * fields are only those named in OUTLINE_FIELDS.
 */
export interface Outline {
  id: string;
  type: EntryKind;
  title: string | null;
  fields: {
    shortTitle?: string; description?: string; metaDescription?: string; pageType?: string; buttonText?: string;
    children?: string[]; topics?: string[];
    /** A collection's icon: guide cards show it (spec §9). */
    icon?: { url: string };
  };
}

const OUTLINE_FIELDS = ['shortTitle', 'description', 'metaDescription', 'pageType', 'buttonText', 'children', 'topics', 'icon'] as const;
const OUTLINE_COLUMNS = `e.id, e.type, e.title,
  jsonb_strip_nulls(jsonb_build_object(${OUTLINE_FIELDS.map((f) => `'${f}', e.fields->'${f}'`).join(', ')})) as fields`;

/** A published entry listed on a page (knowledge-base home): its title, page and description. */
export interface Listing {
  id: string;
  title: string | null;
  path: string;
  metaDescription: string | undefined;
}

export interface Route {
  path: string;
  version: string | null;
}

export interface CacheSizes {
  shared: { size: number; max: number };
  pages: LookupCache<RoutedEntry>['sizes'];
  ids: LookupCache<StoredEntry>['sizes'];
  outlines: LookupCache<Outline>['sizes'];
  routes: LookupCache<Route[]>['sizes'];
  searches: { size: number; max: number };
}

/**
 * Published reads are served from memory per content version (DESIGN: every page type's data comes from
 * the content cache): after a page has been rendered once, rendering it again asks the database nothing.
 * Preview reads stay live, so an editor always sees the stored draft.
 */
export class ContentStore {
  private cache = new Lru<unknown>(SHARED_CACHE_SIZE);
  private pages = new LookupCache<RoutedEntry>(PAGE_CACHE_SIZE, MISS_CACHE_SIZE);
  private ids = new LookupCache<StoredEntry>(ID_CACHE_SIZE, MISS_CACHE_SIZE);
  private outlineCache = new LookupCache<Outline>(OUTLINE_CACHE_SIZE, MISS_CACHE_SIZE);
  private routes = new LookupCache<Route[]>(ROUTE_CACHE_SIZE, MISS_CACHE_SIZE);
  private searches = new Lru<unknown>(SEARCH_CACHE_SIZE, SEARCH_CACHE_MS);

  private invalidated: (() => unknown)[] = [];

  /**
   * Published reads go to `reads` (a read replica when one is fit, server/db/replicas.ts); preview reads,
   * which an editor makes right after saving, go to the primary.
   */
  constructor(private readonly primary: Queryable, private readonly reads: Queryable & { fence?: () => void } = primary) {}

  private from(preview: boolean): Queryable {
    return preview ? this.primary : this.reads;
  }

  /**
   * Drops cached entries; called when an import commits (on any instance). Settles once what the
   * listeners read again (the flag definitions imported with the content) is read.
   */
  invalidate(): Promise<void> {
    // First: a replica that has not replayed the change yet must not fill the emptied caches with the old content.
    this.reads.fence?.();
    this.cache.clear();
    this.pages.clear();
    this.ids.clear();
    this.outlineCache.clear();
    this.routes.clear();
    this.searches.clear();
    const pending = this.invalidated.map((listener) => listener());
    return Promise.allSettled(pending).then(() => undefined);
  }

  /** Runs `listener` whenever the caches are dropped, so caches of rendered pages follow the content. */
  onInvalidate(listener: () => unknown): void {
    this.invalidated.push(listener);
  }

  /** How full each cache is, against its bound. */
  cacheSizes(): CacheSizes {
    return {
      shared: { size: this.cache.size, max: this.cache.max },
      pages: this.pages.sizes,
      ids: this.ids.sizes,
      outlines: this.outlineCache.sizes,
      routes: this.routes.sizes,
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
    const rows = await this.from(preview).query<RoutedEntry>(
      `select ${COLUMNS}, r.version as "routeVersion" from content_routes r join content_entries e on e.id = r.entry_id
       where r.path = $1 and (e.published or $2)`,
      [path, options.preview],
    );
    return rows[0];
  }

  /** Entries by id, in the order asked (each once); published ones from memory. */
  async byIds(ids: string[], options: { preview: boolean }): Promise<StoredEntry[]> {
    if (ids.length === 0) return [];
    if (!options.preview) {
      const found = await this.ids.getMany(ids, async (missing) => byId(await this.queryIds(missing, false)));
      return [...new Set(ids)].flatMap((id) => found.get(id) ?? []);
    }
    return this.queryIds(ids, true);
  }

  private queryIds(ids: string[], preview: boolean): Promise<StoredEntry[]> {
    return this.from(preview).query<StoredEntry>(
      `select ${COLUMNS} from content_entries e where e.id = any($1::text[]) and (e.published or $2)`,
      [ids, preview],
    );
  }

  async byId(id: string, options: { preview: boolean }): Promise<StoredEntry | undefined> {
    if (!options.preview) return this.ids.get(id, async () => (await this.queryIds([id], false))[0]);
    return (await this.queryIds([id], true))[0];
  }

  /** Outlines of entries by id, in the order asked (each once); published ones from memory. */
  async outlines(ids: string[], options: { preview: boolean }): Promise<Outline[]> {
    if (ids.length === 0) return [];
    const query = (list: string[]) => this.from(options.preview).query<Outline>(
      `select ${OUTLINE_COLUMNS} from content_entries e where e.id = any($1::text[]) and (e.published or $2)`,
      [list, options.preview],
    );
    const found = options.preview
      ? byId(await query(ids))
      : await this.outlineCache.getMany(ids, async (missing) => byId(await query(missing)));
    return [...new Set(ids)].flatMap((id) => found.get(id) ?? []);
  }

  /** The one entry of a page type that has no path of its own (not-found, preview error). */
  pageOfType(pageType: string): Promise<StoredEntry | undefined> {
    return this.cached(`pageType:${pageType}`, async () => {
      const rows = await this.reads.query<StoredEntry>(
        `select ${COLUMNS} from content_entries e where e.type = 'page' and e.fields->>'pageType' = $1 and e.published
         order by e.language = 'en-US' desc, e.id limit 1`,
        [pageType],
      );
      return rows[0];
    });
  }

  singleton(type: 'header' | 'metadata'): Promise<StoredEntry | undefined> {
    return this.cached(`singleton:${type}`, async () => {
      const rows = await this.reads.query<StoredEntry>(`select ${COLUMNS} from content_entries e where e.type = $1 limit 1`, [type]);
      return rows[0];
    });
  }

  /**
   * Every published page worth indexing, for the sitemap: not the search results (robots.txt disallows
   * them), nor pages that only hold a visitor's own forms or an error. Read once per content version: the
   * sitemap keeps what it builds from it.
   */
  publishedPaths(): Promise<{ path: string; lastPublished: Date | null }[]> {
    return this.reads.query(
      `select r.path, e.last_published as "lastPublished" from content_routes r join content_entries e on e.id = r.entry_id
       where e.published and coalesce(e.fields->>'pageType', '') <> all($1::text[]) order by r.path`,
      [UNINDEXED_PAGE_TYPES],
    );
  }

  /** Every route of each entry, from memory once read (routes do not depend on preview: drafts have them too). */
  private routesOfMany(ids: string[]): Promise<Map<string, Route[]>> {
    return this.routes.getMany(ids, async (missing) => {
      const rows = await this.reads.query<{ entry_id: string; path: string; version: string | null }>(
        `select entry_id, path, version from content_routes where entry_id = any($1::text[]) order by entry_id, path`,
        [missing],
      );
      const out = new Map<string, Route[]>(missing.map((id) => [id, []]));
      for (const r of rows) out.get(r.entry_id)?.push({ path: r.path, version: r.version });
      return out;
    });
  }

  /** Paths of entries, preferring the route of the given version (as pathsFor below). */
  async pathsFor(ids: string[], version: string | null): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const routes = await this.routesOfMany(ids);
    const out = new Map<string, string>();
    for (const [id, list] of routes) {
      const best = preferredRoute(list, version);
      if (best) out.set(id, best.path);
    }
    return out;
  }

  /** Paths of entries for exactly this version (or unversioned pages): what exists in that version. */
  async exactPaths(ids: string[], version: string | null): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const routes = await this.routesOfMany(ids);
    const out = new Map<string, string>();
    for (const [id, list] of routes) {
      const exact = list.find((r) => r.version === null || r.version === version);
      if (exact) out.set(id, exact.path);
    }
    return out;
  }

  /** Every version path of one entry, ordered by path. */
  async routesOf(id: string): Promise<Route[]> {
    return (await this.routesOfMany([id])).get(id) ?? [];
  }

  /** Entries of one type, optionally in one context, by title; published ones once per content version. */
  ofType(type: string, options: { preview: boolean; contextId?: string }): Promise<StoredEntry[]> {
    const query = () => this.from(options.preview).query<StoredEntry>(
      `select ${COLUMNS} from content_entries e where e.type = $1 and (e.published or $2)
         and ($3::text is null or e.context_id = $3) order by e.title`,
      [type, options.preview, options.contextId ?? null],
    );
    return options.preview ? query() : this.cached(`ofType:${type}:${options.contextId ?? ''}`, query);
  }

  /** Published entries of one type in one context that have a page, by title: what a list page links to. */
  listings(type: string, contextId: string): Promise<Listing[]> {
    return this.cached(`listings:${type}:${contextId}`, async () => (await this.reads.query<Listing & { metaDescription: string | null }>(
      `select e.id, e.title, e.path, e.fields->>'metaDescription' as "metaDescription" from content_entries e
       where e.type = $1 and e.published and e.context_id = $2 and e.path is not null order by e.title`,
      [type, contextId],
    )).map((r) => ({ ...r, metaDescription: r.metaDescription ?? undefined })));
  }

  /** Cached per content version: shared data every page needs (header, products, cards). */
  memo<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.cached(`memo:${key}`, load);
  }

  /** The documentation home of a context (and version), once per content version. */
  docsHome(contextId: string, version: string | null): Promise<{ path: string; title: string } | undefined> {
    return this.cached(`docsHome:${contextId}:${version ?? ''}`, async () => (await this.reads.query<{ path: string; title: string }>(
      `select r.path, e.title from content_entries e join content_routes r on r.entry_id = e.id
       where e.type = 'page' and e.fields->>'pageType' = 'documentedProduct' and e.context_id = $1 and e.published
         and (r.version is not distinct from $2) limit 1`,
      [contextId, version],
    ))[0]);
  }

  async hasContent(): Promise<boolean> {
    // The primary: readiness and the first import's decision must not wait on a replica's replay.
    const rows = await this.primary.query<{ n: number }>('select count(*)::int as n from content_entries');
    return (rows[0]?.n ?? 0) > 0;
  }
}

const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));

/**
 * The route of the given version, else the highest other version, else the unversioned one (what
 * `order by (version is not distinct from $2) desc, version desc nulls last` picked in SQL).
 */
function preferredRoute(routes: Route[], version: string | null): Route | undefined {
  let best: Route | undefined;
  for (const r of routes) {
    if (r.version === version) return r;
    if (!best || (r.version !== null && (best.version === null || r.version > best.version))) best = r;
  }
  return best;
}
