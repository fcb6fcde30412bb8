import t from 'tap';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  type CardLink,
  type Chrome,
  type CollectionPageModel,
  type ContactBlockModel,
  type DocumentedProductModel,
  type FormShellModel,
  type HomePageModel,
  type KbHomeModel,
  type ProductLandingModel,
} from '../../views/view-model.ts';
import { CardGrid } from '../../views/parts/card-grid.tsx';
import { HomePage } from '../../views/pages/home-page.tsx';
import { ProductLandingPage } from '../../views/pages/product-landing-page.tsx';
import { DocumentedProductPage } from '../../views/pages/documented-product-page.tsx';
import { CollectionPage } from '../../views/pages/collection-page.tsx';
import { KbHomePage } from '../../views/pages/kb-home-page.tsx';
import { FormShellPage } from '../../views/pages/form-shell-page.tsx';
import { VersionNotFoundPage } from '../../views/pages/version-not-found-page.tsx';
import { PreviewErrorPage } from '../../views/pages/preview-error-page.tsx';
import { chromeFixture, CONTACT_FIXTURE } from '../helpers/chrome.ts';

const chrome: Chrome = chromeFixture({});

const contact: ContactBlockModel = CONTACT_FIXTURE;

const render = (element: ReactElement) => renderToStaticMarkup(element);

const textOf = (html: string) => html.replace(/<[^>]*>/g, '').replace(/&#x27;/g, "'").replace(/&amp;/g, '&');

/** Every link as href and its text content (tags stripped). */
function links(html: string): { href: string; text: string }[] {
  return [...html.matchAll(/<a\b[^>]*?href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => ({ href: m[1]!, text: textOf(m[2]!) }));
}

function h1Count(html: string) {
  return html.match(/<h1[\s>]/g)?.length ?? 0;
}

/** The markup before the page's first 'show more' disclosure, and from it on. */
function splitAtDetails(html: string): [string, string] {
  const i = html.indexOf('<details class="show-more"');
  return i === -1 ? [html, ''] : [html.slice(0, i), html.slice(i)];
}

const cards = (prefix: string, n: number, extra: Partial<CardLink> = {}): CardLink[] =>
  Array.from({ length: n }, (_, i) => ({ title: `${prefix} ${i + 1}`, href: `/${prefix.toLowerCase().replace(/\s+/g, '-')}-${i + 1}`, ...extra }));

const homeModel = (platform: HomePageModel['platform']): HomePageModel => ({
  chrome,
  title: 'How can we help?',
  tagline: 'Guides, documentation and answers for every product',
  featured: { title: 'Featured', entries: [{ label: 'What is new', href: '/whats-new', external: false }] },
  platform,
  products: { cloud: cards('Cloudy Product', 2), dataCenter: cards('Onprem Product', 3) },
  resources: cards('Resource', 2, { description: 'About it', iconUrl: '/i.svg' }),
  contact,
});

t.test('CardGrid: a list of headed links with a decorative icon and the button text ending the link', async (t) => {
  const html = render(<CardGrid headingLevel={3} cards={[
    { title: 'Billing', href: '/billing/resources/', description: 'Pay and plan', iconUrl: '/billing.svg', buttonText: 'Learn more' },
    { title: 'Training', href: 'https://training.example.test', external: true },
  ]} />);
  t.match(html, /^<ul class="card-grid"><li/);
  t.same([...html.matchAll(/(?:<ul class="card-grid">|<\/li>)(<[a-z/]+)/g)].map((m) => m[1]), ['<li', '<li', '</ul'], 'only li children');
  t.equal(html.match(/<h3/g)?.length, 2, 'a heading of the asked level per card');
  t.match(html, '<img class="card-icon" src="/billing.svg" alt="" width="80" height="80"');
  const [billing, training] = links(html);
  t.equal(billing?.text, 'Billing Learn more', 'button text is the visible end of the link');
  t.match(html, '<p class="card-description">Pay and plan</p>');
  t.match(html, /href="https:\/\/training.example.test" target="_blank" rel="noopener"/);
  t.equal(training?.text, 'Training (opens in a new tab)');
  t.equal(render(<CardGrid headingLevel={2} cards={[]} />), '', 'nothing for no cards');
});

t.test('HomePage', async (t) => {
  t.test('the selected platform tab is current and only its products render', async (t) => {
    for (const [platform, shown, hidden] of [['cloud', 'Cloudy Product', 'Onprem Product'], ['data-center', 'Onprem Product', 'Cloudy Product']] as const) {
      const html = render(<HomePage {...homeModel(platform)} />);
      t.equal(h1Count(html), 1, 'one h1');
      t.match(html, 'data-island="platform-tabs"');
      const tabs = links(html).filter((l) => l.href.startsWith('?platform='));
      t.same(tabs.map((l) => l.href), ['?platform=cloud', '?platform=data-center'], 'tabs are plain links');
      const current = [...html.matchAll(/<a [^>]*href="(\?platform=[^"]+)"[^>]*aria-current="page"/g)].map((m) => m[1]);
      t.same(current, [`?platform=${platform}`], `only ${platform} is aria-current`);
      // The island's props carry both platforms' cards (the tabs switch in place); the markup shows one.
      const markup = html.replace(/<script type="application\/json"[^>]*>.*?<\/script>/g, '');
      t.match(markup, shown, `${shown} cards render`);
      t.notMatch(markup, hidden, `${hidden} cards do not`);
      t.match(html, hidden, `${hidden} cards are in the island's props`);
    }
    const dc = render(<HomePage {...homeModel('data-center')} />);
    t.equal(links(dc).filter((l) => l.text.startsWith('Onprem Product')).length, 3);
  });

  t.test('hero search, subheader, featured list and resources', async (t) => {
    const html = render(<HomePage {...homeModel('cloud')} />);
    t.match(html, '<h1>How can we help?</h1>');
    const form = html.match(/<form[^>]*>[\s\S]*?<\/form>/)?.[0] ?? '';
    t.match(form, 'action="/search-results/"');
    t.match(form, 'method="get"');
    t.match(form, /<label for="home-search" class="visually-hidden">Search<\/label>/);
    t.match(form, /<input id="home-search" name="searchTerm" type="search" placeholder="Tell us what you&#x27;re looking for"\/>/);
    t.match(html, 'Guides, documentation and answers for every product');
    t.match(html, /<h2 id="featured-heading">Featured<\/h2><ul class="link-list"><li><a href="\/whats-new">What is new<\/a>/);
    t.match(html, '<h2 id="browse-resources-heading">Browse resources</h2>');
    t.match(html, 'Resource 1');
    const noFeatured = render(<HomePage {...homeModel('cloud')} featured={null} />);
    t.notMatch(noFeatured, 'featured-heading', 'no featured list when there is none');
  });
});

t.test('ProductLandingPage: one h1, doc and KB links, cards and support forms', async (t) => {
  const model: ProductLandingModel = {
    chrome,
    breadcrumbs: [{ label: 'Support', href: '/' }],
    deploymentSelector: null,
    notice: null,
    title: 'Acme Cloud',
    tagline: 'Track widgets',
    iconUrl: '/acme.svg',
    docsHref: '/acme-cloud/docs',
    kbHref: '/acme-cloud/kb',
    resources: cards('Res', 2),
    collections: cards('Coll', 2),
    supportForms: [{ label: 'Report a bug', href: '/contact?type=bug' }],
    helpful: { cards: [], external: [{ label: 'Marketplace', href: 'https://market.example.test' }] },
    contact,
  };
  const html = render(<ProductLandingPage {...model} />);
  t.equal(h1Count(html), 1);
  t.match(html, '<h1>Acme Cloud</h1>');
  t.match(html, '<img class="product-icon" src="/acme.svg" alt=""');
  const all = links(html);
  t.ok(all.some((l) => l.href === '/acme-cloud/docs' && l.text === 'Acme Cloud documentation'));
  t.ok(all.some((l) => l.href === '/acme-cloud/kb' && l.text === 'Acme Cloud knowledge base'));
  t.ok(all.some((l) => l.href === '/contact?type=bug' && l.text === 'Report a bug'));
  t.match(html, 'Res 1');
  t.match(html, 'Coll 2');
});

t.test('DocumentedProductPage', async (t) => {
  const model: DocumentedProductModel = {
    chrome,
    breadcrumbs: [{ label: 'Support', href: '/' }],
    tree: { title: 'Acme Cloud', href: '/acme-cloud/docs', nodes: [{ id: 'a', title: 'Basics', href: '/acme-cloud/docs/basics', current: false, open: false, children: [] }] },
    deploymentSelector: null,
    notice: null,
    title: 'Acme Cloud',
    tagline: 'Documentation',
    iconUrl: '/acme.svg',
    search: { action: '/search-results/', fields: { product: 'acme', deployment: 'cloud' } },
    guides: cards('Guide', 2),
    lists: [
      { title: 'Long list', href: '/acme-cloud/docs/long', description: 'Many pages', links: Array.from({ length: 8 }, (_, i) => ({ label: `Long ${i + 1}`, href: `/long-${i + 1}` })) },
      { title: 'Short list', href: '/acme-cloud/docs/short', links: Array.from({ length: 5 }, (_, i) => ({ label: `Short ${i + 1}`, href: `/short-${i + 1}` })) },
    ],
    contact,
  };
  const html = render(<DocumentedProductPage {...model} />);

  t.test('hero with one h1, decorative icon and a filtered GET search', async (t) => {
    t.equal(h1Count(html), 1);
    t.match(html, '<img class="product-icon" src="/acme.svg" alt=""');
    const form = html.match(/<form class="search-form"[^>]*>[\s\S]*?<\/form>/)?.[0] ?? '';
    t.match(form, 'action="/search-results/" method="get"');
    t.match(form, '<input type="hidden" name="product" value="acme"/>');
    t.match(form, '<input type="hidden" name="deployment" value="cloud"/>');
    t.match(form, /<label for="product-search"[^>]*>Search Acme Cloud<\/label><input id="product-search" name="searchTerm"/);
    t.match(html, 'aria-label="Documentation"', 'the page tree is placed');
  });

  t.test('Guides cards only when guides exist', async (t) => {
    t.match(html, '<h2 id="guides-heading">Guides</h2>');
    t.notMatch(render(<DocumentedProductPage {...model} guides={[]} />), 'guides-heading');
  });

  t.test('documentation lists show 5 links, the rest behind Show more', async (t) => {
    const sections = html.split('<section class="doc-list">').slice(1).map((s) => s.slice(0, s.indexOf('</section>')));
    t.equal(sections.length, 2, 'one section per list');
    const [long = '', short = ''] = sections;
    t.match(long, '<h2><a href="/acme-cloud/docs/long">Long list</a></h2>');
    t.match(long, 'Many pages');
    const [visible, hidden] = splitAtDetails(long);
    t.same(links(visible).map((l) => l.text), ['Long list', 'Long 1', 'Long 2', 'Long 3', 'Long 4', 'Long 5']);
    t.match(hidden, /^<details class="show-more"><summary>Show more<\/summary>/);
    t.match(long, /<script type="application\/json" data-island-props="show-more">[^<]*<\/script><div class="island" data-island="show-more" data-hydrate="interaction"><ul class="link-list">/, 'the show-more island');
    t.same(links(hidden).map((l) => l.text), ['Long 6', 'Long 7', 'Long 8']);
    t.notMatch(short, '<details', 'exactly 5 links need no show more');
    t.notMatch(short, 'data-island', 'nor a script');
    t.equal(links(short).length, 6);
  });
});

t.test('CollectionPage', async (t) => {
  const children = (n: number): CollectionPageModel['children'] =>
    Array.from({ length: n }, (_, i) => ({ title: `Child ${i + 1}`, href: `/c/${i + 1}`, kind: i % 2 === 0 ? 'topic' : 'topics' }));
  const model: CollectionPageModel = {
    chrome,
    breadcrumbs: [{ label: 'Support', href: '/' }],
    tree: { title: 'Acme Cloud', href: '/acme-cloud/docs', nodes: [] },
    deploymentSelector: null,
    notice: null,
    contextTitle: 'Acme Cloud',
    title: 'Basics',
    subhead: 'Start here',
    body: null,
    children: children(7),
    contact,
  };

  t.test('header line, hero and one h1', async (t) => {
    const html = render(<CollectionPage {...model} />);
    t.equal(h1Count(html), 1);
    t.match(html, '<p class="context-title">Acme Cloud</p>');
    t.match(html, '<h1>Basics</h1><p class="tagline">Start here</p>');
  });

  t.test("'View topic' for a topic, 'View topics' for topic sets, each link's name unique", async (t) => {
    const html = render(<CollectionPage {...model} />);
    const childLinks = links(html).filter((l) => l.href.startsWith('/c/'));
    t.equal(childLinks.length, 7);
    for (const [i, l] of childLinks.entries()) {
      const expected = i % 2 === 0 ? 'View topic' : 'View topics';
      t.ok(l.text.endsWith(expected), `${l.text} ends with ${expected}`);
      t.ok(l.text.startsWith(`Child ${i + 1}`), 'and names the child');
    }
    t.match(html, '<span class="card-button">View topic</span>', 'the button text is visible');
    t.equal(new Set(childLinks.map((l) => l.text)).size, childLinks.length, 'unique link names');
  });

  t.test('more than 5 children: 5, then the rest in Show more', async (t) => {
    const [visible, hidden] = splitAtDetails(render(<CollectionPage {...model} />));
    t.equal(links(visible).filter((l) => l.href.startsWith('/c/')).length, 5);
    t.match(hidden, /^<details class="show-more"><summary>Show more<\/summary><ul class="card-grid"><li class="card has-button">/);
    t.match(visible, /<div class="island" data-island="show-more" data-hydrate="interaction"><ul class="card-grid"><li class="card has-button">/, 'the show-more island');
    t.same(links(hidden).filter((l) => l.href.startsWith('/c/')).map((l) => l.href), ['/c/6', '/c/7']);
    t.notMatch(render(<CollectionPage {...model} children={children(5)} />), '<summary>Show more', 'five need no show more');
  });
});

t.test('KbHomePage: title string, labelled search to /search-results/, articles and more help', async (t) => {
  const model: KbHomeModel = {
    chrome,
    breadcrumbs: [{ label: 'Support', href: '/' }],
    productName: 'Acme',
    articles: [{ title: 'Widget crash', href: '/acme/kb/widget-crash' }],
    moreWaysToGetHelp: [{ label: 'Community', href: 'https://community.example.test' }],
    contact,
  };
  const html = render(<KbHomePage {...model} />);
  t.equal(h1Count(html), 1);
  t.match(html, '<h1>Acme Knowledge Base</h1>', 'a single text node');
  const form = html.match(/<form[^>]*>[\s\S]*?<\/form>/)?.[0] ?? '';
  t.match(form, /^<form class="search-form" action="\/search-results\/" method="get"/);
  t.match(form, /<label for="kb-search">[^<]+<\/label><input id="kb-search" name="searchTerm"/);
  t.ok(links(html).some((l) => l.href === '/acme/kb/widget-crash' && l.text === 'Widget crash'));
  // Another site: a new tab, said to screen readers (views/parts/links.tsx, one URL classifier).
  t.match(html, /<h2[^>]*>More ways to get help<\/h2><ul class="link-list"><li><a href="https:\/\/community.example.test" target="_blank" rel="noopener">Community<span class="visually-hidden"> \(opens in a new tab\)<\/span><\/a>/);
});

t.test('FormShellPage: the mount region and its no-JS fallback per kind', async (t) => {
  const shell = (kind: FormShellModel['kind'], extra: Partial<FormShellModel> = {}) =>
    render(<FormShellPage chrome={chrome} kind={kind} title="Contact support" tagline="We are here to help" {...extra} />);
  const mount = (html: string) => html.match(/<div class="form-mount"[^>]*>/)?.[0] ?? '';

  for (const kind of ['contact', 'hotContact', 'statusPageContact'] as const) {
    const html = shell(kind, { formUrl: 'https://forms.example.test/contact' });
    t.equal(h1Count(html), 1, `${kind}: one h1`);
    t.match(html, '<h1>Contact support</h1><p class="tagline">We are here to help</p>');
    t.match(mount(html), 'data-island="support-form"');
    t.match(mount(html), 'data-form-url="https://forms.example.test/contact"');
    t.same(links(html).filter((l) => l.text === 'Open the support form').map((l) => l.href), ['https://forms.example.test/contact'], `${kind}: fallback link`);
    t.notMatch(html, 'Go to the partner portal');
  }

  const partner = shell('partnerContact', { formUrl: 'https://forms.example.test/partner', partnerPortalHref: 'https://partners.example.test' });
  t.match(mount(partner), 'data-partner-support="true"');
  t.ok(links(partner).some((l) => l.text === 'Open the support form' && l.href === 'https://forms.example.test/partner'));
  t.ok(links(partner).some((l) => l.text === 'Go to the partner portal' && l.href === 'https://partners.example.test'));

  const requests = shell('myRequests', { formUrl: 'https://support.example.test/app/requests' });
  t.ok(links(requests).some((l) => l.text === 'Your requests' && l.href === 'https://support.example.test/app/requests'));
  t.notMatch(requests, 'Open the support form');
  t.ok(links(shell('myRequests')).some((l) => l.text === 'Your requests' && l.href === 'https://support.example.test/requests'),
    'without a form URL the requests link uses the support base');

  const download = shell('fileDownload', { formUrl: 'https://forms.example.test/download' });
  t.match(mount(download), 'data-form-height="500"');
  t.match(download, '<p class="form-note">The download form loads here when JavaScript is available.</p>');

  const noUrl = shell('contact');
  t.notMatch(mount(noUrl), 'data-form-url');
  t.notMatch(noUrl, 'Open the support form', 'no link without a form URL');
  t.match(noUrl, 'class="form-note"');
});

t.test('VersionNotFoundPage: the spec §8 text and actions', async (t) => {
  const html = render(<VersionNotFoundPage chrome={chrome} version="9.2" searchHref="/search-results/?searchTerm=x" browseHref="/acme/docs" cancelHref="/acme/docs/page" />);
  t.equal(h1Count(html), 1);
  t.match(html, '<h1>Unable to find page</h1>');
  t.match(html, '<p>This exact page does not exist in our Data Center 9.2 documentation. Would you like to look for an alternative page?</p>');
  const actions = links(html).filter((l) => ['Search', 'Browse', 'Cancel'].includes(l.text));
  t.same(actions, [
    { text: 'Search', href: '/search-results/?searchTerm=x' },
    { text: 'Browse', href: '/acme/docs' },
    { text: 'Cancel', href: '/acme/docs/page' },
  ]);
});

t.test('PreviewErrorPage: title and message', async (t) => {
  const html = render(<PreviewErrorPage chrome={chrome} title="This preview can't be built yet" message="We can't build a preview until all required fields are set." />);
  t.equal(h1Count(html), 1);
  t.match(html, '<h1>This preview can&#x27;t be built yet</h1>');
  t.match(html, '<p>We can&#x27;t build a preview until all required fields are set.</p>');
});
