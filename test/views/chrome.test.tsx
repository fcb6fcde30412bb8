import t from 'tap';
import { renderToStaticMarkup } from 'react-dom/server';
import type { CardLink, Chrome, HeaderProductLink, HelpfulTopicsModel, Visitor } from '../../views/view-model.ts';
import { ANONYMOUS } from '../../views/view-model.ts';
import { Document } from '../../views/layout/document.tsx';
import { ContactBlock } from '../../views/parts/contact-block.tsx';
import { HelpfulTopics } from '../../views/parts/helpful-topics.tsx';

// ---- A realistic chrome, shaped like the sample content (content/header.yaml) --------------------------

const PRODUCTS = ['Tracklight', 'Pagewell', 'Codebarn', 'Relaybot', 'Helmdesk', 'Pagerline', 'Plotline', 'Keyward'];
const slug = (s: string) => s.toLowerCase().replace(/\s+/g, '-');
const productLinks = (platform: 'Cloud' | 'Data Center'): HeaderProductLink[] => PRODUCTS.map((name) => ({
  name: `${name} ${platform}`,
  href: `/${slug(name)}-${slug(platform)}`,
  iconUrl: `/assets/content/icons/${slug(name)}.svg`,
}));

const GUIDES: CardLink[] = [
  { title: 'Get started with Tracklight', href: '/tracklight-cloud/docs/get-started-with-tracklight', description: 'Set up a project and run your first sprint.' },
  { title: 'Get started with Pagewell', href: '/pagewell-cloud/docs/get-started-with-pagewell', description: 'Create a space and publish your first pages.' },
  { title: 'Set up a service desk', href: '/helmdesk-cloud/docs/set-up-a-service-desk', description: 'Create a service project and open your customer portal.' },
];

/** All seven resource cards; billing-help is flagged hideInHeader, so the route leaves it out. */
const ALL_RESOURCES: (CardLink & { hideInHeader?: boolean })[] = [
  { title: 'Community', href: 'https://community.fernhollow.example', description: 'Ask and answer questions.', iconUrl: '/assets/content/icons/community.svg', external: true },
  { title: 'Developer docs', href: 'https://developer.fernhollow.example', description: 'APIs and apps.', iconUrl: '/assets/content/icons/developer.svg', external: true },
  { title: 'Training', href: '/training', description: 'Courses and certifications.', iconUrl: '/assets/content/icons/training.svg' },
  { title: 'System status', href: '/status', iconUrl: '/assets/content/icons/status.svg' },
  { title: 'Migration hub', href: '/migration/resources/', iconUrl: '/assets/content/icons/migration.svg' },
  { title: 'Release notes', href: '/release-notes', iconUrl: '/assets/content/icons/release-notes.svg' },
  { title: 'Billing help', href: '/billing/resources/', iconUrl: '/assets/content/icons/billing.svg', hideInHeader: true },
];
const RESOURCES: CardLink[] = ALL_RESOURCES.filter((r) => !r.hideInHeader).map(({ hideInHeader: _, ...card }) => card);

const SIGNED_IN: Visitor = { signedIn: true, displayName: 'Ada Lovelace', email: 'ada@customer.example', canEdit: false, staff: false, partner: false };

const FOOTER_LINKS = [
  { label: 'Accessibility', href: '/legal/accessibility' }, { label: 'Privacy choices', href: '/legal/privacy-choices' },
  { label: 'Privacy policy', href: '/legal/privacy-policy' }, { label: 'Terms of service', href: '/legal/cloud-terms-of-service' },
  { label: 'Impressum', href: '/legal/impressum' }, { label: 'Security and data protection', href: '/trust/security' },
];
const FOOTER_PATHS = FOOTER_LINKS.map((l) => l.href);

function makeChrome(overrides: Partial<Chrome> = {}, header: Partial<Chrome['header']> = {}): Chrome {
  const ja = overrides.localePrefix === '/ja';
  return {
    siteName: 'Fernhollow Support',
    logoUrl: '/assets/content/fernhollow-logo.svg',
    lang: 'en',
    localePrefix: '',
    preview: false,
    assets: { css: '/assets/main.0123456789ab.css', js: '/assets/islands.ba9876543210.js' },
    canonicalUrl: 'https://help.example.test/tracklight-cloud/docs/write-rich-issue-descriptions',
    title: 'Write rich issue descriptions',
    description: 'Format issue descriptions with headings, tables and code.',
    footerLinks: FOOTER_LINKS.map((l) => ({ ...l, href: `${ja ? '/ja' : ''}${l.href}` })),
    siteLinks: { community: 'https://community.example.test', helpful: [], moreWaysToGetHelp: [] },
    year: 2025,
    visitor: ANONYMOUS,
    ...overrides,
    header: {
      logoUrl: '/assets/content/fernhollow-support-logo.svg',
      homeHref: ja ? '/ja' : '/',
      products: { cloud: productLinks('Cloud'), dataCenter: productLinks('Data Center') },
      guides: GUIDES,
      documentation: [
        { title: 'Tracklight Cloud', href: '/tracklight-cloud/docs', description: 'Boards, backlogs, sprints and TQL.' },
        { title: 'Pagewell Cloud', href: '/pagewell-cloud/docs', description: 'Spaces, pages, templates and permissions.' },
        { title: 'Tracklight Data Center', href: '/tracklight-data-center/11.3/docs', description: 'Install, cluster and upgrade Tracklight.' },
      ],
      resources: RESOURCES,
      menus: [{
        id: 'menu-learn',
        heading: 'Learn',
        primary: [
          { title: 'Fernhollow University', href: 'https://learn.fernhollow.example', description: 'Free courses and certifications.', external: true },
          { title: 'Webinars', href: 'https://learn.fernhollow.example/webinars', description: 'Live sessions with product experts.', external: true },
        ],
        secondary: {
          heading: 'Popular courses',
          columns: 2,
          links: [
            { label: 'Tracklight fundamentals', href: 'https://learn.fernhollow.example/tracklight-fundamentals' },
            { label: 'Pagewell for teams', href: 'https://learn.fernhollow.example/pagewell-teams' },
            { label: 'Running a service desk', href: 'https://learn.fernhollow.example/service-desk' },
          ],
        },
      }],
      additionalLinks: [
        { label: 'System status', href: 'https://status.fernhollow.example' },
        { label: 'Community', href: 'https://community.fernhollow.example' },
      ],
      contactHref: ja ? '/ja/contact' : '/contact',
      loginHref: '/login?continue=%2Ftracklight-cloud%2Fdocs%2Fwrite-rich-issue-descriptions',
      supportBase: 'https://support.fernhollow.example',
      manageProfileHref: 'https://id.fernhollow.example/manage-profile',
      switchAccountHref: '/login/switch?continue=%2F',
      logoutHref: '/logout',
      waffle: false,
      ...header,
    },
  };
}

const render = (chrome: Chrome, sidebar?: JSX.Element) =>
  renderToStaticMarkup(<Document chrome={chrome} sidebar={sidebar}><p className="tiny-child">Hello from the page</p></Document>);

// ---- Tiny HTML helpers: the markup is our own, so a balanced-tag scan is enough ------------------------

/** The outer HTML of the first element whose start tag matches `start` (a regex on the start tag). */
function element(html: string, start: RegExp): string {
  const m = start.exec(html);
  if (!m) return '';
  const tag = /^<([a-z0-9]+)/.exec(m[0])?.[1];
  if (!tag) throw new Error(`pattern must match a start tag: ${start}`);
  const re = new RegExp(`<${tag}[\\s>]|</${tag}>`, 'g');
  re.lastIndex = m.index + 1;
  let depth = 1;
  for (let x = re.exec(html); x; x = re.exec(html)) {
    depth += x[0].startsWith('</') ? -1 : 1;
    if (depth === 0) return html.slice(m.index, x.index + x[0].length);
  }
  throw new Error(`unbalanced <${tag}>`);
}
const count = (html: string, re: RegExp) => (html.match(new RegExp(re.source, 'g')) ?? []).length;
const hrefs = (html: string) => [...html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]?.replace(/&amp;/g, '&'));
const linkTexts = (html: string) => [...html.matchAll(/<a [^>]*>(.*?)<\/a>/g)].map((m) => m[1]?.replace(/<[^>]+>/g, ''));
const headerOf = (html: string) => element(html, /<header[^>]*>/);
const footerOf = (html: string) => element(html, /<footer[^>]*>/);
const menu = (html: string, id: string) => element(html, new RegExp(`<details[^>]*data-menu="${id}"[^>]*>`));

// ---- Document ---------------------------------------------------------------------------------------------

t.test('document head, skip link, main and the page content', async (t) => {
  const html = render(makeChrome());
  t.match(html, /^<html lang="en">/);
  t.match(html, '<title>Write rich issue descriptions | Fernhollow Support</title>');
  t.match(html, '<meta name="description" content="Format issue descriptions with headings, tables and code."/>');
  t.match(html, '<link rel="canonical" href="https://help.example.test/tracklight-cloud/docs/write-rich-issue-descriptions"/>');
  t.match(html, '<link rel="stylesheet" href="/assets/main.0123456789ab.css"/>');
  t.match(html, /<script type="module" src="\/assets\/islands\.ba9876543210\.js"><\/script>/);
  t.notMatch(html, 'name="robots"', 'published pages are indexable');
  t.match(html, /<body><a class="skip-link" href="#maincontent">Skip to main content<\/a>/, 'the skip link comes first');
  const main = element(html, /<main[^>]*>/);
  t.match(main, /^<main id="maincontent" tabindex="-1">/);
  t.match(main, /<div class="main-column"><p class="tiny-child">Hello from the page<\/p><\/div>/);
  t.notMatch(html, 'PREVIEW MODE');
  t.notMatch(html, 'edit-links');
  t.ok(html.indexOf('<header') < html.indexOf('<main') && html.indexOf('</main>') < html.indexOf('<footer'), 'header, main, footer in order');

  const home = render(makeChrome({ title: 'Fernhollow Support', description: undefined }));
  t.match(home, '<title>Fernhollow Support</title>', 'the site name is not repeated');
  t.notMatch(home, 'name="description"');
});

t.test('linked data: a JSON-LD data block no text can end, read back unchanged', async (t) => {
  const hostile = 'A </script><script>alert(1)</script> <!-- \u2028 & "quotes"';
  const chrome = makeChrome({
    title: hostile,
    identity: { url: 'https://help.example.test', publisher: 'Pub </script>', legalName: 'Legal', brand: 'Brand', owns: ['One'], language: 'en-US', license: 'https://licence.example.test/' },
  });
  const html = renderToStaticMarkup(<Document chrome={chrome} linkedData={{ breadcrumbs: [{ label: 'Home', href: '/' }], article: { headline: hostile } }}><p>x</p></Document>);
  const blocks = [...html.matchAll(/<script type="application\/ld\+json">([^]*?)<\/script>/g)];
  t.equal(blocks.length, 1, 'one block, in the head');
  t.ok(html.indexOf('application/ld+json') < html.indexOf('</head>'));
  const json = blocks[0]?.[1] ?? '';
  t.notMatch(json, /<|\u2028/, 'no < nor U+2028 inside it');
  const graph = JSON.parse(json)['@graph'] as Record<string, any>[];
  const byType = Object.fromEntries(graph.map((n) => [n['@type'], n]));
  t.equal(byType.TechArticle.headline, hostile, 'the text is read back unchanged');
  t.equal(byType.Organization.name, 'Pub </script>');
  t.equal(byType.WebSite.license, 'https://licence.example.test/', 'a licence URL stays a URL');
  t.same(byType.BreadcrumbList.itemListElement.map((i: { item: string }) => i.item), ['https://help.example.test/', chrome.canonicalUrl]);
  const none = renderToStaticMarkup(<Document chrome={makeChrome()}><p>x</p></Document>);
  t.notMatch(none, 'ld+json', 'nothing without site metadata or a page to describe');
});

t.test('preview mode shows the banner and keeps the page out of indexes', async (t) => {
  const html = render(makeChrome({ preview: true }));
  t.match(html, '<div class="preview-banner" role="status">PREVIEW MODE</div>');
  t.match(html, '<meta name="robots" content="noindex"/>');
});

t.test('the sidebar slot sits inside main, before the content column', async (t) => {
  const sidebar = <nav aria-label="Documentation"><a href="/tracklight-cloud/docs">Tracklight Cloud</a></nav>;
  const main = element(render(makeChrome(), sidebar), /<main[^>]*>/);
  t.match(main, /^<main id="maincontent" tabindex="-1" class="has-sidebar"><div class="main-sidebar"><nav aria-label="Documentation">/);
  t.ok(main.indexOf('main-sidebar') < main.indexOf('main-column'));
  t.notMatch(element(render(makeChrome()), /<main[^>]*>/), 'main-sidebar');
});

t.test('the chrome has no headings, unique ids, and a summary in every disclosure', async (t) => {
  const variants = {
    anonymous: makeChrome(),
    'signed in': makeChrome({ visitor: SIGNED_IN }),
    partner: makeChrome({ visitor: { ...SIGNED_IN, partner: true } }),
    author: makeChrome({ visitor: { ...SIGNED_IN, canEdit: true }, editLinks: { contentEditor: 'https://cms.example/entries/abc', documentEditor: 'https://docs.example/pages/1', label: 'Contentful' } }),
    'ja-JP': makeChrome({ lang: 'ja', localePrefix: '/ja' }),
    waffle: makeChrome({}, { waffle: true }),
  };
  for (const [name, chrome] of Object.entries(variants)) {
    const html = render(chrome);
    t.equal(count(html, /<h1[\s>]/), 0, `${name}: no h1 outside the page content`);
    t.equal(count(headerOf(html) + footerOf(html), /<h[1-6][\s>]/), 0, `${name}: no headings in header or footer`);
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    t.same(ids.filter((id, i) => ids.indexOf(id) !== i), [], `${name}: ids are unique`);
    t.equal(count(html, /<details[\s>]/), count(html, /<summary[\s>]/), `${name}: every details has a summary`);
    for (const img of html.match(/<img [^>]*>/g) ?? []) t.match(img, / alt="/, `${name}: image has alt`);
    const labels = [...html.matchAll(/<nav aria-label="([^"]+)"/g)].map((m) => m[1]);
    t.same(labels, name === 'ja-JP' ? ['メイン', '法的情報'] : ['Main', 'Legal'], `${name}: distinct nav labels`);
  }
});

// ---- Header -----------------------------------------------------------------------------------------------

t.test('logo, menus as no-JS disclosures, and the search link', async (t) => {
  const header = headerOf(render(makeChrome()));
  t.match(header, '<a class="site-logo" href="/"><img src="/assets/content/fernhollow-support-logo.svg" alt=""');
  t.match(header, '<span>Fernhollow Support</span>');
  const summaries = [...header.matchAll(/<details class="header-menu[^"]*" data-menu="[^"]+"><summary>(.*?)<\/summary>/g)]
    .map((m) => m[1]);
  t.same(summaries, ['Products', 'Get started', 'Documentation', 'Resources', 'Learn'], 'each menu is a details whose summary is the trigger');
  const search = element(header, /<a class="header-link header-search" [^>]*href="\/search-results\/"[^>]*>/);
  // The phone layout's own search link (shown there only with scripts) says the same.
  t.match(element(header, /<a class="header-link phone-search" [^>]*>/), /<span class="visually-hidden">Search \(opens in a new tab\)<\/span><\/a>$/);
  t.match(search, 'target="_blank"');
  t.match(search, 'rel="noopener"');
  t.match(search, '<span>Search</span><span class="visually-hidden"> (opens in a new tab)</span>');
  // Links to other sites open in a new tab and say so (one URL classifier, views/parts/links.tsx).
  const newTab = '<span class="visually-hidden"> (opens in a new tab)</span>';
  t.match(header, `<a class="header-link" href="https://status.fernhollow.example" target="_blank" rel="noopener">System status${newTab}</a>`, 'additional links');
  t.match(header, `<a class="header-link" href="https://community.fernhollow.example" target="_blank" rel="noopener">Community${newTab}</a>`);
});

t.test('products: Cloud and Data Center lists show 5, the rest behind See all other products', async (t) => {
  const products = menu(headerOf(render(makeChrome())), 'products');
  for (const [id, items] of [['cloud', productLinks('Cloud')], ['data-center', productLinks('Data Center')]] as const) {
    const tab = element(products, new RegExp(`<div class="product-tab" data-platform="${id}">`));
    const first = element(tab, /<ul class="product-list" aria-labelledby=[^>]*>/);
    t.same(hrefs(first), items.slice(0, 5).map((p) => p.href), `${id}: the first five`);
    const more = element(tab, /<details class="more-products"[^>]*>/);
    t.match(more, 'data-more-text="See all other products"');
    t.match(more, 'data-less-text="Show fewer products"');
    t.match(more, '<summary>See all other products</summary>');
    t.same(hrefs(more), items.slice(5).map((p) => p.href), `${id}: the other three`);
    t.match(tab, `<p class="menu-label" id="header-products-${id}">${id === 'cloud' ? 'Cloud' : 'Data Center'}</p>`);
  }

  const five = makeChrome({}, { products: { cloud: productLinks('Cloud').slice(0, 5), dataCenter: [] } });
  const fiveMenu = menu(headerOf(render(five)), 'products');
  t.equal(count(fiveMenu, /<li>/), 5);
  t.notMatch(fiveMenu, 'See all other products', 'no toggle when five fit');
  t.notMatch(fiveMenu, 'data-platform="data-center"', 'an empty platform is left out');
});

t.test('collection pages use the product waffle menu instead of the tabs', async (t) => {
  const header = headerOf(render(makeChrome({}, { waffle: true })));
  const waffle = menu(header, 'products');
  t.match(waffle, /^<details class="header-menu product-waffle" data-menu="products"><summary><svg[^>]*aria-hidden="true"/);
  t.match(waffle, '<span>Products</span></summary>');
  t.equal(count(waffle, /<ul class="waffle-grid"/), 2);
  t.same(hrefs(waffle), [...productLinks('Cloud'), ...productLinks('Data Center')].map((p) => p.href), 'every product, no collapse');
  t.equal(count(waffle, /<img src="\/assets\/content\/icons\/[a-z]+\.svg" alt=""/), 16, 'each with its icon');
  t.notMatch(header, 'product-tabs');
  t.notMatch(header, 'See all other products');
});

t.test('get started: one guide is a button, several are a menu of cards, none is nothing', async (t) => {
  const several = headerOf(render(makeChrome()));
  const guides = menu(several, 'guides');
  t.match(guides, '<summary>Get started</summary>');
  t.same(hrefs(guides), GUIDES.map((g) => g.href));
  t.match(guides, '<span class="menu-card-title">Set up a service desk</span> <span class="menu-card-text">Create a service project and open your customer portal.</span>');
  t.notMatch(several, 'get-started"');

  const one = headerOf(render(makeChrome({}, { guides: [GUIDES[0]!] })));
  t.equal(menu(one, 'guides'), '', 'no menu for a single guide');
  t.match(one, '<li><a class="header-button get-started" href="/tracklight-cloud/docs/get-started-with-tracklight">Get started</a></li>');

  const none = headerOf(render(makeChrome({}, { guides: [] })));
  t.notMatch(none, 'Get started');
});

t.test('documentation and resources menus render exactly the model cards', async (t) => {
  const chrome = makeChrome();
  const header = headerOf(render(chrome));
  t.same(hrefs(menu(header, 'documentation')), chrome.header.documentation.map((c) => c.href));
  const resources = menu(header, 'resources');
  t.same(hrefs(resources), chrome.header.resources.map((c) => c.href), 'the header shows model.resources, in order');
  t.same(linkTexts(resources).map((s) => s?.split(' ')[0]), chrome.header.resources.map((c) => c.title.split(' ')[0]));
  t.notMatch(render(chrome), 'Billing help', 'a card hidden in the header is nowhere in the chrome');
  t.notMatch(render(chrome), '/billing/resources/');
  const community = element(resources, /<a href="https:\/\/community\.fernhollow\.example"[^>]*>/);
  t.match(community, 'target="_blank"');
  t.match(community, '<span class="visually-hidden"> (opens in a new tab)</span>', 'external cards say they open a new tab');
  t.notMatch(element(resources, /<a href="\/training"[^>]*>/), 'target=', 'internal cards stay in the tab');
  t.match(community, '<img src="/assets/content/icons/community.svg" alt="" width="32" height="32" loading="lazy"/>');

  const empty = headerOf(render(makeChrome({}, { resources: [], documentation: [] })));
  t.equal(menu(empty, 'resources'), '');
  t.equal(menu(empty, 'documentation'), '');
});

t.test('configured menus: primary cards and secondary columns', async (t) => {
  const learn = menu(headerOf(render(makeChrome())), 'menu-learn');
  t.match(learn, '<summary>Learn</summary>');
  const primary = element(learn, /<ul class="menu-cards">/);
  t.same(hrefs(primary), ['https://learn.fernhollow.example', 'https://learn.fernhollow.example/webinars']);
  t.match(learn, '<p class="menu-label" id="header-menu-menu-learn-secondary">Popular courses</p>');
  const secondary = element(learn, /<ul class="menu-links menu-cols-2"[^>]*>/);
  t.match(secondary, 'aria-labelledby="header-menu-menu-learn-secondary"');
  t.same(linkTexts(secondary), ['Tracklight fundamentals (opens in a new tab)', 'Pagewell for teams (opens in a new tab)', 'Running a service desk (opens in a new tab)']);

  const noSecondary = makeChrome({}, { menus: [{ id: 'm', heading: 'More', primary: [{ title: 'A', href: '/a' }], secondary: { heading: 'x', columns: 9, links: [] } }] });
  const more = menu(headerOf(render(noSecondary)), 'm');
  t.notMatch(more, 'menu-secondary', 'an empty secondary section is left out');
});

t.test('anonymous visitors: Sign in and Log in to contact support', async (t) => {
  const chrome = makeChrome();
  const header = headerOf(render(chrome));
  const actions = element(header, /<ul class="header-actions">/);
  t.match(actions, `<a class="header-button header-button-primary" href="${chrome.header.loginHref}">Sign in</a>`);
  t.match(actions, `<a class="header-link" href="${chrome.header.loginHref}">Log in to contact support</a>`);
  t.match(actions, '<a class="header-button" href="/contact">Contact</a>', 'the contact page still works signed out (spec §6)');
  t.notMatch(header, 'account-menu');
  t.notMatch(header, 'Contact Support');
  t.notMatch(header, 'Log out');
});

const accountLinks = (html: string) => {
  const links = element(element(headerOf(html), /<details class="header-menu account-menu"[^>]*>/), /<ul class="account-links">/);
  return linkTexts(links).map((label, i) => [label, hrefs(links)[i]]);
};

t.test('signed-in visitors: avatar account menu and a direct Contact Support link', async (t) => {
  const html = render(makeChrome({ visitor: SIGNED_IN }));
  const header = headerOf(html);
  t.same(accountLinks(html), [
    ['View requests', 'https://support.fernhollow.example/requests'],
    ['Named contacts', 'https://support.fernhollow.example/named-contact'],
    ['Manage profile', 'https://id.fernhollow.example/manage-profile'],
    ['Switch account', '/login/switch?continue=%2F'],
  ]);
  const account = element(header, /<details class="header-menu account-menu"[^>]*>/);
  // Log out is a POST form with a button, so it works without JavaScript and cannot be a cross-site link.
  t.match(account, '<form method="post" action="/logout" class="account-logout"><button type="submit" class="link-button">Log out</button></form>');
  t.notMatch(account, /<a [^>]*>Log out</);
  t.notMatch(account, 'data-island=', 'the header island owns data-island');
  t.match(account, '<summary><span class="avatar" aria-hidden="true">AL</span><span class="visually-hidden">Account menu for Ada Lovelace</span></summary>');
  t.match(account, '<span class="account-email">ada@customer.example</span>');
  t.match(header, '<a class="header-button" href="/contact">Contact Support</a>');
  t.notMatch(header, 'Sign in');
  t.notMatch(header, 'Log in to contact support');

  const withAvatar = headerOf(render(makeChrome({ visitor: { ...SIGNED_IN, avatarUrl: 'https://avatars.example/ada.png' } })));
  t.match(withAvatar, '<summary><img class="avatar" src="https://avatars.example/ada.png" alt="" width="32" height="32"/>');

  const trailing = render(makeChrome({ visitor: SIGNED_IN }, { supportBase: 'https://support.fernhollow.example/' }));
  t.equal(accountLinks(trailing)[0]?.[1], 'https://support.fernhollow.example/requests', 'no double slash');
});

t.test('partner users: View Support Requests and partner request items', async (t) => {
  const html = render(makeChrome({ visitor: { ...SIGNED_IN, partner: true } }));
  t.same(accountLinks(html), [
    ['View Support Requests', 'https://support.fernhollow.example/requests'],
    ['Named contacts', 'https://support.fernhollow.example/named-contact'],
    ['Manage profile', 'https://id.fernhollow.example/manage-profile'],
    ['Switch account', '/login/switch?continue=%2F'],
  ]);
  t.match(html, '<button type="submit" class="link-button">Log out</button>');
  t.notMatch(html, '>View requests<');
});

t.test('authors get editor shortcuts that open in a new tab', async (t) => {
  const editLinks = { contentEditor: 'https://cms.example/spaces/s1/entries/abc', documentEditor: 'https://docs.example/pages/123', label: 'Contentful' };
  const html = render(makeChrome({ visitor: { ...SIGNED_IN, canEdit: true }, editLinks }));
  const shortcuts = element(html, /<div class="edit-links">/);
  t.ok(element(html, /<main[^>]*>/).includes(shortcuts), 'inside the content column');
  t.same(hrefs(shortcuts), [editLinks.contentEditor, editLinks.documentEditor]);
  t.equal(count(shortcuts, /target="_blank" rel="noopener"/), 2);
  t.equal(count(shortcuts, /<span class="visually-hidden"> \(opens in a new tab\)<\/span>/), 2);
  t.match(shortcuts, '<span>Edit Page in Contentful</span>');

  const contentOnly = element(render(makeChrome({ editLinks: { contentEditor: '/cms/abc', label: 'Edit Page in Contentful' } })), /<div class="edit-links">/);
  t.same(hrefs(contentOnly), ['/cms/abc'], 'no document editor link without a page id');
  t.match(contentOnly, '<span>Edit Page in Contentful</span>', 'a full label is not doubled');
});

// ---- Footer -----------------------------------------------------------------------------------------------


t.test('footer legal links and copyright', async (t) => {
  const footer = footerOf(render(makeChrome()));
  t.same(hrefs(footer), FOOTER_PATHS);
  t.same(linkTexts(footer), ['Accessibility', 'Privacy choices', 'Privacy policy', 'Terms of service', 'Impressum', 'Security and data protection']);
  t.match(footer, '<p class="copyright">© 2025 Fernhollow Support</p>', 'one string, no React separators');
});

t.test('ja-JP pages: /ja on footer links and the contact page', async (t) => {
  const html = render(makeChrome({ lang: 'ja', localePrefix: '/ja' }));
  t.match(html, /^<html lang="ja">/);
  t.same(hrefs(footerOf(html)), FOOTER_PATHS.map((p) => `/ja${p}`));
  t.match(headerOf(html), '<a class="header-button" href="/ja/contact">お問い合わせ</a>');
  t.match(headerOf(html), '<a class="site-logo" href="/ja">');
});

// ---- Contact block and helpful topics -------------------------------------------------------------------

t.test('contact block', async (t) => {
  const contact = { contactHref: '/contact', communityHref: 'https://community.fernhollow.example', loginHref: '/login?continue=%2F', signedIn: false };
  const anonymous = renderToStaticMarkup(<ContactBlock contact={contact} />);
  t.match(anonymous, /^<section class="contact-block"><h2>Not finding the help you need\?<\/h2>/);
  t.same(linkTexts(anonymous), ['Log in to contact support', 'Ask the community']);
  t.same(hrefs(anonymous), ['/login?continue=%2F', 'https://community.fernhollow.example']);

  const signedIn = renderToStaticMarkup(<ContactBlock contact={{ ...contact, signedIn: true, contactHref: '/ja/contact' }} />);
  t.same(linkTexts(signedIn), ['Contact support', 'Ask the community']);
  t.same(hrefs(signedIn), ['/ja/contact', 'https://community.fernhollow.example']);
});

const EXTERNAL = [
  { label: 'Marketplace', href: 'https://marketplace.fernhollow.example' },
  { label: 'Developer site', href: 'https://developer.fernhollow.example' },
  { label: 'Training and certification', href: 'https://university.fernhollow.example' },
];
const topicCards = (n: number): CardLink[] => Array.from({ length: n }, (_, i) => ({
  title: `Topic ${i + 1}`, href: `/product-${i + 1}/resources/`, description: `About topic ${i + 1}.`, iconUrl: `/assets/content/icons/t${i + 1}.svg`,
}));
const helpful = (model: HelpfulTopicsModel) => renderToStaticMarkup(<HelpfulTopics model={model} />);

t.test('helpful topics: cards for up to 5, a link list for more, the external links always', async (t) => {
  const five = helpful({ cards: topicCards(5), external: EXTERNAL });
  t.match(five, /^<section class="helpful-topics"><h2>Helpful topics<\/h2><ul class="helpful-cards">/);
  t.equal(count(five, /<h3>/), 5, 'five cards, each headed at level 3');
  t.match(five, '<img src="/assets/content/icons/t1.svg" alt="" width="80" height="80"/><h3><a href="/product-1/resources/">Topic 1</a></h3><p>About topic 1.</p>');
  t.notMatch(five, 'helpful-links');

  const six = helpful({ cards: topicCards(6), external: EXTERNAL });
  t.match(six, '<ul class="helpful-links"><li><a href="/product-1/resources/">Topic 1</a></li>');
  t.equal(count(six, /<h3>/), 0);
  t.notMatch(six, 'helpful-cards');
  t.notMatch(six, 'About topic', 'the link list has no descriptions');

  for (const [name, html] of [['five', five], ['six', six], ['none', helpful({ cards: [], external: EXTERNAL })]] as const) {
    const external = element(html, /<ul class="helpful-external">/);
    t.same(hrefs(external), EXTERNAL.map((l) => l.href), `${name}: the three external links`);
    t.ok(html.endsWith(`${external}</section>`), `${name}: external links come last`);
  }
  t.same(hrefs(six).slice(0, 6), topicCards(6).map((c) => c.href));
});
