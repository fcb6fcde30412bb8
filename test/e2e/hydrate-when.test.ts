/**
 * Islands hydrate when they say (islands/main.ts): a first visit downloads neither React nor any island
 * that waits for an interaction, and the first click, key or change on an island's server-rendered
 * control is not lost: it acts on the hydrated island, with the focus on the control it was given to.
 */
import t from 'tap';
import type { Page } from 'playwright-core';
import { serve, VIEWPORTS } from './browser.ts';
import { watchErrors } from './islands.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';
import { PAGE_TYPES } from '../fixtures/page-types.ts';

const readiness = (page: Page) => page.$$eval('[data-island]', (els) => Object.fromEntries(els.map((e) => [(e as HTMLElement).dataset.island, (e as HTMLElement).dataset.islandReady])));
const focused = (page: Page) => page.evaluate(() => {
  const el = document.activeElement;
  return el ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}:${el.textContent?.trim().slice(0, 40) ?? ''}` : '';
});

t.test('islands hydrate when they say', async (t) => {
  const { base, browser } = await serve(t, { contentDir: SAMPLE_CONTENT });
  const open = async (path: string, viewport: keyof typeof VIEWPORTS = 'desktop') => {
    const context = await browser.newContext({ viewport: VIEWPORTS[viewport] });
    const page = await context.newPage();
    const errors = watchErrors(page);
    const scripts: string[] = [];
    const sizes: Promise<number>[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      scripts.push(new URL(request.url()).pathname);
      sizes.push(request.sizes().then((s) => s.responseBodySize));
    });
    await page.goto(base + path, { waitUntil: 'load' });
    await page.waitForLoadState('networkidle');
    const scriptBytes = async () => (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
    return { page, errors, scripts, context, scriptBytes };
  };

  t.test('a first visit loads no island that waits, and no React', async (t) => {
    for (const path of [PAGE_TYPES.home, PAGE_TYPES.topic, PAGE_TYPES['KB article'], '/search-results/?searchTerm=filter']) {
      const { page, scripts, errors, context, scriptBytes } = await open(path);
      const states = await readiness(page);
      t.ok(Object.keys(states).length > 0, `${path}: has islands`);
      t.same(Object.entries(states).filter(([, state]) => state !== 'waiting'), [], `${path}: every island waits (${Object.keys(states).join(', ')})`);
      const bytes = await scriptBytes();
      // The goal of a first visit (docs/ 'With JavaScript: islands'): the entry and analytics, no React.
      t.ok(bytes <= 10 * 1024, `${path}: ${bytes} bytes of JavaScript (${scripts.join(' ')}), at most 10 KB`);
      const preloaded = await page.locator('link[rel="modulepreload"]').evaluateAll((links) => links.map((l) => new URL((l as HTMLLinkElement).href).pathname));
      t.ok(preloaded.every((file) => file.startsWith('/assets/chunks/chunk.')) && preloaded.length <= 1, `${path}: nothing preloaded but the entry's own chunk (${preloaded.join(' ')})`);
      t.same(errors(), [], `${path}: no error`);
      await context.close();
    }
  });

  t.test('the first click on a header menu opens it once the header has hydrated, focus on its trigger', async (t) => {
    const { page, errors, context } = await open(PAGE_TYPES.topic);
    await page.locator('details[data-menu="products"] > summary').click();
    const trigger = page.locator('[data-menu="products"] > button');
    await trigger.and(page.locator('[aria-expanded="true"]')).waitFor();
    t.equal(await page.locator('[data-island="site-header"]').getAttribute('data-island-ready'), 'true', 'the header hydrated');
    t.equal(await focused(page), `button#${await trigger.getAttribute('id')}:${(await trigger.textContent())?.trim().slice(0, 40)}`, 'the focus is on the trigger');
    t.ok(await page.locator('#header-panel-products').isVisible(), 'its panel shows');
    await page.keyboard.press('Escape');
    t.equal(await trigger.getAttribute('aria-expanded'), 'false', 'Escape closes it as on a hydrated header');
    t.same(errors(), [], 'no error');
    await context.close();
  });

  t.test('a first click on a header whose module does not load opens its native menu', async (t) => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    await context.route(/\/site-header\.[^/]*\.js$/, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(base + PAGE_TYPES.topic);
    await page.locator('details[data-menu="products"] > summary').click();
    await page.locator('details[data-menu="products"][open]').waitFor();
    t.equal(await page.locator('[data-island="site-header"]').getAttribute('data-island-ready'), 'failed', 'the header failed');
    t.ok(await page.locator('details[data-menu="products"] .product-list a').first().isVisible(), 'the menu shows its links');
    await context.close();
  });

  t.test('by keyboard: Enter on a menu, Space on the sidebar, at first hydration', async (t) => {
    const { page, errors, context } = await open(PAGE_TYPES.topic);
    await page.locator('details[data-menu="resources"] > summary').focus();
    await page.keyboard.press('Enter');
    const trigger = page.locator('[data-menu="resources"] > button');
    await trigger.and(page.locator('[aria-expanded="true"]')).waitFor();
    t.match(await focused(page), /^button#/, 'the focus is on the hydrated trigger');
    t.equal(await page.evaluate(() => document.activeElement?.closest('[data-menu]')?.getAttribute('data-menu')), 'resources', 'of that menu');

    // The page tree is an island of its own, still waiting.
    t.equal(await page.locator('[data-island="page-tree"]').getAttribute('data-island-ready'), 'waiting', 'the page tree still waits');
    // The current page's branch, open: Space closes it.
    const item = page.locator('[data-island="page-tree"] li.has-children:has(> details[open])').first();
    const href = await item.locator('> a').getAttribute('href');
    await item.locator('> details > summary').focus();
    await page.keyboard.press('Space');
    const button = page.locator(`[data-island="page-tree"] li.has-children:has(> a[href="${href}"]) > button.page-tree-item-toggle`);
    await button.and(page.locator('[aria-expanded="false"]')).waitFor();
    t.ok(await button.evaluate((b) => b === document.activeElement), 'the branch closed, focus on its button');
    t.same(errors(), [], 'no error');
    await context.close();
  });

  t.test('a sidebar the session collapsed hydrates at once on a wide screen, and shows collapsed', async (t) => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    await context.addInitScript(() => sessionStorage.setItem('sac.sidebar.expanded', 'false'));
    const page = await context.newPage();
    await page.goto(base + PAGE_TYPES.topic);
    await page.locator('button.page-tree-toggle[aria-expanded="false"]').waitFor();
    t.equal(await page.locator('[data-island="site-header"]').getAttribute('data-island-ready'), 'waiting', 'the header still waits');
    await context.close();
  });

  t.test('the phone menu button works from the first tap', async (t) => {
    const { page, errors, context } = await open(PAGE_TYPES.topic, 'mobile');
    await page.locator('.header-menu-toggle').click();
    await page.locator('.header-menu-toggle[aria-expanded="true"]').waitFor();
    t.ok(await page.locator('.header-panel.is-open').isVisible(), 'the menu list shows');
    t.same(errors(), [], 'no error');
    await context.close();
  });

  t.test('the first click on a platform link switches the tab in place', async (t) => {
    const { page, errors, context } = await open(PAGE_TYPES.home);
    const requests: string[] = [];
    page.on('request', (r) => { if (r.resourceType() === 'document') requests.push(r.url()); });
    await page.locator('[data-island="platform-tabs"] a[data-platform="data-center"]').click();
    await page.locator('[role="tab"][aria-selected="true"]', { hasText: /data center/i }).waitFor();
    t.same(requests, [], 'no page load');
    t.match(page.url(), /platform=data-center/, 'the address follows the tab');
    t.same(errors(), [], 'no error');
    await context.close();
  });

  t.test('on the search page, typing or a first sort loads htmx then, and searches in place', async (t) => {
    for (const how of ['typing', 'sort'] as const) {
      const { page, errors, context, scripts } = await open('/search-results/?searchTerm=filter');
      const documents: string[] = [];
      page.on('request', (r) => { if (r.resourceType() === 'document') documents.push(r.url()); });
      t.notOk(scripts.some((s) => s.includes('htmx')), `${how}: no htmx before`);
      if (how === 'typing') {
        // The search module held until the whole word is typed, key by key: what is typed while it
        // loads is kept, not only the first key that started it.
        let release = () => undefined as void;
        const held = new Promise<void>((resolve) => { release = resolve; });
        await page.route(/\/chunks\/search\.[^/]*\.js$/, async (route) => { await held; await route.continue(); });
        await page.locator('#search-term').focus();
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.type('board');
        release();
      } else await page.locator('#search-sort').selectOption({ index: 1 });
      await page.waitForURL(how === 'typing' ? /searchTerm=board/ : /sort=/);
      await page.waitForFunction(() => !document.querySelector('#search-results-region')?.hasAttribute('aria-busy'));
      t.same(documents, [], `${how}: searched in place, without a page load`);
      t.ok(scripts.some((s) => s.includes('htmx')), `${how}: htmx loaded for it`);
      t.same(errors(), [], `${how}: no error`);
      await context.close();
    }
  });

  t.test("the first 'Yes' on feedback is sent in place", async (t) => {
    const { page, errors, context } = await open(PAGE_TYPES.topic);
    const requests: string[] = [];
    page.on('request', (r) => { if (r.resourceType() === 'document') requests.push(r.url()); });
    const posts: string[] = [];
    page.on('response', (r) => { if (r.request().method() === 'POST') posts.push(`${new URL(r.url()).pathname} ${r.status()}`); });
    // Scrolled to first, and a frame drawn there: a click that scrolls the page itself was seen, on a
    // loaded machine, to reach no element at all (no pointer event arrived).
    await page.locator('[data-island="feedback"] button[value="yes"]').scrollIntoViewIfNeeded();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.locator('[data-island="feedback"] button[value="yes"]').click();
    // A generous deadline: hydration and the post take long on a loaded machine. What the island and
    // its post did is said when it does not come.
    const answered = await page.waitForFunction(() => !document.querySelector('[data-island="feedback"] button[value="yes"]'), undefined, { timeout: 90_000 })
      .then(() => true, () => false);
    const island = await page.locator('[data-island="feedback"]').evaluate((el) => `${(el as HTMLElement).dataset.islandReady ?? ''}: ${el.textContent ?? ''}`);
    t.ok(answered, `the answer replaces the question (island ${island}; posts ${posts.join(', ') || 'none'}; errors ${errors().join(' | ') || 'none'})`);
    t.ok(await page.locator('.feedback-thanks').isVisible(), 'the thanks shows');
    t.same(requests, [], 'answered without a page load');
    t.same(errors(), [], 'no error');
    await context.close();
  });
});
