/**
 * The embedded provider's screens in a browser: sign-in (and its error state), consent and sign-out
 * have no WCAG 2.2 A/AA violations, and a sign-in works with JavaScript off.
 */
import t from 'tap';
import { createServer, type AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { findChromiumOrPlaywright, CHROMIUM_ARGS } from '../../scripts/find-chromium.mjs';
import { build, SAMPLE_CONTENT } from '../helpers/build.ts';
import { axeViolations } from './browser.ts';

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
  const app = await build(t, {
    contentDir: SAMPLE_CONTENT,
    env: {
      PUBLIC_URL: origin,
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
});
