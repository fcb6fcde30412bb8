/**
 * Signpost's own documentation (docs/) in a real browser: one page of every page type the tree has, found
 * from the imported content rather than named here, and the search and not-found states, at desktop width
 * and a phone's, with scripts on (every island hydrated) and blocked: axe (WCAG 2.2 A/AA) finds nothing.
 */
import { join } from 'node:path';
import t from 'tap';
import type { Page } from 'playwright-core';
import { axeViolations, openPage, serve, VIEWPORTS } from './browser.ts';
import { failedIslands, islandsSettled } from './islands.ts';
import { staticQueries } from '../../scripts/docs-build.ts';

const DOCS = join(import.meta.dirname, '../../docs');

t.test('every page type of the documentation passes axe, with scripts and without', async (t) => {
  const { base, browser, app } = await serve(t, { contentDir: DOCS });
  // One published address per kind of entry (and per page type of pages), the shortest path first.
  const rows = await app.db.query<{ kind: string; path: string }>(
    `select distinct on (kind) kind, path from (
       select case when e.type = 'page' then 'page:' || coalesce(e.fields->>'pageType', '') else e.type end as kind, r.path
         from content_entries e join content_routes r on r.entry_id = e.id where e.published) x
      order by kind, length(path), path`);
  // The generated references: the widest tables of the tree.
  for (const id of ['signpost-http-api', 'signpost-configuration-reference']) {
    const [route] = await app.db.query<{ path: string }>('select path from content_routes where entry_id = $1 order by length(path) limit 1', [id]);
    if (route) rows.push({ kind: `topic ${id}`, path: route.path });
  }
  const [query] = await staticQueries(app, 1);
  const kinds = new Map(rows.map((r) => [r.kind, r.path]));
  kinds.set('search with results', `/search-results/?searchTerm=${encodeURIComponent(query ?? 'search')}`);
  kinds.set('search with none', '/search-results/?searchTerm=zzqxjv');
  kinds.set('not found', '/no/such/page');
  t.ok(rows.length >= 7, `page types: ${rows.map((r) => r.kind).join(', ')}`);

  const pages = new Map<string, Page>();
  for (const scripts of ['on', 'blocked'] as const) {
    for (const viewport of Object.keys(VIEWPORTS) as (keyof typeof VIEWPORTS)[]) {
      for (const [kind, path] of kinds) {
        const key = `${scripts} ${viewport}`;
        let page = pages.get(key);
        if (!page) {
          page = await openPage(browser, base + path, { scripts, viewport });
          pages.set(key, page);
        } else {
          await page.goto(base + path);
        }
        const what = `${kind} ${path} (${viewport}, scripts ${scripts})`;
        if (scripts === 'on') {
          await islandsSettled(page);
          t.same(await failedIslands(page), [], `${what}: every island hydrated`);
        }
        t.same(await axeViolations(page), [], `${what}: no WCAG A/AA violations`);
        t.equal(await page.locator('h1').count(), 1, `${what}: one heading 1`);
      }
    }
  }
  for (const page of pages.values()) await page.context().close();
});
