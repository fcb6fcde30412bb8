/**
 * Following requests in a real browser, with JavaScript off and on: a signed-in customer's list and a
 * request's page, the legacy `#!/` link, named contacts, the staff list, and axe (WCAG 2.2 A/AA) on
 * every state: the list, the empty list, the sign-in prompt, a request, named contacts (with errors), the
 * staff list and the 404. A conversation: the customer and staff reply (a file too), by keyboard, with
 * JavaScript off and on; a refused reply; the private link of a request sent signed out.
 */
import t, { type Test } from 'tap';
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { audit, servePublic, VIEWPORTS } from './browser.ts';
import { hydrateAll } from './islands.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';
import { STAFF, sendRequest } from '../support/requests-helpers.ts';
import type { SessionUser } from '../../server/identity/types.ts';

/**
 * One page per script mode, taken from person to person with the cookies cleared and the session cookie
 * set (none: signed out) before each: what these pages show depends on the session and the address, and
 * a new page costs a renderer's start.
 */
function reusablePages(t: Test, browser: Browser, base: string) {
  const pages = new Map<boolean, Page>();
  t.teardown(() => Promise.all([...pages.values()].map((page) => page.context().close())));
  return async (cookie: string | undefined, javaScript: boolean): Promise<Page> => {
    let page = pages.get(javaScript);
    if (!page) {
      page = await (await browser.newContext({ javaScriptEnabled: javaScript, viewport: VIEWPORTS.desktop })).newPage();
      pages.set(javaScript, page);
    }
    await page.context().clearCookies();
    if (cookie) await page.context().addCookies([{ name: 'sp_session', value: cookie.slice('sp_session='.length), url: base, httpOnly: true, sameSite: 'Lax' }]);
    return page;
  };
}

t.test('following requests in a browser', async (t) => {
  const { base, browser, app } = await servePublic(t, { contentDir: SAMPLE_CONTENT, env: { SESSION_SECRET, STAFF_EMAIL_DOMAIN: 'fernhollow.example' } });
  const older = await sendRequest(app, ADA, { subject: 'Board columns vanish', product: 'tracklight-cloud' });
  const newer = await sendRequest(app, ADA, {
    subject: 'Import fails', fields: { description: 'The import stops at 40%.', severity: 'high' },
    context: { pageUrl: '/tracklight-cloud/docs/get-started', productName: 'Tracklight' },
    attachments: [{ filename: 'import.log', contentType: 'text/plain', data: Buffer.from('stopped\n') }],
  });
  const ada = sealed(app, ADA);
  const nobody = sealed(app, { ...ADA, sub: 'acct-empty', email: 'empty@customer.example', name: 'Emma Empty' } as SessionUser);
  const staff = sealed(app, STAFF);
  const pageAs = reusablePages(t, browser, base);

  for (const javaScript of [false, true]) {
    t.test(`when JavaScript is ${javaScript ? 'available' : 'unavailable'}`, async (t) => {
      const page = await pageAs(ada, javaScript);
      await page.goto(`${base}/requests`);
      t.equal(await page.locator('h1').textContent(), 'My support requests', 'the title from the content entry');
      const rows = page.locator('.requests-table tbody tr');
      t.equal(await rows.count(), 2);
      t.match(await rows.first().textContent(), 'Import fails', 'newest first');
      if (javaScript) await audit(t, page, 'the list');
      await page.getByRole('link', { name: newer }).click();
      await page.waitForLoadState();
      t.equal(new URL(page.url()).pathname, `/requests/${newer}`);
      t.match(await page.locator('h1').textContent(), 'Import fails');
      t.equal(await page.getByRole('link', { name: 'Download import.log' }).count(), 1);
      if (javaScript) await audit(t, page, 'a request');

      // Named contacts: an error first (kept values), then added.
      await page.goto(`${base}/named-contact`);
      await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
      await page.getByLabel('E-mail', { exact: true }).fill('not an address');
      await page.getByRole('button', { name: 'Add contact' }).click();
      await page.waitForLoadState();
      t.equal(await page.getByRole('alert').count(), 1, 'the error summary');
      t.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'Grace Hopper', 'what was typed is kept');
      if (javaScript) await audit(t, page, 'named contacts with errors');
      await page.getByLabel('E-mail', { exact: true }).fill(javaScript ? 'grace@customer.example' : 'grace.nojs@customer.example');
      await page.getByRole('button', { name: 'Add contact' }).click();
      await page.waitForLoadState();
      t.match(await page.getByRole('status').first().textContent(), 'The contact was added.');
      t.equal(await page.getByRole('button', { name: 'Remove Grace Hopper' }).count(), 1);
      if (javaScript) await audit(t, page, 'named contacts');
      await page.getByRole('button', { name: 'Remove Grace Hopper' }).click();
      await page.waitForLoadState();
      t.match(await page.getByRole('status').first().textContent(), 'The contact was removed.');
    });
  }

  t.test('the legacy #! form of /requests links becomes the path', async (t) => {
    const page = await pageAs(ada, true);
    const blocked: string[] = [];
    const watch = (m: ConsoleMessage) => { if (/Content Security Policy|Refused to execute/i.test(m.text())) blocked.push(m.text()); };
    page.on('console', watch);
    for (const from of [`/requests#!/${older}`, `/requests/#!/${older}`]) {
      await page.goto(base + from);
      await page.waitForURL(`**/requests/${older}`);
      t.equal(new URL(page.url()).pathname, `/requests/${older}`, `${from} opens the request`);
      t.match(await page.locator('h1').textContent(), 'Board columns vanish');
    }
    await page.goto(`${base}/requests#!/`);
    await page.waitForURL(`${base}/requests`);
    t.equal(new URL(page.url()).pathname, '/requests', '#!/ alone is the list');
    await page.goto(`${base}/requests#!/..%2F..%2Fauth`);
    t.equal(new URL(page.url()).pathname, '/requests', 'nothing but a reference-like path is followed');
    t.same(blocked, [], 'the inline script runs under the page\'s CSP');
    page.off('console', watch);
  });

  t.test('signed out, sign in from the page and come back to it (JavaScript off)', async (t) => {
    // Sent signed out from the demo customer's address: theirs once they sign in with it (verified by the provider).
    const sent = await sendRequest(app, { email: 'casey.customer@example.com' }, { subject: 'Asked before signing in' });
    const page = await pageAs(undefined, false);
    await page.goto(`${base}/requests`);
    await page.locator('main').getByRole('link', { name: 'Sign in' }).click();
    await page.waitForLoadState();
    await page.getByLabel('E-mail').fill('casey.customer@example.com');
    await page.getByLabel('Password').fill('demo-customer-2026');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState();
    t.equal(new URL(page.url()).pathname, '/requests', 'back on View requests');
    t.equal(await page.getByRole('link', { name: sent }).count(), 1, 'the request sent signed out is listed');
  });

  t.test('axe on the other states: empty, signed out, staff list, 404', async (t) => {
    const empty = await pageAs(nobody, true);
    await empty.goto(`${base}/requests`);
    t.equal(await empty.getByRole('link', { name: 'Contact support', exact: true }).count(), 1);
    await audit(t, empty, 'the empty list');

    const anonymous = await pageAs(undefined, true);
    await anonymous.goto(`${base}/requests`);
    t.match(await anonymous.getByRole('link', { name: 'Sign in' }).last().getAttribute('href'), 'continue=%2Frequests');
    await audit(t, anonymous, 'the sign-in prompt');
    await anonymous.goto(`${base}/requests/${older}`);
    await audit(t, anonymous, 'a request signed out (404)');
    await anonymous.goto(`${base}/named-contact`);
    await audit(t, anonymous, 'named contacts signed out');

    for (const javaScript of [true, false]) {
      const page = await pageAs(staff, javaScript);
      await page.goto(`${base}/staff/requests`);
      t.equal(await page.locator('.requests-table tbody tr').count(), 3, 'every request');
      if (javaScript) await audit(t, page, 'the staff list');
      if (javaScript) {
        // With scripts a changed filter applies at once ('Filter' is only for no scripts).
        await hydrateAll(page);
        await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-island="auto-submit"]')?.dataset.islandReady === 'true');
        t.ok(await page.getByRole('button', { name: 'Filter' }).isHidden(), 'the Filter button is not shown');
        await Promise.all([page.waitForURL(/product=tracklight-cloud/), page.getByLabel('Product').selectOption('tracklight-cloud')]);
      } else {
        await page.getByLabel('Product').selectOption('tracklight-cloud');
        await page.getByRole('button', { name: 'Filter' }).click();
      }
      await page.waitForLoadState();
      t.equal(await page.locator('.requests-table tbody tr').count(), 1, `filtered by product (JavaScript ${javaScript ? 'on' : 'off'})`);
      t.match(new URL(page.url()).search, 'product=tracklight-cloud');
      if (javaScript) {
        // By keyboard: an arrow key on the focused select changes it, and the filter applies.
        await hydrateAll(page);
        await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-island="auto-submit"]')?.dataset.islandReady === 'true');
        await page.getByLabel('Status').focus();
        await Promise.all([page.waitForURL(/status=[a-z]/), page.keyboard.press('ArrowDown')]);
        t.match(new URL(page.url()).search, 'product=tracklight-cloud', 'the other filters stay');
      }
      await page.goto(`${base}/requests/${newer}`);
      t.equal(await page.getByRole('heading', { name: 'Delivery to the helpdesk' }).count(), 1);
      if (javaScript) await audit(t, page, 'a request as staff');
      await page.goto(`${base}/requests/SR-1`);
      if (javaScript) await audit(t, page, 'an unknown request (404)');
    }
  });
  t.test('a conversation: the customer and staff reply by keyboard, JavaScript off and on', async (t) => {
    for (const javaScript of [false, true]) {
      const ref = await sendRequest(app, ADA, { subject: `Sync stalls (${javaScript ? 'scripts' : 'no scripts'})` });
      await app.supportRequests.setStatus(ref, 'waiting-for-customer', 'Which version?', 'helpdesk');
      const page = await pageAs(ada, javaScript);
      await page.goto(`${base}/requests/${ref}`);
      t.match(await page.locator('.request-status').textContent(), 'Waiting for your reply');
      await page.getByLabel('Your reply').focus();
      await page.keyboard.type('Version 3.2.\nIt stalls at 80%.');
      await page.locator('#reply-files').setInputFiles({ name: 'sync.log', mimeType: 'text/plain', buffer: Buffer.from('stalled at 80%\n') });
      await page.getByRole('button', { name: 'Send reply' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/done=reopened/);
      t.match(await page.getByRole('status').first().textContent(), 'Your reply was sent, and the request is open again.');
      t.match(await page.locator('.request-comment-requester .request-comment-body').textContent(), 'Version 3.2.\nIt stalls at 80%.');
      t.equal(await page.getByRole('link', { name: 'Download sync.log' }).count(), 1, 'the file is with the reply');
      t.match(await page.locator('.request-status').textContent(), 'Open');
      if (javaScript) await audit(t, page, 'a request with a reply');

      // Spaces only: refused, with the reason, and the text field marked.
      await page.getByLabel('Your reply').fill('   ');
      await page.getByRole('button', { name: 'Send reply' }).click();
      await page.waitForLoadState();
      t.match(await page.getByRole('alert').first().textContent(), 'Write your reply before sending it.');
      t.equal(await page.getByLabel('Your reply').getAttribute('aria-invalid'), 'true');
      if (javaScript) await audit(t, page, 'a refused reply');

      const staffPage = await pageAs(staff, javaScript);
      await staffPage.goto(`${base}/requests/${ref}`);
      await staffPage.getByLabel('Your reply').focus();
      await staffPage.keyboard.type('Fixed in 3.3: please update.');
      await staffPage.getByRole('button', { name: 'Send reply' }).focus();
      await staffPage.keyboard.press('Enter');
      await staffPage.waitForURL(/done=reply/);
      t.same(await staffPage.locator('.request-comment-meta strong').allTextContents(), ['Ada Lovelace (Requester)', 'Sam Staff (Staff)']);
      if (javaScript) await audit(t, staffPage, 'a conversation as staff');

      const back = await pageAs(ada, javaScript);
      await back.goto(`${base}/requests/${ref}`);
      t.match(await back.locator('.request-comment-staff .request-comment-body').textContent(), 'Fixed in 3.3', 'the customer reads the answer');
    }

    // A request sent signed out: its private link opens it and takes a reply.
    const sent = await sendRequest(app, { email: 'nobody-signed-in@example.com' }, { subject: 'Asked without an account' });
    const link = `${base}/requests/${sent}?key=${app.requestLinks.key(sent)}`;
    for (const javaScript of [false, true]) {
      const page = await pageAs(undefined, javaScript);
      await page.goto(link);
      t.match(await page.locator('h1').textContent(), 'Asked without an account');
      await page.getByLabel('Your reply').fill(`From the link (${javaScript ? 'scripts' : 'no scripts'})`);
      await page.getByRole('button', { name: 'Send reply' }).click();
      await page.waitForURL(/done=reply/);
      t.match(new URL(page.url()).search, 'key=', 'the key stays in the address');
      if (javaScript) await audit(t, page, 'a request through its private link');
    }
    t.equal((await app.supportRequests.comments(sent)).length, 2);
  });
});
