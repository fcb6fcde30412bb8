import t from 'tap';
import type { Page } from 'playwright-core';
import { servePublic, openPage, axeViolations } from './browser.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';

/**
 * Asking for help in a real browser (issue 'Tests and figures'): fill in, see the errors, fix, send,
 * see the reference; with JavaScript off and on, by keyboard, and axe (WCAG 2.2 A/AA) in the empty,
 * error and confirmation states.
 */
t.test('support form journeys', async (t) => {
  const { base, browser, app } = await servePublic(t, {
    contentDir: SAMPLE_CONTENT, env: { SESSION_SECRET, RATE_LIMIT_MAX: '1000', REQUEST_RATE_LIMIT: '1000' },
  });

  const fillContact = async (page: Page) => {
    await page.getByLabel('Your e-mail address').fill('vera@customer.example');
    await page.getByLabel('Product').selectOption('codebarn-data-center');
    await page.getByLabel('Version (Data Center)').selectOption('9.4');
    await page.getByLabel('How much is this affecting you?').selectOption('high');
    await page.getByLabel('Summary').fill('Pushes to main are rejected');
    await page.getByLabel('What is happening?').fill('Every push to the main branch is rejected with a hook error.');
  };

  for (const scripts of ['off', 'blocked', 'on'] as const) {
    t.test(`contact with JavaScript ${scripts === 'on' ? 'on' : scripts === 'off' ? 'off' : 'blocked (axe runs)'}`, async (t) => {
      const page = await openPage(browser, `${base}/contact`, { scripts, viewport: scripts === 'blocked' ? 'mobile' : 'desktop' });
      if (scripts !== 'off') t.same(await axeViolations(page), [], 'empty form: no WCAG A/AA violations');
      // A half-filled form: the e-mail is wrong and the summary too short.
      await page.getByLabel('Your e-mail address').fill('vera-at-customer');
      await page.getByLabel('Summary').fill('Hi');
      await page.getByRole('button', { name: 'Send request' }).click();
      await page.waitForLoadState();
      const summary = page.getByRole('alert');
      t.match(await summary.textContent(), 'There is a problem');
      t.equal(await page.getByLabel('Summary').inputValue(), 'Hi', 'what was typed is kept');
      t.equal(await page.getByLabel('Your e-mail address').getAttribute('aria-invalid'), 'true');
      if (scripts !== 'off') t.same(await axeViolations(page), [], 'errors: no WCAG A/AA violations');
      if (scripts === 'on') {
        t.equal(await page.evaluate(() => document.activeElement?.id), 'error-summary', 'focus moves to the error summary');
        // Keyboard: the summary's first link, Enter, and focus is on that field.
        await page.keyboard.press('Tab');
        t.match(await page.evaluate(() => document.activeElement?.textContent), 'Enter an e-mail address');
        await page.keyboard.press('Enter');
        t.equal(await page.evaluate(() => document.activeElement?.id), 'field-email', 'the link moves focus to its field');
      } else {
        await summary.getByRole('link', { name: /“Summary” must be at least 5 characters/ }).click();
        t.equal(await page.evaluate(() => document.activeElement?.id), 'field-subject', 'the link moves focus to its field');
      }
      await fillContact(page);
      await page.getByRole('button', { name: 'Send request' }).click();
      await page.waitForURL(/\/request-sent\/SR-\d+\?token=/);
      const reference = /SR-\d+/.exec(page.url())?.[0] as string;
      t.equal(await page.locator('.request-reference strong').textContent(), reference, `the reference is shown: ${reference}`);
      t.match(await (await app.supportRequests.get(reference))?.subject, 'Pushes to main are rejected', 'and stored');
      if (scripts !== 'off') t.same(await axeViolations(page), [], 'confirmation: no WCAG A/AA violations');
      await page.reload();
      t.equal(await page.locator('.request-reference strong').textContent(), reference, 'a reload shows the same confirmation');
      await page.context().close();
    });
  }

  t.test('signed in: the confirmation leads to the request in my requests', async (t) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    // The session cookie as the app seals it, percent-encoded as the app sets it.
    const value = sealed(app, ADA).slice('sp_session='.length);
    await context.addCookies([{ name: 'sp_session', value, url: base }]);
    const page = await context.newPage();
    await page.goto(`${base}/hot-contact`);
    t.match(await page.locator('.signed-in-as').textContent(), 'Ada Lovelace');
    await page.getByLabel('Affected product').selectOption('keyward-cloud');
    await page.getByLabel('What is down?').fill('Nobody can sign in');
    await page.getByLabel('When did it start?').fill('2026-05-01 09:30 UTC');
    await page.getByLabel('Who is affected?').selectOption('everyone');
    await page.getByLabel('What have you tried?').fill('Restarted the identity connector twice, no change.');
    await page.getByRole('button', { name: 'Report the outage' }).click();
    await page.waitForURL(/\/request-sent\/SR-\d+/);
    const reference = /SR-\d+/.exec(page.url())?.[0] as string;
    t.equal(await page.getByRole('link', { name: 'See this request in your requests' }).getAttribute('href'), `/requests/${reference}`);
    await context.close();
  });

  t.test('report a problem from a knowledge-base article, JavaScript off', async (t) => {
    const page = await openPage(browser, `${base}/codebarn/kb/diff-too-large-to-display`, { scripts: 'off', viewport: 'desktop' });
    await page.getByRole('link', { name: 'Report a problem with this page' }).click();
    await page.waitForURL(/\/report-problem\?page=/);
    await page.getByLabel('What is wrong?').selectOption('out-of-date');
    await page.getByLabel('Details').fill('The screenshot shows the old settings page.');
    await page.getByRole('button', { name: 'Send report' }).click();
    await page.waitForURL(/\/request-sent\/SR-\d+/);
    t.match(await page.locator('h1').textContent(), 'Report sent');
    await page.getByRole('link', { name: 'Back to the page' }).click();
    t.equal(new URL(page.url()).pathname, '/codebarn/kb/diff-too-large-to-display');
    await page.context().close();
  });
});
