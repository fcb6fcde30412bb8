import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { serve, reusablePages, axeViolations, VIEWPORTS } from './browser.ts';
import { hydrateAll, watchErrors } from './islands.ts';
import { ISLAND_NAMES } from '../../views/islands/names.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';

// The page widgets with and without JavaScript: the version selector and its modal, selects that act
// when changed, was-this-helpful in place, and the hidden credits overlay (spec §2, §4, §8, §9).
const HAS_10_4 = '/tracklight-data-center/11.3/docs/add-a-cluster-node';
const NO_10_4 = '/tracklight-data-center/11.3/docs/configure-json-logging';
const TOPIC = '/tracklight-cloud/docs/tql-functions-reference';
const SEARCH = '/search-results/?searchTerm=issue';

type Viewport = keyof typeof VIEWPORTS;
const VIEWPORT_NAMES = Object.keys(VIEWPORTS) as Viewport[];

type Open = ReturnType<typeof reusablePages>;

/**
 * A page with JavaScript on, its islands settled and its errors watched (as openEnhanced in islands.ts),
 * waiting on the islands by name only: markup may still carry data-island hooks of no island. `key`
 * keeps a page apart (one with a clock installed).
 */
async function openEnhanced(open: Open, t: Test, url: string, options: {
  viewport: Viewport; reducedMotion?: 'reduce' | 'no-preference'; key?: string; setup?: (page: Page) => Promise<void>;
}): Promise<{ page: Page; errors: () => string[] }> {
  let errors: () => string[] = () => [];
  const page = await open(t, url, { scripts: 'on', viewport: options.viewport, key: options.key, setup: async (p) => {
    await p.emulateMedia({ reducedMotion: options.reducedMotion ?? 'no-preference' });
    errors = watchErrors(p);
    if (options.setup) await options.setup(p);
  } });
  await settled(page);
  return { page, errors: () => errors() };
}
const settled = async (page: Page) => hydrateAll(page).then(() => page.waitForFunction((names) => [...document.querySelectorAll<HTMLElement>('[data-island]')]
  .filter((el) => names.includes(el.dataset.island ?? ''))
  .every((el) => el.dataset.islandReady === 'true' || el.dataset.islandReady === 'failed'), [...ISLAND_NAMES] as string[], { polling: 50 }));

/** A marker only a full page load clears. */
const mark = (page: Page) => page.evaluate(() => { (window as unknown as { marker: string }).marker = 'same page'; });
const samePage = (page: Page) => page.evaluate(() => (window as unknown as { marker?: string }).marker === 'same page');
const focused = (page: Page) => page.evaluate(() => {
  const el = document.activeElement;
  return el ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}:${(el.textContent ?? '').trim()}` : '';
});
/**
 * Waits until the version modal has left the DOM. A role locator stops matching as soon as the dialog
 * closes, before its close event has put the select back; the element goes only after that.
 */
const modalRemoved = (page: Page) => page.locator('dialog.version-modal').waitFor({ state: 'detached' });
/** The props the server wrote for an island. */
const islandProps = <P>(page: Page, name: string) =>
  page.evaluate((n) => JSON.parse(document.querySelector(`script[data-island-props="${n}"]`)?.textContent ?? 'null') as unknown, name) as Promise<P>;

t.test('page widgets in a real browser', async (t) => {
  const { base, browser } = await serve(t, { contentDir: SAMPLE_CONTENT });
  // One page per script mode and width, from step to step: a new page costs a renderer's start.
  const open = reusablePages(t, browser);

  t.test('version selector without JavaScript: the form, and the same Search and Browse as the modal', async (t) => {
    const page = await open(t, base + NO_10_4, { scripts: 'off', viewport: 'desktop' });
    await page.getByLabel('Data Center version').selectOption('10.4');
    await page.getByRole('button', { name: 'Go' }).click();
    await page.waitForURL(/\/version-switch\?/);
    t.equal(await page.locator('h1').textContent(), 'Unable to find page');
    t.match(await page.locator('.version-not-found p').textContent(), 'This exact page does not exist in our Data Center 10.4 documentation. Would you like to look for an alternative page?');
    const noScript = {
      search: await page.getByRole('link', { name: 'Search', exact: true }).last().getAttribute('href'),
      browse: await page.getByRole('link', { name: 'Browse' }).getAttribute('href'),
    };
    await page.goto(base + NO_10_4);
    const props = await islandProps<{ versions: { number: string; href?: string; searchHref?: string; browseHref?: string }[] }>(page, 'version-selector');
    const v104 = props.versions.find((v) => v.number === '10.4');
    t.same({ search: v104?.searchHref, browse: v104?.browseHref }, noScript, 'the modal offers the destinations of the no-script page');
    t.equal(v104?.href, undefined, 'no 10.4 page to go to');
    t.match(noScript.search, /^\/search-results\/\?searchTerm=.+&deployment=data_center&version=10\.4/);
    await page.goto(base + HAS_10_4);
    const existing = await islandProps<typeof props>(page, 'version-selector');
    t.equal(existing.versions.find((v) => v.number === '10.4')?.href, '/tracklight-data-center/10.4/docs/add-a-cluster-node');
  });

  t.test('version selector with JavaScript, by keyboard', async (t) => {
    const { page, errors } = await openEnhanced(open, t, base + NO_10_4, { viewport: 'desktop' });
    const select = page.getByLabel('Data Center version');
    t.ok(await page.getByRole('button', { name: 'Go' }).isHidden(), "'Go' is not shown once the select acts by itself");
    t.equal(await select.inputValue(), '11.3');
    await select.focus();
    await page.keyboard.press('ArrowDown');
    const dialog = page.getByRole('dialog', { name: 'Unable to find page' });
    await dialog.waitFor();
    // The next version down, 11.1, has no such page either.
    t.match(await dialog.textContent(), 'This exact page does not exist in our Data Center 11.1 documentation.');
    t.equal(await focused(page), 'a:Search', 'focus moves into the dialog');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    t.equal(await focused(page), 'button:Cancel');
    await page.keyboard.press('Tab');
    t.equal(await focused(page), 'a:Search', 'Tab from the last action comes back to the first');
    await page.keyboard.press('Shift+Tab');
    t.equal(await focused(page), 'button:Cancel', 'and Shift+Tab the other way');
    for (const viewport of VIEWPORT_NAMES) {
      await page.setViewportSize(VIEWPORTS[viewport]);
      t.same(await axeViolations(page), [], `axe: the version modal open (${viewport})`);
    }
    await page.keyboard.press('Escape');
    await modalRemoved(page);
    t.equal(await focused(page), 'select#version-select:' + (await select.textContent())?.trim(), 'Escape closes it and focus is back on the select');
    t.equal(await select.inputValue(), '11.3', 'the select shows the current version again');

    // Enter on Cancel closes it the same way; Enter on Browse follows the link.
    await page.keyboard.press('ArrowDown');
    await dialog.waitFor();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await modalRemoved(page);
    t.equal(await select.inputValue(), '11.3');
    await page.keyboard.press('ArrowDown');
    await dialog.waitFor();
    const browse = await dialog.getByRole('link', { name: 'Browse' }).getAttribute('href');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === browse);
    t.pass(`Browse leads to ${browse}`);

    // A first change, before the selector has hydrated (it waits for one): it is given to the hydrated selector.
    await page.goto(base + HAS_10_4);
    t.equal(await page.locator('[data-island="version-selector"]').getAttribute('data-island-ready'), 'waiting', 'the selector waits for an interaction');
    await page.getByLabel('Data Center version').focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForURL(/\/11\.1\/docs\/add-a-cluster-node$/);
    t.pass('a version that has this page goes straight to it');
    t.same(errors(), []);
  });

  t.test('version selector with JavaScript, by mouse', async (t) => {
    const { page, errors } = await openEnhanced(open, t, base + NO_10_4, { viewport: 'mobile' });
    const select = page.getByLabel('Data Center version');
    await select.selectOption('10.4');
    const dialog = page.getByRole('dialog', { name: 'Unable to find page' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await modalRemoved(page);
    t.equal(await select.inputValue(), '11.3', 'Cancel puts the current version back');
    t.equal(await focused(page).then((f) => f.startsWith('select#version-select')), true, 'and focus on the select');
    await select.selectOption('10.4');
    const search = await dialog.getByRole('link', { name: 'Search' }).getAttribute('href');
    await dialog.getByRole('link', { name: 'Search' }).click();
    await page.waitForURL((url) => `${url.pathname}${url.search}` === search);
    t.pass('Search leads to the search results for this page in 10.4');
    t.same(errors(), []);
  });

  t.test('the sort select without JavaScript: its Sort button', async (t) => {
    const page = await open(t, base + SEARCH, { scripts: 'off', viewport: 'desktop' });
    await page.getByLabel('Sort by').selectOption('last_published');
    await page.getByRole('button', { name: 'Sort' }).click();
    await page.waitForURL(/sort=last_published/);
    t.equal(await page.getByLabel('Sort by').inputValue(), 'last_published');
  });

  t.test('the sort select with JavaScript searches when changed, by keyboard and by mouse, with no layout shift', async (t) => {
    const before = await open(t, base + SEARCH, { scripts: 'blocked', viewport: 'desktop' });
    const boxBefore = await before.getByLabel('Sort by').boundingBox();
    const { page, errors } = await openEnhanced(open, t, base + SEARCH, { viewport: 'desktop' });
    t.same(await page.getByLabel('Sort by').boundingBox(), boxBefore, 'the select stays where it was before hydration');
    t.ok(await page.getByRole('button', { name: 'Sort' }).isHidden(), 'the Sort button is not shown');
    await mark(page);
    const sort = page.getByLabel('Sort by');
    await sort.focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForURL(/sort=last_published/);
    await page.waitForFunction(() => !document.querySelector('#search-results-region')?.hasAttribute('aria-busy'));
    t.ok(await samePage(page), 'the results are swapped in place');
    t.equal(new URL(page.url()).searchParams.get('searchTerm'), 'issue', 'the URL is the one the form makes');
    t.equal(await focused(page).then((f) => f.startsWith('select#search-sort')), true, 'focus stays on the select');
    await sort.selectOption('relevance');
    await page.waitForURL(/sort=relevance/);
    t.ok(await samePage(page));
    t.same(await axeViolations(page), []);
    t.same(errors(), []);
  });

  t.test('was-this-helpful without JavaScript', async (t) => {
    const page = await open(t, base + TOPIC, { scripts: 'off', viewport: 'desktop' });
    await page.getByRole('button', { name: 'No' }).click();
    await page.waitForURL(/feedback=reasons/);
    await page.getByLabel("It wasn't accurate").check();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/feedback=thanks&reason=not-accurate/);
    t.match(await page.locator('#feedback').textContent(), 'Thanks for your feedback.');
  });

  t.test('was-this-helpful in place, by keyboard', async (t) => {
    const { page, errors } = await openEnhanced(open, t, base + TOPIC, { viewport: 'desktop' });
    await mark(page);
    const posts: string[] = [];
    // The analytics beacons (POST /api/events) may go out at any time; the feedback posts are counted here.
    page.on('request', (r) => { if (r.method() === 'POST' && new URL(r.url()).pathname !== '/api/events') posts.push(`${new URL(r.url()).pathname} ${r.headers()['accept']}`); });
    await page.getByRole('button', { name: 'No' }).focus();
    await page.keyboard.press('Enter');
    const reasons = page.getByRole('group', { name: 'What went wrong?' });
    await reasons.waitFor();
    t.equal(await focused(page), "button:It wasn't accurate", 'focus moves to the first reason');
    t.same(await reasons.getByRole('button').allTextContents(), ["It wasn't accurate", "It wasn't clear", "It wasn't relevant"]);
    for (const viewport of VIEWPORT_NAMES) {
      await page.setViewportSize(VIEWPORTS[viewport]);
      t.same(await axeViolations(page), [], `axe: the reasons open (${viewport})`);
    }
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const status = page.locator('#feedback [role="status"]');
    await status.getByText('Thanks for your feedback.').waitFor();
    await reasons.waitFor({ state: 'detached' });
    t.match(await page.getByRole('link', { name: 'Contact support about this page' }).getAttribute('href'), /reason=not-clear/);
    t.ok(await samePage(page), 'no page load');
    t.equal(new URL(page.url()).pathname, TOPIC);
    t.same(posts, ['/feedback application/json', '/feedback application/json'], 'the same endpoint, asking for JSON');
    for (const viewport of VIEWPORT_NAMES) {
      await page.setViewportSize(VIEWPORTS[viewport]);
      t.same(await axeViolations(page), [], `axe: the thanks shown (${viewport})`);
    }
    t.same(errors(), []);
  });

  t.test('was-this-helpful in place, by mouse; a failed post says so and leaves the form working', async (t) => {
    const { page, errors } = await openEnhanced(open, t, base + TOPIC, { viewport: 'mobile' });
    await mark(page);
    await page.getByRole('button', { name: 'Yes' }).click();
    await page.locator('#feedback [role="status"]').getByText('Thanks for your feedback.').waitFor();
    t.ok(await samePage(page));

    const failing = await openEnhanced(open, t, base + TOPIC, { viewport: 'desktop' });
    await failing.page.route('**/feedback', (route) => route.fulfill({ status: 503, body: 'unavailable' }), { times: 1 });
    await failing.page.getByRole('button', { name: 'No' }).click();
    const alert = failing.page.getByRole('alert');
    await alert.waitFor();
    t.equal(await alert.textContent(), "Your answer couldn't be sent. Please try again.");
    t.ok(await failing.page.getByRole('button', { name: 'No' }).isVisible(), 'the buttons are still there');
    await failing.page.getByRole('button', { name: 'No' }).click();
    await failing.page.waitForURL(/feedback=reasons/);
    t.pass('the form then posts the page as without JavaScript');
    t.same(failing.errors().filter((e) => !e.includes('503')), []);
    t.same(errors(), []);
  });

  t.test('the credits overlay: timings, Escape, reduced motion, loaded only when called', async (t) => {
    for (const reducedMotion of ['no-preference', 'reduce'] as const) {
      const chunks: string[] = [];
      const { page, errors } = await openEnhanced(open, t, base + TOPIC, {
        viewport: 'desktop', reducedMotion, key: `clock, ${reducedMotion}`,
        setup: async (p) => {
          p.on('request', (r) => { if (/\/credits\.[\w-]+\.js$/.test(r.url())) chunks.push(r.url()); });
          await p.clock.install();
        },
      });
      t.equal(await page.locator('[data-island-props="credits"]').count(), 1, 'the credits are in the page as data');
      t.equal(await page.locator('.credits-overlay').count(), 0, 'and nothing shows');
      t.same(chunks, [], 'the overlay is not loaded before it is called');
      await page.clock.pauseAt(Date.now() + 60_000);
      await page.evaluate(() => (window as unknown as { signpostCredits: () => Promise<void> }).signpostCredits());
      t.equal(chunks.length, 1, 'the call loads it');
      const overlay = page.locator('.credits-overlay');
      const ship = page.locator('.credits-ship');
      const list = page.locator('.credits-list');
      t.ok(await ship.isVisible(), 'the ship shows');
      t.equal(await overlay.getAttribute('aria-hidden'), 'true', 'as decoration');
      const animation = (selector: string) => page.locator(selector).evaluate((el) => getComputedStyle(el).animationName);
      t.equal(await animation('.credits-ship'), reducedMotion === 'reduce' ? 'none' : 'credits-fly', `ship movement (${reducedMotion})`);
      await page.clock.runFor(2999);
      t.ok(await ship.isVisible(), 'still the ship at 2999 ms');
      await page.clock.runFor(1);
      t.equal(await ship.count(), 0, 'the ship goes at 3000 ms');
      t.equal(await list.getAttribute('class'), 'credits-list', 'the credits wait');
      await page.clock.runFor(499);
      t.equal(await list.getAttribute('class'), 'credits-list');
      await page.clock.runFor(1);
      t.equal(await list.getAttribute('class'), 'credits-list is-shown', 'and fade in 500 ms later');
      t.match(await list.textContent(), /The team.*Juniper Tallowmere.*Documentation lead/);
      t.equal(await animation('.credits-scroll'), reducedMotion === 'reduce' ? 'none' : 'credits-roll', `scrolling (${reducedMotion})`);
      t.equal(await list.evaluate((el) => getComputedStyle(el).transitionDuration), reducedMotion === 'reduce' ? '0s' : '0.5s', `fading (${reducedMotion})`);
      await page.clock.runFor(14_999);
      t.equal(await list.getAttribute('class'), 'credits-list is-shown', 'shown until 15 s');
      await page.clock.runFor(1);
      t.equal(await list.getAttribute('class'), 'credits-list', 'then they hide');
      t.equal(await list.evaluate((el) => getComputedStyle(el).transitionDuration), reducedMotion === 'reduce' ? '0s' : '2.5s');
      await page.clock.runFor(2499);
      t.equal(await overlay.count(), 1);
      await page.clock.runFor(1);
      await overlay.waitFor({ state: 'detached' });
      t.pass('and are removed 2.5 s later');

      // Escape ends it at any time; a second call shows it again without loading anything more.
      await page.evaluate(() => (window as unknown as { signpostCredits: () => Promise<void> }).signpostCredits());
      await ship.waitFor();
      await page.clock.resume(); // axe waits on timers of its own
      // The audit sees the credits hidden or shown, never half faded (a contrast mid-transition is no one's
      // reading state): without the fade, once the list follows the ship.
      await list.evaluate((el) => { (el as HTMLElement).style.transition = 'none'; });
      for (const viewport of VIEWPORT_NAMES) {
        await page.setViewportSize(VIEWPORTS[viewport]);
        t.same(await axeViolations(page), [], `axe: the credits overlay shown (${viewport}, ${reducedMotion})`);
      }
      await page.keyboard.press('Escape');
      await overlay.waitFor({ state: 'detached' });
      t.equal(chunks.length, 1, 'loaded once');
      t.same(errors(), []);
    }
  });
});
