/**
 * Tabs in a body (`::::tabs`, views/islands/body-tabs.tsx): plain sections headed by their labels without
 * JavaScript; WAI-ARIA tabs with it (keyboard and mouse), a #fragment inside a tab opens it, the choice
 * goes to the address, groups with the same labels switch together and the choice is remembered. Axe
 * in both forms.
 */
import t from 'tap';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { axeViolations, reusablePages, serve } from './browser.ts';
import { islandsSettled, watchErrors } from './islands.ts';
import { tempContent } from '../helpers/build.ts';

const PAGE = '/acme-cloud/docs/first-steps';
const BODY = `---
id: acme-cloud-first-steps
title: First steps
slug: first-steps
context: acme-cloud
lastPublished: 2026-03-04T23:30:00Z
metaDescription: Start using Acme.
---
Welcome to Acme.

## Install the widget

::::tabs
:::tab[macOS]
Use Homebrew.
:::
:::tab[Linux]
Use the package.

#### Package signing {#signing}

Check the signature.
:::
::::

## Configure the widget

::::tabs
:::tab[Linux]
Edit \`/etc/widget.conf\`.
:::
:::tab[macOS]
Edit the preferences.
:::
::::

::::tabs
:::tab[Cloud]
Nothing to do.
:::
:::tab[Self-hosted]
Restart the service.
:::
::::
`;

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
const selectedLabels = (page: Page) => page.$$eval('[role="tab"][aria-selected="true"]', (tabs) => tabs.map((tab) => tab.textContent ?? ''));

t.test('tabs in a body', async (t) => {
  const dir = await tempContent(t);
  await writeFile(join(dir, 'topics/acme-cloud/first-steps.md'), BODY);
  const { base, browser } = await serve(t, { contentDir: dir });
  // One page per script mode, from step to step: a new page costs a renderer's start. Each navigation
  // starts with the storage cleared, so no remembered choice carries over; the page given a remembered
  // choice by an init script is its own.
  const open = reusablePages(t, browser);
  /** As islands.ts openEnhanced: errors watched from before the first byte, every island settled. */
  const openEnhanced = async (url: string, options: { viewport: 'desktop'; key?: string; setup?: (page: Page) => Promise<unknown> }) => {
    let errors: () => string[] = () => [];
    const page = await open(t, url, { scripts: 'on', viewport: options.viewport, key: options.key, setup: async (p) => {
      await p.emulateMedia({ reducedMotion: 'no-preference' });
      errors = watchErrors(p);
      await options.setup?.(p);
    } });
    await islandsSettled(page);
    return { page, errors: () => errors() };
  };

  // Without JavaScript: sections, each headed by its label, everything shown.
  const plain = await open(t, `${base}${PAGE}`, { scripts: 'off', viewport: 'desktop' });
  t.equal(await plain.locator('[role="tab"]').count(), 0, 'no tabs without scripts');
  t.same(await plain.locator('.tabs h3.tab-label').allTextContents(), ['macOS', 'Linux', 'Linux', 'macOS', 'Cloud', 'Self-hosted'], 'the labels are headings');
  t.ok(await plain.getByText('Use the package.').isVisible(), 'every panel shows');
  t.ok(await plain.getByText('Restart the service.').isVisible());
  // axe is itself a script: audited with the page's own scripts blocked.
  const blocked = await open(t, `${base}${PAGE}`, { scripts: 'blocked', viewport: 'desktop' });
  t.equal(await blocked.locator('[role="tab"]').count(), 0);
  t.same(await axeViolations(blocked), [], 'no WCAG A/AA violations without scripts');

  const { page, errors } = await openEnhanced(`${base}${PAGE}`, { viewport: 'desktop' });
  t.equal(await page.locator('[role="tablist"]').count(), 3, 'three tab lists once hydrated');
  t.same(await selectedLabels(page), ['macOS', 'Linux', 'Cloud'], 'each group starts on its first tab');
  t.ok(await page.getByText('Use Homebrew.').isVisible(), 'the first panel shows');
  t.ok(await page.getByText('Use the package.').isHidden(), 'the others are hidden');
  t.same(await axeViolations(page), [], 'tabs: no WCAG A/AA violations');

  // Keyboard: roving tabindex, arrows wrap, Home/End, Tab goes to the panel.
  await page.locator('#tabs-tab-macos').focus();
  await page.keyboard.press('ArrowRight');
  t.equal(await focusedId(page), 'tabs-tab-linux', 'Right moves to Linux');
  t.equal(await page.locator('#tabs-tab-linux').getAttribute('aria-selected'), 'true', 'and selects it');
  t.equal(await page.locator('#tabs-tab-macos').getAttribute('tabindex'), '-1', 'roving tabindex');
  t.ok(await page.getByText('Use the package.').isVisible(), 'its panel shows');
  t.match(page.url(), /#linux$/, 'the address holds the choice');
  t.same(await selectedLabels(page), ['Linux', 'Linux', 'Cloud'], 'the group with the same labels follows; the other does not');
  const keys: [string, string, string][] = [['ArrowRight', 'tabs-tab-macos', 'Right wraps around'], ['ArrowLeft', 'tabs-tab-linux', 'Left wraps around'],
    ['Home', 'tabs-tab-macos', 'Home: the first'], ['End', 'tabs-tab-linux', 'End: the last'], ['Tab', 'tabs-panel-linux', 'Tab goes to the panel']];
  for (const [key, focused, what] of keys) {
    await page.keyboard.press(key);
    t.equal(await focusedId(page), focused, what);
  }
  t.same(await axeViolations(page), [], 'Linux tab: no WCAG A/AA violations');

  // Mouse.
  await page.locator('#tabs-tab-self-hosted').click();
  t.ok(await page.getByText('Restart the service.').isVisible(), 'a click shows its panel');
  t.ok(await page.getByText('Nothing to do.').isHidden());
  t.same(errors(), [], 'no error, no hydration mismatch');

  // A link to a section inside a tab opens that tab.
  const deep = await openEnhanced(`${base}${PAGE}#signing`, { viewport: 'desktop' });
  t.same(await selectedLabels(deep.page), ['Linux', 'Linux', 'Cloud'], '#signing opens the Linux tab (and its twin group)');
  t.ok(await deep.page.locator('#signing').isVisible(), 'the section shows');
  await deep.page.evaluate(() => { window.location.hash = 'macos'; });
  await deep.page.waitForFunction(() => document.querySelector('#tabs-tab-macos')?.getAttribute('aria-selected') === 'true');
  t.pass('a hash change to another tab opens it');
  t.same(deep.errors(), []);

  // The choice is remembered per label set.
  const remembered = await openEnhanced(`${base}${PAGE}`, {
    viewport: 'desktop', key: 'remembered',
    setup: (p) => p.addInitScript(() => window.localStorage.setItem('signpost.tabs:Cloud\u0000Self-hosted', 'Self-hosted')),
  });
  t.same(await selectedLabels(remembered.page), ['macOS', 'Linux', 'Self-hosted'], 'a remembered label opens in every group with that label set');
});
