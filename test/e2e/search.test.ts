import t, { type Test } from 'tap';
import type { Page, Request, Route } from 'playwright-core';
import { serve, reusablePages, axeViolations, VIEWPORTS } from './browser.ts';
import { hydrateAll } from './islands.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';

// The search results page (spec §2, §4, §5) and its enhancement (islands/search.ts), against the sample content.
const SEARCH = '/search-results/';
const ERROR_TEXT = 'Search is not available right now. Please try again in a moment.';

type Viewport = keyof typeof VIEWPORTS;

const params = (page: Page) => new URL(page.url()).searchParams;
const status = (page: Page) => page.locator('#search-results-region [role="status"]');
const term = (page: Page) => page.getByRole('searchbox', { name: 'Search support' });

/** Waits until the status line reads `pattern` (it is emptied and refilled after a swap, to be announced). */
async function statusReads(page: Page, pattern: RegExp): Promise<string> {
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector('#search-results-region [role="status"]')?.textContent ?? ''),
    pattern.source,
  );
  return (await status(page).textContent()) ?? '';
}

/** The requests htmx makes for the results region, as they are sent. */
function regionRequests(page: Page): { url: URL; at: number }[] {
  const seen: { url: URL; at: number }[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/search-results') && request.headers()['hx-request'] === 'true') seen.push({ url, at: Date.now() });
  });
  return seen;
}

/** Routes the region's requests through `handle`; everything else goes on as it is. */
async function routeRegion(page: Page, handle: (route: Route) => Promise<void>): Promise<void> {
  await page.route((url) => url.pathname.startsWith('/search-results'), async (route) => {
    if (route.request().headers()['hx-request'] !== 'true') return route.continue();
    // The page may abort a held request (a newer search replaces it); then there is nothing to continue.
    await handle(route).catch(() => undefined);
  });
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Open = ReturnType<typeof reusablePages>;

/** The search page with its island started, and a marker that only a full page load would clear. */
async function openEnhanced(open: Open, t: Test, url: string, viewport: Viewport = 'desktop'): Promise<Page> {
  const page = await open(t, url, { scripts: 'on', viewport });
  await hydrateAll(page);
  await page.waitForSelector('form[data-island="search"][data-island-ready="true"]');
  await page.evaluate(() => { (window as unknown as { marker: string }).marker = 'same page'; });
  return page;
}
const samePage = (page: Page) => page.evaluate(() => (window as unknown as { marker?: string }).marker === 'same page');

t.test('search in a real browser', async (t) => {
  const { base, browser } = await serve(t, { contentDir: SAMPLE_CONTENT });
  // One page per script mode and width, from step to step: the search page keeps nothing between
  // documents (no cookie, no storage it reads), and a new page costs a renderer's start.
  const open = reusablePages(t, browser);

  t.test('when JavaScript is unavailable', async (t) => {
    const page = await open(t, base + SEARCH, { scripts: 'off', viewport: 'desktop' });
    t.match(await status(page).textContent(), 'Enter a search term', 'the empty page prompts for a term');

    await term(page).fill('configure');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/searchTerm=configure/);
    t.equal(params(page).get('searchTerm'), 'configure', 'the form submits the term in the URL');
    t.equal(await status(page).textContent(), '59 results');
    t.equal(await page.locator('.search-result').count(), 10, 'a page of results');

    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Page 2' }).click();
    await page.waitForURL(/page=2/);
    t.equal(await page.locator('.search-pagination [aria-current="page"]').textContent(), 'Page 2', 'page 2 of the results');
    t.equal(await page.locator('.search-result-title a').first().getAttribute('data-position'), '11', 'results 11 onwards');

    await page.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: /^Knowledge base/ }).click();
    await page.waitForURL(/contentType=kb_article/);
    t.equal(params(page).get('page'), null, 'a tab returns to page 1');
    t.equal(await status(page).textContent(), '11 results');
    t.equal(await page.locator('.search-tabs [aria-current="page"]').textContent(), 'Knowledge base (11)');

    await page.getByRole('link', { name: /^Pagewell Data Center/ }).click();
    await page.waitForURL(/product=pagewell/);
    t.equal(params(page).get('deployment'), 'data_center', 'choosing a product sets its deployment');
    t.equal(params(page).get('contentType'), 'kb_article', 'and keeps the other filters');
    await page.getByRole('link', { name: 'Remove Pagewell' }).click();
    await page.waitForURL((url) => !url.searchParams.has('product'));
    t.equal(params(page).get('deployment'), null, 'removing the product tag clears the deployment too');
    t.equal(await page.getByRole('link', { name: /^Remove / }).count(), 0, 'no product tag');

    await page.getByLabel('Sort by').selectOption('last_published');
    await page.getByRole('button', { name: 'Sort' }).click();
    await page.waitForURL(/sort=last_published/);
    t.equal(params(page).get('contentType'), 'kb_article', 'the filters travel with the form as hidden fields');
    t.equal(await page.getByLabel('Sort by').inputValue(), 'last_published', 'the page says how it is sorted');
    const updated = await page.locator('.search-result-meta li:first-child').allTextContents();
    const dates = updated.filter((text) => text.startsWith('Updated ')).map((text) => Date.parse(text.slice('Updated '.length)));
    t.ok(dates.length > 1 && dates.every((d) => !Number.isNaN(d)), 'results show when they were updated');
    t.same(dates, [...dates].sort((a, b) => b - a), 'newest first');
  });

  for (const scripts of ['off', 'on'] as const) {
    t.test(`on a phone, with JavaScript ${scripts}, results out of sight are drawn when reached, and the keyboard reaches them whole`, async (t) => {
      const page = await open(t, base + SEARCH + '?searchTerm=configure', { scripts, viewport: 'mobile' });
      const last = page.locator('.search-result').last();
      const link = last.locator('.search-result-title a');
      // What a result holds is skipped while the result is out of sight (not the result's own box).
      t.equal(await link.evaluate((a) => a.checkVisibility({ contentVisibilityAuto: true })), false, 'the last result is not drawn in the first frame');
      t.ok(await page.locator('.search-result').count() > 1, 'a list of results');

      const href = await link.getAttribute('href');
      let presses = 0;
      while (presses < 200 && await page.evaluate((h) => document.activeElement?.getAttribute('href') !== h, href)) {
        await page.keyboard.press('Tab');
        presses += 1;
      }
      t.equal(await page.evaluate(() => document.activeElement?.closest('.search-result') !== null), true, 'Tab reaches the last result');
      await page.waitForFunction(() => [...document.querySelectorAll('.search-result-title a')].at(-1)?.checkVisibility({ contentVisibilityAuto: true }));
      t.pass('it is drawn once focus brings it into view');
      // Its containment clips what is painted outside its box: the focus ring must fit in the clip margin.
      const room = await link.evaluate((a) => {
        const ring = getComputedStyle(a);
        const box = getComputedStyle(a.closest('.search-result') as Element);
        return { ring: parseFloat(ring.outlineWidth) + parseFloat(ring.outlineOffset), margin: parseFloat(box.overflowClipMargin) || 0, style: ring.outlineStyle };
      });
      t.not(room.style, 'none', 'the focused link has a ring');
      t.ok(room.ring <= room.margin, `the ring (${room.ring}px) fits in the clip margin (${room.margin}px)`);
    });
  }

  t.test('when JavaScript is available', async (t) => {
    t.test('typing searches after a 500 ms pause, once, in place, at the URL the form would go to', async (t) => {
      const plain = await open(t, base + SEARCH, { scripts: 'off', viewport: 'desktop' });
      await term(plain).fill('configure');
      await plain.getByRole('button', { name: 'Search', exact: true }).click();
      await plain.waitForURL(/searchTerm=configure/);
      const withoutScripts = plain.url();

      const page = await openEnhanced(open, t, base + SEARCH);
      // Errors from here on, through a reload: a CSP refusal (say of an inline style from htmx) is one.
      const errors: string[] = [];
      page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.reload();
      await hydrateAll(page);
      await page.waitForSelector('form[data-island="search"][data-island-ready="true"]');
      await page.evaluate(() => {
        (window as unknown as { marker: string }).marker = 'same page';
        const times = { input: 0, request: 0, inputs: [] as number[] };
        (window as unknown as { times: typeof times }).times = times;
        document.getElementById('search-term')!.addEventListener('input', () => { times.input = performance.now(); times.inputs.push(times.input); });
        document.addEventListener('htmx:beforeRequest', () => { times.request = performance.now(); });
      });
      const requests = regionRequests(page);
      const entries = await page.evaluate(() => history.length);
      await term(page).pressSequentially('configure', { delay: 60 });
      t.equal(await statusReads(page, /^59 results$/), '59 results', 'results appear');
      const times = await page.evaluate(() => (window as unknown as { times: { input: number; request: number; inputs: number[] } }).times);
      // One request per pause of 500 ms: keys 60 ms apart make one, unless a busy machine let a gap
      // between two keys reach the debounce (a gap within 50 ms of it may go either way).
      const gaps = times.inputs.slice(1).map((at, i) => at - (times.inputs[i] ?? at));
      const pauses = (ms: number) => gaps.filter((gap) => gap >= ms).length;
      t.ok(requests.length >= 1 + pauses(550) && requests.length <= 1 + pauses(450),
        `one request for the whole word, one more per pause between keys (${requests.length} requests, key gaps up to ${Math.round(Math.max(0, ...gaps))} ms)`);
      t.equal(requests.at(-1)?.url.searchParams.get('searchTerm'), 'configure', 'the last for the final term');
      const waited = Math.round(times.request - times.input);
      t.ok(waited >= 495 && waited < 1000, `sent 500 ms after the last key (${waited} ms)`);
      t.ok(await samePage(page), 'no full page load');
      t.equal(page.url(), withoutScripts, 'the URL is the one the search makes without JavaScript');
      t.equal(await page.evaluate(() => history.length), entries, 'rewritten in place, not pushed');
      t.equal(await page.locator('.search-result').count(), 10);

      const sent = requests.length;
      await term(page).fill('');
      await later(900);
      t.equal(requests.length, sent, 'clearing the term makes no request');
      t.equal(await page.locator('.search-result').count(), 10, 'and clears nothing');
      await term(page).press('Enter');
      await later(300);
      t.equal(requests.length, sent, 'nor does Enter on an empty term');
      t.equal(page.url(), withoutScripts);
      t.same(errors, [], 'no errors in the console');
      t.equal(await page.locator('head style').count(), 0, 'no inline styles');
    });

    t.test('Enter and the Search button search at once', async (t) => {
      const page = await openEnhanced(open, t, base + SEARCH);
      const requests = regionRequests(page);
      await term(page).fill('board');
      const pressed = Date.now();
      await term(page).press('Enter');
      t.equal(await statusReads(page, /^16 results$/), '16 results');
      t.ok((requests[0]?.at ?? Infinity) - pressed < 400, 'without waiting for the pause');
      await later(800);
      t.equal(requests.length, 1, 'and the pending as-you-type search is dropped');

      await term(page).fill('sprint');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      t.equal(await statusReads(page, /^13 results$/), '13 results', 'the Search button searches too');
      t.equal(params(page).get('searchTerm'), 'sprint');
      t.ok(await samePage(page));
    });

    t.test('links in the region swap it in place and update the URL and the form', async (t) => {
      const page = await openEnhanced(open, t, base + SEARCH + '?searchTerm=configure');
      const requests = regionRequests(page);
      const entries = await page.evaluate(() => history.length);

      await page.getByRole('link', { name: 'Page 2' }).click();
      await page.waitForURL(/page=2/);
      await statusReads(page, /^59 results$/);
      t.equal(await page.locator('.search-result-title a').first().getAttribute('data-position'), '11', 'page 2');

      await page.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: /^Topics/ }).click();
      await page.waitForURL(/contentType=topic/);
      t.equal(params(page).get('page'), null, 'a tab returns to page 1');
      t.equal(await statusReads(page, /^47 results$/), '47 results');

      await page.getByRole('link', { name: /^Pagewell Data Center/ }).click();
      await page.waitForURL(/product=pagewell/);
      t.equal(await page.getByRole('link', { name: 'Remove Pagewell' }).count(), 1, 'the product tag shows');
      t.same(await page.locator('form[role="search"] input[type="hidden"]').evaluateAll((inputs) =>
        inputs.map((i) => `${(i as HTMLInputElement).name}=${(i as HTMLInputElement).value}`)),
      ['deployment=data_center', 'product=pagewell', 'contentType=topic', 'category=all'], 'the form carries the new filter state');

      await term(page).fill('cache');
      await term(page).press('Enter');
      await page.waitForURL(/searchTerm=cache/);
      t.equal(params(page).get('product'), 'pagewell', 'a new term keeps the filters, as without JavaScript');
      t.equal(params(page).get('contentType'), 'topic');
      await statusReads(page, /results?$/);

      await page.getByRole('link', { name: 'Remove Pagewell' }).click();
      await page.waitForURL((url) => !url.searchParams.has('product'));
      t.equal(params(page).get('deployment'), null, 'removing the tag clears the deployment');
      await statusReads(page, /results?$/);
      t.equal(await page.getByRole('link', { name: /^Remove / }).count(), 0);

      t.equal(requests.length, 5, 'every change was a region request');
      t.ok(await samePage(page), 'no full page load');
      t.equal(await page.evaluate(() => history.length), entries, 'the URL was replaced each time');
    });

    t.test('a keyboard user keeps their place after a filter swap', async (t) => {
      const page = await openEnhanced(open, t, base + SEARCH + '?searchTerm=configure');
      const tab = page.getByRole('navigation', { name: 'Content types' }).getByRole('link', { name: /^Knowledge base/ });
      await tab.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/contentType=kb_article/);
      await statusReads(page, /^11 results$/);
      t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Knowledge base (11)', 'focus is on the chosen tab');
      t.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-current')), 'page');
      t.equal(await status(page).getAttribute('role'), 'status', 'the swapped count is a status line, announced');
    });

    t.test('the region shows it is loading while a request runs', async (t) => {
      const page = await openEnhanced(open, t, base + SEARCH);
      await routeRegion(page, async (route) => { await later(600); await route.continue(); });
      const region = page.locator('#search-results-region');
      await term(page).fill('board');
      await term(page).press('Enter');
      await page.waitForSelector('#search-results-region.is-loading[aria-busy="true"]');
      t.pass('loading class and aria-busy while the request runs');
      await statusReads(page, /^16 results$/);
      t.notOk(await region.evaluate((e) => e.classList.contains('is-loading')), 'the class goes when it finishes');
      t.equal(await region.getAttribute('aria-busy'), null, 'and so does aria-busy');
    });

    t.test('a newer search aborts the running one, whose end does not end the loading state', async (t) => {
      const page = await openEnhanced(open, t, base + SEARCH);
      const errors: string[] = [];
      page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
      const failed: string[] = [];
      page.on('requestfailed', (request) => { failed.push(new URL(request.url()).searchParams.get('searchTerm') ?? ''); });
      // Long enough that the first search is still running when the second starts, on a busy machine too.
      await routeRegion(page, async (route) => { await later(2000); await route.continue(); });
      // Every value the region's class has had, in order: the loading state may be switched off only once.
      await page.evaluate(() => {
        const region = document.getElementById('search-results-region')!;
        const olds: string[] = [];
        (window as unknown as { classHistory: () => string[] }).classHistory = () => [...olds, region.className];
        new MutationObserver((records) => { for (const r of records) olds.push(r.oldValue ?? ''); })
          .observe(region, { attributeFilter: ['class'], attributeOldValue: true });
      });
      await term(page).fill('board');
      await term(page).press('Enter');
      await page.waitForSelector('#search-results-region.is-loading');
      await later(200);
      await term(page).fill('sprint');
      await term(page).press('Enter');
      await later(300);
      t.ok(await page.locator('#search-results-region.is-loading[aria-busy="true"]').count(), 'still loading after the abort');
      t.equal(await statusReads(page, /^13 results$/), '13 results', 'the newer search wins');
      t.equal(params(page).get('searchTerm'), 'sprint');
      t.same(failed, ['board'], 'the older request was aborted');
      const classes = await page.evaluate(() => (window as unknown as { classHistory: () => string[] }).classHistory());
      const loading = classes.map((c) => c.split(' ').includes('is-loading'));
      t.equal(loading.filter((on, i) => i > 0 && !on && loading[i - 1]).length, 1, `loading switched off once, at the end (${classes.join(' | ')})`);
      t.equal(loading.at(-1), false);
      t.same(errors, [], 'the replaced search is no error on the console (no htmx:sendAbort)');
    });

    t.test('a failed request shows the error state', async (t) => {
      const page = await openEnhanced(open, t, base + SEARCH + '?searchTerm=board');
      await routeRegion(page, (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }));
      await term(page).fill('sprint');
      await term(page).press('Enter');
      const alert = page.locator('#search-results-region [role="alert"]');
      await alert.waitFor();
      t.equal(await alert.textContent(), ERROR_TEXT);
      t.equal(await page.locator('#search-results-region').getAttribute('aria-busy'), null, 'not loading any more');
      t.ok(await samePage(page));
      t.same(await axeViolations(page), [], 'the error state has no WCAG A/AA violations');
    });
  });

  t.test('every state of the page has no WCAG A/AA violations', async (t) => {
    const states = { results: '?searchTerm=configure', 'no results': '?searchTerm=zzzqqq', empty: '',
      'a section result and a spelling fix': '?searchTerm=round-robin+for+busy+teamz' };
    for (const viewport of ['desktop', 'mobile'] as const) {
      for (const scripts of ['on', 'blocked'] as const) {
        for (const [name, query] of Object.entries(states)) {
          const page = await open(t, base + SEARCH + query, { scripts, viewport });
          t.same(await axeViolations(page), [], `${name}, ${viewport}, scripts ${scripts}`);
        }
      }
      // The states as the enhancement swaps them in.
      const page = await openEnhanced(open, t, base + SEARCH, viewport);
      await term(page).fill('configure');
      await statusReads(page, /^59 results$/);
      t.same(await axeViolations(page), [], `results swapped in, ${viewport}`);
      await term(page).fill('zzzqqq');
      await statusReads(page, /^0 results$/);
      t.same(await axeViolations(page), [], `no results swapped in, ${viewport}`);
      await routeRegion(page, (route) => route.fulfill({ status: 503, body: '' }));
      await term(page).fill('board');
      await page.locator('#search-results-region [role="alert"]').waitFor();
      t.equal(await page.locator('#search-results-region [role="alert"]').textContent(), ERROR_TEXT);
      t.same(await axeViolations(page), [], `error, ${viewport}`);
    }
  });
});
