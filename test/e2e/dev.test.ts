import t from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { findChromiumOrPlaywright, CHROMIUM_ARGS } from '../../scripts/find-chromium.mjs';
import { tempContent } from '../helpers/build.ts';
import { buildDev } from '../dev/helpers.ts';
import { axeViolations } from './browser.ts';

const TOPIC = '/acme-cloud/docs/first-steps';
const FILE = 'topics/acme-cloud/first-steps.md';

t.test('npm run dev in a browser: a save shows without a reload, a broken save shows the overlay, a fix shows the page', async (t) => {
  const dir = await tempContent(t);
  const app = await buildDev(t, dir, { watch: true });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const executablePath = await findChromiumOrPlaywright();
  if (!executablePath) throw new Error('No Chromium found: run `node scripts/ensure-browser.mjs` for how to get one.');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  t.teardown(() => browser.close());
  const page = await (await browser.newContext()).newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('response', (response) => {
    if (response.url().includes('/__dev/') && response.status() >= 400) errors.push(`${response.url()}: ${response.status()}`);
  });
  await page.goto(base + TOPIC);
  await page.locator('html[data-live-preview="connected"]').waitFor({ state: 'attached', timeout: 10_000 });
  const text = await readFile(join(dir, FILE), 'utf8');
  const main = page.locator('.rich-text').first();

  await writeFile(join(dir, FILE), text.replace('Welcome to Acme.', 'Seen without a reload.'));
  await main.getByText('Seen without a reload.').waitFor({ timeout: 15_000 });
  t.pass('the saved change is on the page');

  await writeFile(join(dir, FILE), text.replace('title: First steps', 'title: [First steps'));
  const overlay = page.locator('#signpost-dev-overlay');
  // A write may be seen half done first (an empty file): wait for the overlay of the whole save.
  const heading = new RegExp(`${FILE}:4:\\d+: error: yaml:`);
  await page.locator('#signpost-dev-overlay', { hasText: heading }).waitFor({ state: 'visible', timeout: 15_000 });
  t.match(await overlay.innerText(), heading, 'the overlay lists the problem as file:line:col: error: field: reason');
  const box = await overlay.boundingBox();
  const viewport = page.viewportSize();
  t.ok(box && viewport && box.width >= viewport.width && box.height >= viewport.height, 'the overlay covers the page');
  t.equal(await page.locator('#signpost-dev-overlay h2').count(), 1);
  t.match(await overlay.innerText(), / 4 \| slug: first-steps\n {3}\| \^/, 'the source line and its caret');
  t.same(await axeViolations(page), [], 'the overlay passes axe');

  await writeFile(join(dir, FILE), text);
  await overlay.waitFor({ state: 'detached', timeout: 15_000 });
  await main.getByText('Welcome to Acme.').waitFor({ timeout: 15_000 });
  t.pass('fixed: the overlay is gone and the page is back');
  t.same(errors, [], 'no script errors, and the live-preview files were all served');
});
