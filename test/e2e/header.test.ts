/**
 * The site-header island (views/islands/site-header.tsx) in a real browser: without JavaScript its
 * <details> menus work and the phone header stays compact; with it, one dropdown at a time, Escape and
 * outside clicks that give focus back, Cloud and Data Center tabs, the products list collapsed to five,
 * the phone menu button and its list, the account menu; by keyboard, then by mouse; axe in each open
 * state at both widths; no hydration error, also for a name that needs escaping in the island's props.
 */
import t, { type Test } from 'tap';
import type { Locator, Page } from 'playwright-core';
import type { SessionUser } from '../../server/identity/types.ts';
import { axeViolations, reusablePages, serve, VIEWPORTS } from './browser.ts';
import { hydrateAll, islandsSettled, watchErrors } from './islands.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';
import { sealedSession } from '../helpers/session-cookie.ts';
import { PAGE_TYPES } from '../fixtures/page-types.ts';

const SESSION_SECRET = 'session-secret-for-header-tests-0123456789';
const TOPIC = PAGE_TYPES.topic;
const NASTY = 'Zoë "Q" <b>&amp; O\'Brien</script><!-- \u2028 end';

const sealed = (user: SessionUser) => sealedSession(user, SESSION_SECRET);

const menu = (page: Page, id: string) => page.locator(`[data-menu="${id}"]`).first();
const trigger = (page: Page, id: string) => page.locator(`[data-menu="${id}"] > button`).first();
const expanded = async (l: Locator) => (await l.getAttribute('aria-expanded')) === 'true';
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
/** Which header dropdowns are open, by data-menu. */
const openMenus = (page: Page) => page.$$eval('[data-menu] > button[aria-expanded="true"]', (els) => els.map((e) => (e.parentElement as HTMLElement).dataset.menu));

async function noViolations(t: Test, page: Page, what: string) {
  t.same(await axeViolations(page), [], `${what}: no WCAG A/AA violations`);
}

t.test('the header', async (t) => {
  const { base, browser } = await serve(t, { contentDir: SAMPLE_CONTENT, env: { SESSION_SECRET } });
  // One page per script mode and width, from step to step: a new page costs a renderer's start, and the
  // header keeps nothing between documents but the session cookie, which each step sets or not.
  const open = reusablePages(t, browser);
  /** As islands.ts openEnhanced: errors watched from before the first byte, every island settled. */
  const openEnhanced = async (t: Test, url: string, options: { viewport: keyof typeof VIEWPORTS; setup?: (page: Page) => Promise<unknown> }) => {
    let errors: () => string[] = () => [];
    const page = await open(t, url, { scripts: 'on', viewport: options.viewport, setup: async (p) => {
      await p.emulateMedia({ reducedMotion: 'no-preference' });
      errors = watchErrors(p);
      await options.setup?.(p);
    } });
    await islandsSettled(page);
    return { page, errors: () => errors() };
  };

  t.test('without JavaScript: <details> menus, both platforms, the rest of the products behind a disclosure', async (t) => {
    const page = await open(t, base + TOPIC, { scripts: 'off', viewport: 'desktop' });
    const products = page.locator('details[data-menu="products"]');
    await products.locator('> summary').click();
    t.ok(await products.evaluate((d) => (d as HTMLDetailsElement).open), 'the products menu opens');
    t.ok(await products.locator('.product-tab[data-platform="cloud"]').isVisible(), 'Cloud is shown');
    t.ok(await products.locator('.product-tab[data-platform="data-center"]').isVisible(), 'and Data Center beside it');
    t.equal(await products.locator('[role="tab"]').count(), 0, 'no tabs without scripts');
    const more = products.locator('.product-tab[data-platform="cloud"] details.more-products');
    t.ok(await more.locator('li').first().isHidden(), 'past the fifth product, hidden');
    await more.locator('> summary').click();
    t.ok(await more.locator('li').first().isVisible(), 'See all other products shows them');
    await page.locator('details[data-menu="resources"] > summary').click();
    t.ok(await page.locator('details[data-menu="resources"] .menu-cards a').first().isVisible(), 'a card menu opens');
    t.equal(await page.locator('.header-menu-toggle').isVisible(), false, 'no phone menu button without scripts');

    // At phone width the header stays compact: the page title is on the first screen.
    const phone = await open(t, base + '/', { scripts: 'off', viewport: 'mobile' });
    const header = await phone.locator('header.site-header').boundingBox();
    t.ok(header && header.height < VIEWPORTS.mobile.height / 2, `the no-JS phone header takes under half the screen (${header?.height}px)`);
    const h1 = await phone.locator('h1').boundingBox();
    t.ok(h1 && h1.y + h1.height <= VIEWPORTS.mobile.height, 'the page title is on the first screen');
    await phone.locator('details[data-menu="products"] > summary').click();
    t.ok(await phone.locator('details[data-menu="products"] .product-list a').first().isVisible(), 'the products menu opens at phone width');
  });

  t.test('phone width (375×812), with and without scripts: nothing cut off unseen, the title high enough, text full size', async (t) => {
    // With scripts, as first seen (the header waits for an interaction) and hydrated.
    for (const scripts of ['off', 'on', 'on, hydrated'] as const) {
      for (const path of ['/', TOPIC]) {
        const page = await open(t, base + path, { scripts: scripts === 'off' ? 'off' : 'on', viewport: 'mobile', size: { width: 375, height: 812 } });
        if (scripts === 'on') await page.locator('[data-island="site-header"][data-island-ready="waiting"]').waitFor({ state: 'attached' });
        if (scripts === 'on, hydrated') {
          await hydrateAll(page);
          await page.locator('[data-island="site-header"][data-island-ready="true"]').waitFor({ state: 'attached' });
        }
        const seen = await page.evaluate(() => {
          const rows = [...document.querySelectorAll<HTMLElement>('.header-menus, .header-actions')].filter((e) => e.getClientRects().length > 0)
            .map((e) => ({ row: e.className, scrolls: e.scrollWidth > e.clientWidth, right: e.getBoundingClientRect().right,
              sign: getComputedStyle(e).flexWrap === 'wrap' || /gradient/.test(getComputedStyle(e).backgroundImage) }));
          const name = document.querySelector<HTMLElement>('.site-logo > span');
          const search = document.querySelector<HTMLInputElement>('input[type="search"]');
          return {
            pageWidth: document.documentElement.scrollWidth, rows,
            h1: document.querySelector('h1')?.getBoundingClientRect().top ?? Infinity,
            nameCut: name ? name.scrollWidth > name.clientWidth || name.scrollHeight > name.clientHeight + 1 : false,
            placeholder: search ? parseFloat(getComputedStyle(search, '::placeholder').fontSize) : undefined,
            body: parseFloat(getComputedStyle(document.body).fontSize),
          };
        });
        const what = `${path}, scripts ${scripts}`;
        t.equal(seen.pageWidth, 375, `${what}: the page is no wider than the screen`);
        for (const row of seen.rows) {
          t.ok(row.right <= 375, `${what}: the ${row.row} row ends inside the screen`);
          if (row.scrolls) t.ok(row.sign, `${what}: the ${row.row} row shows that more of it lies to the side`);
        }
        // In the top three fifths of the screen: a notice and the breadcrumbs above it still leave room to read.
        t.ok(seen.h1 < 812 * 0.6, `${what}: the page title starts ${Math.round(seen.h1)} px down`);
        t.notOk(seen.nameCut, `${what}: the site name is shown whole`);
        if (seen.placeholder !== undefined) t.ok(seen.placeholder >= seen.body, `${what}: the search placeholder is body size (${seen.placeholder} px)`);
      }
    }
  });

  t.test('hydrating moves nothing: the header and the home page tabs, before and after', async (t) => {
    const boxes = (page: Page) => page.$$eval('header.site-header, header [data-menu], header .header-actions > li, .browse-products .platform-tabs, .browse-products .card-grid',
      (els) => els.map((e) => { const b = e.getBoundingClientRect(); return [Math.round(b.x), Math.round(b.y), Math.round(b.width), Math.round(b.height)].join(' '); }));
    for (const path of ['/', TOPIC]) {
      const before = await open(t, base + path, { scripts: 'blocked', viewport: 'desktop' });
      const { page: after } = await openEnhanced(t, base + path, { viewport: 'desktop' });
      t.same(await boxes(after), await boxes(before), `${path}: every box where the server's markup put it`);
    }
  });

  t.test('with JavaScript, desktop, by keyboard', async (t) => {
    const { page, errors } = await openEnhanced(t, base + TOPIC, { viewport: 'desktop' });
    t.equal(await page.locator('header details').count(), 0, 'the menus are buttons once hydrated');
    const products = trigger(page, 'products');
    await products.focus();
    await page.keyboard.press('Enter');
    t.ok(await expanded(products), 'Enter opens Products');
    t.ok(await page.locator('#header-panel-products').isVisible(), 'its panel shows');
    await page.keyboard.press('Tab');
    t.equal(await focusedId(page), 'header-products-tab-cloud', 'Tab reaches the selected tab, Cloud');
    t.equal(await page.locator('#header-products-tab-data-center').getAttribute('tabindex'), '-1', 'the other tab is out of the Tab order');
    const selected = () => page.$eval('#header-panel-products [aria-selected="true"]', (e) => e.id);
    await page.keyboard.press('ArrowRight');
    t.equal(await selected(), 'header-products-tab-data-center', 'Right selects Data Center');
    t.equal(await focusedId(page), 'header-products-tab-data-center', 'and focuses it');
    t.ok(await page.locator('#header-products-panel-data-center').isVisible(), 'its panel shows');
    t.ok(await page.locator('#header-products-panel-cloud').isHidden(), 'Cloud\'s is hidden: tabs, not side by side');
    await noViolations(t, page, 'products open on Data Center');
    await page.keyboard.press('ArrowRight');
    t.equal(await selected(), 'header-products-tab-cloud', 'Right wraps around to Cloud');
    await page.keyboard.press('ArrowLeft');
    t.equal(await selected(), 'header-products-tab-data-center', 'Left wraps around to Data Center');
    await page.keyboard.press('Home');
    t.equal(await selected(), 'header-products-tab-cloud', 'Home: the first tab');
    await page.keyboard.press('End');
    t.equal(await selected(), 'header-products-tab-data-center', 'End: the last tab');
    await page.keyboard.press('Home');
    await noViolations(t, page, 'products open on Cloud');

    const cloud = page.locator('#header-products-panel-cloud');
    t.equal(await cloud.locator('a:visible').count(), 5, 'five products shown');
    while (await focusedText(page) !== 'See all other products') await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    t.equal(await focusedText(page), 'Show fewer products', 'the toggle now offers to collapse, in place');
    t.equal(await cloud.locator('a:visible').count(), 8, 'every product shown');
    await noViolations(t, page, 'products expanded');
    await page.keyboard.press('Enter');
    t.equal(await cloud.locator('a:visible').count(), 5, 'collapsed again to five');
    t.equal(await focusedText(page), 'See all other products');

    await page.keyboard.press('Escape');
    t.notOk(await expanded(products), 'Escape closes the menu');
    t.equal(await focusedId(page), 'header-trigger-products', 'and gives focus back to its trigger');

    await page.keyboard.press('Enter');
    await trigger(page, 'resources').focus();
    await page.keyboard.press('Enter');
    t.same(await openMenus(page), ['resources'], 'opening Resources closes Products: one open at a time');
    await noViolations(t, page, 'a card menu open');
    await page.keyboard.press('Enter');
    t.same(await openMenus(page), [], 'Enter on the open one\'s trigger closes it');
    t.same(errors(), [], 'no error, no hydration mismatch');
  });

  t.test('with JavaScript, desktop, by mouse', async (t) => {
    const { page, errors } = await openEnhanced(t, base + TOPIC, { viewport: 'desktop' });
    await trigger(page, 'products').click();
    await trigger(page, 'resources').click();
    t.same(await openMenus(page), ['resources'], 'Products then Resources: only Resources is open');
    await trigger(page, 'resources').click();
    t.same(await openMenus(page), [], 'clicking the open one\'s trigger closes it');

    await trigger(page, 'products').click();
    await page.locator('#header-products-tab-data-center').click();
    t.ok(await page.locator('#header-products-panel-data-center').isVisible(), 'a click on Data Center shows its list');
    await page.locator('#header-products-panel-data-center').getByRole('button', { name: 'See all other products' }).click();
    t.ok(await page.locator('#header-products-panel-data-center').getByRole('button', { name: 'Show fewer products' }).isVisible(), 'the toggle relabels');
    await page.locator('#header-panel-products .menu-label, #header-panel-products').first().click({ position: { x: 5, y: 5 } });
    t.same(await openMenus(page), ['products'], 'a click inside the open menu leaves it open');
    // Outside the panel (it covers the page's left side below the header).
    await page.mouse.click(VIEWPORTS.desktop.width - 20, VIEWPORTS.desktop.height - 20);
    t.same(await openMenus(page), [], 'a click outside closes it');
    t.equal(await focusedId(page), 'header-trigger-products', 'and gives focus back to its trigger');

    // Configured menus and Get started (several guides: a menu) in the same model.
    await trigger(page, 'guides').click();
    t.ok(await menu(page, 'guides').getByRole('link', { name: /Get started with Pagewell/ }).isVisible(), 'Get started is a menu of guides');
    const configured = await page.$$eval('[data-menu] > button', (els) => els.map((e) => (e.parentElement as HTMLElement).dataset.menu)
      .filter((id) => !['products', 'guides', 'documentation', 'resources', 'account'].includes(id ?? '')));
    t.ok(configured.length > 0, `configured menus: ${configured.join(', ')}`);
    await trigger(page, configured[0] as string).click();
    t.same(await openMenus(page), [configured[0]], 'a configured menu closes Get started');
    await page.keyboard.press('Escape');
    t.same(await openMenus(page), []);
    t.same(errors(), [], 'no error');

    // The collection page's product waffle, one open at a time with the others.
    const waffle = await openEnhanced(t, base + PAGE_TYPES.collection, { viewport: 'desktop' });
    await trigger(waffle.page, 'products').click();
    t.ok(await waffle.page.locator('#header-panel-products .waffle-grid a').first().isVisible(), 'the waffle opens');
    await trigger(waffle.page, 'documentation').click();
    t.same(await openMenus(waffle.page), ['documentation'], 'and closes when another opens');
    t.same(waffle.errors(), [], 'no error on the collection page');
  });

  t.test('with JavaScript, phone: logo, search and one menu button', async (t) => {
    const { page, errors } = await openEnhanced(t, base + '/', { viewport: 'mobile' });
    const toggle = page.locator('.header-menu-toggle');
    t.ok(await toggle.isVisible(), 'the menu button shows');
    t.ok(await page.locator('.phone-search').isVisible(), 'search shows');
    t.ok(await page.locator('.header-nav').isHidden(), 'the menus wait behind the button');
    const header = await page.locator('header.site-header').boundingBox();
    t.ok(header && header.height <= 80, `one row (${header?.height}px)`);
    const h1 = await page.locator('h1').boundingBox();
    t.ok(h1 && h1.y + h1.height <= VIEWPORTS.mobile.height, 'the page title is on the first screen');

    // Keyboard.
    await toggle.focus();
    await page.keyboard.press('Enter');
    t.equal(await toggle.getAttribute('aria-expanded'), 'true', 'Enter opens the list');
    t.ok(await page.locator('.header-nav').isVisible(), 'with every menu');
    t.ok(await page.locator('.header-panel').getByRole('link', { name: 'Sign in' }).isVisible(), 'and the sign-in and contact links');
    await noViolations(t, page, 'phone menu open');
    await page.keyboard.press('Tab');
    t.equal(await focusedId(page), 'header-trigger-products', 'Tab goes on into the list');
    await page.keyboard.press('Enter');
    t.ok(await page.locator('#header-products-panel-cloud').isVisible(), 'Products opens inside the list, as tabs');
    await noViolations(t, page, 'phone menu, products open');
    await page.keyboard.press('Escape');
    t.same(await openMenus(page), [], 'Escape closes Products');
    t.equal(await focusedId(page), 'header-trigger-products', 'focus back on its trigger');
    await page.keyboard.press('Escape');
    t.equal(await toggle.getAttribute('aria-expanded'), 'false', 'Escape again closes the list');
    t.equal(await focusedId(page), 'site-header-panel-toggle', 'focus back on the menu button');

    // Mouse.
    await toggle.click();
    await trigger(page, 'documentation').click();
    t.ok(await page.locator('#header-panel-documentation a').first().isVisible(), 'a tap opens Documentation in the list');
    // The list leaves the foot of the screen uncovered: a tap there is outside.
    await page.mouse.click(VIEWPORTS.mobile.width / 2, VIEWPORTS.mobile.height - 20);
    t.equal(await toggle.getAttribute('aria-expanded'), 'false', 'a tap outside closes the list');
    t.same(await openMenus(page), [], 'and the menu in it');

    // A wider window: the desktop header, nothing left open (resize handling debounced 100 ms).
    await toggle.click();
    await page.setViewportSize(VIEWPORTS.desktop);
    await page.waitForFunction(() => document.querySelector('.header-menu-toggle')?.getAttribute('aria-expanded') === 'false');
    t.ok(await page.locator('.header-nav').isVisible(), 'the desktop menus show');
    t.ok(await toggle.isHidden(), 'the menu button is gone');
    await page.setViewportSize(VIEWPORTS.mobile);
    t.ok(await page.locator('.header-nav').isHidden(), 'back at phone width, the list is closed');
    t.same(errors(), [], 'no error');
  });

  t.test('a header that fails to load falls back to its no-script form; the other islands still work', async (t) => {
    const { page } = await openEnhanced(t, base + TOPIC, {
      viewport: 'mobile',
      setup: async (p) => { await p.route(/\/site-header\.[^/]*\.js$/, (route) => route.abort()); },
    });
    t.equal(await page.locator('[data-island="site-header"]').getAttribute('data-island-ready'), 'failed', 'the header island failed');
    t.ok(await page.locator('.header-menu-toggle').isHidden(), 'no dead menu button');
    t.ok(await page.locator('.header-nav').isVisible(), 'the compact no-script menus show');
    await page.locator('details[data-menu="products"] > summary').click();
    t.ok(await page.locator('details[data-menu="products"] .product-list a').first().isVisible(), 'and open');
    const others = await page.$$eval('[data-island]:not([data-island="site-header"])', (els) => els.map((e) => (e as HTMLElement).dataset.islandReady));
    t.ok(others.length > 0 && others.every((r) => r === 'true'), `the other islands hydrated (${others.length})`);
  });

  t.test('signed in: the account menu by keyboard and mouse; a name that needs escaping round-trips', async (t) => {
    const cookie = await sealed({ sub: 'z-1', email: 'zoe@customer.example', emailVerified: true, name: NASTY, canEdit: false, partner: false });
    const signIn = async (page: Page) => {
      await page.context().addCookies([{ name: 'sp_session', value: encodeURIComponent(cookie), url: base, httpOnly: true, sameSite: 'Lax' }]);
    };
    // Twice: the page rendered as the role template, then filled from it.
    for (const round of ['first', 'second']) {
      const { page, errors } = await openEnhanced(t, base + TOPIC, { viewport: 'desktop', setup: signIn });
      const account = trigger(page, 'account');
      t.equal(await account.getAttribute('aria-expanded'), 'false', `${round}: the account menu is a button once hydrated`);
      t.equal(await account.locator('.visually-hidden').textContent(), `Account menu for ${NASTY}`, `${round}: its name is exactly the visitor's`);
      await account.focus();
      await page.keyboard.press('Enter');
      t.ok(await expanded(account), `${round}: Enter opens it`);
      t.equal(await page.locator('.account-name').textContent(), NASTY, `${round}: the name shows exactly`);
      t.equal(await page.locator('.account-email').textContent(), 'zoe@customer.example');
      await noViolations(t, page, `${round}: account menu open`);
      await page.keyboard.press('Escape');
      t.notOk(await expanded(account), `${round}: Escape closes it`);
      t.equal(await focusedId(page), 'header-trigger-account', `${round}: focus back on the avatar`);
      await page.keyboard.press(' ');
      t.ok(await expanded(account), `${round}: Space opens it`);
      await page.keyboard.press(' ');
      t.notOk(await expanded(account), `${round}: and closes it`);
      await account.click();
      t.ok(await expanded(account), `${round}: a click opens it`);
      await account.click();
      t.notOk(await expanded(account), `${round}: a click closes it`);
      t.same(errors(), [], `${round}: no error, no hydration mismatch`);
    }

    const { page, errors } = await openEnhanced(t, base + TOPIC, { viewport: 'mobile', setup: signIn });
    t.ok(await page.locator('.header-menu-toggle .phone-avatar').isVisible(), 'the phone-only avatar is on the menu button');
    await page.locator('.header-menu-toggle').click();
    await trigger(page, 'account').click();
    t.ok(await page.getByRole('button', { name: 'Log out' }).isVisible(), 'the account menu opens in the phone list');
    await noViolations(t, page, 'phone, account menu open');
    t.same(errors(), [], 'no error');
  });
});
