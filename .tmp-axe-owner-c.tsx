import React from 'react';
import { readFileSync, readdirSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { chromium } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { ANONYMOUS, type Chrome } from './views/view-model.ts';
import { HomePage } from './views/pages/home-page.tsx';
import { ProductLandingPage } from './views/pages/product-landing-page.tsx';
import { DocumentedProductPage } from './views/pages/documented-product-page.tsx';
import { CollectionPage } from './views/pages/collection-page.tsx';
import { KbHomePage } from './views/pages/kb-home-page.tsx';
import { FormShellPage } from './views/pages/form-shell-page.tsx';
import { VersionNotFoundPage } from './views/pages/version-not-found-page.tsx';
import { PreviewErrorPage } from './views/pages/preview-error-page.tsx';
import { CHROMIUM_ARGS } from './scripts/find-chromium.mjs';

const css = readdirSync('assets/css').sort().map((f) => readFileSync(`assets/css/${f}`, 'utf8')).join('\n');
const chrome: Chrome = { siteName: 'Support', logoUrl: '/l.svg', lang: 'en', localePrefix: '', preview: false, assets: { css: '/x.css', js: '/x.js' }, nonce: 'n', canonicalUrl: 'https://h/', title: 'Support', year: 2026, visitor: ANONYMOUS,
  header: { logoUrl: '/l.svg', homeHref: '/', products: { cloud: [{ name: 'A', href: '/a' }], dataCenter: [] }, guides: [], documentation: [], resources: [], menus: [], additionalLinks: [], contactHref: '/contact', loginHref: '/login', supportBase: 'https://s', manageProfileHref: '/p', switchAccountHref: '/sw', logoutHref: '/lo', waffle: false } };
const contact = { contactHref: '/contact', communityHref: 'https://c', signedIn: false, loginHref: '/login' };
const cards = (p: string, n: number, x = {}) => Array.from({ length: n }, (_, i) => ({ title: `${p} ${i + 1}`, href: `/${p}-${i + 1}`, description: 'Desc text', iconUrl: '/i.svg', ...x }));
const sel = { current: 'data-center' as const, cloudHref: '/c', dataCenterHref: '/d', versions: [{ number: '9.2', selected: true }, { number: '9.1', selected: false }], versionAction: '/v', versionFields: { a: 'b' } };
const notice = { title: 'Heads up', appearance: 'info' as const, message: { html: '<p>Note</p>' as never } };
const tree = { title: 'Acme', href: '/acme', nodes: [{ id: '1', title: 'Basics', href: '/b', current: true, open: true, children: [{ id: '2', title: 'Sub', href: '/s', current: false, open: false, children: [] }] }] };
const pages: Record<string, JSX.Element> = {
  home: <HomePage chrome={chrome} title="How can we help?" tagline="Tag" featured={{ title: 'Featured', entries: [{ label: 'New', href: '/n', external: true }] }} platform="cloud" products={{ cloud: cards('cp', 3), dataCenter: cards('dp', 2) }} resources={cards('r', 4, { buttonText: 'Learn more' })} contact={contact} />,
  landing: <ProductLandingPage chrome={chrome} breadcrumbs={[{ label: 'Support', href: '/' }]} deploymentSelector={sel} notice={notice} title="Acme" tagline="T" iconUrl="/i.svg" docsHref="/d" kbHref="/k" resources={cards('r', 2)} collections={cards('c', 2)} supportForms={[{ label: 'Bug', href: '/bug' }]} helpful={{ cards: cards('h', 2), external: [{ label: 'M', href: 'https://m' }] }} contact={contact} />,
  documented: <DocumentedProductPage chrome={chrome} breadcrumbs={[{ label: 'Support', href: '/' }]} tree={tree} deploymentSelector={sel} notice={notice} title="Acme" tagline="T" iconUrl="/i.svg" search={{ action: '/search-results/', fields: { product: 'a' } }} guides={cards('g', 2)} lists={[{ title: 'L', href: '/l', description: 'd', links: Array.from({ length: 8 }, (_, i) => ({ label: `x${i}`, href: `/x${i}` })) }, { title: 'M', href: '/m', links: [] }]} contact={contact} />,
  collection: <CollectionPage chrome={chrome} breadcrumbs={[{ label: 'Support', href: '/' }]} tree={tree} deploymentSelector={sel} notice={notice} contextTitle="Acme" title="Basics" subhead="S" body={{ html: '<h2>A</h2><p>b</p>' as never }} children={Array.from({ length: 7 }, (_, i) => ({ title: `C${i}`, href: `/c${i}`, kind: i % 2 ? 'topics' as const : 'topic' as const }))} contact={contact} />,
  kb: <KbHomePage chrome={chrome} breadcrumbs={[{ label: 'Support', href: '/' }]} productName="Acme" articles={cards('a', 2)} moreWaysToGetHelp={[{ label: 'Community', href: '/c' }]} contact={contact} />,
  partner: <FormShellPage chrome={chrome} kind="partnerContact" title="Partner" tagline="t" formUrl="https://f" partnerPortalHref="https://p" />,
  download: <FormShellPage chrome={chrome} kind="fileDownload" title="Download" formUrl="https://f" />,
  requests: <FormShellPage chrome={chrome} kind="myRequests" title="Requests" />,
  version: <VersionNotFoundPage chrome={chrome} version="9.2" searchHref="/s" browseHref="/b" cancelHref="/c" />,
  preview: <PreviewErrorPage chrome={chrome} message="m" />,
};
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
for (const vp of [{ width: 1280, height: 900 }, { width: 375, height: 740 }]) {
  const ctx = await browser.newContext({ viewport: vp }); const page = await ctx.newPage();
  for (const [name, el] of Object.entries(pages)) {
    const html = '<!doctype html>' + renderToStaticMarkup(el).replace('</head>', `<style>${css}</style></head>`);
    await page.route('**/*', (r) => r.request().url().startsWith('http://t/') ? r.fulfill({ body: html, contentType: 'text/html' }) : r.fulfill({ status: 404, body: '' }));
    await page.goto('http://t/');
    await page.unroute('**/*');
    const res = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice']).analyze();
    const v = res.violations.map((x) => `${x.id}: ${x.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(' | ')}`);
    const heads = await page.$$eval('h1,h2,h3,h4', (hs) => hs.map((h) => h.tagName + ':' + (h.textContent ?? '').slice(0, 30)));
    console.log(vp.width, name, v.length ? v : 'OK', vp.width === 1280 ? heads.join(' / ') : '');
    if (name === 'collection' && vp.width === 1280) await page.screenshot({ path: '/tmp/owner-c-collection.png', fullPage: true });
    if (name === 'home' && vp.width === 1280) await page.screenshot({ path: '/tmp/owner-c-home.png', fullPage: true });
    if (name === 'documented' && vp.width === 375) await page.screenshot({ path: '/tmp/owner-c-documented-mobile.png', fullPage: true });
  }
}
await browser.close();
