/**
 * Sign-in journeys through the embedded provider with the sample content's demo accounts (one per role of
 * spec §6), with JavaScript off and on: sign in from a page and come back to it, see the role's chrome,
 * use the account menu, switch account, log out (and be asked for the password when signing in again). axe (WCAG 2.2 A/AA) on the sign-in screen and on
 * signed-in pages; the account menu by keyboard (Escape and outside click belong to the header-menu island).
 */
import t, { type Test } from 'tap';

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Page } from 'playwright-core';
import { axeViolations, servePublic } from './browser.ts';
import { freePort, startPeer } from '../identity/oidc-peer.ts';
import { SESSION_SECRET } from '../identity/helpers.ts';
import { islandsSettled } from './islands.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';
import { PAGE_TYPES } from '../fixtures/page-types.ts';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MB = 1024 * 1024;
/** The heap bound of load shedding: far above what the journeys use, reached only by the overload journey's ballast. */
const HEAP_BOUND_MB = Math.ceil(process.memoryUsage().heapUsed / MB) + 1024;

interface Demo { role: string; email: string; name: string; password: string }
const demos = (parse(await readFile(join(SAMPLE_CONTENT, 'demo-accounts.yaml'), 'utf8')) as { accounts: Demo[] }).accounts;
const demo = (role: string): Demo => {
  const found = demos.find((d) => d.role === role);
  if (!found) throw new Error(`no ${role} in demo-accounts.yaml`);
  return found;
};

const TOPIC = PAGE_TYPES.topic;
const KB_ARTICLE = PAGE_TYPES['KB article'];

async function fillSignIn(page: Page, account: Demo) {
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForLoadState();
}

/** The account menu, opened: a <details> without scripts, a button and its panel once the header island has hydrated. */
async function openAccountMenu(page: Page) {
  if (await page.evaluate(() => document.documentElement.classList.contains('js-enabled'))) await islandsSettled(page);
  const menu = page.locator('[data-menu="account"]').first();
  const trigger = menu.locator('> summary, > button').first();
  const open = await menu.evaluate((d) => (d instanceof HTMLDetailsElement ? d.open : d.querySelector(':scope > button')?.getAttribute('aria-expanded') === 'true'));
  if (!open) await trigger.click();
  return menu;
}

/** What each role sees on the topic and the KB article (spec §6). */
async function checkRole(t: Test, page: Page, base: string, account: Demo, javaScript: boolean) {
  const header = page.locator('header').first();
  t.equal(await header.getByRole('link', { name: 'Sign in' }).count(), 0, `${account.role}: no Sign in button once signed in`);
  t.equal(await page.getByRole('link', { name: 'Contact Support' }).count() > 0, true, `${account.role}: the direct Contact Support link`);
  const menu = await openAccountMenu(page);
  t.match(await menu.textContent(), account.name, `${account.role}: the account menu names the person`);
  const requests = account.role === 'partner' ? 'View Support Requests' : 'View requests';
  t.equal(await menu.getByRole('link', { name: requests, exact: true }).count(), 1, `${account.role}: '${requests}' in the account menu`);
  const editLinks = await page.locator('.edit-links a').count();
  t.equal(editLinks > 0, account.role === 'author', `${account.role}: editor shortcuts only for the author`);
  if (account.role === 'author') {
    t.equal(await page.locator('.edit-links a[target="_blank"]').count(), editLinks, 'every editor shortcut opens in a new tab');
  }
  if (javaScript) t.same(await axeViolations(page), [], `${account.role}: the signed-in topic page (menu open) has no WCAG A/AA violations`);

  await page.goto(base + KB_ARTICLE);
  const hint = await page.locator('.staff-edit-hint').getByRole('link', { name: 'Edit this KB Article' }).count();
  t.equal(hint > 0, account.role === 'vendor staff', `${account.role}: 'Edit this KB Article' only for vendor staff`);
  if (javaScript) t.same(await axeViolations(page), [], `${account.role}: the signed-in KB article has no WCAG A/AA violations`);
  await page.goto(base + TOPIC);
}

async function journey(t: Test, page: Page, base: string, javaScript: boolean, first: Demo, second: Demo) {
  // Nobody signed in, at the site or at the provider, whoever the page's last journey was.
  await page.context().clearCookies();
  await page.goto(base + TOPIC);
  await page.locator('header').first().getByRole('link', { name: 'Sign in' }).first().click();
  await page.waitForLoadState();
  t.match(new URL(page.url()).pathname, /^\/auth\/interaction\//, 'Sign in leads to the sign-in screen');
  if (javaScript) t.same(await axeViolations(page), [], 'the sign-in screen has no WCAG A/AA violations');

  // A wrong password first: the error state, then the right one.
  await fillSignIn(page, { ...first, password: 'not the password' });
  t.equal(await page.getByRole('alert').count(), 1, 'a wrong password is announced');
  t.equal(await page.getByLabel('E-mail').inputValue(), first.email, 'the e-mail is kept');
  if (javaScript) t.same(await axeViolations(page), [], 'the sign-in error state has no WCAG A/AA violations');
  await fillSignIn(page, first);
  t.equal(new URL(page.url()).pathname, TOPIC, `${first.role}: back on the page sign-in started from`);
  await checkRole(t, page, base, first, javaScript);

  // Switch account: the sign-in screen again, even though the provider remembers who signed in.
  const menu = await openAccountMenu(page);
  await menu.getByRole('link', { name: 'Switch account' }).click();
  await page.waitForLoadState();
  t.match(new URL(page.url()).pathname, /^\/auth\/interaction\//, 'switch account shows the sign-in screen');
  await fillSignIn(page, second);
  t.equal(new URL(page.url()).pathname, TOPIC, `${second.role}: back on the page after switching`);
  await checkRole(t, page, base, second, javaScript);

  // Log out: one POST from the account menu ends the site's session and the provider's (RP-initiated
  // logout, with nothing more to confirm), then the support home.
  await (await openAccountMenu(page)).getByRole('button', { name: 'Log out' }).click();
  await page.waitForLoadState();
  t.equal(await page.getByRole('button', { name: /sign out/i }).count(), 0, 'no second sign-out to confirm at the provider');
  t.equal(new URL(page.url()).pathname, '/', 'log out ends on the support home');
  t.equal(await page.locator('header').first().getByRole('link', { name: 'Sign in' }).count() > 0, true, 'signed out: the Sign in button is back');
  await page.goto(base + TOPIC);
  t.equal(await page.locator('[data-menu="account"]').count(), 0, 'signed out: no account menu on the next page');

  // Signing in again asks for the password: the provider did not keep the person signed in.
  await page.locator('header').first().getByRole('link', { name: 'Sign in' }).first().click();
  await page.waitForLoadState();
  t.match(new URL(page.url()).pathname, /^\/auth\/interaction\//, 'Sign in after log out shows the sign-in screen');
  t.equal(await page.getByLabel('Password').count(), 1, 'and asks for the password');
}

t.test('sign-in journeys with the demo accounts', async (t) => {
  const { base, browser } = await servePublic(t, { contentDir: SAMPLE_CONTENT, env: { OVERLOAD_MAX_HEAP_USED_MB: String(HEAP_BOUND_MB) } });
  // One page per script mode, taken from journey to journey with the cookies cleared between them: a
  // journey's state is its cookies (nothing here keeps storage), and a new page costs a renderer's start.
  const pages = new Map<boolean, Page>();
  const pageFor = async (javaScript: boolean) => {
    let page = pages.get(javaScript);
    if (!page) {
      page = await (await browser.newContext({ javaScriptEnabled: javaScript })).newPage();
      pages.set(javaScript, page);
    }
    return page;
  };
  t.teardown(() => Promise.all([...pages.values()].map((page) => page.context().close())));

  t.test('when JavaScript is unavailable', async (t) => {
    await journey(t, await pageFor(false), base, false, demo('customer'), demo('author'));
    await journey(t, await pageFor(false), base, false, demo('vendor staff'), demo('partner'));
  });

  t.test('when JavaScript is available', async (t) => {
    await journey(t, await pageFor(true), base, true, demo('partner'), demo('vendor staff'));
    await journey(t, await pageFor(true), base, true, demo('author'), demo('customer'));
  });

  t.test('the account menu by keyboard', async (t) => {
    const page = await pageFor(true);
    await page.context().clearCookies();
    await page.goto(base + TOPIC);
    await page.locator('header').first().getByRole('link', { name: 'Sign in' }).first().click();
    await fillSignIn(page, demo('customer'));
    await islandsSettled(page);
    const trigger = page.locator('[data-menu="account"] > button').first();
    await trigger.focus();
    await page.keyboard.press('Enter');
    t.equal(await trigger.getAttribute('aria-expanded'), 'true', 'Enter opens the account menu');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.closest('[data-menu="account"]') !== null);
    t.ok(focused, 'Tab moves into the open menu');
    // Tab to 'Manage profile' and follow it with Enter: the embedded provider's profile page.
    while (!(await page.evaluate(() => document.activeElement?.textContent === 'Manage profile'))) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/auth\/account$/);
    t.match(await page.locator('h1').textContent(), /./, 'Enter on a menu link follows it (the profile page)');
    t.same(await axeViolations(page), [], 'the profile page has no WCAG A/AA violations');
  });

  // Issue 27 item 25: under load, the stylesheet, images and a sign-in step were shed, leaving the person on
  // a 503 page. The overload is the detector's own: this process holds heap past OVERLOAD_MAX_HEAP_USED_MB.
  t.test('overloaded: a kept page, its assets and every step of a sign-in are served', async (t) => {
    t.equal((await fetch(base + TOPIC)).status, 200, 'the page is rendered and kept before the load');
    let ballast: number[][] | undefined = [];
    for (let held = process.memoryUsage().heapUsed; held < (HEAP_BOUND_MB + 64) * MB; held += 65_536 * 8) ballast.push(new Array<number>(65_536).fill(1));
    for (const end = Date.now() + 20_000; (await fetch(`${base}/readyz`)).status !== 503 && Date.now() < end;) await new Promise((r) => setTimeout(r, 50));
    t.equal((await fetch(`${base}/readyz`)).status, 503, 'overloaded');
    // A context of its own: the assets must be asked of the overloaded server, not found in a warm cache.
    const context = await browser.newContext();
    const page = await context.newPage();
    const shed: string[] = [];
    page.on('response', (res) => {
      if (res.status() === 503 && ['document', 'stylesheet', 'script', 'image', 'font'].includes(res.request().resourceType())) shed.push(new URL(res.url()).pathname);
    });
    await page.goto(base + TOPIC);
    await islandsSettled(page);
    await page.locator('header').first().getByRole('link', { name: 'Sign in' }).first().click();
    await page.waitForLoadState();
    t.match(new URL(page.url()).pathname, /^\/auth\/interaction\//, 'the sign-in screen');
    await fillSignIn(page, demo('customer'));
    t.equal(new URL(page.url()).pathname, TOPIC, 'signed in and back on the page');
    t.same(shed, [], 'no page, stylesheet, script or image of the journey was shed');
    await context.close();
    ballast = undefined;
    void ballast;
    gc();
  });
});

t.test('log out with an external issuer ends both sessions in the browser', async (t) => {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const peer = await startPeer(t, { publicUrl });
  peer.accounts.set('cust-1', { email: 'ada@customer.example', email_verified: true, name: 'Ada Lovelace' });
  peer.next = { account: 'cust-1' };
  const { base, browser } = await servePublic(t, {
    contentDir: SAMPLE_CONTENT,
    env: { SESSION_SECRET, OIDC_ISSUER: peer.issuer, OIDC_CLIENT_ID: peer.clientId, OIDC_CLIENT_SECRET: peer.clientSecret },
  }, port);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visited.push(frame.url());
  });
  const signIn = async () => {
    await page.locator('header').first().getByRole('link', { name: 'Sign in' }).first().click();
    await page.waitForURL(`${base}${TOPIC}`);
  };

  await page.goto(base + TOPIC);
  await signIn();
  t.equal(peer.steps.filter((s) => s === 'login').length, 1, 'signed in at the issuer');
  t.equal(await page.locator('[data-menu="account"]').count() > 0, true, 'signed in here');

  await (await openAccountMenu(page)).getByRole('button', { name: 'Log out' }).click();
  // The issuer asks to confirm its own sign-out; its answer leads back to the support home.
  await page.waitForURL((url) => url.href.startsWith(`${peer.issuer}/session/end`));
  t.ok(visited.some((url) => url === `${base}/auth/signed-out`), 'through this site\'s signed-out page');
  await page.getByRole('button', { name: /sign me out/i }).click();
  await page.waitForURL(`${base}/`);
  t.same(violations, [], 'no form-action violation on the way');
  t.equal(await page.locator('header').first().getByRole('link', { name: 'Sign in' }).count() > 0, true, 'signed out: the Sign in button is back');
  t.equal(await page.locator('[data-menu="account"]').count(), 0, 'signed out: no account menu');

  // Signing in again asks the issuer to sign the person in: its session ended too.
  await page.goto(base + TOPIC);
  await signIn();
  t.equal(peer.steps.filter((s) => s === 'login').length, 2, 'the issuer had no session left to reuse');
  await context.close();
});
