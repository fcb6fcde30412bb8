import tap, { type Test as TapTest } from 'tap';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { findChromiumOrPlaywright, CHROMIUM_ARGS } from '../../scripts/find-chromium.mjs';
import { build, SAMPLE_CONTENT, type BuildOptions } from '../helpers/build.ts';
import { PAGE_TYPES } from '../fixtures/page-types.ts';
import type { FastifyInstance } from 'fastify';
import { freePort } from '../../scripts/bench-http.ts';
import { failedIslands, islandsSettled } from './islands.ts';

type Test = { teardown: (fn: () => unknown) => void };

/** WCAG 2.0-2.2 A and AA rules; nothing is ignored. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

export const VIEWPORTS = { desktop: { width: 1280, height: 900 }, mobile: { width: 375, height: 740 } } as const;

/** The app listening on a loopback port, and a Chromium to drive against it. */
export async function serve(t: Test, options: BuildOptions = {}): Promise<{ base: string; browser: Browser; app: FastifyInstance }> {
  const app = await build(t, options);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, browser: await launch(t), app };
}

/**
 * The app served at exactly its PUBLIC_URL (a free loopback port chosen first), for journeys that leave
 * the page and come back: sign-in redirects go to the issuer and callback that PUBLIC_URL names.
 */
export async function servePublic(t: Test, options: BuildOptions = {}, chosenPort?: number): Promise<{ base: string; browser: Browser; app: FastifyInstance }> {
  // A journey whose other party must know the address first (a second issuer) chooses the port itself.
  const port = chosenPort ?? await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await build(t, { ...options, env: { ...options.env, PUBLIC_URL: base } });
  await app.listen({ port, host: '127.0.0.1' });
  return { base, browser: await launch(t), app };
}

async function launch(t: Test): Promise<Browser> {
  const executablePath = await findChromiumOrPlaywright();
  if (!executablePath) throw new Error('No Chromium found: run `node scripts/ensure-browser.mjs` for how to get one.');
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  t.teardown(() => browser.close());
  return browser;
}

/**
 * scripts 'off' disables JavaScript in the browser. axe itself is JavaScript, so pages are audited
 * in the no-script state with 'blocked': the browser runs scripts but none of the page's load.
 */
export async function openPage(browser: Browser, url: string, options: { scripts: 'on' | 'off' | 'blocked'; viewport: keyof typeof VIEWPORTS }): Promise<Page> {
  const page = await (await newContext(browser, options)).newPage();
  const response = await page.goto(url);
  if (!response) throw new Error(`no response for ${url}`);
  return page;
}

/** A page in a browser context of its own, with the session cookie when one is given (a signed-in person). */
export async function pageAs(browser: Browser, base: string, cookie: string | undefined, javaScript: boolean,
  viewport: keyof typeof VIEWPORTS = 'desktop'): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: javaScript, viewport: VIEWPORTS[viewport] });
  if (cookie) await context.addCookies([{ name: 'sp_session', value: cookie.slice('sp_session='.length), url: base, httpOnly: true, sameSite: 'Lax' }]);
  return context.newPage();
}

/**
 * One browser page per script mode and width (and `key`, for pages a journey keeps apart) for a whole
 * test, taken from step to step with page.goto: a new page costs a renderer's start, a navigation a
 * fraction of that. Each call starts the page as a new one would: the routes and listeners a step
 * gives its page go when that step's test ends; cookies, storage, window size and pointer are set back
 * before the navigation. What a page keeps otherwise (an installed clock, emulated media) needs a key.
 */
export function reusablePages(t: Test, browser: Browser) {
  const pages = new Map<string, Page>();
  t.teardown(async () => { for (const page of pages.values()) await page.context().close(); });
  return async (step: Test, url: string, options: {
    scripts: 'on' | 'off' | 'blocked'; viewport: keyof typeof VIEWPORTS; key?: string;
    /** Another window size for this step, from the first byte. */
    size?: { width: number; height: number };
    /** Runs on the page before it navigates (routes, listeners). */
    setup?: (page: Page) => Promise<unknown>;
  }): Promise<Page> => {
    const name = `${options.scripts} ${options.viewport} ${options.key ?? ''}`;
    let page = pages.get(name);
    if (!page) {
      page = await (await newContext(browser, options)).newPage();
      pages.set(name, page);
    }
    const used = page;
    step.teardown(async () => {
      await used.unrouteAll({ behavior: 'ignoreErrors' });
      for (const event of ['console', 'pageerror', 'request', 'requestfailed', 'response', 'dialog']) used.removeAllListeners(event);
    });
    const size = options.size ?? VIEWPORTS[options.viewport];
    const now = page.viewportSize();
    if (now?.width !== size.width || now.height !== size.height) await page.setViewportSize(size);
    // What a new context would hold: no cookie, no storage (a step's setup adds its own), and the
    // pointer out of the window, as on a page never pointed at: nothing hovered on the next document.
    await page.context().clearCookies();
    if (options.scripts !== 'off' && /^https?:/.test(page.url())) await page.evaluate(() => { sessionStorage.clear(); localStorage.clear(); });
    await page.mouse.move(-1, -1);
    // An address that differs from the current one only after '#' would scroll the same document, not load one.
    if (url.includes('#') && url.split('#')[0] === page.url().split('#')[0]) await page.goto('about:blank');
    if (options.setup) await options.setup(page);
    if (!(await page.goto(url))) throw new Error(`no response for ${url}`);
    return page;
  };
}

/** A page state passes axe and has one heading 1. */
export async function audit(t: TapTest, page: Page, what: string) {
  t.same(await axeViolations(page), [], `${what}: no WCAG A/AA violations`);
  t.equal(await page.locator('h1').count(), 1, `${what}: one heading 1`);
}

async function newContext(browser: Browser, options: { scripts: 'on' | 'off' | 'blocked'; viewport: keyof typeof VIEWPORTS }): Promise<BrowserContext> {
  const context = await browser.newContext({ javaScriptEnabled: options.scripts !== 'off', viewport: VIEWPORTS[options.viewport] });
  if (options.scripts === 'blocked') await context.route(/\/assets\/.*\.js$/, (route) => route.abort());
  return context;
}

/** axe-core's browser build, read once per test process. */
let axeSource: string | undefined;

/**
 * axe violations as short lines ('rule: target (help)'), so a failure says what and where. axe-core runs
 * in the page itself, loaded once per document (a page's own scripts and CSP do not touch what the
 * browser is told to evaluate); other sites' frames (embedded players) are not ours to audit, their
 * <iframe> elements are. `exclude` leaves out the elements of those selectors.
 */
export async function axeViolations(page: Page, exclude: string[] = []): Promise<string[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async ({ tags, exclude }) => {
    type Result = { violations: { id: string; help: string; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<Result> } }).axe;
    const context = exclude.length > 0 ? { include: [['html']], exclude: exclude.map((selector) => [selector]) } : document;
    const results = await axe.run(context, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'], iframes: false });
    return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} (${v.help})`));
  }, { tags: WCAG_TAGS, exclude });
}

/**
 * Every page type and state (the ones of MOBILE_WIDTH also at phone width), with JavaScript on or off: axe (WCAG 2.0–2.2
 * A/AA) finds nothing, there is one heading 1, and the islands script runs only when scripts do. Each
 * mode is its own test file, so the two run side by side.
 */
const MOBILE_WIDTH = new Set<string>(['home', 'product landing', 'documented product home', 'topic', 'versioned topic',
  'topic, feedback reasons', 'KB home', 'KB article', 'contact', 'report a problem', 'my requests', 'Japanese topic']);

export function auditPageTypes(javaScript: boolean) {
  tap.test(`page types when JavaScript is ${javaScript ? 'available' : 'unavailable'}`, async (t) => {
    const { base, browser } = await serve(t, { contentDir: SAMPLE_CONTENT });
    // One browser page per width and script mode, taken from page type to page type: what a page shows
    // depends on its address, not on the documents before it, and a new page costs a renderer's start.
    const pages = new Map<string, Page>();
    const open = async (path: string, scripts: 'on' | 'off' | 'blocked', viewport: keyof typeof VIEWPORTS) => {
      const key = `${scripts} ${viewport}`;
      let page = pages.get(key);
      if (!page) {
        page = await (await newContext(browser, { scripts, viewport })).newPage();
        pages.set(key, page);
      }
      if (!(await page.goto(base + path))) throw new Error(`no response for ${path}`);
      return page;
    };
    for (const [name, path] of Object.entries(PAGE_TYPES)) {
      // Every page type at the wide width, and at the narrow one the page types of MOBILE_WIDTH, which
      // between them carry every layout the narrow width changes (header, page tree, tabs, forms, the
      // feedback reasons, the islands) and the other script: the same CSS serves every page type.
      const viewports = MOBILE_WIDTH.has(name) ? (['desktop', 'mobile'] as const) : (['desktop'] as const);
      for (const viewport of viewports) {
        const page = await open(path, javaScript ? 'on' : 'blocked', viewport);
        if (javaScript) {
          await islandsSettled(page);
          t.same(await failedIslands(page), [], `${name} (${viewport}): every island hydrated`);
        }
        t.same(await axeViolations(page), [], `${name} (${viewport}) has no WCAG A/AA violations`);
        t.equal(await page.locator('h1').count(), 1, `${name} has one heading 1`);
        const [enhanced, running] = await page.evaluate(() => [document.documentElement.classList.contains('js-enabled'), document.documentElement.dataset.islands === 'running']);
        t.equal(running, javaScript, 'the islands script runs only when JavaScript is on');
        t.equal(enhanced, javaScript, 'the page is marked for scripts only when its islands script loaded');
        if (!javaScript) {
          const plain = await open(path, 'off', viewport);
          t.equal(await plain.locator('h1').count(), 1, `${name} renders with JavaScript disabled`);
        }
      }
    }
    for (const page of pages.values()) await page.context().close();
  });
}
