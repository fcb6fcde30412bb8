/**
 * Documentation navigation in the browser (spec §4 Page tree sidebar, Sibling list, Child topic list;
 * §9): the page-tree, siblings and show-more islands with JavaScript off (the native disclosures work),
 * then on, driven by keyboard and then by mouse; the session-kept sidebar state; axe in the open states
 * at both widths; the phone layout's first screen; no layout shift on hydration; card titles of a row
 * equal in height from 901 px.
 *
 * The content is the test fixture plus a collection of nine children (eight topics and a topic set of
 * eight): its topics have a sibling window with pages above and below, and the collection, the set and
 * the documentation home have lists longer than five.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { tempContent } from '../helpers/build.ts';
import { axeViolations, reusablePages, serve, VIEWPORTS } from './browser.ts';
import { failedIslands, hydrateAll, watchErrors } from './islands.ts';

const TITLES = ['Invite your team and give each person the permissions their work needs', 'Boards', 'Backlogs', 'Sprints', 'Reports', 'Filters', 'Automation', 'Dashboards'];
const DOCS = '/acme-cloud/docs';
const COLLECTION = '/acme-cloud/docs/many';
const SET = '/acme-cloud/docs/many-set';
/** The sixth of nine siblings: three above the window, one below. */
const TOPIC = '/acme-cloud/docs/many-6';
const KEY = 'sac.sidebar.expanded';

async function navigationContent(dir: string): Promise<void> {
  await mkdir(join(dir, 'topics/many'), { recursive: true });
  await mkdir(join(dir, 'topic-sets'), { recursive: true });
  const topic = (id: string, title: string, slug: string) =>
    writeFile(join(dir, `topics/many/${id}.md`), `---\nid: acme-cloud-${id}\ntitle: ${title}\nslug: ${slug}\ncontext: acme-cloud\n---\nText.\n`);
  await Promise.all([
    ...TITLES.map((title, i) => topic(`m${i + 1}`, title, `many-${i + 1}`)),
    ...TITLES.map((title, i) => topic(`s${i + 1}`, `Set ${title}`, `set-${i + 1}`)),
    writeFile(join(dir, 'topic-sets/many-set.md'),
      `---\nid: acme-cloud-many-set\ntitle: Many set\nslug: many-set\ncontext: acme-cloud\ntopics: [${TITLES.map((_, i) => `acme-cloud-s${i + 1}`).join(', ')}]\n---\nOverview.\n`),
    writeFile(join(dir, 'collections/acme-cloud-many.yaml'),
      `id: acme-cloud-many\ntitle: Many\nslug: many\ncontext: acme-cloud\nchildren: [${TITLES.map((_, i) => `acme-cloud-m${i + 1}`).join(', ')}, acme-cloud-many-set]\n`),
    writeFile(join(dir, 'pages/acme-cloud-docs.yaml'),
      'id: acme-cloud-docs\npageType: documentedProduct\ntitle: Acme Cloud documentation\ncontext: acme-cloud\ncollections: [acme-cloud-basics, acme-cloud-many]\n'),
  ]);
}

/**
 * A page with JavaScript on, once the islands of its content (the tree, the lists) have settled, its
 * errors watched from the start. Only islands in <main> are awaited: the header's are not this file's.
 */
async function openEnhanced(open: ReturnType<typeof reusablePages>, t: Test, url: string, { viewport, setup }: {
  viewport: keyof typeof VIEWPORTS; setup?: (page: Page) => Promise<void>;
}): Promise<{ page: Page; errors: () => string[] }> {
  let errors: () => string[] = () => [];
  const page = await open(t, url, { scripts: 'on', viewport, setup: async (p) => {
    errors = watchErrors(p);
    if (setup) await setup(p);
  } });
  await settled(page);
  return { page, errors: () => errors() };
}
const settled = async (page: Page) => hydrateAll(page).then(() => page.waitForFunction(() => [...document.querySelectorAll<HTMLElement>('main [data-island]')]
  .every((el) => el.dataset.islandReady === 'true' || el.dataset.islandReady === 'failed')));

/** Every `signpost:track` event the page emits, from now on (window.__tracked). */
async function watchTracking(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __tracked: string[] };
    w.__tracked = [];
    document.addEventListener('signpost:track', (e) => w.__tracked.push((e as CustomEvent<{ event: string }>).detail.event));
  });
}
const tracked = (page: Page) => page.evaluate(() => (window as unknown as { __tracked: string[] }).__tracked);
const stored = (page: Page) => page.evaluate((key) => sessionStorage.getItem(key), KEY);
const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? '');
const cardLinks = (page: Page) => page.locator('.collection-children .card-title a').count();

t.test('documentation navigation', async (t) => {
  const dir = await tempContent(t);
  await navigationContent(dir);
  const { base, browser } = await serve(t, { contentDir: dir });
  // One page per script mode and width, from step to step: a new page costs a renderer's start. Each
  // step's page starts with the sidebar state unset, its session storage cleared as a new page's is.
  const open = reusablePages(t, browser);

  t.test('JavaScript off: every list and the tree work as native disclosures', async (t) => {
    const page = await open(t, base + TOPIC, { scripts: 'off', viewport: 'desktop' });
    const tree = page.getByRole('navigation', { name: 'Documentation' });
    t.ok(await tree.getByRole('link', { name: 'Automation', exact: true }).isVisible(), 'from 768 px the tree is shown, its current branch open');
    t.notOk(await page.locator('.page-tree-toggle').isVisible(), 'and its whole-tree summary, which would do nothing, is not drawn');
    const branch = tree.locator('.page-tree-item.has-children > details > summary').first();
    await branch.click();
    t.notOk(await tree.getByRole('link', { name: 'Automation', exact: true }).isVisible(), 'a branch closes');
    await branch.click();
    t.ok(await tree.getByRole('link', { name: 'Automation', exact: true }).isVisible(), 'and opens again');
    await tree.getByRole('link', { name: 'Automation', exact: true }).focus();
    t.equal(await focusedText(page), 'Automation', 'a link of the tree takes focus');

    const siblings = page.locator('.siblings');
    t.notOk(await siblings.getByRole('link', { name: 'Boards', exact: true }).isVisible(), 'siblings above the window are hidden');
    await siblings.getByText('Show 3 more').click();
    t.ok(await siblings.getByRole('link', { name: 'Boards', exact: true }).isVisible(), "'Show 3 more' shows the pages above");
    await siblings.getByText('Show 1 more').click();
    await siblings.getByRole('link', { name: 'Many set', exact: true }).click();
    await page.waitForURL(base + SET);
    t.equal(await page.locator('h1').textContent(), 'Many set', 'a sibling below the window is reached');

    t.notOk(await page.getByRole('link', { name: 'Set Filters View topic' }).isVisible(), 'the sixth child topic starts hidden');
    await page.locator('.topic-set-topics .show-more > summary').click();
    t.equal(await page.locator('.topic-set-topics .show-more > summary').textContent(), 'Show 3 more');
    await page.getByRole('link', { name: 'Set Filters View topic' }).click();
    await page.waitForURL(base + '/acme-cloud/docs/set-6');

    const docs = await open(t, base + DOCS, { scripts: 'off', viewport: 'desktop' });
    await docs.locator('.doc-list .show-more > summary').click();
    t.ok(await docs.getByRole('link', { name: 'Dashboards', exact: true }).isVisible(), "a documentation list's 'Show more' reveals the rest");
  });

  t.test('JavaScript off on a phone: the tree is a collapsed disclosure and the title is on the first screen', async (t) => {
    const page = await open(t, base + TOPIC, { scripts: 'off', viewport: 'mobile' });
    const toggle = page.locator('summary.page-tree-toggle');
    t.ok(await toggle.isVisible(), "a 'Documentation' disclosure");
    t.notOk(await page.locator('.page-tree a', { hasText: 'Automation' }).isVisible(), 'closed');
    const title = await page.locator('h1').boundingBox();
    t.ok(title && title.y + title.height <= VIEWPORTS.mobile.height, `the page title is on the first screen (bottom at ${title?.y}+${title?.height})`);
    t.ok((await toggle.boundingBox())!.y < title!.y, 'the disclosure is above the content');
    await toggle.click();
    await page.getByRole('navigation', { name: 'Documentation' }).getByRole('link', { name: 'Automation', exact: true }).click();
    await page.waitForURL(base + '/acme-cloud/docs/many-7');
  });

  t.test('axe finds nothing without scripts, disclosures open, at both widths', async (t) => {
    for (const viewport of ['desktop', 'mobile'] as const) {
      const page = await open(t, base + TOPIC, { scripts: 'blocked', viewport });
      if (viewport === 'mobile') await page.locator('summary.page-tree-toggle').click();
      for (const summary of await page.locator('.siblings-more > summary').all()) await summary.click();
      t.same(await axeViolations(page), [], `topic (${viewport})`);
      await page.goto(base + COLLECTION);
      await page.locator('.show-more > summary').click();
      t.same(await axeViolations(page), [], `collection (${viewport})`);
    }
  });

  t.test('JavaScript on, by keyboard: the sidebar toggle, kept for the session; branches; siblings; show more', async (t) => {
    const { page, errors } = await openEnhanced(open, t, base + TOPIC, { viewport: 'desktop' });
    await watchTracking(page);
    const toggle = page.getByRole('button', { name: 'Documentation' });
    const tree = page.locator('nav#page-tree');
    t.equal(await toggle.getAttribute('aria-expanded'), 'true', 'the sidebar starts expanded on a wide screen');
    t.equal(await toggle.getAttribute('aria-controls'), 'page-tree');
    t.equal(await stored(page), null, 'nothing is stored before a choice');
    await toggle.focus();
    await page.keyboard.press('Enter');
    t.equal(await toggle.getAttribute('aria-expanded'), 'false', 'Enter collapses it');
    t.notOk(await tree.isVisible(), 'the tree is hidden');
    t.equal(await stored(page), 'false', `${KEY} is 'false'`);
    const column = await page.locator('.main-column').boundingBox();
    t.ok(column && column.x < 280, `the content column takes the sidebar's width (x ${column?.x})`);

    await page.reload();
    await settled(page);
    t.equal(await page.getByRole('button', { name: 'Documentation' }).getAttribute('aria-expanded'), 'false', 'still collapsed after a reload');
    await page.locator('.siblings').getByRole('link', { name: 'Reports', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(base + '/acme-cloud/docs/many-5');
    await settled(page);
    t.equal(await page.getByRole('button', { name: 'Documentation' }).getAttribute('aria-expanded'), 'false', 'and on the next page');
    await watchTracking(page);
    await page.getByRole('button', { name: 'Documentation' }).focus();
    await page.keyboard.press('Space');
    t.equal(await page.getByRole('button', { name: 'Documentation' }).getAttribute('aria-expanded'), 'true', 'Space expands it');
    t.equal(await stored(page), 'true', `${KEY} is 'true'`);
    t.same(await tracked(page), ['sidebar-expanded'], 'the change is tracked');

    const branch = page.getByRole('button', { name: 'Pages in Many' });
    t.equal(await branch.getAttribute('aria-expanded'), 'true', "the current page's branch starts expanded");
    await branch.focus();
    await page.keyboard.press('Enter');
    t.equal(await branch.getAttribute('aria-expanded'), 'false', 'Enter collapses a branch');
    t.notOk(await page.locator('nav#page-tree').getByRole('link', { name: 'Automation', exact: true }).isVisible(), 'its pages are hidden');
    await page.keyboard.press('Enter');
    t.ok(await page.locator('nav#page-tree').getByRole('link', { name: 'Automation', exact: true }).isVisible(), 'and shown again');

    // The sixth of nine: pages 4 to 8 in the window, three above it, one below.
    await page.goto(base + TOPIC);
    await settled(page);
    const siblings = page.locator('.siblings');
    t.same(await siblings.getByRole('link').allTextContents(), ['Sprints', 'Reports', 'Filters', 'Automation', 'Dashboards'], 'five around the current page');
    await siblings.getByRole('button', { name: 'Show 3 more pages above' }).focus();
    await page.keyboard.press('Enter');
    t.equal(await focusedText(page), TITLES[0], 'expand up: focus on the first page shown');
    t.equal(await siblings.getByRole('button').count(), 1, 'the control above is gone');
    await siblings.getByRole('button', { name: 'Show 1 more pages below' }).focus();
    await page.keyboard.press('Enter');
    t.equal(await focusedText(page), 'Many set', 'expand down: focus on the first page shown');
    t.equal(await siblings.getByRole('link').count(), 9, 'the whole list, in place');
    t.equal(await siblings.locator('ul').count(), 1, 'one list');
    t.same(await page.evaluate(() => (window as unknown as { __tracked?: string[] }).__tracked ?? []), [], 'the siblings track nothing');

    await page.goto(base + COLLECTION);
    await settled(page);
    const more = page.locator('.collection-children').getByRole('button', { name: 'Show more' });
    t.equal(await cardLinks(page), 5, 'five child cards');
    await more.focus();
    await page.keyboard.press('Enter');
    t.equal(await cardLinks(page), 9, "'Show more' shows the rest in place");
    t.equal(await page.locator('.collection-children ul.card-grid').count(), 1, 'in the same list');
    t.match(await focusedText(page), /^Filters/, 'focus on the first card revealed');
    const fewer = page.locator('.collection-children').getByRole('button', { name: 'Show fewer' });
    t.equal(await fewer.getAttribute('aria-expanded'), 'true');
    await fewer.focus();
    await page.keyboard.press('Enter');
    t.equal(await cardLinks(page), 5, "'Show fewer' hides them again");
    t.equal(await page.evaluate(() => document.activeElement?.className), 'show-more-toggle', 'focus stays on the button');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.waitForURL(base + '/acme-cloud/docs/many-6');
    t.pass('Enter on the revealed card opens its page');

    t.same(await failedIslands(page), []);
    // Spec §3 linked data: the browser reads it as JSON, and the CSP reports nothing about it (errors below).
    const types = await page.evaluate(() => (JSON.parse(document.querySelector('head script[type="application/ld+json"]')?.textContent ?? 'null') as
      { '@graph': { '@type': string }[] })['@graph'].map((node) => node['@type']));
    t.same(types, ['Organization', 'WebSite', 'BreadcrumbList', 'TechArticle'], 'the page\'s linked data');
    t.same(errors(), [], 'no errors, no hydration mismatch');
  });

  t.test('JavaScript on, by mouse', async (t) => {
    const { page, errors } = await openEnhanced(open, t, base + TOPIC, { viewport: 'desktop' });
    await watchTracking(page);
    const toggle = page.getByRole('button', { name: 'Documentation' });
    await toggle.click();
    t.equal(await toggle.getAttribute('aria-expanded'), 'false', 'a click collapses the sidebar');
    t.equal(await stored(page), 'false');
    await toggle.click();
    t.equal(await toggle.getAttribute('aria-expanded'), 'true', 'and expands it');
    t.equal(await stored(page), 'true');
    t.same(await tracked(page), ['sidebar-collapsed', 'sidebar-expanded'], 'each change tracked');

    const branch = page.getByRole('button', { name: 'Pages in Many' });
    await branch.click();
    t.equal(await branch.getAttribute('aria-expanded'), 'false', 'a branch collapses');
    await branch.click();
    t.equal(await branch.getAttribute('aria-expanded'), 'true', 'and expands');

    const siblings = page.locator('.siblings');
    await siblings.getByRole('button', { name: 'Show 1 more pages below' }).click();
    await siblings.getByRole('button', { name: 'Show 3 more pages above' }).click();
    t.equal(await siblings.getByRole('link').count(), 9, 'both controls widen the window to the whole list');
    t.equal(await siblings.getByRole('button').count(), 0);
    await siblings.getByRole('link', { name: 'Backlogs', exact: true }).click();
    await page.waitForURL(base + '/acme-cloud/docs/many-3');

    await page.goto(base + DOCS);
    await settled(page);
    const list = page.locator('.doc-list').nth(1);
    await list.getByRole('button', { name: 'Show more' }).click();
    t.equal(await list.getByRole('link').count(), 10, 'the documentation list shows every child (and its heading link)');
    await list.getByRole('button', { name: 'Show fewer' }).click();
    t.equal(await list.getByRole('link').count(), 6, 'and five again');

    await page.goto(base + SET);
    await settled(page);
    await page.getByRole('button', { name: 'Show 3 more' }).click();
    await page.getByRole('link', { name: 'Set Dashboards View topic' }).click();
    await page.waitForURL(base + '/acme-cloud/docs/set-8');
    t.same(errors(), []);
  });

  t.test('axe finds nothing in the open states, at both widths', async (t) => {
    for (const viewport of ['desktop', 'mobile'] as const) {
      const { page, errors } = await openEnhanced(open, t, base + TOPIC, { viewport });
      const toggle = page.getByRole('button', { name: 'Documentation' });
      if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
      await page.getByRole('button', { name: 'Show 3 more pages above' }).click();
      await page.getByRole('button', { name: 'Show 1 more pages below' }).click();
      t.same(await axeViolations(page), [], `topic, tree and siblings expanded (${viewport})`);
      await page.goto(base + COLLECTION);
      await settled(page);
      await page.getByRole('button', { name: 'Show more' }).click();
      t.same(await axeViolations(page), [], `collection, show more open (${viewport})`);
      await page.goto(base + DOCS);
      await settled(page);
      await page.getByRole('button', { name: 'Show more' }).click();
      await page.getByRole('button', { name: 'Documentation' }).click();
      t.same(await axeViolations(page), [], `documentation home, list open, tree toggled (${viewport})`);
      t.same(errors(), []);
    }
  });

  t.test('on a phone with JavaScript: the tree starts collapsed on every page, the title on the first screen', async (t) => {
    const { page, errors } = await openEnhanced(open, t, base + TOPIC, { viewport: 'mobile' });
    const toggle = page.getByRole('button', { name: 'Documentation' });
    t.equal(await toggle.getAttribute('aria-expanded'), 'false', 'collapsed');
    const title = await page.locator('h1').boundingBox();
    t.ok(title && title.y + title.height <= VIEWPORTS.mobile.height, 'the page title is on the first screen');
    await toggle.click();
    t.equal(await toggle.getAttribute('aria-expanded'), 'true');
    await page.locator('nav#page-tree').getByRole('link', { name: 'Automation', exact: true }).click();
    await page.waitForURL(base + '/acme-cloud/docs/many-7');
    await settled(page);
    t.equal(await page.getByRole('button', { name: 'Documentation' }).getAttribute('aria-expanded'), 'false', 'the next page starts collapsed too');
    t.same(errors(), []);
  });

  t.test('no layout shift when the islands hydrate', async (t) => {
    for (const viewport of ['desktop', 'mobile'] as const) {
      const selectors = ['.page-tree-toggle', 'h1', '.page-tree-title', '.siblings-list li.is-current', '.siblings-more-above > summary, .siblings-expand-up'];
      const positions = async (page: Page) => Promise.all(selectors.map(async (selector) => {
        const box = await page.locator(selector).first().boundingBox();
        return box && box.height > 0 ? [selector, Math.round(box.x), Math.round(box.y), Math.round(box.height)] : [selector];
      }));
      // Scripts blocked (as before hydration, .js-enabled aside) against hydrated.
      const plain = await open(t, base + TOPIC, { scripts: 'blocked', viewport });
      await plain.evaluate(() => document.documentElement.classList.add('js-enabled'));
      const before = await positions(plain);
      const { page } = await openEnhanced(open, t, base + TOPIC, { viewport });
      t.same(await positions(page), before, `the tree, its toggle, the title and the siblings stay put (${viewport})`);

      const plainList = await open(t, base + COLLECTION, { scripts: 'blocked', viewport });
      await plainList.evaluate(() => document.documentElement.classList.add('js-enabled'));
      const control = async (p: Page) => p.locator('.show-more > summary, .show-more-toggle').boundingBox();
      const listBefore = await control(plainList);
      const enhanced = await openEnhanced(open, t, base + COLLECTION, { viewport });
      t.same(await control(enhanced.page), listBefore, `the show-more control keeps its place and size (${viewport})`);
    }
  });

  t.test('a failed island leaves the others working and its own native controls in place', async (t) => {
    const { page, errors } = await openEnhanced(open, t, base + TOPIC, {
      viewport: 'desktop',
      setup: async (p) => { await p.route(/\/chunks\/siblings\.[^/]+\.js$/, (route) => route.abort()); },
    });
    t.same(await failedIslands(page), ['siblings'], 'the siblings island failed');
    t.ok(errors().some((e) => e.includes('island siblings failed')), 'and said so');
    const toggle = page.getByRole('button', { name: 'Documentation' });
    await toggle.click();
    t.equal(await toggle.getAttribute('aria-expanded'), 'false', 'the page tree works');
    await page.locator('.siblings-more-above > summary').click();
    t.ok(await page.locator('.siblings').getByRole('link', { name: 'Boards', exact: true }).isVisible(), "the siblings' disclosures still work");
  });

  t.test('card titles of a row are equal in height from 901 px', async (t) => {
    const heights = async (width: number) => {
      const page = await open(t, base + COLLECTION, { scripts: 'off', viewport: 'desktop' });
      await page.setViewportSize({ width, height: 900 });
      const boxes = await page.locator('.collection-children .card-title').evaluateAll((els) => els.slice(0, 2).map((el) => {
        const box = el.getBoundingClientRect();
        return { top: Math.round(box.top), height: Math.round(box.height) };
      }));
      return boxes;
    };
    const [long, short] = await heights(1280);
    t.equal(long?.top, short?.top, 'at 1280 px the first two cards share a row');
    t.ok(long && long.height > 40, `the long title wraps (${long?.height} px)`);
    t.equal(short?.height, long?.height, 'and the short title box is as tall');
    const [long900, short900] = await heights(900);
    t.equal(long900?.top, short900?.top, 'at 900 px they share a row too');
    t.ok(long900 && short900 && short900.height < long900.height, 'but their titles keep their own heights');
  });
});
