/**
 * /search-results/: a plain GET form and links, complete without JavaScript (spec §2, §4, §5).
 * An htmx request for the results region gets that region of the same view.
 */
import { DatabaseUnavailableError } from '../db/unavailable.ts';
import { Overloaded } from '../http/gate.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { buildChrome } from '../pages/chrome.ts';
import { MAX_QUERY_CHARS, MAX_QUERY_TERMS, boundQuery } from '../search/bounds.ts';
import { cachedSearch } from '../search/cached.ts';
import { maskEmails } from '../search/highlight.ts';
import {
  CATEGORIES, CONTENT_TYPE_LABELS, PAGE_SIZE, chooseProduct, hrefOf, pageWindow, removeProduct, requestFor, reset,
  stateFrom, toggleContentType, withFilter, effectiveTypes, ignoredParams, type RawQuery,
} from '../search/page-state.ts';
import { CONTENT_TYPES, type SearchResponse } from '../search/schemas.ts';
import type { SearchFacetOption, SearchResultsModel, SearchState } from '../../views/view-model.ts';
import type { SafeHtml } from '../../views/rich-text/safe-html.tsx';
import { SearchResultsPage, SearchResultsRegion } from '../../views/pages/search-results-page.tsx';
import { aiSummaryDialog, newFiltersOn } from '../flags/features.ts';
import { assistantLanguage, summaryPropsOf } from '../assistant/widget.ts';
import { noResultsWays } from '../search/no-results.ts';

export interface SearchPageOptions {
  config: Pick<Config, 'publicUrl' | 'identityUrl' | 'staffDomain'>;
}

/**
 * Every parameter is read as text and checked by stateFrom: a value the page cannot use is left out
 * and named on the page, never a bare 400 for a visitor (the JSON API keeps its 400s).
 */
const QuerySchema = {
  type: 'object',
  additionalProperties: true,
  properties: Object.fromEntries(['searchTerm', 'deployment', 'product', 'version', 'contentType', 'sort', 'category', 'page', 'exact']
    .map((name) => [name, { type: 'string' }])),
} as const;

/** Search responses are kept for a minute (server/content/store.ts); a rendered results page no longer. */
const SEARCH_PAGE_LIFETIME_MS = 60_000;

const SHORTENED_MESSAGE = `Your search was longer than ${MAX_QUERY_TERMS} words or ${MAX_QUERY_CHARS} characters, `
  + 'so these are the results for its beginning.';

export default async function searchPage(app: FastifyInstance, opts: SearchPageOptions) {
  const { config } = opts;

  const handler = async (request: FastifyRequest<{ Querystring: RawQuery & { exact?: string } }>, reply: FastifyReply) => {
    // Nothing stored yet: 'no results' would be untrue in a minute.
    if (app.contentStarting()) return reply.siteStarting();
    const asked = stateFrom(request.query);
    // The page searches for the bounded term, shows it in the box and its links, and says it was cut.
    const bounded = boundQuery(asked.searchTerm);
    const state = { ...asked, searchTerm: bounded.query };
    let response: SearchResponse | null = null;
    let failed = false;
    if (state.searchTerm) {
      try {
        // 'Search instead for' the original term: exact=1 skips the spelling suggestion.
        response = await cachedSearch(app, request.log, requestFor(state), { suggest: request.query.exact !== '1' });
      } catch (error) {
        // The database is away: the app answers the last good copy or a 503 that no cache keeps.
        // Too many searches waiting: shed with 503 and Retry-After (server/plugins/search-gate.ts).
        if (error instanceof DatabaseUnavailableError || error instanceof Overloaded) throw error;
        failed = true;
        request.log.error({ err: error, term: maskEmails(state.searchTerm) }, 'search failed');
      }
    }
    // A page past the last one: the last page, under its own address.
    const lastPage = Math.min(1000, Math.ceil((response?.pagination.total ?? 0) / PAGE_SIZE));
    if (response && lastPage > 0 && state.page > lastPage) return reply.redirect(hrefOf({ ...state, page: lastPage }), 302);
    const page = await searchPageModel(app, request, config, state, response, failed);
    const ignored = ignoredParams(request.query, asked);
    page.notes = [
      ...(bounded.shortened ? [SHORTENED_MESSAGE] : []),
      ...(ignored.length > 0 ? [`We could not use the ${ignored.join(', ')} in this address, so ${ignored.length === 1 ? 'it was' : 'they were'} left out.`] : []),
    ];
    if (response) {
      reply.header('x-query-id', response.queryId);
      app.analytics.search(request, '/search-results', state.searchTerm, response, request.query.exact === '1');
    }
    reply.header('vary', 'HX-Request');
    const region = request.headers['hx-request'] === 'true' && !request.headers['hx-history-restore-request'] && !request.headers['hx-boosted'];
    return reply.page(region ? <SearchResultsRegion {...page} /> : <SearchResultsPage {...page} />, {
      status: failed ? 503 : 200, cache: request.flags.cache(), fragment: region, lifetimeMs: SEARCH_PAGE_LIFETIME_MS,
    });
  };
  // The search waits in the searches' queue (server/plugins/search-gate.ts), not also in the other requests'.
  for (const url of ['/search-results', '/search-results/']) app.get(url, { schema: { querystring: QuerySchema }, config: { ownQueue: true } }, handler);
}

/** The search page's sub-header when content gives the search-results page neither a tagline nor a description. */
const DEFAULT_SUBHEADER = 'Search documentation, guides and knowledge-base articles.';

/** What the search-results page in content says of itself (spec §2 sub-header), read once per content version. */
function searchPageContent(app: FastifyInstance): Promise<{ tagline?: string | undefined; metaDescription?: string | undefined }> {
  return app.content.memo('search-page', async () => {
    const fields = (await app.content.ofType('page', { preview: false })).find((p) => p.fields.pageType === 'searchResults')?.fields;
    return { tagline: fields?.tagline as string | undefined, metaDescription: fields?.metaDescription as string | undefined };
  });
}

async function searchPageModel(
  app: FastifyInstance, request: FastifyRequest, config: SearchPageOptions['config'], state: SearchState,
  response: SearchResponse | null, failed: boolean,
): Promise<SearchResultsModel> {
  const page = await searchPageContent(app);
  const chrome = await buildChrome(app, request, config, {
    title: state.searchTerm ? `Search results for "${state.searchTerm}"` : 'Search', path: hrefOf(state), language: 'en-US', preview: false,
    metaDescription: page.metaDescription ?? DEFAULT_SUBHEADER,
  });
  // Spec §4 new-filter experiment, decided by its flags (a failure hides it: the older filters).
  const newFilters = await newFiltersOn(request.flags);
  const total = response?.pagination.total ?? 0;
  const counts = new Map((response?.facets.contentTypes ?? []).map((c) => [c.key, c.count]));
  const option = (key: string, label: string, selected: boolean, next: SearchState, count?: number): SearchFacetOption =>
    ({ key, label, selected, href: hrefOf(next), ...(count === undefined ? {} : { count }) });

  // Experiment off: content-type tabs with counts; on: category tabs and content-type checkboxes.
  const types = effectiveTypes(state);
  const tabs = newFilters
    ? CATEGORIES.map((c) => option(c.key, c.name, state.category === c.key, withFilter(state, { category: c.key, contentTypes: [] })))
    : [
        option('all', 'All', state.contentTypes.length === 0, withFilter(state, { contentTypes: [] }), [...counts.values()].reduce((a, b) => a + b, 0)),
        ...CONTENT_TYPES.filter((t) => counts.has(t) || state.contentTypes.includes(t)).map((t) =>
          option(t, CONTENT_TYPE_LABELS[t], state.contentTypes.length === 1 && state.contentTypes[0] === t, withFilter(state, { contentTypes: [t] }), counts.get(t) ?? 0)),
      ];
  const category = CATEGORIES.find((c) => c.key === state.category) ?? CATEGORIES[0];
  const contentTypeOptions = newFilters
    ? (category?.contentTypes ?? []).map((t) => option(t, CONTENT_TYPE_LABELS[t], types.includes(t) && state.contentTypes.includes(t), toggleContentType(state, t)))
    : [];

  const platforms = response?.facets.products ?? [];
  const named = chrome.deployments ?? { cloud: 'Cloud', dataCenter: 'Data Center' };
  const label = (d: 'cloud' | 'data_center') => (d === 'cloud' ? named.cloud : named.dataCenter);
  const deployments = (['cloud', 'data_center'] as const).map((d) =>
    option(d, label(d), state.deployment === d, withFilter(state, { deployment: d, version: '' })));
  const products = platforms
    .filter((p) => !state.deployment || p.platform === state.deployment)
    .flatMap((p) => p.products.map((prod) => option(
      `${prod.key}:${p.platform}`, `${prod.name} ${label(p.platform)}`,
      state.product === prod.key && state.deployment === p.platform, chooseProduct(state, prod.key, p.platform),
      newFilters ? undefined : prod.count)));
  const chosen = platforms.find((p) => p.platform === state.deployment)?.products.find((prod) => prod.key === state.product);
  const versions = state.deployment === 'data_center' && state.product
    ? (chosen?.versions ?? []).map((v) => option(v, v, state.version === v, withFilter(state, { version: state.version === v ? '' : v })))
    : [];
  const productName = chosen?.name ?? state.product;

  const status = failed ? 'error' : !state.searchTerm ? 'empty' : total === 0 ? 'no-results' : 'results';
  const pages = pageWindow(total, state.page);
  const rewritten = response?.metadata.query.rewrittenQuery;
  return {
    chrome,
    state,
    subheader: page.tagline ?? page.metaDescription ?? DEFAULT_SUBHEADER,
    newFilters,
    // Spec §4 AI summary dialog: only with results, for an account in its experiment.
    aiSummary: total > 0 && await aiSummaryDialog(request.flags, chrome.visitor) ? summaryPropsOf(state.searchTerm, assistantLanguage(chrome.lang)) : undefined,
    status,
    noResults: status === 'no-results' ? await noResultsWays(app, request, chrome, state) : undefined,
    queryId: response?.queryId,
    total,
    pageSize: PAGE_SIZE,
    rewrite: rewritten
      ? { searched: rewritten, original: response?.metadata.query.originalQuery ?? state.searchTerm, originalHref: `${hrefOf(withFilter(state, {}))}&exact=1` }
      : undefined,
    results: (response?.results ?? []).map((r, i) => ({
      id: r.content.contentAri,
      position: (state.page - 1) * PAGE_SIZE + i + 1,
      href: r.content.url,
      title: r.content.title,
      descriptionHtml: (r.highlights?.description ?? '') as SafeHtml,
      breadcrumbs: r.content.breadcrumbs,
      dateModified: r.content.metadata.lastPublishedAt,
      views: r.content.metadata.trustFactors.numViews,
      helpfulCount: r.content.metadata.trustFactors.helpfulCount,
      products: r.content.products.map((p) => ({ name: p.name, platform: p.platform, versions: p.versions })),
      contentTypeLabel: CONTENT_TYPE_LABELS[r.content.contentType],
      section: r.content.section?.title,
    })),
    tabs,
    contentTypeOptions,
    deployments,
    products,
    versions,
    productTag: state.product ? { label: productName, removeHref: hrefOf(removeProduct(state)) } : undefined,
    resetHref: hrefOf(reset(state)),
    sortOptions: [{ value: 'relevance', label: 'Relevance' }, { value: 'last_published', label: 'Last published' }],
    pagination: pages.length > 0 ? {
      pages: pages.map((n) => ({ number: n, href: hrefOf({ ...state, page: n }), current: n === state.page })),
      previousHref: state.page > 1 ? hrefOf({ ...state, page: state.page - 1 }) : undefined,
      nextHref: state.page < Math.ceil(total / PAGE_SIZE) ? hrefOf({ ...state, page: state.page + 1 }) : undefined,
    } : null,
  };
}
