import { AssistantSummary } from '../islands/assistant-summary.tsx';
import type { ReactNode } from 'react';
import type { SearchFacetOption, SearchResultsModel, SearchState } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { SearchResultCard, countLabel } from '../parts/search-result-card.tsx';
import { Island } from '../island.tsx';
import { AutoSubmit } from '../islands/auto-submit.tsx';
import { AssistantAnswer } from '../islands/assistant-answer.tsx';
import { stringsOf } from '../i18n/catalogue.tsx';

export const EMPTY_PROMPT = 'Enter a search term to find documentation, guides and knowledge-base articles.';
export const SEARCH_ERROR_MESSAGE = 'Search is not available right now. Please try again in a moment.';
export const NO_RESULTS_SUBHEADING = 'Try other words, another category or fewer content types.';

/** The state the search form carries besides the term and sort (spec §4 filter state); empty ones are left out, never the page. */
export function searchHiddenFields(state: SearchState): [string, string][] {
  const fields: [string, string][] = [
    ['deployment', state.deployment],
    ['product', state.product],
    ['version', state.version],
    ['contentType', state.contentTypes.join(',')],
    ['category', state.category],
  ];
  return fields.filter(([, value]) => value !== '');
}

/**
 * Search results page (spec §2 /search-results/): title, the GET search form (term, sort and the filter
 * state as hidden fields), then the results region that the enhancement (islands/search.ts) swaps as a whole.
 * The htmx attributes are inherited by the form and the region's links: with scripts, each of their requests
 * swaps the region's content, and a new one replaces one still running (spec §4).
 */
export function SearchResultsPage(props: SearchResultsModel) {
  const { chrome, state, sortOptions } = props;
  return (
    <Document chrome={chrome}>
      <div className="search-page" data-hx-target="#search-results-region" data-hx-swap="innerHTML" data-hx-sync="#search-results-region:replace">
        <h1>Search</h1>
        <p className="search-subheader" id="search-subheader">{props.subheader}</p>
        <form method="get" action="/search-results/" role="search" className="search-form search-page-form" data-island="search" data-hydrate="interaction"
          data-error-message={SEARCH_ERROR_MESSAGE}>
          <div className="search-term-field">
            <label htmlFor="search-term" className="visually-hidden">Search support</label>
            <input id="search-term" type="search" name="searchTerm" defaultValue={state.searchTerm} aria-describedby="search-subheader" />
            {searchHiddenFields(state).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
            <button type="submit">Search</button>
          </div>
          {/* The sort select carries `sort`, so there is no hidden sort field (one value per name). With
              scripts it searches when changed, through the form's own submit (the auto-submit island). */}
          <div className="search-sort">
            <Island name="auto-submit" hydrate="interaction" component={AutoSubmit} props={{
              fields: [{ id: 'search-sort', name: 'sort', label: 'Sort by', value: state.sort, options: sortOptions }],
              button: { label: 'Sort', className: 'secondary-button' },
            }} />
          </div>
        </form>
        <div id="search-results-region">
          <SearchResultsRegion {...props} />
        </div>
      </div>
    </Document>
  );
}

/**
 * What a search changes: status line, tabs, filters, results, pagination, or the empty, no-results and
 * error states. Only the short status line is a live region, never the list.
 */
function SearchNotes({ notes }: { notes: string[] | undefined }) {
  return notes?.map((note) => <p key={note} className="search-note">{note}</p>) ?? null;
}

export function SearchResultsRegion(model: SearchResultsModel) {
  const { status, state } = model;
  if (status === 'empty') {
    return (
      <>
        <p className="search-summary search-prompt" role="status">{EMPTY_PROMPT}</p>
        <SearchNotes notes={model.notes} />
      </>
    );
  }
  if (status === 'error') {
    // Never the details of the failure (spec §8): a fixed or route-chosen message only.
    return <p className="search-error" role="alert">{model.errorMessage ?? SEARCH_ERROR_MESSAGE}</p>;
  }
  return (
    <div className="search-results" data-query-id={model.queryId} data-term={state.searchTerm}>
      <Tabs model={model} />
      <div className="search-layout">
        <Filters model={model} />
        <div className="search-main">
          {status === 'results' ? (
            <>
              <h2 className="search-heading">{`Showing results for "${model.rewrite?.searched ?? state.searchTerm}"`}</h2>
              <p className="search-summary" role="status">{countLabel(model.total, 'result', 'results')}</p>
              <SearchNotes notes={model.notes} />
              {model.aiSummary ? <Island name="assistant-summary" hydrate="interaction" component={AssistantSummary} props={model.aiSummary} /> : null}
              {model.rewrite ? (
                <p className="search-rewrite">Search instead for <a href={model.rewrite.originalHref}>{model.rewrite.original}</a></p>
              ) : null}
              <ol className="search-result-list">
                {model.results.map((r) => <SearchResultCard key={r.id} result={r} />)}
              </ol>
              {model.pagination ? <Pagination pagination={model.pagination} /> : null}
            </>
          ) : model.newFilters ? (
            // Spec §8: the newer filter UX's no-results view has a heading, a subheading and an illustration.
            <div className="search-no-results">
              <NoResultsIllustration />
              <h2 className="search-heading">{`No results for "${state.searchTerm}"`}</h2>
              <p className="search-no-results-subheading">{NO_RESULTS_SUBHEADING}</p>
              <p className="search-summary" role="status">{countLabel(0, 'result', 'results')}</p>
              <SearchNotes notes={model.notes} />
              <Suggestion model={model} />
              <p className="search-reset"><a href={model.resetHref}>Reset filters</a></p>
              <WaysOn model={model} />
            </div>
          ) : (
            <>
              <h2 className="search-heading">{`No results for "${state.searchTerm}"`}</h2>
              <p className="search-summary" role="status">{countLabel(0, 'result', 'results')}</p>
              <SearchNotes notes={model.notes} />
              <Suggestion model={model} />
              <ul className="search-hints">
                <li>Check the spelling of your search terms</li>
                <li>Try broader or fewer words</li>
                <li>Remove some filters <a href={model.resetHref}>Reset filters</a></li>
              </ul>
              <WaysOn model={model} />
            </>
          )}
        </div>
      </div>
    </div>
  );
}

/** 'Did you mean …?': a link to the corrected search, offered only when that search finds something. */
function Suggestion({ model }: { model: SearchResultsModel }) {
  const suggestion = model.noResults?.suggestion;
  if (!suggestion) return null;
  const s = stringsOf(model.chrome).searchNoResults;
  return <p className="search-rewrite search-suggestion">{s.didYouMean.before}<a href={suggestion.href}>{suggestion.term}</a>{s.didYouMean.after}</p>;
}

/**
 * Where a search without results leads (issue 30 'No dead ends'): the assistant's answer to the same
 * words, marked as the assistant's and in the AI summary's box, then the contact form with the search
 * filled in. Plain links and server-rendered text: the same with scripts and without.
 */
function WaysOn({ model }: { model: SearchResultsModel }) {
  const ways = model.noResults;
  if (!ways) return null;
  const strings = stringsOf(model.chrome);
  const s = strings.searchNoResults;
  return (
    <>
      {ways.answer ? (
        <section className="ai-summary search-answer" aria-labelledby="search-answer-heading">
          <h3 id="search-answer-heading">{s.answerHeading}</h3>
          <div className="ai-summary-body">
            <AssistantAnswer answer={ways.answer} strings={strings.assistant.answer} headingLevel={4} />
          </div>
        </section>
      ) : null}
      <section className="search-contact" aria-labelledby="search-contact-heading">
        <h3 id="search-contact-heading">{s.contactHeading}</h3>
        <p><a className="contact-primary" href={ways.contactHref}>{s.contactSupport}</a></p>
        <p className="search-contact-note">{s.contactNote}</p>
      </section>
    </>
  );
}

/** Content-type tabs with counts (experiment off) or category tabs (experiment on), as plain links. */
function Tabs({ model }: { model: SearchResultsModel }) {
  if (model.tabs.length === 0) return null;
  return (
    <nav aria-label={model.newFilters ? 'Categories' : 'Content types'} className="search-tabs">
      <ul>
        {model.tabs.map((tab) => (
          <li key={tab.key}>
            <a href={tab.href} aria-current={tab.selected ? 'page' : undefined} data-analytics="tab" data-analytics-key={tab.label}>
              {tab.count === undefined ? tab.label : `${tab.label} (${tab.count})`}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Filters({ model }: { model: SearchResultsModel }) {
  const { productTag } = model;
  return (
    <aside aria-label="Filters" className="search-filters">
      <h2>Filters</h2>
      {productTag ? (
        <p className="search-tag">
          <span>{productTag.label}</span>
          <a href={productTag.removeHref} aria-label={`Remove ${productTag.label}`}><span aria-hidden="true">×</span></a>
        </p>
      ) : null}
      {model.newFilters && model.contentTypeOptions.length > 0 ? (
        <FilterGroup heading="Content type">
          <ul className="search-checks">
            {model.contentTypeOptions.map((o) => (
              <li key={o.key}>
                <a href={o.href} className={o.selected ? 'is-selected' : undefined} data-analytics="filter" data-analytics-key={`contentType=${o.key}`}>
                  <span className="search-check-box" aria-hidden="true" />
                  {optionText(o)}
                  {o.selected ? <span className="visually-hidden"> (selected)</span> : null}
                </a>
              </li>
            ))}
          </ul>
        </FilterGroup>
      ) : null}
      <OptionGroup heading="Deployment" options={model.deployments} />
      <OptionGroup heading="Product" options={model.products} />
      <OptionGroup heading="Version" options={model.versions} />
      <p className="search-reset"><a href={model.resetHref} data-analytics="reset">Reset filters</a></p>
    </aside>
  );
}

function FilterGroup({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <div className="search-filter-group">
      <h3>{heading}</h3>
      {children}
    </div>
  );
}

/** Single-choice options as links; the chosen one is marked current. Nothing when there are no options. */
function OptionGroup({ heading, options }: { heading: string; options: SearchFacetOption[] }) {
  if (options.length === 0) return null;
  return (
    <FilterGroup heading={heading}>
      <ul className="search-options">
        {options.map((o) => (
          <li key={o.key}>
            <a href={o.href} aria-current={o.selected ? 'true' : undefined} data-analytics="filter" data-analytics-key={`${heading}=${o.label}`}>{optionText(o)}</a>
          </li>
        ))}
      </ul>
    </FilterGroup>
  );
}

function optionText(o: SearchFacetOption): string {
  return o.count === undefined ? o.label : `${o.label} (${o.count})`;
}

function Pagination({ pagination }: { pagination: NonNullable<SearchResultsModel['pagination']> }) {
  return (
    <nav aria-label="Pagination" className="search-pagination">
      <ul>
        {pagination.previousHref ? <li><a href={pagination.previousHref} rel="prev">Previous</a></li> : null}
        {pagination.pages.map((p) => (
          <li key={p.number}>
            <a href={p.href} aria-current={p.current ? 'page' : undefined} data-analytics="pagination" data-analytics-key={`${p.number}`}>
              <span className="visually-hidden">Page </span>{`${p.number}`}
            </a>
          </li>
        ))}
        {pagination.nextHref ? <li><a href={pagination.nextHref} rel="next">Next</a></li> : null}
      </ul>
    </nav>
  );
}

/** The no-results illustration of the newer filter UX: an empty search, decorative (the heading says it). */
function NoResultsIllustration() {
  return (
    <svg className="search-no-results-illustration" viewBox="0 0 160 120" width="160" height="120" aria-hidden="true" focusable="false">
      <rect className="illustration-page" x="20" y="14" width="84" height="96" rx="6" />
      <path className="illustration-lines" d="M34 36h56M34 52h44M34 68h50" />
      <circle className="illustration-lens" cx="104" cy="70" r="24" />
      <path className="illustration-handle" d="M121 87l22 22" />
      <path className="illustration-lines" d="M96 62l16 16M112 62l-16 16" />
    </svg>
  );
}
