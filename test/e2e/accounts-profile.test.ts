import t from 'tap';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { findChromiumOrPlaywright, CHROMIUM_ARGS } from '../../scripts/find-chromium.mjs';
import { axeViolations } from './browser.ts';
import { PASSWORD, profileApp } from '../identity/profile-app.ts';

// The embedded provider's profile page in a browser, JavaScript on and off: the form works as a plain
// form, and (axe being JavaScript itself, it runs where scripts do; the page loads none) axe, WCAG
// 2.0–2.2 A/AA, finds nothing on the page, its error state or its success state.
for (const javaScript of [true, false]) {
  t.test(`the profile page with JavaScript ${javaScript ? 'on' : 'off'}`, async (t) => {
    const { server, account } = await profileApp(t);
    await server.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    const executablePath = await findChromiumOrPlaywright();
    if (!executablePath) throw new Error('No Chromium found: run `node scripts/ensure-browser.mjs` for how to get one.');
    const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
    t.teardown(() => browser.close());
    // The session stands in as a header.
    const context = await browser.newContext({ extraHTTPHeaders: { 'x-test-user': 'robin' }, javaScriptEnabled: javaScript });
    const page = await context.newPage();
    const audit = async (state: string) => {
      if (javaScript) t.same(await axeViolations(page), [], `${state} has no WCAG A/AA violations`);
    };

    await page.goto(`${base}/auth/account`);
    t.equal(await page.locator('main#maincontent h1').textContent(), 'Your profile');
    await audit('the profile page');

    await page.fill('#currentPassword', 'not the password');
    await page.fill('#newPassword', 'a brand new one');
    await page.fill('#confirmPassword', 'a brand new one');
    const refused = page.waitForResponse((r) => r.url().endsWith('/auth/account/password'));
    await page.click('button:has-text("Change password")');
    t.equal((await refused).status(), 422);
    await page.waitForLoadState();
    t.equal(await page.locator('[role=alert]').count(), 1, 'the errors are announced');
    if (javaScript) t.equal(await page.evaluate(() => document.activeElement?.id), 'currentPassword', 'focus is on the field at fault');
    await audit('the error state');

    await page.fill('#currentPassword', PASSWORD);
    await page.fill('#newPassword', 'a brand new one');
    await page.fill('#confirmPassword', 'a brand new one');
    await Promise.all([page.waitForURL(/done=password-changed/), page.click('button:has-text("Change password")')]);
    t.equal(await page.locator('[role=status]').textContent(), 'Your password was changed.');
    await audit('the success state');
    t.equal((await server.accounts.signIn(account.email, 'a brand new one')).ok, true);
  });
}
