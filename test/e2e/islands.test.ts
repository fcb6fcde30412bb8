/**
 * Islands as a whole (islands/main.ts, islands/hydrate.tsx): one island failing (a throw while it
 * renders, props that do not parse, its module not loading) leaves the others working and its own
 * server-rendered controls in place; a visitor with scripts reaches every destination one without them
 * does; and on a phone the first screen shows the page's title, with scripts and without.
 */
import tap from 'tap';
import type { Page } from 'playwright-core';
import { serve, VIEWPORTS } from './browser.ts';
import { failedIslands, islandsSettled, openEnhanced } from './islands.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';
import { PAGE_TYPES } from '../fixtures/page-types.ts';

/** The page's HTML with one island's props block replaced. */
function withProps(html: string, name: string, json: string): string {
  const block = new RegExp(`(<script type="application/json" data-island-props="${name}">)[^<]*(</script>)`);
  if (!block.test(html)) throw new Error(`the page has no ${name} island`);
  return html.replace(block, `$1${json}$2`);
}

const islandStates = (page: Page) => page.$$eval('[data-island]', (els) => els.map((el) => `${(el as HTMLElement).dataset.island}:${(el as HTMLElement).dataset.islandReady}`));

/**
 * Every link and form destination in the page, hidden or not; a link to this very page in another state
 * (`?platform=…`, which the tabs show in place) is not a destination.
 */
const destinations = (page: Page) => page.evaluate(() => {
  const found = new Set<string>();
  const here = location.pathname;
  for (const a of document.querySelectorAll<HTMLAnchorElement>('a[href]')) {
    const url = new URL(a.href);
    if (url.origin === location.origin && url.pathname === here && url.search !== '') continue;
    found.add(url.href);
  }
  for (const form of document.querySelectorAll<HTMLFormElement>('form')) found.add(`${form.method.toUpperCase()} ${new URL(form.action).href}`);
  return [...found];
});

/**
 * What a visitor with scripts can reach: the destinations in the page, and those every closed control
 * (a collapsed button, an unselected tab) shows when used, one after another, until nothing new opens.
 */
async function reachable(page: Page): Promise<Set<string>> {
  const found = new Set(await destinations(page));
  const used = new Set<string>();
  for (let step = 0; step < 300; step++) {
    const next = await page.evaluate((used) => {
      const controls = [...document.querySelectorAll<HTMLElement>('button[aria-expanded="false"], [role="tab"][aria-selected="false"], button.siblings-expand-up, button.siblings-expand-down, button.show-more-toggle')];
      const islands = [...document.querySelectorAll('[data-island]')];
      // The last first: what a control just opened comes after it, so it is used before the controls
      // (a tab back to the first platform) that would close it again.
      for (const el of controls.reverse()) {
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        const island = el.closest('[data-island]');
        const key = `${island?.getAttribute('data-island')}${island ? islands.indexOf(island) : -1}|${el.getAttribute('aria-controls') ?? el.id ?? ''}|${el.textContent}`;
        if (used.includes(key)) continue;
        el.setAttribute('data-reach', key);
        return key;
      }
      return null;
    }, [...used]);
    if (!next) break;
    used.add(next);
    // Clicked in the page: an open menu drawn over the next control does not stand in the way.
    await page.evaluate((key) => [...document.querySelectorAll<HTMLElement>('[data-reach]')].find((el) => el.dataset.reach === key)?.click(), next);
    for (const d of await destinations(page)) found.add(d);
  }
  return found;
}

tap.test('islands', async (t) => {
  const { base, browser } = await serve(t, { contentDir: SAMPLE_CONTENT });
  const topic = base + PAGE_TYPES.topic;
  // One page per script mode and width, taken from address to address where a journey needs no routes
  // or error watch of its own: a new page costs a renderer's start. With scripts, the islands settled as
  // openEnhanced leaves them, and the origin's storage cleared first (the page tree keeps the sidebar's
  // state in sessionStorage), so each address is a first visit.
  const pages = new Map<string, Page>();
  t.teardown(() => Promise.all([...pages.values()].map((page) => page.context().close())));
  const pageAt = async (url: string, scripts: 'on' | 'off', viewport: keyof typeof VIEWPORTS) => {
    const key = `${scripts} ${viewport}`;
    let page = pages.get(key);
    if (!page) {
      const context = await browser.newContext(scripts === 'on'
        ? { viewport: VIEWPORTS[viewport], reducedMotion: 'no-preference' }
        : { javaScriptEnabled: false, viewport: VIEWPORTS[viewport] });
      page = await context.newPage();
      pages.set(key, page);
    } else if (scripts === 'on') {
      await page.evaluate(() => { sessionStorage.clear(); localStorage.clear(); });
    }
    if (!(await page.goto(url))) throw new Error(`no response for ${url}`);
    if (scripts === 'on') await islandsSettled(page);
    return page;
  };
  const plain = await pageAt(topic, 'off', 'desktop');
  const serverTree = await plain.locator('[data-island="page-tree"]').innerHTML();
  const serverFeedback = await plain.locator('[data-island="feedback"]').innerHTML();

  t.test('every island of a topic page hydrates, with no error', async (t) => {
    const { page, errors } = await openEnhanced(browser, topic, { viewport: 'desktop' });
    const states = await islandStates(page);
    t.ok(states.length >= 3, `the topic page has its islands (${states.join(', ')})`);
    t.same(states.filter((s) => !s.endsWith(':true')), [], 'all of them are hydrated');
    t.same(errors(), [], 'no error, no hydration mismatch');
    await page.context().close();
  });

  t.test('an island that throws while it renders is put back as the server rendered it; the others work', async (t) => {
    const { page, errors } = await openEnhanced(browser, topic, {
      viewport: 'desktop',
      setup: (page) => page.route(topic, async (route) => {
        const response = await route.fetch();
        // Valid JSON, but not the props the page tree needs: it throws reading them.
        await route.fulfill({ response, body: withProps(await response.text(), 'page-tree', '{}') });
      }),
    });
    t.same(await failedIslands(page), ['page-tree'], 'the page tree failed, and only it');
    t.equal(await page.locator('[data-island="page-tree"]').innerHTML(), serverTree, "the tree is the server's markup again");
    t.ok(await page.locator('[data-island="page-tree"] a[href]').first().isVisible(), 'its links are there to follow');
    t.same((await islandStates(page)).filter((s) => !s.startsWith('page-tree:') && !s.endsWith(':true')), [], 'every other island hydrated');
    t.ok(errors().some((e) => e.includes('page-tree')), 'the failure is reported in the console');
    await page.context().close();
  });

  t.test('props that do not parse and a module that does not load fail only their island', async (t) => {
    const { page } = await openEnhanced(browser, topic, {
      viewport: 'mobile',
      setup: async (page) => {
        await page.route(topic, async (route) => {
          const response = await route.fetch();
          await route.fulfill({ response, body: withProps(await response.text(), 'page-tree', '{"unterminated') });
        });
        await page.route(/\/assets\/chunks\/feedback\.[\w-]+\.js$/, (route) => route.abort());
      },
    });
    t.same((await failedIslands(page)).sort(), ['feedback', 'page-tree'], 'the two islands failed');
    t.equal(await page.locator('[data-island="feedback"]').innerHTML(), serverFeedback, 'the feedback form is as the server sent it');
    t.ok(await page.locator('[data-island="feedback"] form[method="post"] button').first().isEnabled(), 'and can still be sent without scripts');
    t.same((await islandStates(page)).filter((s) => !/^(page-tree|feedback):/.test(s) && !s.endsWith(':true')), [], 'every other island hydrated');
    await page.context().close();
  });

  t.test('with scripts, every destination of the page without them is still there', async (t) => {
    for (const path of [PAGE_TYPES.home, PAGE_TYPES.topic, PAGE_TYPES.collection, PAGE_TYPES['versioned topic']]) {
      for (const viewport of ['desktop', 'mobile'] as const) {
        const without = await destinations(await pageAt(base + path, 'off', viewport));
        const enhanced = await reachable(await pageAt(base + path, 'on', viewport));
        t.same(without.filter((d) => !enhanced.has(d)), [], `${path} (${viewport}): nothing reachable without scripts is lost with them`);
      }
    }
  });

  t.test('on a phone the first screen shows the page title, with scripts and without', async (t) => {
    const { height } = VIEWPORTS.mobile;
    for (const [name, path] of Object.entries(PAGE_TYPES)) {
      if (!['home', 'topic', 'guide topic', 'collection', 'versioned topic', 'KB article', 'documented product home', 'topic set', 'product landing'].includes(name)) continue;
      for (const scripts of ['off', 'on'] as const) {
        const page = await pageAt(base + path, scripts, 'mobile');
        const box = await page.locator('h1').boundingBox();
        t.ok(box && box.y + box.height <= height, `${name}, scripts ${scripts}: the title ends at ${box ? Math.round(box.y + box.height) : 'nowhere'} px, within the first ${height} px`);
      }
    }
  });
});
