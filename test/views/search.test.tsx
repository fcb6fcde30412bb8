import t from 'tap';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  type Chrome,
  type SearchFacetOption,
  type SearchResultCard,
  type SearchResultsModel,
} from '../../views/view-model.ts';
import { trustRenderedMarkup } from '../../views/rich-text/safe-html.tsx';
import { SearchResultsPage, SearchResultsRegion } from '../../views/pages/search-results-page.tsx';
import { SearchResultCard as ResultCard } from '../../views/parts/search-result-card.tsx';
import { chromeFixture } from '../helpers/chrome.ts';

const chrome: Chrome = chromeFixture({
  canonicalUrl: 'https://help.example.test/search-results/',
  title: 'Search',
});
chrome.header = { ...chrome.header, logoUrl: '/logo.svg', loginHref: '/login?continue=%2Fsearch-results%2F' };

const textOf = (html: string) =>
  html.replace(/<[^>]*>/g, '').replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

function links(html: string): { attrs: string; href: string; text: string }[] {
  return [...html.matchAll(/<a\b([^>]*?)href="([^"]*)"([^>]*)>([\s\S]*?)<\/a>/g)].map((m) => ({
    attrs: `${m[1]!} ${m[3]!}`,
    href: m[2]!.replace(/&amp;/g, '&'),
    text: textOf(m[4]!),
  }));
}

/** The markup of the first element opening with `open`, up to its matching close tag (same tag name). */
function element(html: string, open: RegExp): string {
  const m = open.exec(html);
  if (!m) return '';
  const tag = /^<([a-z0-9]+)/.exec(m[0])![1]!;
  const re = new RegExp(`<${tag}[\\s>]|</${tag}>`, 'g');
  re.lastIndex = m.index + m[0].length;
  let depth = 1;
  for (let x = re.exec(html); x; x = re.exec(html)) {
    depth += x[0].startsWith('</') ? -1 : 1;
    if (depth === 0) return html.slice(m.index, x.index + x[0].length);
  }
  return '';
}

const VOID = new Set(['input', 'img', 'br', 'meta', 'link', 'hr']);

/** The tag names still open at `index` (outermost first). */
function openTags(html: string, index: number): string[] {
  const stack: string[] = [];
  for (const m of html.slice(0, index).matchAll(/<(\/?)([a-z0-9]+)\b[^>]*?(\/?)>/g)) {
    if (m[1]) stack.pop();
    else if (!m[3] && !VOID.has(m[2]!)) stack.push(m[2]!);
  }
  return stack;
}

const count = (html: string, re: RegExp) => html.match(re)?.length ?? 0;

const option = (key: string, label: string, extra: Partial<SearchFacetOption> = {}): SearchFacetOption => ({
  key, label, selected: false, href: `/search-results/?searchTerm=jira&f=${key}`, ...extra,
});

const result = (n: number, extra: Partial<SearchResultCard> = {}): SearchResultCard => ({
  id: `r${n}`,
  position: n,
  href: `/docs/page-${n}/`,
  title: `Result ${n}`,
  descriptionHtml: trustRenderedMarkup(`About <mark>jira</mark> number ${n}`),
  breadcrumbs: ['Jira', 'Administration'],
  dateModified: '2025-03-04T10:00:00Z',
  views: 1200,
  helpfulCount: 3,
  products: [{ name: 'Jira', platform: 'cloud', versions: [] }],
  contentTypeLabel: 'Documentation',
  ...extra,
});

const model = (extra: Partial<SearchResultsModel> = {}): SearchResultsModel => ({
  chrome,
  subheader: 'Search the help centre.',
  state: {
    searchTerm: 'jira',
    deployment: 'data_center',
    product: 'jira-software',
    version: '9.12',
    contentTypes: ['topic', 'kb-article'],
    sort: 'last_published',
    category: '',
    page: 3,
  },
  newFilters: false,
  status: 'results',
  total: 42,
  pageSize: 10,
  results: [result(21), result(22)],
  tabs: [
    option('all', 'All', { count: 42, selected: true }),
    option('topic', 'Documentation', { count: 30 }),
    option('kb-article', 'Knowledge base', { count: 12 }),
  ],
  contentTypeOptions: [],
  deployments: [option('cloud', 'Cloud'), option('data_center', 'Data Center', { selected: true })],
  products: [option('jira-software', 'Jira Software', { count: 40, selected: true }), option('confluence', 'Confluence', { count: 2 })],
  versions: [option('9.12', '9.12', { selected: true }), option('9.4', '9.4')],
  productTag: { label: 'Jira Software', removeHref: '/search-results/?searchTerm=jira' },
  resetHref: '/search-results/?searchTerm=jira&reset=1',
  sortOptions: [{ value: 'relevance', label: 'Relevance' }, { value: 'last_published', label: 'Last published' }],
  pagination: {
    pages: [1, 2, 3, 4, 5].map((n) => ({ number: n, href: `/search-results/?searchTerm=jira&page=${n}`, current: n === 3 })),
    previousHref: '/search-results/?searchTerm=jira&page=2',
    nextHref: '/search-results/?searchTerm=jira&page=4',
  },
  ...extra,
});

const page = (extra: Partial<SearchResultsModel> = {}) => renderToStaticMarkup(<SearchResultsPage {...model(extra)} />);
const region = (extra: Partial<SearchResultsModel> = {}) => renderToStaticMarkup(<SearchResultsRegion {...model(extra)} />);

t.test('page: one h1, the search form and the region', async (t) => {
  const html = page();
  t.equal(count(html, /<h1[\s>]/g), 1, 'exactly one h1');
  t.match(html, '<h1>Search</h1>');
  t.notMatch(html, 'aria-live', 'no aria-live anywhere: only the status line is live');
  t.notMatch(html, 'dangerouslySetInnerHTML');

  const form = element(html, /<form\b[^>]*>/);
  t.match(form, /^<form method="get" action="\/search-results\/" role="search"[^>]*data-island="search"/);
  t.match(form, /<label for="search-term"[^>]*>[^<]+<\/label>/, 'the term input is labelled');
  t.match(form, /<input id="search-term" type="search" name="searchTerm" aria-describedby="search-subheader" value="jira"\/>/, "described by the sub-header");
  const hidden = Object.fromEntries([...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1], m[2]]));
  t.same(hidden, { deployment: 'data_center', product: 'jira-software', version: '9.12', contentType: 'topic,kb-article' },
    'filter state as hidden fields, contentType comma-joined, empty category left out');
  t.notMatch(form, 'name="page"', 'never a page field: a new search starts at page 1');
  t.equal(count(form, /name="sort"/g), 1, 'sort is sent once, by the select');
  t.match(form, /<label for="search-sort">Sort by<\/label><select id="search-sort" name="sort">/);
  t.match(form, '<option value="relevance">Relevance</option>');
  t.match(form, '<option value="last_published" selected="">Last published</option>', 'current sort selected');
  const buttons = [...form.matchAll(/<button type="submit"[^>]*>([^<]*)<\/button>/g)].map((m) => m[1]);
  t.same(buttons, ['Search', 'Sort'], 'Search is the default (first) submit button, Sort its own');

  const minimal = page({ state: { ...model().state, deployment: '', product: '', version: '', contentTypes: [], category: 'all' } });
  const minimalHidden = [...element(minimal, /<form\b[^>]*>/).matchAll(/type="hidden" name="([^"]+)"/g)].map((m) => m[1]);
  t.same(minimalHidden, ['category'], 'empty state is left out');

  const reg = element(html, /<div id="search-results-region">/);
  t.ok(reg, 'the region has the swap target id');
  t.notMatch(reg, '<form', 'the form is outside the region');
  t.match(reg, '<p class="search-summary" role="status">42 results</p>');
  t.equal(reg, `<div id="search-results-region">${region()}</div>`, 'the page wraps exactly the region');
});

t.test('results: summary, rewrite, tabs, filters, list and pagination', async (t) => {
  const html = region();
  t.match(html, '<h2 class="search-heading">Showing results for &quot;jira&quot;</h2>');
  t.match(html, /role="status">42 results</);
  t.notMatch(html, 'Search instead for', 'no rewrite line without a rewrite');
  t.notMatch(html, 'aria-live');
  t.notMatch(html, /<ol[^>]*(role|aria-live)/, 'the results list is not a live region');

  const rewritten = region({ rewrite: { searched: 'jira', original: 'jiar', originalHref: '/search-results/?searchTerm=jiar&spell=0' } });
  t.match(textOf(rewritten), 'Showing results for "jira"');
  t.match(textOf(rewritten), 'Search instead for jiar');
  t.ok(links(rewritten).some((l) => l.href === '/search-results/?searchTerm=jiar&spell=0' && l.text === 'jiar'), 'original term links to its search');

  const one = region({ total: 1, results: [result(1)], pagination: null });
  t.match(one, /role="status">1 result</, 'singular count');
});

t.test('tabs: links with counts when defined, the selected one current', async (t) => {
  const html = region();
  const nav = element(html, /<nav aria-label="Content types"[^>]*>/);
  t.ok(nav, 'content-type tabs nav');
  t.same(links(nav).map((l) => l.text), ['All (42)', 'Documentation (30)', 'Knowledge base (12)']);
  t.same(links(nav).filter((l) => l.attrs.includes('aria-current="page"')).map((l) => l.text), ['All (42)']);

  const categories = region({
    newFilters: true,
    tabs: [option('all', 'All', { selected: false }), option('admin', 'Administration', { selected: true })],
  });
  const catNav = element(categories, /<nav aria-label="Categories"[^>]*>/);
  t.same(links(catNav).map((l) => l.text), ['All', 'Administration'], 'no count suffix when count is undefined');
  t.same(links(catNav).filter((l) => l.attrs.includes('aria-current="page"')).map((l) => l.text), ['Administration']);

  t.notMatch(region({ tabs: [] }), '<nav aria-label="Content types"', 'no tabs nav without tabs');
});

t.test('filters: a top-level aside beside the results, with deployments, products, versions, tag and reset', async (t) => {
  const html = region();
  const aside = element(html, /<aside aria-label="Filters"[^>]*>/);
  t.ok(aside, 'filters aside');
  t.notMatch(aside.slice(1), /<(nav|main|aside|section|form)[\s>]/, 'no landmark nested in the aside');
  t.notMatch(element(html, /<div class="search-main">/), '<aside', 'aside is a sibling of the results column');
  t.same(openTags(html, html.indexOf('<aside')), ['div', 'div'], 'inside plain divs only, not a landmark');
  const full = page();
  t.same(openTags(full, full.indexOf('<aside')).filter((tag) => /^(nav|aside|section|form|header|footer|article)$/.test(tag)), [],
    'no landmark around the aside in the page (only <main>)');

  const current = links(aside).filter((l) => l.attrs.includes('aria-current="true"')).map((l) => l.text);
  t.same(current, ['Data Center', 'Jira Software (40)', '9.12'], 'selected deployment, product and version');
  t.ok(links(aside).some((l) => l.text === 'Cloud'), 'deployment links');
  t.ok(links(aside).some((l) => l.text === 'Confluence (2)'), 'product counts when defined');
  t.match(aside, '<h3>Version</h3>');
  t.notMatch(region({ versions: [] }), '<h3>Version</h3>', 'versions hidden when the list is empty');

  const remove = links(aside).find((l) => l.attrs.includes('aria-label="Remove Jira Software"'));
  t.ok(remove, 'product tag has a remove link named Remove {label}');
  t.equal(remove?.href, '/search-results/?searchTerm=jira');
  t.notMatch(region({ productTag: undefined }), 'Remove Jira Software', 'no tag without a product');

  t.ok(links(aside).some((l) => l.text === 'Reset filters' && l.href === '/search-results/?searchTerm=jira&reset=1'), 'reset link');
  t.notMatch(aside, 'Content type<', 'no content-type checkboxes when the experiment is off');
});

t.test('new filters: content types as links styled as checkboxes, never inputs', async (t) => {
  const html = region({
    newFilters: true,
    products: [option('jira-software', 'Jira Software', { selected: true })],
    contentTypeOptions: [option('topic', 'Documentation', { selected: true }), option('kb', 'Knowledge base')],
  });
  const aside = element(html, /<aside aria-label="Filters"[^>]*>/);
  t.match(aside, '<h3>Content type</h3>');
  const checks = links(element(aside, /<ul class="search-checks">/));
  t.same(checks.map((l) => l.text), ['Documentation (selected)', 'Knowledge base']);
  t.notMatch(aside, /<input|role="checkbox"/, 'links, not inputs');
  t.ok(links(aside).some((l) => l.text === 'Jira Software'), 'products without counts');
});

t.test('result cards: the highlighted description passes through, everything else is escaped', async (t) => {
  const html = region({ results: [result(1, { title: '<b>Bold</b> & co', breadcrumbs: ['Jira <x>', 'Admin'] })], pagination: null });
  const list = element(html, /<ol class="search-result-list">/);
  t.equal(count(list, /<li class="search-result">/g), 1);
  t.match(list, 'About <mark>jira</mark> number 1', 'SafeHtml description unchanged');
  t.match(list, '<h3 class="search-result-title"><a href="/docs/page-1/" data-position="1">&lt;b&gt;Bold&lt;/b&gt; &amp; co</a></h3>', 'title escaped');
  t.notMatch(list, '<b>');
  t.match(list, '<ul class="search-result-path"><li>Jira &lt;x&gt;</li><li>Admin</li></ul>', 'breadcrumbs as a text list');
  t.match(list, '<li>Updated March 4, 2025</li>');
  t.match(list, '<li>Jira Cloud</li>');
  t.match(list, '<li>1200 views</li>');
  t.match(list, '>Documentation</li>');

  const card = renderToStaticMarkup(<ResultCard result={result(2, {
    dateModified: null,
    views: 1,
    products: [{ name: 'Jira', platform: 'cloud', versions: [] }, { name: 'Confluence', platform: 'data_center', versions: ['9.1', '9.2'] }],
  })} />);
  t.notMatch(card, 'Updated', 'no date without one');
  t.match(card, '<li>1 view</li>');
  const unseen = renderToStaticMarkup(<ResultCard result={result(3, { views: 0 })} />);
  t.notMatch(unseen, /\bviews?\b/, 'no view count until there is one');
  t.match(card, '<li>Jira Cloud; Confluence Data Center 9.1, 9.2</li>');
});

t.test('pagination: only when given, exactly the pages given, current marked', async (t) => {
  const html = region();
  const nav = element(html, /<nav aria-label="Pagination"[^>]*>/);
  t.same(links(nav).map((l) => l.text), ['Previous', 'Page 1', 'Page 2', 'Page 3', 'Page 4', 'Page 5', 'Next']);
  t.same(links(nav).filter((l) => l.attrs.includes('aria-current="page"')).map((l) => l.href), ['/search-results/?searchTerm=jira&page=3']);
  t.notMatch(region({ pagination: null }), 'aria-label="Pagination"', 'hidden when null');

  const first = region({ pagination: { pages: [{ number: 1, href: '/p1', current: true }, { number: 2, href: '/p2', current: false }], nextHref: '/p2' } });
  t.same(links(element(first, /<nav aria-label="Pagination"[^>]*>/)).map((l) => l.text), ['Page 1', 'Page 2', 'Next'], 'no Previous on the first page');
});

t.test('empty: a prompt only', async (t) => {
  const html = region({ status: 'empty', results: [], total: 0 });
  t.equal(html, '<p class="search-summary search-prompt" role="status">Enter a search term to find documentation, guides and knowledge-base articles.</p>');
  const full = page({ status: 'empty', results: [], total: 0 });
  t.notMatch(full, '<aside', 'no filters');
  t.notMatch(full, 'search-result-list', 'no results');
  t.equal(count(full, /<h1[\s>]/g), 1);
});

t.test('no results: heading with the term, hints and the reset link', async (t) => {
  const html = region({ status: 'no-results', results: [], total: 0, pagination: null, state: { ...model().state, searchTerm: 'zzz "q"' } });
  t.match(textOf(html), 'No results for "zzz "q""');
  t.match(html, /<h2[^>]*>No results for &quot;zzz &quot;q&quot;&quot;<\/h2>/);
  const hints = element(html, /<ul class="search-hints">/);
  t.same([...hints.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => textOf(m[1]!)), [
    'Check the spelling of your search terms',
    'Try broader or fewer words',
    'Remove some filters Reset filters',
  ]);
  t.ok(links(hints).some((l) => l.href === '/search-results/?searchTerm=jira&reset=1'), 'reset link in the hints');
  t.notMatch(html, 'search-result-list');
  t.notMatch(html, 'Showing results for');
  t.notMatch(html, 'search-no-results-illustration', 'the older view has no illustration');

  // Spec §8: the newer filter UX gives a heading, a subheading and an illustration (decorative), and keeps the reset.
  const newer = region({ newFilters: true, status: 'no-results', results: [], total: 0, pagination: null, state: { ...model().state, searchTerm: 'zzz' } });
  const view = element(newer, /<div class="search-no-results">/);
  t.match(view, /<svg class="search-no-results-illustration"[^>]*aria-hidden="true"/, 'the illustration');
  t.match(view, '<h2 class="search-heading">No results for &quot;zzz&quot;</h2>', 'the heading');
  t.match(view, '<p class="search-no-results-subheading">Try other words, another category or fewer content types.</p>', 'the subheading');
  t.ok(view.indexOf('<svg') < view.indexOf('<h2') && view.indexOf('<h2') < view.indexOf('search-no-results-subheading'), 'illustration, heading, subheading in order');
  t.ok(links(view).some((l) => l.href === '/search-results/?searchTerm=jira&reset=1'), 'reset link');
  t.notMatch(newer, 'search-hints');
});

t.test('no results: the ways on speak the page\'s language (issue 30 \'No dead ends\')', async (t) => {
  const noResults = {
    suggestion: { term: 'escalation', href: '/search-results/?searchTerm=escalation' },
    answer: { question: 'escalaton', mode: 'extractive' as const, citations: [{ title: 'Policies', heading: null, url: '/p', quote: 'Escalate after 5 minutes.' }] },
    contactHref: '/contact?subject=escalaton',
  };
  const state = { ...model().state, searchTerm: 'escalaton' };
  const english = region({ status: 'no-results', results: [], total: 0, pagination: null, state, noResults });
  t.match(textOf(english), 'Did you mean escalation?');
  t.match(textOf(english), 'Answer from the help centre assistant');
  t.match(textOf(english), 'Still need help?Contact support');
  const ja = region({ status: 'no-results', results: [], total: 0, pagination: null, state, noResults, chrome: { ...chrome, lang: 'ja' } });
  t.match(ja, '<p class="search-rewrite search-suggestion">もしかして <a href="/search-results/?searchTerm=escalation">escalation</a> ですか?</p>');
  t.match(ja, '<h3 id="search-answer-heading">ヘルプセンター アシスタントの回答</h3>');
  t.match(ja, 'ヘルプコンテンツより:', 'the answer in the same language');
  t.match(ja, '<a class="contact-primary" href="/contact?subject=escalaton">サポートに問い合わせる</a>');
  t.notMatch(textOf(ja), /Did you mean|Still need help|Contact support/, 'no English left');
  const newer = region({ newFilters: true, status: 'no-results', results: [], total: 0, pagination: null, state, noResults });
  t.match(newer, 'search-suggestion', 'the newer view offers them too');
  t.match(newer, 'search-answer');
  t.match(newer, 'search-contact');
});

t.test('error: an alert with a fixed message, never details', async (t) => {
  const html = region({ status: 'error', results: [], total: 0 });
  t.equal(html, '<p class="search-error" role="alert">Search is not available right now. Please try again in a moment.</p>');
  t.equal(region({ status: 'error', errorMessage: 'Search is down for maintenance.' }),
    '<p class="search-error" role="alert">Search is down for maintenance.</p>');
  const full = page({ status: 'error' });
  t.match(full, 'role="search"', 'the form stays so the visitor can retry');
  t.notMatch(full, '<aside');
});
