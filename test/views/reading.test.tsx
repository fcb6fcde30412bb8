import t from 'tap';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  ANONYMOUS,
  type Chrome,
  type ContactBlockModel,
  type DeploymentSelectorModel,
  type FeedbackModel,
  type KbArticleModel,
  type PageTreeModel,
  type SiblingItem,
  type TopicPageModel,
  type TopicSetPageModel,
} from '../../views/view-model.ts';
import { trustRenderedMarkup } from '../../views/rich-text/safe-html.tsx';
import { PageTree } from '../../views/parts/page-tree.tsx';
import { DeploymentSelector } from '../../views/parts/deployment-selector.tsx';
import { NoticeBanner } from '../../views/parts/notice-banner.tsx';
import { FeedbackForm } from '../../views/parts/feedback-form.tsx';
import { Siblings, siblingWindow } from '../../views/parts/siblings.tsx';
import { UpNext } from '../../views/parts/up-next.tsx';
import { TopicPage } from '../../views/pages/topic-page.tsx';
import { TopicSetPage } from '../../views/pages/topic-set-page.tsx';
import { KbArticlePage } from '../../views/pages/kb-article-page.tsx';
import { chromeFixture, CONTACT_FIXTURE } from '../helpers/chrome.ts';

const chrome: Chrome = chromeFixture({ canonicalUrl: 'https://help.example.test/tracklight-cloud/docs/create-an-issue', title: 'Create an issue' });

const contact: ContactBlockModel = CONTACT_FIXTURE;

const feedback = (state: FeedbackModel['state']): FeedbackModel => ({
  action: '/feedback', entryId: 'tracklight-cloud-create-an-issue', returnTo: '/tracklight-cloud/docs/create-an-issue',
  csrfToken: 'tok&en', state,
});

const render = (element: ReactElement) => renderToStaticMarkup(element);
const h1Count = (html: string) => html.match(/<h1[\s>]/g)?.length ?? 0;
const count = (html: string, needle: string) => html.split(needle).length - 1;
/** The markup without the islands' JSON props blocks (which repeat the texts an island shows). */
const withoutProps = (html: string) => html.replace(/<script type="application\/json" data-island-props="[^"]*">[^<]*<\/script>/g, '');
/** Ids used more than once. */
const duplicateIds = (html: string) => {
  const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
  return ids.filter((id, i) => ids.indexOf(id) !== i);
};

const siblings = (n: number, current: number): SiblingItem[] =>
  Array.from({ length: n }, (_, i) => ({ title: `Page ${i + 1}`, href: `/docs/page-${i + 1}`, current: i === current }));

t.test('siblingWindow: the current index ±2, first five near the start, last five near the end', async (t) => {
  t.same(siblingWindow(10, 0), { start: 0, end: 5 }, 'index 0: first five');
  t.same(siblingWindow(10, 1), { start: 0, end: 5 });
  t.same(siblingWindow(10, 2), { start: 0, end: 5 }, 'index 2: still the first five');
  t.same(siblingWindow(10, 3), { start: 1, end: 6 }, 'index 3: 1..5');
  t.same(siblingWindow(10, 5), { start: 3, end: 8 }, 'middle: index ±2');
  t.same(siblingWindow(10, 7), { start: 5, end: 10 }, 'third from the end: last five');
  t.same(siblingWindow(10, 8), { start: 5, end: 10 });
  t.same(siblingWindow(10, 9), { start: 5, end: 10 }, 'last: last five');
  t.same(siblingWindow(6, 3), { start: 1, end: 6 });
  t.same(siblingWindow(5, 4), { start: 0, end: 5 }, 'five items: all');
  t.same(siblingWindow(3, 1), { start: 0, end: 3 }, 'short list: all');
  t.same(siblingWindow(1, 0), { start: 0, end: 1 });
  t.same(siblingWindow(0, -1), { start: 0, end: 0 }, 'empty list');
  t.same(siblingWindow(10, -1), { start: 0, end: 5 }, 'no current page: first five');
  for (let n = 6; n <= 12; n++) {
    for (let i = 0; i < n; i++) {
      const w = siblingWindow(n, i);
      t.equal(w.end - w.start, 5, `${n} items, index ${i}: always five`);
      t.ok(w.start <= i && i < w.end, `${n} items, index ${i}: the current page is inside`);
    }
  }
});

t.test('Siblings window mode keeps the others in show-more disclosures', async (t) => {
  const html = withoutProps(render(<Siblings model={{ heading: 'In this section', mode: 'window', items: siblings(10, 5) }} />));
  t.match(html, /^<div class="island" data-island="siblings" data-hydrate="interaction"><div class="siblings siblings-window"><h2>In this section<\/h2>/);
  const above = html.indexOf('<details class="siblings-more siblings-more-above"><summary>Show 3 more<');
  const below = html.indexOf('<details class="siblings-more siblings-more-below"><summary>Show 2 more<');
  t.ok(above > -1 && below > above, 'three above the window, two below');
  for (let i = 1; i <= 10; i++) t.match(html, `href="/docs/page-${i}"`, `page ${i} reachable`);
  const visible = html.replace(/<details[\s\S]*?<\/details>/g, '');
  t.same([...visible.matchAll(/Page (\d+)/g)].map((m) => Number(m[1])), [4, 5, 6, 7, 8], 'window outside the disclosures');
  t.equal(count(html, 'aria-current="page"'), 1);
  t.match(html, /<a href="\/docs\/page-6" aria-current="page">Page 6<\/a>/);

  const start = render(<Siblings model={{ heading: 'In this section', mode: 'window', items: siblings(8, 0) }} />);
  t.notMatch(start, 'siblings-more-above', 'nothing above at the start');
  t.match(start, /<summary>Show 3 more<span class="visually-hidden"> pages below<\/span><\/summary>/);

  const short = render(<Siblings model={{ heading: 'In this section', mode: 'window', items: siblings(4, 2) }} />);
  t.notMatch(short, '<details', 'no disclosure for a short list');
  t.notMatch(short, 'data-island', 'nor a script');
  t.match(short, '<ul class="siblings-list">');
});

t.test('Siblings progress mode shows every item marked visited, current or upcoming', async (t) => {
  const items: SiblingItem[] = siblings(7, 3).map((s, i) => ({ ...s, progress: i < 3 ? 'visited' : i === 3 ? 'current' : 'upcoming' }));
  const html = render(<Siblings model={{ heading: 'Guide progress', mode: 'progress', items }} />);
  t.notMatch(html, '<details', 'no window in progress mode');
  t.equal(count(html, '<li '), 7, 'all seven shown');
  t.equal(count(html, 'class="progress-visited"'), 3);
  t.equal(count(html, 'class="progress-current"'), 1);
  t.equal(count(html, 'class="progress-upcoming"'), 3);
  t.equal(count(html, '<span class="visually-hidden"> (visited)</span>'), 3, 'state told to screen readers');
  t.match(html, /<li class="progress-current"><a href="\/docs\/page-4" aria-current="page">Page 4<\/a><span class="visually-hidden"> \(current page\)<\/span><\/li>/);
  t.equal(count(html, '(not visited yet)'), 3);

  const derived = render(<Siblings model={{ heading: 'Guide progress', mode: 'progress', items: siblings(4, 1) }} />);
  t.same([...derived.matchAll(/class="progress-(\w+)"/g)].map((m) => m[1]), ['visited', 'current', 'upcoming', 'upcoming'], 'derived from the position when not given');
});

const tree: PageTreeModel = {
  title: 'Tracklight Cloud', href: '/tracklight-cloud/docs',
  nodes: [
    { id: 'a', title: 'Basics', href: '/a', current: false, open: true, children: [
      { id: 'a1', title: 'Boards', href: '/a1', current: false, open: true, children: [
        { id: 'a1x', title: 'Board columns', href: '/a1x', current: true, open: false, children: [
          { id: 'too-deep', title: 'Too deep', href: '/deep', current: false, open: false, children: [] },
        ] },
      ] },
      { id: 'a2', title: 'Backlogs', href: '/a2', current: false, open: false, children: [
        { id: 'a2x', title: 'Sprints', href: '/a2x', current: false, open: false, children: [] },
      ] },
    ] },
    { id: 'b', title: 'Administration', href: '/b', current: false, open: false, children: [] },
  ],
};

t.test('PageTree: nested disclosures, open and current flags, three levels', async (t) => {
  const html = withoutProps(render(<PageTree tree={tree} />));
  t.match(html, /^<div class="island" data-island="page-tree" data-hydrate="interaction"><details class="page-tree-disclosure"><summary class="page-tree-toggle">Documentation<\/summary><nav aria-label="Documentation" class="page-tree">/,
    'the page-tree island: the whole tree in a closed disclosure (shown open from 768 px by CSS)');
  t.match(html, '<a href="/tracklight-cloud/docs">Tracklight Cloud</a>', 'tree title link');
  t.equal(count(html, '<details>') + count(html, '<details open=""'), 3, 'one disclosure per node with children (within three levels)');
  t.equal(count(html, '<summary>'), 3, 'each with a summary');
  t.equal(count(html, '<details open=""'), 2, 'open nodes start open');
  t.match(html, /<a href="\/a2">Backlogs<\/a><details><summary>/, 'a closed branch');
  t.match(html, /<a href="\/a">Basics<\/a><details open=""><summary><span class="visually-hidden">Pages in Basics<\/span><\/summary>/);
  t.equal(count(html, 'aria-current="page"'), 1);
  t.match(html, '<a href="/a1x" aria-current="page">Board columns</a>');
  t.notMatch(html, 'Too deep', 'no fourth level');
  t.equal(count(html, '<ul'), 4, 'three nested levels of lists');
  const summaries = [...html.matchAll(/<summary>([^]*?)<\/summary>/g)].map((m) => m[1] ?? '');
  t.ok(summaries.every((s) => !s.includes('<a ')), 'no link inside a summary (nested interactive)');
});

const selector = (over: Partial<DeploymentSelectorModel>): DeploymentSelectorModel => ({
  current: 'cloud', versions: [], versionAction: '/version', versionFields: {}, ...over,
});

t.test('DeploymentSelector shows only with a cloud URL and a Data Center URL or versions', async (t) => {
  t.equal(render(<DeploymentSelector model={selector({})} />), '', 'nothing without URLs');
  t.equal(render(<DeploymentSelector model={selector({ cloudHref: '/c' })} />), '', 'cloud alone: hidden');
  t.equal(render(<DeploymentSelector model={selector({ dataCenterHref: '/d', versions: [{ number: '9.5', selected: true }] })} />), '', 'no cloud URL: hidden');

  const both = render(<DeploymentSelector model={selector({ cloudHref: '/c', dataCenterHref: '/d' })} />);
  t.notMatch(both, 'data-island', 'no island without versions');
  t.match(both, '<a class="deployment-option is-current" href="/c" aria-current="page">Cloud</a>');
  t.match(both, '<a class="deployment-option" href="/d">Data Center</a>');
  t.notMatch(both, '<form', 'no version form without versions');

  const versions = render(<DeploymentSelector model={selector({
    current: 'data-center', cloudHref: '/c',
    versions: [{ number: '9.5', selected: false }, { number: '9.2', selected: true }, { number: '8.9', selected: false }],
    versionAction: '/pagewell-data-center/version', versionFields: { page: 'tune-the-content-cache', context: 'pagewell-data-center' },
  })} />);
  t.match(versions, /<form class="version-form" method="get" action="\/pagewell-data-center\/version">/);
  t.match(versions, '<input type="hidden" name="page" value="tune-the-content-cache"/>');
  t.match(versions, '<input type="hidden" name="context" value="pagewell-data-center"/>');
  t.match(versions, /<label for="version-select">[^<]+<\/label><select id="version-select" name="version">/, 'a labelled select');
  t.match(versions, '<option value="9.2" selected="">9.2</option>', 'the selected version is marked');
  t.equal(count(versions, 'selected=""'), 1);
  t.match(versions, '<button type="submit" class="auto-submit-button">Go</button>');
  t.match(versions, /<script type="application\/json" data-island-props="version-selector">.*<\/script><div class="island" data-island="version-selector" data-hydrate="interaction"><form/, 'the form is the version-selector island');
  t.match(versions, /<span class="deployment-option is-current" aria-current="page">Data Center<\/span>/, 'current without a URL');
});

t.test('NoticeBanner', async (t) => {
  const html = render(<NoticeBanner notice={{ title: 'New navigation', appearance: 'change', message: { html: trustRenderedMarkup('<p>Menus moved.</p>') } }} />);
  t.match(html, /^<div role="note" class="notice-banner notice-change"><p class="notice-title"><strong>New navigation<\/strong><\/p>/);
  t.match(html, '<p>Menus moved.</p>');
});

t.test('FeedbackForm states', async (t) => {
  const ask = render(<FeedbackForm feedback={feedback('ask')} />);
  t.match(ask, /<script type="application\/json" data-island-props="feedback">.*<\/script><div class="island" data-island="feedback" data-hydrate="interaction"><section id="feedback"/);
  t.match(ask, '<h2 id="feedback-heading">Was this helpful?</h2>');
  t.match(ask, '<form method="post" action="/feedback"');
  t.match(ask, '<input type="hidden" name="_csrf" value="tok&amp;en"/>');
  t.match(ask, '<input type="hidden" name="entryId" value="tracklight-cloud-create-an-issue"/>');
  t.match(ask, '<input type="hidden" name="returnTo" value="/tracklight-cloud/docs/create-an-issue"/>');
  t.match(ask, '<button type="submit" name="helpful" value="yes">Yes</button>');
  t.match(ask, '<button type="submit" name="helpful" value="no">No</button>');
  t.notMatch(ask, 'name="reason"');
  t.match(ask, '<div role="status" class="feedback-status"></div>', 'an empty live region, for the thanks shown in place');

  const reasons = render(<FeedbackForm feedback={feedback('reasons')} />);
  t.match(reasons, '<input type="hidden" name="_csrf" value="tok&amp;en"/>');
  t.match(reasons, '<input type="hidden" name="helpful" value="no"/>');
  t.match(reasons, '<legend>What went wrong?</legend>');
  t.equal(count(reasons, 'type="radio"'), 3);
  for (const [value, label] of [['not-accurate', 'It wasn&#x27;t accurate'], ['not-clear', 'It wasn&#x27;t clear'], ['not-relevant', 'It wasn&#x27;t relevant']]) {
    t.match(reasons, new RegExp(`<input type="radio" id="feedback-reason-${value}" name="reason"( required="")? value="${value}"/>`));
    t.match(reasons, `<label for="feedback-reason-${value}">${label}</label>`, `${value} labelled`);
  }
  t.equal(count(reasons, 'required=""'), 1, 'a reason must be chosen (one required radio covers the group)');
  t.match(reasons, '<button type="submit">Send</button>');
  t.notMatch(reasons, 'value="yes"');

  const thanks = render(<FeedbackForm feedback={feedback('thanks')} />);
  t.match(thanks, '<div role="status" class="feedback-status"><p class="feedback-thanks">Thanks for your feedback.</p></div>');
  t.notMatch(thanks, '<form');
});

t.test('UpNext', async (t) => {
  const html = render(<UpNext model={{ previous: { title: 'Install', href: '/install' }, next: { title: 'Configure', href: '/configure' }, otherSets: [{ title: 'Administer', href: '/admin' }] }} />);
  t.match(html, /<a href="\/install" rel="prev"><span class="up-next-arrow" aria-hidden="true">←<\/span><span class="up-next-label">Previous<\/span> <span class="up-next-title">Install<\/span><\/a>/);
  t.match(html, /<a href="\/configure" rel="next">.*Next.*Configure.*→/);
  t.match(html, '<h3>More in this guide</h3>');
  t.match(html, '<a href="/admin">Administer</a>');
  t.equal(render(<UpNext model={{ otherSets: [] }} />), '', 'nothing to show');
  t.notMatch(render(<UpNext model={{ next: { title: 'Configure', href: '/configure' }, otherSets: [] }} />), 'More in this guide');
});

const topic = (over: Partial<TopicPageModel> = {}): TopicPageModel => ({
  chrome, breadcrumbs: [{ label: 'Support', href: '/' }, { label: 'Tracklight Cloud', href: '/tracklight-cloud/docs' }],
  tree, deploymentSelector: selector({ cloudHref: '/c', dataCenterHref: '/d' }),
  notice: null, title: 'Create an issue', version: null, featuredVideo: null,
  body: { html: trustRenderedMarkup('<h2 id="one">One</h2><p>Text</p>') },
  toc: [{ id: 'one', text: 'One', level: 2 }], lastPublished: '2026-03-04T23:30:00Z',
  feedback: feedback('ask'), contact, exploreMore: [{ title: 'Boards', href: '/boards' }],
  siblings: { heading: 'In this section', mode: 'window', items: siblings(3, 1) },
  communityHref: 'https://community.example.test/tracklight', upNext: null, ...over,
});

t.test('TopicPage', async (t) => {
  const html = render(<TopicPage {...topic()} />);
  t.equal(h1Count(html), 1, 'one heading 1');
  t.match(html, '<h1>Create an issue</h1>');
  t.match(html, '<nav aria-label="Documentation"', 'the tree');
  t.match(html, 'aria-label="Breadcrumbs"');
  t.match(html, 'aria-label="Deployment"', 'the deployment selector');
  t.match(html, 'Updated on March 4, 2026');
  t.match(html, 'Was this helpful?');
  t.match(html, 'Not finding the help you need?', 'the contact block');
  t.notMatch(html, 'On this page', 'one toc entry: no table of contents');
  t.notMatch(html, 'role="note"', 'no notice');
  t.notMatch(html, 'featured-video', 'no featured video');
  t.notMatch(html, 'Up next');
  t.same(duplicateIds(html), [], 'ids are unique');
  t.equal(count(html, '<aside'), 1);
  const aside = html.slice(html.indexOf('<aside'), html.indexOf('</aside>'));
  t.match(aside, /^<aside aria-label="More on this topic"/);
  t.match(aside, '<h2>Explore more</h2>');
  t.match(aside, '<a href="/boards">Boards</a>');
  t.match(aside, 'In this section');
  t.match(aside, '<a href="https://community.example.test/tracklight">Ask the community</a>');
  const article = html.slice(html.indexOf('<article'), html.indexOf('</article>'));
  t.notMatch(article, '<aside', 'the sidebar is not inside the article');
  t.ok(html.indexOf('</article><aside') > -1, 'the sidebar sits next to the article in the page grid');

  const toc = render(<TopicPage {...topic({ toc: [{ id: 'one', text: 'One', level: 2 }, { id: 'two', text: 'Two', level: 3 }] })} />);
  t.match(toc, /On this page<\/h2><ul><li class="toc-level-2"><a href="#one">One<\/a><\/li><li class="toc-level-3"><a href="#two">Two<\/a><\/li><\/ul>/, 'two toc entries: shown');

  const full = render(<TopicPage {...topic({
    notice: { title: 'Heads up', appearance: 'info', message: { html: trustRenderedMarkup('<p>Changing soon.</p>') } },
    version: '9.5', featuredVideo: { videoUrl: 'https://video.example.test/v/1' },
    deploymentSelector: selector({ cloudHref: '/c' }), tree: null, siblings: null, exploreMore: [],
    upNext: { previous: { title: 'Install', href: '/install' }, next: { title: 'Configure', href: '/configure' }, otherSets: [] },
  })} />);
  t.match(full, '<div role="note" class="notice-banner notice-info">');
  t.match(full, '<p class="version-note">Data Center 9.5</p>');
  // Spec §2: the featured video is the player body videos get (::video), named after the topic.
  t.match(full, '<div class="featured-video"><div class="video-frame"><iframe src="https://video.example.test/v/1" title="Video: Create an issue" loading="lazy" allowfullscreen=""');
  t.notMatch(full, 'Watch the video', 'not a link to it');
  t.notMatch(full, 'data-island="version-selector"', 'selector hidden by the rule');
  t.notMatch(full, 'aria-label="Documentation"', 'no tree');
  t.notMatch(full, 'Explore more');
  t.match(full, 'Up next');
  t.ok(full.indexOf('Up next') > full.indexOf('Changing soon') && full.indexOf('Up next') < full.indexOf('Was this helpful?'), 'up next after the body, before feedback');
  t.same(duplicateIds(full), []);
});

t.test('TopicSetPage', async (t) => {
  const model: TopicSetPageModel = {
    chrome, breadcrumbs: [{ label: 'Support', href: '/' }], tree, title: 'Work with boards',
    overview: { html: trustRenderedMarkup('<p>Boards overview.</p>') },
    topics: Array.from({ length: 7 }, (_, i) => ({ title: `Topic ${i + 1}`, href: `/t${i + 1}` })),
    feedback: feedback('thanks'), contact,
    siblings: { heading: 'In this guide', mode: 'window', items: siblings(3, 0) },
    upNext: { next: { title: 'Next set', href: '/next' }, otherSets: [] },
  };
  const html = withoutProps(render(<TopicSetPage {...model} />));
  t.equal(h1Count(html), 1);
  t.match(html, '<p>Boards overview.</p>');
  t.equal(count(html, 'View topic'), 7, 'every child topic has a View topic link');
  const [shown, more] = html.split('<details class="show-more"');
  t.equal(count(shown ?? '', 'View topic'), 5, 'five before show more');
  t.match(more ?? '', /<summary>Show 2 more<\/summary>/);
  t.match(html, 'Thanks for your feedback.');
  t.match(html, 'Not finding the help you need?');
  t.match(html, /<aside aria-label="More in this section"[^]*In this guide/);
  t.match(html, 'Next set');
  t.same(duplicateIds(html), []);
});

const kb = (over: Partial<KbArticleModel> = {}): KbArticleModel => ({
  chrome, breadcrumbs: [{ label: 'Tracklight Knowledge Base', href: '/tracklight/kb' }], title: 'Node stuck starting',
  notice: {
    platform: 'data-center-only', labels: { cloud: 'Cloud', dataCenter: 'Data Center' },
    endOfSupport: [{
      text: 'Support for Server products ended on {date}. If you are running a Server product, you can visit the {link} to review your migration options.',
      date: 'February 15th 2024', linkText: 'Fernhollow Server end of support announcement', href: 'https://www.example.test/server-eos',
    }],
  },
  body: { html: trustRenderedMarkup('<h2 id="summary">Summary</h2>') }, lastPublished: '2026-01-31T12:00:00Z',
  products: [{ name: 'Tracklight', platform: 'Data Center', version: '10.4 and later' }],
  sidebarPlatform: null, feedback: feedback('reasons'), contact, staffEditHint: true, ...over,
});

t.test('KbArticlePage', async (t) => {
  const html = render(<KbArticlePage {...kb()} />);
  t.equal(h1Count(html), 1);
  t.match(html, 'Platform notice: Data Center only');
  t.match(html, 'you can visit the <a href="https://www.example.test/server-eos">Fernhollow Server end of support announcement</a> to review');
  t.match(html, 'Support for Server products ended on February 15th 2024.');
  const noServer = render(<KbArticlePage {...kb({ notice: { platform: 'data-center-only', labels: { cloud: 'Cloud', dataCenter: 'Data Center' }, endOfSupport: [] } })} />);
  t.notMatch(noServer, 'Server end of support', 'no Server sentence for products that never had Server');
  const selfHosted = render(<KbArticlePage {...kb({ notice: { platform: 'cloud-and-data-center', labels: { cloud: 'SaaS', dataCenter: 'On-premises' }, endOfSupport: [] } })} />);
  t.match(selfHosted, 'Platform notice: SaaS and On-premises', 'the site\'s deployment labels');
  t.match(selfHosted, 'This article applies to both SaaS and On-premises products.');
  t.notMatch(selfHosted, 'Data Center only');
  t.match(html, 'Updated on January 31, 2026');
  t.match(html, '<li>Tracklight Data Center 10.4 and later</li>');
  t.match(html, 'What went wrong?');
  t.match(html, 'Not finding the help you need?');
  t.notMatch(html, 'Platform: ', 'no sidebar platform');
  t.notMatch(html, 'Edit this KB Article', 'not staff');
  t.notMatch(html, '<aside', 'no empty sidebar');
  t.ok(html.indexOf('What went wrong?') < html.indexOf('Related products') && html.indexOf('Related products') < html.indexOf('Not finding'), 'feedback, related products, contact');

  const staffChrome = { ...chrome, visitor: { ...ANONYMOUS, staff: true }, staffEditHref: 'https://docs.example.test/pages/42/edit' };
  const staff = render(<KbArticlePage {...kb({ chrome: staffChrome, sidebarPlatform: 'Tracklight Data Center' })} />);
  t.match(staff, /<aside aria-label="About this article"[^>]*><p class="kb-platform">Platform: Tracklight Data Center<\/p>/);
  t.match(staff, '<a href="https://docs.example.test/pages/42/edit" target="_blank" rel="noopener">Edit this KB Article<span class="visually-hidden"> (opens in a new tab)</span></a>');
  const noHint = render(<KbArticlePage {...kb({ chrome: staffChrome, staffEditHint: false })} />);
  t.notMatch(noHint, 'Edit this KB Article', 'staff, but no hint for this article');
  const noEditor = render(<KbArticlePage {...kb({ chrome: { ...staffChrome, staffEditHref: undefined } })} />);
  t.notMatch(noEditor, 'Edit this KB Article', 'staff, but no editor to lead to');
  t.same(duplicateIds(staff), []);
});
