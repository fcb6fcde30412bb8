import t from 'tap';
import { InMemoryProvider } from '@openfeature/server-sdk';
import type { Browser } from 'playwright-core';
import { axeViolations, openPage, serve } from './browser.ts';
import { islandsSettled } from './islands.ts';
import { sealedSession } from '../helpers/session-cookie.ts';
import type { SessionUser } from '../../server/identity/types.ts';

const SESSION_SECRET = 'session-secret-for-browser-tests-0123456789';
const CASEY: SessionUser = { sub: 'c-1', email: 'casey@customer.example', emailVerified: true, name: 'Casey Customer', canEdit: false, partner: false };
const on = { variants: { on: true, off: false }, defaultVariant: 'on', disabled: false };
const TOPIC = '/acme-cloud/docs/first-steps';
const CITED = 'a[href="/acme-cloud/docs/first-steps#install-the-widget"]';

async function signedIn(browser: Browser, base: string, path: string, scripts: 'on' | 'off' | 'blocked', settle = true) {
  const page = await openPage(browser, `${base}/healthz`, { scripts, viewport: 'desktop' });
  await page.context().addCookies([{ name: 'sp_session', value: encodeURIComponent(await sealedSession(CASEY, SESSION_SECRET)), url: base, httpOnly: true, sameSite: 'Lax' }]);
  await page.goto(base + path);
  if (scripts === 'on' && settle) await islandsSettled(page);
  return page;
}

t.test('the assistant in a real browser, with JavaScript and without', async (t) => {
  const { base, browser } = await serve(t, {
    env: { SESSION_SECRET },
    flagProvider: new InMemoryProvider({ 'csm-ai-agent-on-sac': on, 'sac-search-ai-experiment': on }),
  });

  t.test('without JavaScript: the widget is a link to the page, the page answers, the summary is a link', async (t) => {
    const topic = await signedIn(browser, base, TOPIC, 'off');
    await topic.locator('.assistant-widget a', { hasText: 'Ask the help centre' }).click();
    await topic.waitForURL(`${base}/assistant`);
    await topic.fill('#assistant-question', 'how do I install the widget');
    await topic.keyboard.press('Enter');
    await topic.waitForURL(/\/assistant\?q=how\+do\+I\+install\+the\+widget$/);
    t.equal(await topic.locator(CITED).count(), 1, 'the answer cites the section');
    await topic.context().close();

    for (const path of [TOPIC, '/assistant?q=how+do+I+install+the+widget', '/assistant?q=banana+bread', '/search-results/?searchTerm=install+widget']) {
      const page = await signedIn(browser, base, path, 'blocked');
      if (path.startsWith('/search-results')) await page.locator('.ai-summary > summary').click();
      t.same(await axeViolations(page), [], `${path}, no scripts: no WCAG A/AA violations`);
      if (path.includes('banana')) {
        t.equal(await page.locator('.assistant-answer a[href="/search-results/?searchTerm=banana+bread"]').count(), 1, 'the refusal links to search');
        t.equal(await page.locator('.assistant-answer a[href="/contact?subject=banana+bread"]').count(), 1, 'the refusal links to the contact form');
      }
      await page.context().close();
    }
    const results = await signedIn(browser, base, '/search-results/?searchTerm=install+widget', 'off');
    await results.locator('.ai-summary > summary').click();
    await results.locator('.ai-summary a', { hasText: 'Read the AI summary' }).click();
    await results.waitForURL(/\/assistant\/summary\?q=install\+widget$/);
    t.equal(await results.locator(CITED).count(), 1, 'the summary page cites the section');
    await results.context().close();
  });

  t.test('with JavaScript: the widget streams a cited answer, by keyboard', async (t) => {
    // Its first interaction: Enter on the link the server rendered, before the widget has hydrated.
    const page = await signedIn(browser, base, TOPIC, 'on', false);
    await page.locator('a.assistant-widget-toggle').focus();
    await page.keyboard.press('Enter');
    const toggle = page.locator('button.assistant-widget-toggle');
    await toggle.and(page.locator('[aria-expanded="true"]')).waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'assistant-widget-question');
    t.equal(page.url(), base + TOPIC, 'the widget opened in place');
    await page.keyboard.type('how do I install the widget');
    await page.keyboard.press('Enter');
    await page.locator(`.assistant-widget-answer ${CITED}`).waitFor();
    t.same(await axeViolations(page), [], 'widget open with an answer: no WCAG A/AA violations');
    await page.keyboard.press('Escape');
    t.equal(await toggle.getAttribute('aria-expanded'), 'false', 'Escape closes it');
    t.ok(await toggle.evaluate((el) => el === document.activeElement), 'focus back on the button');
    await page.context().close();
  });

  t.test('with JavaScript: the summary dialog streams the summary in place', async (t) => {
    // Its first interaction: the summary clicked before the island has hydrated.
    const page = await signedIn(browser, base, '/search-results/?searchTerm=install+widget', 'on', false);
    await page.locator('.ai-summary > summary').click();
    await page.locator(`.ai-summary-body ${CITED}`).waitFor();
    t.same(await axeViolations(page), [], 'summary open: no WCAG A/AA violations');
    await page.context().close();
  });
});
