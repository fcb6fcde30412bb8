/**
 * A first visit costs no request for icons the visitor cannot see yet: images inside the header's closed
 * menus wait until a menu opens (loading="lazy"; a closed <details>, or a hidden panel once the header
 * island has hydrated, renders no box for them).
 */
import t from 'tap';
import { serve, VIEWPORTS } from './browser.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';
import { PAGE_TYPES } from '../fixtures/page-types.ts';
import { islandsSettled } from './islands.ts';

t.test('a first visit asks for no icon of a closed menu', async (t) => {
  const { base, browser } = await serve(t, { contentDir: SAMPLE_CONTENT });
  const visits = [['home', PAGE_TYPES.home, 'desktop'], ['topic', PAGE_TYPES.topic, 'desktop'], ['topic (phone)', PAGE_TYPES.topic, 'mobile']] as const;
  for (const [name, path, viewport] of visits) {
    const context = await browser.newContext({ viewport: VIEWPORTS[viewport] });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(base + path, { waitUntil: 'networkidle' });
    await islandsSettled(page);
    await page.waitForLoadState('networkidle');
    const images = requested.filter((p) => /\.(svg|png|jpe?g|webp|gif)$/.test(p));
    t.comment(`${name}: ${requested.length} requests, ${images.length} images: ${images.join(' ')}`);
    // Images only a closed menu holds: those that appear nowhere else on the page.
    // (No named functions inside evaluate: the test's TypeScript compiler would wrap them in a helper the page lacks.)
    const sources = await page.$$eval('img', (imgs) => imgs.map((i) => ({
      path: new URL((i as HTMLImageElement).src).pathname,
      closed: i.closest('details:not([open]), [hidden]') !== null,
    })));
    const icons = await page.$$eval('link[rel~="icon"]', (links) => links.map((l) => new URL((l as HTMLLinkElement).href).pathname));
    const shown = new Set(sources.filter((s) => !s.closed).map((s) => s.path));
    const hidden = [...new Set(sources.filter((s) => s.closed && !shown.has(s.path)).map((s) => s.path))];
    t.same(images.filter((p) => !shown.has(p) && !icons.includes(p)), [], `${name}: every image asked for is shown outside a closed menu`);
    t.same(images.filter((p) => hidden.includes(p)), [], `${name}: no icon only a closed menu holds was asked for (${hidden.length} of them)`);
    if (name.startsWith('topic')) {
      const menu = page.locator('[data-menu="products"]');
      const before = requested.length;
      // The phone header keeps its menus behind one menu button.
      if (await page.locator('.header-menu-toggle').isVisible()) await page.locator('.header-menu-toggle').click();
      await menu.locator('> summary, > button').first().click();
      await page.waitForLoadState('networkidle');
      await page.waitForFunction(() => [...document.querySelectorAll('[data-menu="products"] .product-list img')]
        .every((i) => !(i as HTMLImageElement).checkVisibility() || (i as HTMLImageElement).complete));
      // Icons asked for only now: none of them was asked for while the menu was closed.
      const opened = requested.slice(before).filter((p) => /\.(svg|png|jpe?g|webp|gif)$/.test(p) && !requested.slice(0, before).includes(p));
      t.ok(opened.length > 0, `opening the products menu loads the icons it shows (${opened.length})`);
      const broken = await menu.evaluate((d) => [...d.querySelectorAll('.product-list img')]
        .filter((i) => (i as HTMLImageElement).checkVisibility() && (i as HTMLImageElement).naturalWidth === 0).length);
      t.equal(broken, 0, 'every icon shown in the open menu is drawn');
    }
    await context.close();
  }
});

/**
 * Loading the islands moves nothing on screen: the page is drawn first in the layout it keeps once its
 * scripts run (views/layout/scripts-class.tsx). The islands module is held back until the browser has
 * painted, as on a slow link, so a layout that waited for it would shift in front of the test.
 */
t.test('loading the islands moves nothing on screen', async (t) => {
  const { base, browser } = await serve(t, { contentDir: SAMPLE_CONTENT });
  const visits = ['home', 'topic', 'KB article'] as const;
  for (const viewport of ['mobile', 'desktop'] as const) {
    for (const name of [...visits, 'search results'] as const) {
      const path = name === 'search results' ? '/search-results/?searchTerm=board' : PAGE_TYPES[name];
      const context = await browser.newContext({ viewport: VIEWPORTS[viewport] });
      const page = await context.newPage();
      let release: () => void = () => undefined;
      const held = new Promise<void>((done) => { release = done; });
      await page.route(/\/assets\/islands\.\w+\.js$/, async (route) => { await held; await route.continue(); });
      await page.addInitScript(() => {
        const w = window as unknown as { shifts: number; moved: string[] };
        w.shifts = 0;
        w.moved = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] }[]) {
            if (entry.hadRecentInput) continue;
            w.shifts += entry.value;
            for (const source of entry.sources ?? []) w.moved.push(`${source.node?.nodeName ?? '?'}.${(source.node as Element | null | undefined)?.className ?? ''} ${entry.value.toFixed(4)}`);
          }
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(base + path, { waitUntil: 'commit' });
      await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
      t.ok(await page.evaluate(() => document.documentElement.classList.contains('js-enabled')), `${name} (${viewport}): marked for scripts before its islands load`);
      // What moved while the document was still parsed is not the islands' doing: a loaded machine can
      // paint a header whose list of actions is half read, and the rest then widens it. Counted from here,
      // once the whole document is parsed and painted (the held module keeps DOMContentLoaded back).
      await page.waitForFunction(() => document.readyState !== 'loading');
      const parsed = await page.evaluate(() => new Promise<{ shifts: number; moved: string[] }>((done) => {
        requestAnimationFrame(() => requestAnimationFrame(() => {
          const w = window as unknown as { shifts: number; moved: string[] };
          done({ shifts: w.shifts, moved: [...w.moved] });
        }));
      }));
      if (parsed.shifts > 0) t.comment(`${name} (${viewport}): ${parsed.shifts.toFixed(4)} while parsed: ${parsed.moved.join(', ')}`);
      release();
      await page.waitForFunction(() => document.documentElement.dataset.islands === 'running');
      await islandsSettled(page);
      await page.waitForLoadState('load');
      // The shift this guards against moved the whole page (0.087 on a phone); a loaded machine has been
      // seen to add a sub-pixel one (0.0014) on a wide screen, which no visitor sees and Lighthouse rounds away.
      const { shifts, moved } = await page.evaluate(() => {
        const w = window as unknown as { shifts: number; moved: string[] };
        return { shifts: w.shifts, moved: w.moved };
      }).then((all) => ({ shifts: all.shifts - parsed.shifts, moved: all.moved.slice(parsed.moved.length) }));
      t.ok(shifts < 0.005, `${name} (${viewport}): no layout shift (${shifts.toFixed(4)}${moved.length > 0 ? `: ${moved.join(', ')}` : ''})`);
      await context.close();
    }
  }
});
