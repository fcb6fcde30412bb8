import t from 'tap';
import { serve, openPage } from '/work/main/test/e2e/browser.ts';
import { SAMPLE_CONTENT } from '/work/main/test/helpers/build.ts';
import { AxeBuilder } from '@axe-core/playwright';
import { WCAG_TAGS } from '/work/main/test/e2e/browser.ts';
t.test('x', async (t) => {
  const { base, browser } = await serve(t, { contentDir: SAMPLE_CONTENT });
  for (const path of (process.env.PATHS ?? '').split(',')) for (const viewport of ['mobile', 'desktop'] as const) {
    const page = await openPage(browser, base + path, { scripts: 'blocked', viewport });
    const r = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
    for (const v of r.violations) for (const n of v.nodes) console.log(path, viewport, v.id, n.target.join(' '), n.failureSummary, n.html);
    if (process.env.SHOT) await page.screenshot({ path: `/tmp/shot-${viewport}-${path.replace(/\W+/g, '_')}.png`, fullPage: true });
    await page.context().close();
  }
});
