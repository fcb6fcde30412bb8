import t from 'tap';
import type { Browser, Page } from 'playwright-core';
import { servePublic, axeViolations, VIEWPORTS } from './browser.ts';
import { SAMPLE_CONTENT } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';

/**
 * Every support form of the sample help centre, with JavaScript off and on: send it empty and see the
 * errors, fill it in, send it, see the reference (and, signed in, the way to it in 'View requests');
 * axe (WCAG 2.2 A/AA) in the empty, error and confirmation states with scripts on.
 */
const FORMS: { path: string; signedIn?: boolean; values?: Record<string, string> }[] = [
  { path: '/ja/contact' },
  { path: '/hot-contact', signedIn: true },
  { path: '/partnercontact' },
  { path: '/statuspage-contact' },
  { path: '/file-download', values: { subject: 'SR-10234' } },
  { path: '/report-problem?page=%2Fcodebarn%2Fkb%2Fdiff-too-large-to-display' },
];

/** What a visitor types into each kind of field, by the field's name. */
const TYPED: Record<string, string> = {
  email: 'vera@customer.example', name: 'Vera Visitor', customerName: 'Initech', subject: 'Pushes to main are rejected',
  fileName: 'logs.zip', startedAt: '2026-05-01 09:30 UTC',
  description: 'Every push to the main branch is rejected with a hook error.', details: 'The screenshot shows the old settings page.',
};

/** Fills the form's required fields as a visitor would: text typed, the first real option chosen, boxes ticked. */
async function fillIn(page: Page, values: Record<string, string>) {
  const fields = await page.locator('form[data-support-form] [name]').evaluateAll((elements) => elements.map((e) => ({
    name: e.getAttribute('name') ?? '', tag: e.tagName.toLowerCase(), type: e.getAttribute('type') ?? '',
    required: e.hasAttribute('required') || e.getAttribute('aria-required') === 'true', readOnly: e.hasAttribute('readonly'),
  })));
  for (const field of fields) {
    if (!field.required || field.readOnly || field.type === 'hidden' || field.type === 'file') continue;
    const control = page.locator(`form[data-support-form] [name="${field.name}"]`).first();
    if (field.tag === 'select') {
      const first = await control.locator('option').evaluateAll((options) => options.map((o) => o.getAttribute('value')).find((v) => v));
      await control.selectOption(first as string);
    } else if (field.type === 'checkbox') {
      await control.check();
    } else {
      await control.fill(values[field.name] ?? TYPED[field.name] ?? 'Something is wrong here');
    }
  }
}

/** The page of its script mode, with the cookies of a first visit: none, or only the session when one is given. */
async function visitorPage(pages: Map<boolean, Page>, browser: Browser, base: string, scripts: boolean, session?: string): Promise<Page> {
  let page = pages.get(scripts);
  if (!page) {
    page = await (await browser.newContext({ javaScriptEnabled: scripts, viewport: VIEWPORTS.desktop })).newPage();
    pages.set(scripts, page);
  }
  await page.context().clearCookies();
  if (session) await page.context().addCookies([{ name: 'sp_session', value: session, url: base }]);
  return page;
}

t.test('each support form: errors, then a reference, with JavaScript off and on', async (t) => {
  const { base, browser, app } = await servePublic(t, {
    contentDir: SAMPLE_CONTENT, env: { SESSION_SECRET, RATE_LIMIT_MAX: '1000', REQUEST_RATE_LIMIT: '1000' },
  });
  const session = sealed(app, ADA).slice('sp_session='.length);
  // One page per script mode, taken from form to form with the cookies of a first visit each time (the
  // forms keep nothing in storage): a new page costs a renderer's start.
  const pages = new Map<boolean, Page>();
  t.teardown(() => Promise.all([...pages.values()].map((page) => page.context().close())));

  for (const form of FORMS) {
    for (const scripts of [false, true]) {
      t.test(`${form.path}, JavaScript ${scripts ? 'on' : 'off'}${form.signedIn ? ', signed in' : ''}`, async (t) => {
        const page = await visitorPage(pages, browser, base, scripts, form.signedIn ? session : undefined);
        await page.goto(`${base}${form.path}`);
        const send = page.locator('form[data-support-form] button[type="submit"]');
        if (scripts) t.same(await axeViolations(page), [], 'empty form: no WCAG A/AA violations');

        await send.click();
        await page.waitForLoadState();
        const summary = page.getByRole('alert');
        t.ok(await summary.count(), 'sent empty: an error summary');
        t.ok(await page.locator('form[data-support-form] [aria-invalid="true"]').count(), 'and the fields in error are marked');
        if (scripts) t.same(await axeViolations(page), [], 'errors: no WCAG A/AA violations');

        await fillIn(page, form.values ?? {});
        await send.click();
        await page.waitForURL(/\/request-sent\/[A-Z]+-\d+/);
        const reference = /[A-Z]+-\d+/.exec(new URL(page.url()).pathname)?.[0] as string;
        t.match(await page.locator('main').textContent(), reference, `the reference is shown: ${reference}`);
        const stored = await app.supportRequests.get(reference);
        t.ok(stored, 'and stored');
        if (form.signedIn) {
          t.equal(stored?.accountId, ADA.sub, 'with the account');
          t.equal(await page.locator(`main a[href="/requests/${reference}"]`).count(), 1, 'the confirmation leads to it under View requests');
        }
        if (scripts) t.same(await axeViolations(page), [], 'confirmation: no WCAG A/AA violations');
      });
    }
  }
});
