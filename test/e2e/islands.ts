/**
 * Browser helpers for islands (islands/main.ts): wait until every island on a page has hydrated or
 * failed, and collect what the page reported as errors (a hydration mismatch is one).
 */
import type { Browser, Page } from 'playwright-core';
import { VIEWPORTS } from './browser.ts';

/** Console errors and uncaught exceptions of a page, from now on. */
export function watchErrors(page: Page): () => string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    // A missing favicon or image is the network's concern, not an island's.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return () => [...errors];
}

/** Every island still waiting for its moment (islands/main.ts) hydrated now, as a journey of the enhanced page wants. */
export async function hydrateAll(page: Page): Promise<void> {
  await page.waitForFunction(() => typeof (window as Window & { signpostHydrateAll?: unknown }).signpostHydrateAll === 'function');
  await page.evaluate(() => (window as Window & { signpostHydrateAll?: () => Promise<void> }).signpostHydrateAll?.());
}

/**
 * Resolves when no island is still loading: each is hydrated ('true') or has failed ('failed'). Islands
 * that wait for their moment (islands/main.ts: visible, idle, interaction) are hydrated now, for journeys
 * that work with the enhanced page; islandsWaiting checks the page before that.
 */
export async function islandsSettled(page: Page): Promise<void> {
  await hydrateAll(page);
  await page.waitForFunction(() => [...document.querySelectorAll<HTMLElement>('[data-island]')]
    .every((el) => el.dataset.islandReady === 'true' || el.dataset.islandReady === 'failed'));
}

/** The islands on the page that failed, by name. */
export async function failedIslands(page: Page): Promise<string[]> {
  return page.$$eval('[data-island-ready="failed"]', (els) => els.map((el) => (el as HTMLElement).dataset.island ?? ''));
}

/**
 * A page with JavaScript on, its islands settled, and its errors watched from before the first byte.
 * `setup` runs on the new context before the page opens (routes, storage).
 */
export async function openEnhanced(browser: Browser, url: string, options: {
  viewport: keyof typeof VIEWPORTS;
  reducedMotion?: 'reduce' | 'no-preference';
  setup?: (page: Page) => Promise<unknown>;
}): Promise<{ page: Page; errors: () => string[] }> {
  const context = await browser.newContext({ viewport: VIEWPORTS[options.viewport], reducedMotion: options.reducedMotion ?? 'no-preference' });
  const page = await context.newPage();
  const errors = watchErrors(page);
  if (options.setup) await options.setup(page);
  const response = await page.goto(url);
  if (!response) throw new Error(`no response for ${url}`);
  await islandsSettled(page);
  return { page, errors };
}
