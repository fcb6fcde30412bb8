/**
 * The embedded provider's screens in a browser: sign-in (and its error state), consent and sign-out
 * have no WCAG 2.2 A/AA violations, and a sign-in works with JavaScript off. Sign-up, confirming the
 * address and resetting a forgotten password go end to end through a real SMTP server, with
 * JavaScript off and on (by keyboard), every screen checked with axe.
 */
import t, { type Test } from 'tap';
import { createServer, type AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { findChromiumOrPlaywright, CHROMIUM_ARGS } from '../../scripts/find-chromium.mjs';
import { build, SAMPLE_CONTENT } from '../helpers/build.ts';
import { axeViolations } from './browser.ts';
import { startSmtp } from '../support/delivery-peers.ts';

const PASSWORD = 'correct horse battery';
const PORTAL = 'https://portal.example.test/cb';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function authorizeUrl(origin: string, clientId: string, redirect: string, extra: Record<string, string> = {}): string {
  const verifier = 'v'.repeat(50);
  return `${origin}/auth/oidc/auth?${new URLSearchParams({
    client_id: clientId, response_type: 'code', scope: 'openid email profile roles', redirect_uri: redirect, state: 'st', nonce: 'no',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', ...extra,
  })}`;
}

t.test('identity screens', async (t) => {
  // The provider speaks for PUBLIC_URL: the app is served at exactly that address.
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const smtp = await startSmtp(t);
  const app = await build(t, {
    contentDir: SAMPLE_CONTENT,
    env: {
      PUBLIC_URL: origin, SMTP_URL: smtp.url, SUPPORT_MAIL_TO: 'helpdesk@vendor.example',
      OIDC_PROVIDER_CLIENTS: JSON.stringify([{ client_id: 'portal', client_secret: 'portal-secret-0123456789', redirect_uris: [PORTAL], client_name: 'Partner Portal' }]),
    },
  });
  await app.listen({ port, host: '127.0.0.1' });
  await app.accounts.create({ email: 'ada@customer.example', password: PASSWORD, displayName: 'Ada' });
  const executablePath = await findChromiumOrPlaywright();
  if (!executablePath) throw new Error('No Chromium found: run `node scripts/ensure-browser.mjs` for how to get one.');
  const browser: Browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  t.teardown(() => browser.close());

  const context = async (javaScript: boolean): Promise<BrowserContext> => {
    const c = await browser.newContext({ javaScriptEnabled: javaScript });
    // The other application's address is not served here: answer it so the redirect can be seen.
    await c.route('https://portal.example.test/**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'portal' }));
    return c;
  };

  t.test('sign-in, its error state, consent, sign-out: no violations', async (t) => {
    const page = await (await context(true)).newPage();
    await page.goto(authorizeUrl(origin, 'portal', PORTAL));
    t.match(page.url(), /\/auth\/interaction\/[\w-]+$/);
    t.equal(await page.locator('h1').textContent(), `Sign in to ${await page.locator('.identity-banner a').textContent()}`);
    t.same(await axeViolations(page), [], 'sign-in');

    await page.getByLabel('E-mail').fill('ada@customer.example');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState();
    t.equal(await page.getByRole('alert').textContent(), 'E-mail or password is incorrect.');
    t.equal(await page.getByLabel('E-mail').inputValue(), 'ada@customer.example', 'the e-mail is kept');
    t.same(await axeViolations(page), [], 'sign-in with an error');

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    t.same(await axeViolations(page), [], 'consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/portal\.example\.test/);
    t.match(page.url(), /^https:\/\/portal\.example\.test\/cb\?code=[\w-]+&state=st/, 'the form post ends at the application (CSP form-action lets it)');

    await page.goto(`${origin}/auth/oidc/session/end?${new URLSearchParams({ client_id: 'signpost', post_logout_redirect_uri: `${origin}/` })}`);
    t.equal(await page.locator('h1').count(), 1);
    t.match(await page.locator('h1').textContent(), /^Sign out of .+\?$/);
    t.same(await axeViolations(page), [], 'sign-out');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${origin}/`);
    t.pass('back on the site after signing out');

    await page.goto(`${origin}/auth/interaction/no-such-step`);
    t.same(await axeViolations(page), [], 'expired step');
  });

  t.test('a sign-in without JavaScript ends at the site\'s callback with a code', async (t) => {
    const page = await (await context(false)).newPage();
    await page.goto(authorizeUrl(origin, 'signpost', `${origin}/auth/callback`));
    await page.getByLabel('E-mail').fill('ada@customer.example');
    await page.getByLabel('Password').fill(PASSWORD);
    const callback = page.waitForRequest((request) => request.url().startsWith(`${origin}/auth/callback?`));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const url = new URL((await callback).url());
    t.ok(url.searchParams.get('code'), 'a code');
    t.equal(url.searchParams.get('state'), 'st');
  });

  /** The link of a kind in the newest e-mail to an address, once it has arrived. */
  async function mailedLink(to: string, path: 'verify' | 'reset', count: number): Promise<string> {
    const messages = await smtp.received(count);
    const text = [...messages].reverse().find((m) => m.envelope.to.includes(to))?.mail.text ?? '';
    const match = new RegExp(`${origin}/auth/${path}\\?t=[\\w.%-]+`).exec(text);
    if (!match) throw new Error(`no ${path} link mailed to the address`);
    return match[0];
  }

  for (const javaScript of [false, true]) {
    const how = javaScript ? 'with JavaScript, by keyboard' : 'without JavaScript';
    /** Follows a link or presses a button: a click without scripts, the keyboard with them. */
    const activate = async (locator: ReturnType<Page['locator']>) => {
      if (javaScript) {
        await locator.focus();
        await locator.press('Enter');
      } else {
        await locator.click();
      }
    };

    /** axe on each screen, in the pass with scripts (the markup is the same: these screens load none). */
    const audit = async (t: Test, page: Page, name: string) => {
      if (javaScript) t.same(await axeViolations(page), [], name);
    };

    t.test(`sign up, confirm the address, sign in; forgot password, reset, sign in (${how})`, async (t) => {
      const page = await (await context(javaScript)).newPage();
      page.setDefaultTimeout(30_000);
      const email = `new.${javaScript ? 'js' : 'nojs'}@customer.example`;
      const password = 'my own secret 77';
      const sent = smtp.messages.length;
      await page.goto(`${origin}/auth/login?continue=%2F`);
      await activate(page.getByRole('link', { name: 'Create an account' }));
      await page.waitForURL(`${origin}/auth/signup`);
      await audit(t, page, 'sign-up');

      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Name').fill('New Person');
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Password again').fill('not the same one 1');
      await activate(page.getByRole('button', { name: 'Create account' }));
      await page.getByRole('alert').waitFor();
      t.match(await page.getByRole('alert').textContent(), 'Password again: Type the same password again.');
      await audit(t, page, 'sign-up with an error');

      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Password again').fill(password);
      if (javaScript) await page.getByLabel('Password again').press('Enter');
      else await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL(`${origin}/auth/signup/sent`);
      t.equal(await page.locator('h1').textContent(), 'Check your e-mail');
      await audit(t, page, 'sign-up sent');

      await page.goto(await mailedLink(email, 'verify', sent + 1));
      t.equal(await page.locator('h1').textContent(), 'Your e-mail address is confirmed');
      await audit(t, page, 'address confirmed');
      await activate(page.getByRole('link', { name: 'Sign in' }));
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(password);
      await activate(page.getByRole('button', { name: 'Sign in' }));
      await page.waitForURL(`${origin}/`);
      t.pass('signed in with the new account, back on the site');

      // Forgot password: from a new browser, as someone who cannot sign in.
      const other = await (await context(javaScript)).newPage();
      await other.goto(`${origin}/auth/login?continue=%2F`);
      await activate(other.getByRole('link', { name: 'Forgot password?' }));
      await other.waitForURL(`${origin}/auth/forgot`);
      await audit(t, other, 'forgot password');
      await other.getByLabel('E-mail').fill(email);
      await activate(other.getByRole('button', { name: 'E-mail me a link' }));
      await other.waitForURL(`${origin}/auth/forgot/sent`);
      await audit(t, other, 'forgot password sent');

      const link = await mailedLink(email, 'reset', sent + 2);
      await other.goto(link);
      t.equal(await other.locator('h1').textContent(), 'Choose a new password');
      await audit(t, other, 'new password');
      const next = 'a fresh password 9';
      await other.getByLabel('Password', { exact: true }).fill(next);
      await other.getByLabel('Password again').fill(next);
      await activate(other.getByRole('button', { name: 'Save password' }));
      await other.waitForURL(`${origin}/auth/reset/done`);
      await audit(t, other, 'password changed');

      await other.goto(link);
      t.equal(await other.locator('h1').textContent(), 'This link was already used');
      await audit(t, other, 'used link');

      await other.goto(`${origin}/auth/login?continue=%2F`);
      await other.getByLabel('E-mail').fill(email);
      await other.getByLabel('Password').fill(password);
      await activate(other.getByRole('button', { name: 'Sign in' }));
      await other.getByRole('alert').waitFor();
      t.equal(await other.getByRole('alert').textContent(), 'E-mail or password is incorrect.', 'the old password is refused');
      await other.getByLabel('Password').fill(next);
      await activate(other.getByRole('button', { name: 'Sign in' }));
      await other.waitForURL(`${origin}/`);
      t.pass('the new password signs in');
    });
  }
});
