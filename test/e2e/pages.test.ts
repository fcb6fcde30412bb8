import t from 'tap';
import type { Page } from 'playwright-core';
import { serve, openPage, VIEWPORTS } from './browser.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';
import { PAGE_TYPES } from '../fixtures/page-types.ts';

const PAGES = PAGE_TYPES;

t.test('page journeys in a real browser', async (t) => {
  const { base, browser } = await serve(t, { contentDir: SAMPLE_CONTENT });
  // One page per script mode and width, taken from journey to journey: each starts by loading its
  // address (nothing here keeps storage or cookies a later journey reads), and a new page costs a
  // renderer's start.
  const pages = new Map<string, Page>();
  t.teardown(() => Promise.all([...pages.values()].map((page) => page.context().close())));
  const pageAt = async (url: string, options: { scripts: 'on' | 'off'; viewport: keyof typeof VIEWPORTS }) => {
    const key = `${options.scripts} ${options.viewport}`;
    const page = pages.get(key);
    if (!page) {
      const opened = await openPage(browser, url, options);
      pages.set(key, opened);
      return opened;
    }
    if (!(await page.goto(url))) throw new Error(`no response for ${url}`);
    return page;
  };

  t.test('the skip link moves keyboard focus to the main content', async (t) => {
    const page = await pageAt(base + PAGES.topic, { scripts: 'on', viewport: 'desktop' });
    await page.keyboard.press('Tab');
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to main content');
    await page.keyboard.press('Enter');
    t.equal(await page.evaluate(() => document.activeElement?.id), 'maincontent');
  });

  t.test('on-this-page links and breadcrumbs navigate without JavaScript', async (t) => {
    const page = await pageAt(base + PAGES.topic, { scripts: 'off', viewport: 'desktop' });
    const toc = page.locator('.on-this-page a').first();
    const target = await toc.getAttribute('href');
    await toc.click();
    t.equal(new URL(page.url()).hash, target);
    await page.locator('.breadcrumbs a').nth(1).click();
    await page.waitForLoadState();
    t.equal(new URL(page.url()).pathname, '/tracklight-cloud/docs');
  });

  t.test('the sticky on-this-page box never covers the community link', async (t) => {
    const page = await pageAt(base + PAGES.topic, { scripts: 'on', viewport: 'desktop' });
    await page.setViewportSize({ width: 1280, height: 1000 });
    const overlaps: number[] = [];
    for (const y of [0, 300, 600, 900, 1500]) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      const [toc, link] = await Promise.all([page.locator('.on-this-page').boundingBox(), page.locator('.community-link').boundingBox()]);
      if (toc && link && toc.y < link.y + link.height && link.y < toc.y + toc.height) overlaps.push(y);
    }
    t.same(overlaps, [], 'no scroll position where the two boxes overlap');
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  t.test('was-this-helpful works as a plain form', async (t) => {
    const page = await pageAt(base + '/tracklight-cloud/docs/tql-functions-reference', { scripts: 'off', viewport: 'mobile' });
    await page.getByRole('button', { name: 'No' }).click();
    await page.waitForURL(/feedback=reasons/);
    await page.getByLabel("It wasn't clear").check();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/feedback=thanks/);
    t.match(await page.locator('#feedback').textContent(), 'Thanks for your feedback.');
  });

  t.test('the version selector is a form that goes to the same page in that version', async (t) => {
    const page = await pageAt(base + '/tracklight-data-center/11.3/docs/add-a-cluster-node', { scripts: 'off', viewport: 'desktop' });
    await page.getByLabel(/version/i).selectOption('10.4');
    await page.getByRole('button', { name: 'Go' }).click();
    await page.waitForURL(/\/10\.4\/docs\/add-a-cluster-node$/);
    t.pass('landed on the 10.4 page');
    const missing = await pageAt(base + '/tracklight-data-center/11.3/docs/configure-json-logging', { scripts: 'off', viewport: 'desktop' });
    await missing.getByLabel(/version/i).selectOption('10.4');
    await missing.getByRole('button', { name: 'Go' }).click();
    await missing.waitForURL(/version-switch/);
    t.equal(await missing.locator('h1').textContent(), 'Unable to find page');
    await missing.getByRole('link', { name: 'Cancel' }).click();
    await missing.waitForURL(/11\.3\/docs\/configure-json-logging$/);
  });

  t.test('menus and the page tree open without JavaScript', async (t) => {
    const page = await pageAt(base + '/tracklight-cloud/docs/configure-board-columns', { scripts: 'off', viewport: 'desktop' });
    const products = page.locator('details[data-menu="products"]');
    await products.locator('summary').first().click();
    t.ok(await products.evaluate((d) => (d as HTMLDetailsElement).open), 'the products menu opens');
    t.ok(await page.getByRole('link', { name: 'Keyward' }).first().isHidden(), 'products past the fifth wait behind See all other products');
    await products.getByText('See all other products').first().click();
    t.ok(await page.getByRole('link', { name: 'Keyward' }).first().isVisible());
    const current = page.locator('nav[aria-label="Documentation"] [aria-current="page"]');
    t.equal(await current.count(), 1, 'the current topic is marked in the tree');
    t.ok(await current.isVisible(), 'its parents start open');
  });
});
