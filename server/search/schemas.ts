/**
 * The search call (spec §3 search request / response, §7). These schemas validate requests,
 * serialise responses and are published as OpenAPI.
 */
import { Type, type Static } from 'typebox';
import { MAX_QUERY_CHARS, MAX_QUERY_TERMS } from './bounds.ts';

export const CONTENT_TYPES = ['topic', 'topic_set', 'collection', 'kb_article'] as const;
export type ContentTypeKey = (typeof CONTENT_TYPES)[number];
export const PLATFORMS = ['cloud', 'data_center'] as const;
export const SORTS = ['relevance', 'last_published'] as const;

/** A string enum as JSON Schema `enum`, so a bad value gets one clear message naming the allowed ones. */
function StringEnum<T extends readonly string[]>(values: T) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });
}
const Platform = StringEnum(PLATFORMS);
const ContentType = StringEnum(CONTENT_TYPES);
const Sort = StringEnum(SORTS);

export const SearchRequestSchema = Type.Object({
  // Bounded so that no search costs much (bounds.ts); at most MAX_QUERY_TERMS words is checked by the route.
  query: Type.String({ minLength: 1, maxLength: MAX_QUERY_CHARS, description: `What the visitor typed: at most ${MAX_QUERY_CHARS} characters and ${MAX_QUERY_TERMS} words` }),
  facetFilters: Type.Optional(Type.Object({
    contentTypes: Type.Optional(Type.Array(ContentType, { maxItems: 10 })),
    products: Type.Optional(Type.Array(Type.Object({
      platform: Platform,
      key: Type.String({ minLength: 1, maxLength: 100, description: 'Product key: the productNameId of a product' }),
      versions: Type.Optional(Type.Array(Type.String({ pattern: '^[0-9]+(\\.[0-9]+)*$' }), { maxItems: 20 })),
    }, { additionalProperties: false }), { maxItems: 20 })),
  }, { additionalProperties: false })),
  highlights: Type.Optional(Type.Object({ enable: Type.Boolean() }, { additionalProperties: false })),
  pagination: Type.Optional(Type.Object({
    from: Type.Integer({ minimum: 0, maximum: 10_000 }),
    size: Type.Integer({ minimum: 1, maximum: 50 }),
  }, { additionalProperties: false })),
  language: Type.Optional(Type.String({ pattern: '^[a-z]{2}(-[A-Z]{2})?$' })),
  facets: Type.Optional(Type.Object({ enable: Type.Boolean() }, { additionalProperties: false })),
  sort: Type.Optional(Type.Object({ by: Sort }, { additionalProperties: false })),
}, { additionalProperties: false, $id: 'SearchRequest' });
export type SearchRequest = Static<typeof SearchRequestSchema>;

const ResultProduct = Type.Object({
  key: Type.String(), name: Type.String(), platform: Platform, versions: Type.Array(Type.String()),
});

export const SearchResultSchema = Type.Object({
  content: Type.Object({
    contentAri: Type.String(),
    title: Type.String(),
    description: Type.String(),
    url: Type.String(),
    contentType: ContentType,
    /** The section whose heading matches the query; the url links to its anchor. */
    section: Type.Optional(Type.Object({ id: Type.String(), title: Type.String() })),
    products: Type.Array(ResultProduct),
    breadcrumbs: Type.Array(Type.String()),
    metadata: Type.Object({
      lastPublishedAt: Type.Union([Type.String(), Type.Null()]),
      trustFactors: Type.Object({ helpfulCount: Type.Integer(), numViews: Type.Integer() }),
    }),
  }),
  highlights: Type.Optional(Type.Object({ description: Type.String() })),
});
export type SearchResult = Static<typeof SearchResultSchema>;

export const SearchResponseSchema = Type.Object({
  queryId: Type.String(),
  results: Type.Array(SearchResultSchema),
  facets: Type.Object({
    contentTypes: Type.Array(Type.Object({ key: ContentType, count: Type.Integer() })),
    products: Type.Array(Type.Object({
      platform: Platform,
      products: Type.Array(Type.Object({ key: Type.String(), name: Type.String(), count: Type.Integer(), versions: Type.Array(Type.String()) })),
    })),
  }),
  pagination: Type.Object({ from: Type.Integer(), size: Type.Integer(), total: Type.Integer() }),
  metadata: Type.Object({
    query: Type.Object({
      originalQuery: Type.String(),
      rewrittenQuery: Type.Union([Type.String(), Type.Null()]),
      searchedQuery: Type.String(),
    }),
    sort: Type.Object({ by: Sort }),
    source: Type.String(),
  }),
}, { $id: 'SearchResponse' });
export type SearchResponse = Static<typeof SearchResponseSchema>;
