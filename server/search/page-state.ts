/**
 * The results page's state, all of it in the URL (spec §4), and the filter rules of §4/§5 as
 * pure functions from state to state and to search requests.
 */
import type { SearchState } from '../../views/view-model.ts';
import type { ContentTypeKey, SearchRequest } from './schemas.ts';
import { CONTENT_TYPES } from './schemas.ts';
import { languageOf } from './relevance.ts';

export const PAGE_SIZE = 10;
export const MAX_PAGE_BUTTONS = 10;

export const CATEGORIES: { key: string; name: string; contentTypes: ContentTypeKey[] }[] = [
  { key: 'all', name: 'All', contentTypes: [...CONTENT_TYPES] },
  { key: 'documentation', name: 'Documentation', contentTypes: ['topic', 'topic_set', 'collection'] },
  { key: 'troubleshooting', name: 'Troubleshooting', contentTypes: ['kb_article'] },
];

export const CONTENT_TYPE_LABELS: Record<ContentTypeKey, string> = {
  topic: 'Topics', topic_set: 'Topic sets', collection: 'Collections', kb_article: 'Knowledge base',
};

export interface RawQuery {
  searchTerm?: string;
  deployment?: string;
  product?: string;
  version?: string;
  contentType?: string;
  sort?: string;
  category?: string;
  page?: string | number;
}

const PARAM_LABELS: Record<keyof RawQuery, string> = {
  searchTerm: 'search term', deployment: 'deployment', product: 'product', version: 'version', contentType: 'content type',
  sort: 'sort order', category: 'category', page: 'page number',
};

/**
 * Address options the page could not use (a made-up sort, deployment 'mars', page -1): the state leaves
 * them out, and the page names them instead of refusing the whole search (issue: a bare 400 for a visitor).
 */
export function ignoredParams(query: RawQuery, state: SearchState): string[] {
  const given = (key: keyof RawQuery) => query[key] !== undefined && String(query[key]) !== '';
  const ignored: (keyof RawQuery)[] = [];
  if (given('deployment') && state.deployment !== query.deployment) ignored.push('deployment');
  if (given('product') && state.product !== query.product) ignored.push('product');
  if (given('version') && state.version !== query.version) ignored.push('version');
  if (given('contentType') && state.contentTypes.join(',') !== query.contentType) ignored.push('contentType');
  if (given('sort') && state.sort !== query.sort) ignored.push('sort');
  if (given('category') && state.category !== query.category) ignored.push('category');
  if (given('page') && String(state.page) !== String(query.page)) ignored.push('page');
  return ignored.map((key) => PARAM_LABELS[key]);
}

/** A whole page number from 1 to 1000; anything else is page 1. */
function pageNumber(raw: string | number | undefined): number {
  const n = Number(raw ?? 1);
  return Number.isInteger(n) && n >= 1 && n <= 1000 ? n : 1;
}

export function stateFrom(query: RawQuery): SearchState {
  const deployment = query.deployment === 'cloud' || query.deployment === 'data_center' ? query.deployment : '';
  return {
    searchTerm: (query.searchTerm ?? '').trim(),
    deployment,
    product: /^[a-z0-9-]{1,100}$/.test(query.product ?? '') ? (query.product as string) : '',
    // Versions exist only for data center (spec §5).
    version: deployment === 'data_center' && /^[0-9]+(\.[0-9]+)*$/.test(query.version ?? '') ? (query.version as string) : '',
    contentTypes: (query.contentType ?? '').split(',').filter((t): t is ContentTypeKey => (CONTENT_TYPES as readonly string[]).includes(t)),
    sort: query.sort === 'last_published' ? 'last_published' : 'relevance',
    category: CATEGORIES.some((c) => c.key === query.category) ? (query.category as string) : 'all',
    page: pageNumber(query.page),
  };
}

/** The URL of a state; page 1 is left out, so every filter change returns to the first result. */
export function hrefOf(state: SearchState): string {
  const params = new URLSearchParams();
  if (state.searchTerm) params.set('searchTerm', state.searchTerm);
  if (state.deployment) params.set('deployment', state.deployment);
  if (state.product) params.set('product', state.product);
  if (state.version) params.set('version', state.version);
  if (state.contentTypes.length > 0) params.set('contentType', state.contentTypes.join(','));
  if (state.sort !== 'relevance') params.set('sort', state.sort);
  if (state.category !== 'all') params.set('category', state.category);
  if (state.page > 1) params.set('page', String(state.page));
  const query = params.toString();
  return `/search-results/${query ? `?${query}` : ''}`;
}

/** Spec §4: changing any filter resets the result index. */
export function withFilter(state: SearchState, change: Partial<SearchState>): SearchState {
  return { ...state, ...change, page: 1 };
}

/** Spec §4: choosing a product sets its deployment and clears the version. */
export function chooseProduct(state: SearchState, product: string, deployment: 'cloud' | 'data_center'): SearchState {
  return withFilter(state, { product, deployment, version: '' });
}

/** Spec §4: reset clears deployment, product, versions and category content types. */
export function reset(state: SearchState): SearchState {
  return withFilter(state, { deployment: '', product: '', version: '', contentTypes: [] });
}

/** Spec §4: removing the product tag clears product, deployment and versions. */
export function removeProduct(state: SearchState): SearchState {
  return withFilter(state, { product: '', deployment: '', version: '' });
}

export function toggleContentType(state: SearchState, type: ContentTypeKey): SearchState {
  const on = state.contentTypes.includes(type);
  return withFilter(state, { contentTypes: on ? state.contentTypes.filter((t) => t !== type) : [...state.contentTypes, type] });
}

/** The content types a state searches: its category's, narrowed by any chosen types. */
export function effectiveTypes(state: SearchState): ContentTypeKey[] {
  const category = CATEGORIES.find((c) => c.key === state.category) ?? CATEGORIES[0];
  const inCategory = category?.contentTypes ?? [...CONTENT_TYPES];
  const chosen = state.contentTypes.filter((t): t is ContentTypeKey => (inCategory as string[]).includes(t));
  return chosen.length > 0 ? chosen : state.category === 'all' ? [] : inCategory;
}

/**
 * The search request for a state. The deployment filter goes only with a known product and
 * deployment: cloud stays cloud, anything else is data_center with its version (spec §5).
 */
export function requestFor(state: SearchState): SearchRequest {
  const request: SearchRequest = {
    query: state.searchTerm,
    pagination: { from: (state.page - 1) * PAGE_SIZE, size: PAGE_SIZE },
    highlights: { enable: true },
    facets: { enable: true },
    language: languageOf(state.searchTerm),
    sort: { by: state.sort },
  };
  const facetFilters: NonNullable<SearchRequest['facetFilters']> = {};
  const types = effectiveTypes(state);
  if (types.length > 0) facetFilters.contentTypes = types;
  if (state.product && state.deployment) {
    facetFilters.products = [state.deployment === 'cloud'
      ? { platform: 'cloud', key: state.product }
      : { platform: 'data_center', key: state.product, ...(state.version ? { versions: [state.version] } : {}) }];
  }
  if (Object.keys(facetFilters).length > 0) request.facetFilters = facetFilters;
  return request;
}

/** Page buttons: at most ten, around the current page. */
export function pageWindow(total: number, current: number): number[] {
  const pages = Math.ceil(total / PAGE_SIZE);
  if (pages <= 1) return [];
  const start = Math.max(1, Math.min(current - Math.floor(MAX_PAGE_BUTTONS / 2), pages - MAX_PAGE_BUTTONS + 1));
  return Array.from({ length: Math.min(MAX_PAGE_BUTTONS, pages) }, (_, i) => start + i);
}
