import t from 'tap';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, openPage, serve } from './browser.ts';
import { islandsSettled } from './islands.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';
import { sealedSession } from '../helpers/session-cookie.ts';
import { PAGE_TYPES } from '../fixtures/page-types.ts';
import type { SessionUser } from '../../server/identity/types.ts';
import { endAccountSessions } from '../../server/identity/revocation.ts';

const SESSION_SECRET = 'session-secret-for-browser-tests-0123456789';

const ROLES: Record<string, SessionUser> = {
  customer: { sub: 'c-1', email: 'casey@customer.example', emailVerified: true, name: 'Casey Customer', canEdit: false, partner: false },
  'author and staff': { sub: 's-1', email: 'sam@fernhollow.example', emailVerified: true, name: 'Sam Staff', canEdit: true, partner: false },
  partner: { sub: 'p-1', email: 'pat@partner.example', emailVerified: true, name: 'Pat Partner', canEdit: false, partner: true },
};

const sealed = (user: SessionUser) => sealedSession(user, SESSION_SECRET);

/** `page` signed in as the person of `cookie` (the cookie the callback would have set, and no other), at `path`. */
async function signedInAt(page: Page, base: string, path: string, cookie: string, scripts: 'on' | 'off' | 'blocked') {
  await page.context().clearCookies();
  await page.context().addCookies([{ name: 'sp_session', value: encodeURIComponent(cookie), url: base, httpOnly: true, sameSite: 'Lax' }]);
  await page.goto(base + path);
  if (scripts === 'on') await islandsSettled(page);
  return page;
}

/** A browser context already signed in as `user`, at `path`. */
async function signedInPage(browser: Browser, base: string, path: string, cookie: string, scripts: 'on' | 'off' | 'blocked') {
  return signedInAt(await openPage(browser, `${base}/healthz`, { scripts, viewport: 'desktop' }), base, path, cookie, scripts);
}

t.test('signed-in chrome in a real browser: axe-clean, the account menu and log out without JavaScript', async (t) => {
  const { base, browser, app } = await serve(t, { contentDir: SAMPLE_CONTENT, env: { SESSION_SECRET } });

  // One page per script mode, taken from person to person and page to page: each step sets the one
  // session cookie it needs and loads its page, and a new page costs a renderer's start.
  const pages = { on: await openPage(browser, `${base}/healthz`, { scripts: 'on', viewport: 'desktop' }),
    blocked: await openPage(browser, `${base}/healthz`, { scripts: 'blocked', viewport: 'desktop' }) };
  t.teardown(() => Promise.all(Object.values(pages).map((page) => page.context().close())));

  // Issue 27 item 8: a session ended on the server while the page is open is told on the page (the
  // heartbeat, asked at once when the window gets focus), with sign-in back to the same page.
  const watcher: SessionUser = { ...(ROLES.customer as SessionUser), sub: 'w-1', name: 'Wren Watcher' };
  const watched = await signedInAt(pages.on, base, PAGE_TYPES.topic, await sealed(watcher), 'on');
  const alert = watched.locator('.session-watch[role="alert"]');
  t.equal(await alert.textContent(), '', 'nothing to say while the session lasts');
  await endAccountSessions(app.db, watcher.sub);
  await watched.evaluate(() => window.dispatchEvent(new Event('focus')));
  await alert.getByText('Your session has ended.').waitFor();
  const again = alert.getByRole('link', { name: 'Sign in again' });
  t.equal(await again.getAttribute('href'), `/auth/login?continue=${encodeURIComponent(PAGE_TYPES.topic)}`, 'sign-in continues to this page');
  await again.focus();
  t.ok(await again.evaluate((a) => a === document.activeElement), 'the link takes keyboard focus');
  t.same(await axeViolations(watched), [], 'the alert: no WCAG A/AA violations');

  for (const [role, user] of Object.entries(ROLES)) {
    const cookie = await sealed(user);
    for (const [name, path] of [['topic', PAGE_TYPES.topic], ['KB article', PAGE_TYPES['KB article']], ['contact', PAGE_TYPES.contact]] as const) {
      for (const scripts of ['on', 'blocked'] as const) {
        const page = await signedInAt(pages[scripts], base, path, cookie, scripts);
        // The trigger is a <summary> without scripts, a button once the header island has hydrated.
        const trigger = page.locator('.account-menu > :is(summary, button)');
        t.equal(await trigger.filter({ hasText: `Account menu for ${user.name}` }).count(), 1, `${role}, ${name}: signed in`);
        await trigger.click();
        t.ok(await page.locator('.account-menu button:has-text("Log out")').isVisible(), `${role}, ${name}: the menu opens (scripts ${scripts})`);
        t.same(await axeViolations(page), [], `${role}, ${name}, menu open, scripts ${scripts}: no WCAG A/AA violations`);
      }
    }
    const kb = await signedInAt(pages.on, base, PAGE_TYPES['KB article'], cookie, 'on');
    t.equal(await kb.locator('.staff-edit-hint a').count() > 0, role === 'author and staff', `${role}: the staff hint only for staff`);
    t.equal(await kb.locator('.edit-links a').count() > 0, role === 'author and staff', `${role}: editor shortcuts only for authors`);
  }

  // Log out with JavaScript off: the menu is a <details>, the button posts the form.
  const page = await signedInPage(browser, base, PAGE_TYPES.topic, await sealed(ROLES.customer as SessionUser), 'off');
  await page.locator('.account-menu > summary').click();
  await page.locator('.account-menu button:has-text("Log out")').click();
  await page.waitForLoadState();
  t.same((await page.context().cookies()).filter((c) => c.name === 'sp_session'), [], 'the session cookie is gone');
  await page.goto(base + PAGE_TYPES.topic);
  t.equal(await page.locator('.header-actions a:has-text("Sign in")').count(), 1, 'anonymous again');
  await page.context().close();
});
