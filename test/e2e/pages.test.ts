import t from 'tap';
import { serve, openPage, axeViolations } from './browser.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';

// One representative page of each type built so far, from the sample content.
const PAGES = {
  topic: '/tracklight-cloud/docs/write-rich-issue-descriptions',
  'versioned topic': '/pagewell-data-center/9.5/docs/tune-the-content-cache',
  'KB article': '/tracklight/kb/cluster-node-stuck-starting',
  'not found': '/no-such-page',
} as const;

t.test('pages in a real browser', async (t) => {
  const { base, browser } = await serve(t, { contentDir: SAMPLE_CONTENT });

  for (const javaScript of [false, true]) {
    t.test(`when JavaScript is ${javaScript ? 'available' : 'unavailable'}`, async (t) => {
      for (const [name, path] of Object.entries(PAGES)) {
        for (const viewport of ['desktop', 'mobile'] as const) {
          const page = await openPage(browser, base + path, { scripts: javaScript ? 'on' : 'blocked', viewport });
          t.same(await axeViolations(page), [], `${name} (${viewport}) has no WCAG A/AA violations`);
          t.equal(await page.locator('h1').count(), 1, `${name} has one heading 1`);
          const enhanced = await page.evaluate(() => document.documentElement.classList.contains('js-enabled'));
          t.equal(enhanced, javaScript, 'the islands script runs only when JavaScript is on');
          await page.context().close();
          if (!javaScript) {
            const plain = await openPage(browser, base + path, { scripts: 'off', viewport });
            t.equal(await plain.locator('h1').count(), 1, `${name} renders with JavaScript disabled`);
            await plain.context().close();
          }
        }
      }
    });
  }

  t.test('the skip link moves keyboard focus to the main content', async (t) => {
    const page = await openPage(browser, base + PAGES.topic, { scripts: 'on', viewport: 'desktop' });
    await page.keyboard.press('Tab');
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to main content');
    await page.keyboard.press('Enter');
    t.equal(await page.evaluate(() => document.activeElement?.id), 'maincontent');
    await page.context().close();
  });

  t.test('on-this-page links and breadcrumbs navigate without JavaScript', async (t) => {
    const page = await openPage(browser, base + PAGES.topic, { scripts: 'off', viewport: 'desktop' });
    const toc = page.locator('.on-this-page a').first();
    const target = await toc.getAttribute('href');
    await toc.click();
    t.equal(new URL(page.url()).hash, target);
    await page.locator('.breadcrumbs a').nth(1).click();
    await page.waitForLoadState();
    t.equal(new URL(page.url()).pathname, '/tracklight-cloud/docs');
    await page.context().close();
  });
});
