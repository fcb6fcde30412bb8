/**
 * The home page's platform tabs (views/islands/platform-tabs.tsx): links without JavaScript (the server
 * picks the panel), WAI-ARIA tabs switching in place with it; keyboard then mouse; axe at both widths;
 * the same cards, so the same destinations, either way; the Japanese home too.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { axeViolations, reusablePages, serve, type VIEWPORTS } from './browser.ts';
import { islandsSettled, watchErrors } from './islands.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';

const cardLinks = (page: Page, selector: string) => page.$$eval(`${selector} .card-grid a`, (as) => as.map((a) => (a as HTMLAnchorElement).href));
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

t.test('platform tabs on the home page', async (t) => {
  const { base, browser } = await serve(t, { contentDir: SAMPLE_CONTENT });
  // One page per script mode and width, from home page to home page: a new page costs a renderer's start.
  const open = reusablePages(t, browser);
  /** As islands.ts openEnhanced: errors watched from before the first byte, every island settled. */
  const openEnhanced = async (url: string, { viewport }: { viewport: keyof typeof VIEWPORTS }) => {
    let errors: () => string[] = () => [];
    const page = await open(t, url, { scripts: 'on', viewport, setup: async (p) => {
      await p.emulateMedia({ reducedMotion: 'no-preference' });
      errors = watchErrors(p);
    } });
    await islandsSettled(page);
    return { page, errors: () => errors() };
  };

  // Without JavaScript: links; each platform's page lists its cards.
  const plain = await open(t, `${base}/`, { scripts: 'off', viewport: 'desktop' });
  t.equal(await plain.locator('[role="tab"]').count(), 0, 'no tabs without scripts');
  const cloudCards = await cardLinks(plain, '.platform-panel');
  await plain.getByRole('link', { name: 'Data Center', exact: true }).click();
  await plain.waitForURL(/\?platform=data-center$/);
  t.equal(await plain.locator('a.platform-tab[aria-current="page"]').textContent(), 'Data Center', 'the link opens the Data Center panel');
  const dataCenterCards = await cardLinks(plain, '.platform-panel');
  t.ok(cloudCards.length > 0 && dataCenterCards.length > 0, 'both platforms have cards');
  t.notSame(cloudCards, dataCenterCards);

  for (const viewport of ['desktop', 'mobile'] as const) {
    const { page, errors } = await openEnhanced(`${base}/`, { viewport });
    const panel = (id: string) => page.locator(`#platform-panel-${id}`);
    t.equal(await page.locator('.browse-products [role="tab"]').count(), 2, `${viewport}: tabs once hydrated`);
    t.same(await cardLinks(page, '#platform-panel-cloud'), cloudCards, `${viewport}: Cloud shows the same cards as without scripts`);

    // Keyboard.
    await page.locator('#platform-tab-cloud').focus();
    await page.keyboard.press('ArrowRight');
    t.equal(await focusedId(page), 'platform-tab-data-center', `${viewport}: Right moves to Data Center`);
    t.equal(await page.locator('#platform-tab-data-center').getAttribute('aria-selected'), 'true', 'and selects it');
    t.equal(await page.locator('#platform-tab-cloud').getAttribute('tabindex'), '-1', 'roving tabindex');
    t.ok(await panel('data-center').isVisible(), 'its panel shows, in place');
    t.ok(await panel('cloud').isHidden(), 'Cloud\'s is hidden');
    t.same(await cardLinks(page, '#platform-panel-data-center'), dataCenterCards, 'the same destinations as the no-JS Data Center page');
    t.match(page.url(), /\?platform=data-center$/, 'the address follows the tab');
    t.same(await axeViolations(page), [], `${viewport}: Data Center tab: no WCAG A/AA violations`);
    await page.keyboard.press('ArrowRight');
    t.equal(await focusedId(page), 'platform-tab-cloud', 'Right wraps around');
    await page.keyboard.press('ArrowLeft');
    t.equal(await focusedId(page), 'platform-tab-data-center', 'Left wraps around');
    await page.keyboard.press('Home');
    t.equal(await focusedId(page), 'platform-tab-cloud', 'Home: the first');
    await page.keyboard.press('End');
    t.equal(await focusedId(page), 'platform-tab-data-center', 'End: the last');
    await page.keyboard.press('Tab');
    t.notMatch(await focusedId(page), /^platform-tab-/, 'Tab leaves the tab list');

    // Mouse.
    await page.locator('#platform-tab-cloud').click();
    t.ok(await panel('cloud').isVisible(), `${viewport}: a click shows Cloud`);
    t.equal(await page.locator('#platform-tab-cloud').getAttribute('aria-selected'), 'true');
    t.same(await axeViolations(page), [], `${viewport}: Cloud tab: no WCAG A/AA violations`);
    t.same(errors(), [], `${viewport}: no error, no hydration mismatch`);
  }

  // The server's choice is the first selected tab; the Japanese home uses the same island.
  const dc = await openEnhanced(`${base}/?platform=data-center`, { viewport: 'desktop' });
  t.equal(await dc.page.locator('#platform-tab-data-center').getAttribute('aria-selected'), 'true', '?platform=data-center starts on Data Center');
  t.same(dc.errors(), []);
  const ja = await openEnhanced(`${base}/ja`, { viewport: 'desktop' });
  t.equal(await ja.page.locator('.browse-products [role="tab"]').count(), 2, 'the Japanese home has the tabs');
  t.equal(await ja.page.locator('.browse-products [role="tablist"]').getAttribute('aria-label'), 'プラットフォーム', 'named in Japanese');
  t.same(ja.errors(), [], 'no error on the Japanese home');
});
