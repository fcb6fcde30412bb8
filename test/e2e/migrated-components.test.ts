import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../scripts/migrate/index.ts';
import { axeViolations, serve, VIEWPORTS } from './browser.ts';

// The blocks other tools' components become (cards, steps, file trees, admonitions, highlighted code,
// embeds, nested tabs), audited on a migrated page with and without the page's scripts. The players'
// own pages are other sites': never fetched here, and not audited.
t.test('a migrated components page passes axe without its scripts and with them', async (t) => {
  const out = await mkdtemp(join(tmpdir(), 'signpost-migrate-axe-'));
  t.teardown(() => rm(out, { recursive: true, force: true }));
  await migrate('starlight', join(import.meta.dirname, '../fixtures/migrate/starlight'), out);
  const { base, browser } = await serve(t, { contentDir: out });
  // Without scripts wide, with them narrow: the two states the blocks differ in (the tabs, the floats).
  for (const [scripts, viewport] of [['blocked', 'desktop'], ['on', 'mobile']] as const) {
    const context = await browser.newContext({ viewport: VIEWPORTS[viewport] });
    await context.route((url) => !url.href.startsWith(base), (route) => route.abort());
    if (scripts === 'blocked') await context.route(/\/assets\/.*\.js$/, (route) => route.abort());
    const page = await context.newPage();
    await page.goto(`${base}/quillmate/docs/components`);
    t.same(await axeViolations(page, ['iframe']), [], `scripts ${scripts}, ${viewport}`);
    await context.close();
  }
});
