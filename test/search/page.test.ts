import t from 'tap';
import { build, SAMPLE_CONTENT } from '../helpers/build.ts';
import { InMemoryProvider } from '@openfeature/server-sdk';
import { booleanFlag, flagsFile } from '../flags/helpers.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';
import { stateFrom, hrefOf, requestFor, chooseProduct, reset, removeProduct, withFilter, pageWindow } from '../../server/search/page-state.ts';

t.test('filter rules (spec §4, §5)', async (t) => {
  const s = stateFrom({ searchTerm: 'upgrade', deployment: 'data_center', product: 'tracklight', version: '11.1', contentType: 'topic,kb_article', page: 3 });
  t.equal(withFilter(s, { sort: 'last_published' }).page, 1, 'changing any filter returns to the first result');
  t.same(chooseProduct(s, 'pagewell', 'cloud'), { ...s, product: 'pagewell', deployment: 'cloud', version: '', page: 1 }, 'choosing a product sets the deployment and clears the version');
  t.same(reset(s), { ...s, deployment: '', product: '', version: '', contentTypes: [], page: 1 });
  t.same(removeProduct(s), { ...s, product: '', deployment: '', version: '', page: 1 });
  t.equal(stateFrom({ deployment: 'cloud', version: '11.1' }).version, '', 'versions only for data center');
  t.same(requestFor(s).facetFilters?.products, [{ platform: 'data_center', key: 'tracklight', versions: ['11.1'] }]);
  t.same(requestFor({ ...s, deployment: 'cloud', version: '' }).facetFilters?.products, [{ platform: 'cloud', key: 'tracklight' }]);
  t.equal(requestFor({ ...s, product: '' }).facetFilters?.products, undefined, 'no deployment filter without a product');
  t.equal(requestFor({ ...s, deployment: '' }).facetFilters?.products, undefined, 'no deployment filter without a deployment');
  t.equal(requestFor(s).pagination?.from, 20);
  t.equal(requestFor(s).language, 'en');
  t.equal(hrefOf(stateFrom({ searchTerm: 'a b', contentType: 'topic,kb_article', page: 2 })), '/search-results/?searchTerm=a+b&contentType=topic%2Ckb_article&page=2');
  t.same(pageWindow(5, 1), [], 'no pagination for one page');
  t.same(pageWindow(400, 1), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 'at most 10 page buttons');
  t.same(pageWindow(400, 38), [31, 32, 33, 34, 35, 36, 37, 38, 39, 40]);
});

for (const newFilters of [false, true]) {
  t.test(`the results page, new-filter experiment ${newFilters ? 'on' : 'off'}`, async (t) => {
    // Spec §4: the experience follows its gate and experiment flags (both on, or the sample's defaults).
    const env: Record<string, string> = newFilters ? {
      FLAGS_FILE: await flagsFile(t, {
        'sac-new-content-ux-experiment-gate': booleanFlag('on'), sac_new_sources_updated_ux_experiment: booleanFlag('on'),
      }),
    } : {};
    const app = await build(t, { contentDir: SAMPLE_CONTENT, env });
    const get = (url: string) => app.inject(url);

    const empty = await get('/search-results/');
    t.equal(empty.statusCode, 200);
    t.match(empty.body, 'Enter a search term');
    // Spec §2: the search box has its sub-header, the search page's tagline in content.
    t.match(empty.body, /<h1>Search<\/h1><p class="search-subheader" id="search-subheader">Find answers across the documentation, guides and knowledge base of every Fernhollow product\.<\/p>/);
    t.match(empty.body, 'aria-describedby="search-subheader"', 'the search field is described by it');
    t.notMatch(empty.body, 'x-query-id');
    t.equal(empty.headers['x-query-id'], undefined, 'no search is made for an empty term');

    const res = await get('/search-results/?searchTerm=configure');
    t.equal(res.statusCode, 200);
    t.match(res.headers.vary, 'HX-Request');
    t.ok(res.headers['x-query-id']);
    t.match(res.body, 'Showing results for &quot;configure&quot;');
    t.match(res.body, 'aria-label="Pagination"', 'pagination when total exceeds the page size');
    t.equal((res.body.match(/<li class="search-result"/g) ?? []).length, 10, '10 results per page');
    if (newFilters) {
      t.match(res.body, '>Troubleshooting<', 'category tabs');
      t.notMatch(res.body, /Tracklight Cloud \(\d+\)/, 'no counts on products');
    } else {
      t.match(res.body, /Knowledge base \(\d+\)/, 'content-type tabs with counts');
      t.match(res.body, /Tracklight Cloud[^<]*\(\d+\)|Tracklight Cloud<\/span>\s*<span[^>]*>\(?\d+/, 'product counts');
    }
    t.match(res.body, 'href="/search-results/?searchTerm=configure&amp;deployment=cloud&amp;product=tracklight"', 'choosing a product sets the deployment');

    const dc = await get('/search-results/?searchTerm=configure&deployment=data_center&product=tracklight');
    t.match(dc.body, 'version=11.3', 'data center offers that product\'s versions');
    t.match(dc.body, 'Remove Tracklight');
    const cloud = await get('/search-results/?searchTerm=configure&deployment=cloud&product=tracklight');
    t.notMatch(cloud.body, 'version=11.3', 'no versions for cloud');

    const fixed = await get('/search-results/?searchTerm=escalaton+policy');
    t.match(fixed.body, 'Showing results for &quot;escalation policy&quot;');
    t.match(fixed.body, 'Search instead for');
    const exact = await get('/search-results/?searchTerm=escalaton+policy&exact=1');
    t.notMatch(exact.body, 'Search instead for');

    const section = await get('/search-results/?searchTerm=round-robin+for+busy+teams');
    t.match(section.body, /href="[^"]*escalation-policy[^"]*#round-robin-for-busy-teams"/, 'a heading match links to its section');
    t.match(section.body, 'Section: Round-robin for busy teams');

    const none = await get('/search-results/?searchTerm=zzzqqq');
    t.match(none.body, 'No results for &quot;zzzqqq&quot;');
    if (newFilters) {
      // Spec §8: the newer filter UX's no-results view: heading, subheading and illustration.
      t.match(none.body, /<div class="search-no-results"><svg class="search-no-results-illustration"[^]*<h2 class="search-heading">No results for &quot;zzzqqq&quot;<\/h2><p class="search-no-results-subheading">[^<]+<\/p>/);
      t.notMatch(none.body, 'search-hints');
    } else {
      t.match(none.body, 'Check the spelling of your search terms', 'the older view gives hints');
      t.notMatch(none.body, 'search-no-results-illustration');
    }
    t.notMatch(none.body, 'aria-label="Pagination"');
    // Issue 30 'No dead ends': no word is close to these, and a visitor has no assistant; the contact form still is there.
    t.notMatch(none.body, 'search-suggestion', 'no suggestion when no indexed word is close');
    t.notMatch(none.body, 'search-answer', 'no assistant for a visitor');
    t.match(none.body, /<section class="search-contact" aria-labelledby="search-contact-heading"><h3 id="search-contact-heading">Still need help\?<\/h3><p><a class="contact-primary" href="\/contact\?subject=zzzqqq&amp;search=zzzqqq">Contact support<\/a><\/p>/);

    // The misspelt search asked for as typed ('Search instead for') has no results, and offers the corrected one.
    const misspelt = await get('/search-results/?searchTerm=escalaton&exact=1');
    t.equal(misspelt.statusCode, 200);
    t.match(misspelt.body, 'No results for &quot;escalaton&quot;');
    t.match(misspelt.body, '<p class="search-rewrite search-suggestion">Did you mean <a href="/search-results/?searchTerm=escalation">escalation</a>?</p>');
    t.match(misspelt.body, 'href="/contact?subject=escalaton&amp;search=escalaton"', 'the contact link carries the search');
    const contact = await get('/contact?subject=escalaton&search=escalaton');
    t.match(contact.body, /<input[^>]*name="subject"[^>]*value="escalaton"/, 'and the contact form has it as the subject');
    t.match(contact.body, '<input type="hidden" name="search" value="escalaton"/>', 'and keeps the search, for insights');
    const followed = await get('/search-results/?searchTerm=escalation');
    t.match(followed.body, 'Showing results for &quot;escalation&quot;', 'the suggestion leads to results');
    // With these filters nothing matches even when spelt right: the suggestion resets them rather than lead to nothing.
    const filtered = await get('/search-results/?searchTerm=escalaton&deployment=cloud&product=codebarn');
    t.match(filtered.body, 'No results for &quot;escalaton&quot;');
    t.match(filtered.body, 'Did you mean <a href="/search-results/?searchTerm=escalation">escalation</a>?');

    const region = await app.inject({ url: '/search-results/?searchTerm=configure', headers: { 'hx-request': 'true' } });
    t.notMatch(region.body, '<html', 'an htmx request gets the region only');
    t.match(region.body, 'Showing results for');
    const restore = await app.inject({ url: '/search-results/?searchTerm=configure', headers: { 'hx-request': 'true', 'hx-history-restore-request': 'true' } });
    t.match(restore.body, '<html', 'history restore gets the full page');

    // A visitor never gets a bare 400: what the page cannot use is left out and named in the page.
    for (const [query, named] of [['page=zero', 'page number'], ['page=-1', 'page number'], ['sort=bogus', 'sort order'],
      ['deployment=mars', 'deployment'], ['product=%3Cb%3E', 'product']] as const) {
      const bad = await get(`/search-results/?searchTerm=configure&${query}`);
      t.equal(bad.statusCode, 200, query);
      t.match(bad.body, '<html', `${query}: the results page in its chrome`);
      t.match(bad.body, `We could not use the ${named} in this address`, query);
      t.match(bad.body, 'Showing results for', `${query}: the search still runs`);
    }
    const long = await get(`/search-results/?searchTerm=${'configure '.repeat(60)}`);
    t.equal(long.statusCode, 200, 'an overlong term is searched by its beginning');

    // A page past the end goes to the last page.
    const last = await get('/search-results/?searchTerm=sprint');
    const total = Number(/(\d+) results?</.exec(last.body)?.[1]);
    const lastPage = Math.ceil(total / 10);
    const past = await app.inject('/search-results/?searchTerm=sprint&page=999');
    t.equal(past.statusCode, 302);
    t.equal(past.headers.location, `/search-results/?searchTerm=sprint${lastPage > 1 ? `&page=${lastPage}` : ''}`);
  });
}

t.test('no results: the assistant answers the same words, for whoever may ask it', async (t) => {
  // The AI summary experiment on for ADA's account alone, as the assistant's own tests have it.
  const forAda = { variants: { on: true, off: false }, defaultVariant: 'off', disabled: false,
    contextEvaluator: (context: { targetingKey?: string }) => (context.targetingKey === ADA.sub ? 'on' : 'off') };
  const app = await build(t, { flagProvider: new InMemoryProvider({ 'sac-search-ai-experiment': forAda }), env: { SESSION_SECRET } });
  const ada = { cookie: sealed(app, ADA) };
  // Nothing for Data Center matches: the answer is on a Cloud page, which the assistant cites all the same.
  const url = '/search-results/?searchTerm=how+do+I+install+it&deployment=data_center&product=acme';

  const res = await app.inject({ url, headers: ada });
  t.equal(res.statusCode, 200);
  t.equal(res.headers['cache-control'], 'private, no-store');
  t.match(res.body, 'No results for &quot;how do I install it&quot;');
  t.match(res.body, /<section class="ai-summary search-answer" aria-labelledby="search-answer-heading"><h3 id="search-answer-heading">Answer from the help centre assistant<\/h3><div class="ai-summary-body"><div class="assistant-answer"><p>From the help content:<\/p><h4 class="assistant-sources-heading">Sources<\/h4>/,
    'labelled as the assistant\'s, in the AI summary\'s box');
  t.match(res.body, /<a href="\/acme-cloud\/docs\/first-steps#install-the-widget">First steps: Install the widget<\/a><blockquote cite="\/acme-cloud\/docs\/first-steps#install-the-widget"><p>Run the installer\.<\/p><\/blockquote>/, 'its quote and the page it cites');
  t.match(res.body, 'href="/contact?subject=how+do+I+install+it&amp;search=how+do+I+install+it"', 'the contact link too');
  t.ok(res.body.indexOf('search-answer') < res.body.indexOf('search-contact'), 'the answer before the contact link');

  const region = await app.inject({ url, headers: { ...ada, 'hx-request': 'true' } });
  t.match(region.body, 'search-answer', 'the region swapped in by the search form has it too');

  t.notMatch((await app.inject(url)).body, 'search-answer', 'not for a visitor');
  t.notMatch((await app.inject({ url, headers: { cookie: sealed(app, { ...ADA, sub: 'acct-bob' }) } })).body, 'search-answer', 'not with the experiment off');
  const nothing = await app.inject({ url: '/search-results/?searchTerm=banana+bread+recipe', headers: ada });
  t.match(nothing.body, 'No results for');
  t.notMatch(nothing.body, 'search-answer', 'an answer that found nothing is not shown');
  t.match(nothing.body, 'href="/contact?subject=banana+bread+recipe&amp;search=banana+bread+recipe"');

  // The assistant failing costs the page its answer, never the page: the contact link still leads on.
  await app.db.exec('alter table assistant_passages rename to assistant_passages_away');
  const failing = await app.inject({ url: '/search-results/?searchTerm=configure+it&deployment=data_center&product=acme', headers: ada });
  t.equal(failing.statusCode, 200);
  t.match(failing.body, 'No results for &quot;configure it&quot;');
  t.notMatch(failing.body, 'search-answer');
  t.match(failing.body, 'href="/contact?subject=configure+it&amp;search=configure+it"');
});
