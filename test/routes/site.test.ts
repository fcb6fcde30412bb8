import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { build, SAMPLE_CONTENT, PREVIEW_TOKEN } from '../helpers/build.ts';

t.test('the sample help centre', async (t) => {
  const app = await build(t, { contentDir: SAMPLE_CONTENT });

  t.test('every page in the sitemap renders with one h1, a canonical URL and cache validators', async (t) => {
    const sitemap = await app.inject('/sitemap.xml');
    const paths = [...sitemap.body.matchAll(/<loc>https:\/\/help\.example\.test([^<]+)<\/loc>/g)].map((m) => m[1] as string);
    t.ok(paths.length > 250, `${paths.length} pages`);
    const failures: string[] = [];
    for (const path of paths) {
      const res = await app.inject(path);
      if (res.statusCode !== 200) failures.push(`${path}: ${res.statusCode}`);
      else if ((res.body.match(/<h1[ >]/g) ?? []).length !== 1) failures.push(`${path}: ${(res.body.match(/<h1[ >]/g) ?? []).length} h1`);
      // A page with a support form carries a submission key of its own on every render: never shared.
      else if (/data-support-form/.test(res.body)) {
        if (res.headers['cache-control'] !== 'private, no-store') failures.push(`${path}: a form page must be private`);
      } else if (!res.headers.etag || !/^public/.test(String(res.headers['cache-control']))) failures.push(`${path}: no validator`);
    }
    t.same(failures, []);
    for (const unindexed of ['/search-results', '/requests', '/file-download']) {
      t.notOk(paths.includes(unindexed), `the sitemap leaves out ${unindexed}`);
    }
  });

  t.test('page types render their rules', async (t) => {
    const home = await app.inject('/');
    t.match(home.body, "Tell us what you&#x27;re looking for");
    t.notMatch(home.body, 'Billing and licensing', 'cards hidden in the header are skipped on the home page');
    t.match(home.body, 'Tracklight');
    const dc = await app.inject('/?platform=data-center');
    t.match(dc.body, 'href="/tracklight-data-center"');

    const docs = await app.inject('/tracklight-cloud/docs');
    t.match(docs.body, 'name="product" value="tracklight"');
    t.match(docs.body, 'name="deployment" value="cloud"');
    const dcDocs = await app.inject('/tracklight-data-center/11.3/docs');
    t.match(dcDocs.body, 'name="version" value="11.3"');
    t.match(dcDocs.body, 'name="deployment" value="data_center"');

    const collection = await app.inject('/tracklight-cloud/docs/search-and-filters');
    t.match(collection.body, 'View topic');
    const guide = await app.inject('/tracklight-cloud/docs/get-started');
    t.match(guide.body, 'View topics');

    const hub = await app.inject('/migration/docs/plan-and-run-your-migration');
    t.match(hub.body, 'Cloud migration', 'a hub collection is titled from its context');
    t.notMatch(hub.body, 'name="version"', 'hub collections have no deployment selector');
    t.match(collection.body, 'href="/tracklight-data-center"', 'product collections have one');

    t.match((await app.inject('/tracklight-cloud')).body, 'href="/tracklight-cloud/resources"', 'the landing page links its related resources');
    const resources = await app.inject('/tracklight-cloud/resources');
    t.equal(resources.statusCode, 200);
    t.match(resources.body, 'Fernhollow Community');
    const slashed = await app.inject('/tracklight-cloud/resources/');
    t.equal(slashed.statusCode, 200, 'the related resources take a trailing slash, as every other page does');
    t.match(slashed.body, 'Fernhollow Community');
    t.match(slashed.body, '<link rel="canonical" href="https://help.example.test/tracklight-cloud/resources"/>', 'one canonical address');
    t.equal((await app.inject('/no-such-product/resources/')).statusCode, 404, 'an unknown product is still not found');

    const kbHome = await app.inject('/tracklight/kb');
    t.match(kbHome.body, '<h1>Tracklight Knowledge Base</h1>');
    t.match(kbHome.body, 'action="/search-results/"');
    t.match(kbHome.body, 'More ways to get help');

    const contact = await app.inject('/contact');
    t.match(contact.body, /<form method="post" action="\/contact" data-support-form/, 'the contact page carries its built-in form');
    t.match(contact.body, 'name="email"', 'anonymous visitors give an e-mail address');
    const ja = await app.inject('/ja/contact');
    t.match(ja.body, '<html lang="ja"');
    t.match(ja.body, 'href="/ja/legal/privacy-policy"', 'footer links carry the /ja prefix');
    const partner = await app.inject('/partnercontact');
    t.match(partner.body, 'https://partners.fernhollow.example/portal');
    t.equal((await app.inject('/requests')).statusCode, 200);
    t.equal((await app.inject('/file-download')).statusCode, 200);
  });

  t.test('copy says each thing once and links what it names', async (t) => {
    const landing = (await app.inject('/tracklight-cloud')).body;
    const helpful = landing.slice(landing.indexOf('class="helpful-topics"'));
    t.equal(helpful.split('Training and certification').length - 1, 1, 'a card leading where an always-shown link leads is not shown twice');
    t.match(landing, '>Tracklight Cloud documentation</a>', 'product links are named by what they lead to, not by the page title');
    t.match(landing, '>Tracklight Knowledge Base</a>');
    t.match(landing, '>Tracklight Cloud resources</a>');
    t.notMatch(landing, /support (documentation|knowledge base|resources)</);
    t.match(landing, /Read <a href="\/tracklight-cloud\/docs\/search-issues-with-tql"[^>]*>Search issues with TQL<\/a>/, 'the notice links the page it names');
    const codebarn = (await app.inject('/codebarn-cloud')).body;
    t.notMatch(codebarn.slice(codebarn.indexOf('class="helpful-topics"')), 'Developer documentation', 'nor a card with another name but the same place');
    const report = (await app.inject('/report-problem')).body;
    const label = /<label for="field-email">(.*?)<\/label>/.exec(report)?.[1]?.replace(/<[^>]*>/g, '');
    t.equal(label, 'Your e-mail address (optional)', 'the label says "optional" once');
  });

  t.test('guide topics show progress and up next', async (t) => {
    const res = await app.inject('/tracklight-cloud/docs/configure-board-columns');
    t.equal(res.statusCode, 200);
    t.match(res.body, /visited|upcoming/);
    t.match(res.body, 'More in this guide');
    // Spec §2: the featured video (its flag is on in the sample) is the player body videos get.
    t.match(res.body, /<div class="featured-video"><div class="video-frame"><iframe src="https:\/\/video\.fernhollow\.example\/v\/board-basics" title="Video: [^"]+"/);
  });

  t.test('the version selector goes to the same page in another version, or explains', async (t) => {
    const ok = await app.inject('/version-switch?entry=tracklight-data-center-add-a-cluster-node&version=10.4&from=11.3');
    t.equal(ok.statusCode, 303);
    t.equal(ok.headers.location, '/tracklight-data-center/10.4/docs/add-a-cluster-node');
    const missing = await app.inject('/version-switch?entry=tracklight-data-center-configure-json-logging&version=10.4&from=11.3');
    t.equal(missing.statusCode, 404);
    t.match(missing.body, 'Unable to find page');
    t.match(missing.body, 'This exact page does not exist in our Data Center 10.4 documentation. Would you like to look for an alternative page?');
    t.match(missing.body, 'href="/tracklight-data-center/10.4/docs"', 'Browse goes to that version');
    t.match(missing.body, 'href="/tracklight-data-center/11.3/docs/configure-json-logging"', 'Cancel goes back');
    t.match(missing.body, /href="\/search-results\/\?searchTerm=[^"]*deployment=data_center[^"]*version=10.4/);
    const unknown = await app.inject('/version-switch?entry=x&version=latest');
    t.equal(unknown.statusCode, 404, 'an unknown entry is the not-found page, in the site chrome');
    t.match(unknown.body, 'id="not-found-search"');
    t.equal((await app.inject('/version-switch')).statusCode, 404, 'a bare version switch is not a bare 400');
    const noVersion = await app.inject('/version-switch?entry=tracklight-data-center-configure-json-logging&version=latest&from=11.3');
    t.equal(noVersion.statusCode, 303);
    t.equal(noVersion.headers.location, '/tracklight-data-center/11.3/docs/configure-json-logging', 'a malformed version goes back');
    t.equal((await app.inject('/tracklight-data-center/11.3')).headers.location, '/tracklight-data-center/11.3/docs');
  });

  t.test('signing in from an older version comes back to that version\'s page', async (t) => {
    const older = '/tracklight-data-center/10.4/docs/add-a-cluster-node';
    const res = await app.inject(older);
    t.equal(res.statusCode, 200);
    const back = `/auth/login?continue=${encodeURIComponent(`https://help.example.test${older}`)}`;
    t.match(res.body, `<a class="header-button header-button-primary" href="${back}">`, 'Sign in');
    t.match(res.body, `<a class="header-link" href="${back}">`, 'Log in to contact support');
    t.notMatch(res.body, /href="\/auth\/login\?continue=[^"]*%2F11\.3%2F/, 'never the latest version');
    const again = await app.inject(older);
    t.match(again.body, `href="${back}"`, 'the cached page too');
    const latest = await app.inject('/tracklight-data-center/11.3/docs/add-a-cluster-node');
    t.match(latest.body, `href="/auth/login?continue=${encodeURIComponent('https://help.example.test/tracklight-data-center/11.3/docs/add-a-cluster-node')}"`);
  });

  t.test('legal pages, the Japanese home and the site icon come from content', async (t) => {
    for (const path of ['/legal/accessibility', '/legal/privacy-choices', '/legal/privacy-policy', '/legal/cloud-terms-of-service',
      '/legal/impressum', '/trust/security']) {
      const en = await app.inject(path);
      t.equal(en.statusCode, 200, path);
      t.match(en.body, '<html lang="en"');
      const ja = await app.inject(`/ja${path}`);
      t.equal(ja.statusCode, 200, `/ja${path}`);
      t.match(ja.body, '<html lang="ja"');
    }
    const jaHome = await app.inject('/ja');
    t.equal(jaHome.statusCode, 200, 'the Japanese logo link leads to a Japanese home');
    t.match(jaHome.body, '<a class="site-logo" href="/ja">');
    t.match(jaHome.body, 'href="/ja/legal/accessibility"');
    const icon = await app.inject('/favicon.ico');
    t.equal(icon.statusCode, 301);
    t.equal((await app.inject(String(icon.headers.location))).statusCode, 200, 'the icon it points to exists');
    t.match((await app.inject('/')).body, /<link rel="icon" href="\/assets\/content\/[^"]+"/);
  });

  t.test('knowledge-base labels and links', async (t) => {
    const portfolio = await app.inject('/plotline/kb/capacity-shows-zero-for-team');
    t.match(portfolio.body, '<li>Plotline Data Center 3.8 and later</li>', 'the self-hosted label is not followed by its platform again');
    t.notMatch(portfolio.body, 'Data Center Data Center');
    t.notMatch(portfolio.body, 'Server end of support', 'a product that never had Server');
    const dc = await app.inject('/tracklight/kb/cluster-node-stuck-starting');
    t.match(dc.body, /you can visit the <a href="https:\/\/[^"]+">Fernhollow Server end of support announcement<\/a>/);
  });

  t.test('ask the community: a new post on the community, tagged with the page\'s products and deployments', async (t) => {
    const ask = (tags: string) => `href="https://community.fernhollow.example/posts/new?add-tags=${tags}"`;
    const topic = (await app.inject('/tracklight-cloud/docs/create-a-project')).body;
    t.match(topic, `<p class="community-link"><a ${ask('Tracklight,Cloud')}>Ask the community</a></p>`, 'the topic\'s sidebar');
    t.match(topic, `<a ${ask('Tracklight,Cloud')}>Ask the community</a></li>`, 'its contact block');
    const dc = (await app.inject('/tracklight-data-center/10.4/docs/add-a-cluster-node')).body;
    t.match(dc, ask('Tracklight,Data%20Center'), 'the deployment as the site names it');
    const kb = (await app.inject('/tracklight/kb/cluster-node-stuck-starting')).body;
    t.match(kb, ask('Tracklight,Data%20Center'), 'a KB article: its products and platforms');
    t.match((await app.inject('/tracklight-cloud')).body, ask('Tracklight,Cloud'), 'a product landing page');
    const home = (await app.inject('/')).body;
    t.match(home, '<a href="https://community.fernhollow.example">Ask the community</a>', 'a page about no product: the community itself');
    t.notMatch(home, 'add-tags=');
  });

  t.test('guide navigation and explore more follow the reader\'s place', async (t) => {
    const set = await app.inject('/tracklight-cloud/docs/set-up-your-project');
    t.match(set.body, /<a href="\/tracklight-cloud\/docs\/create-a-project" rel="next">/, 'next from a topic set is its first topic');
    const topic = await app.inject('/tracklight-cloud/docs/create-a-project');
    const explore = /Explore more<\/h2><ul>([^]*?)<\/ul>/.exec(topic.body)?.[1] ?? '';
    t.notMatch(explore, '/tracklight-cloud/docs/get-started', 'not the collection being read');
    t.match(explore, '/tracklight-cloud/docs/search-and-filters');
  });

  t.test('icons at the sizes of spec §9: guide cards 100x100, the page tree 40x40, the product 75x110', async (t) => {
    const docs = (await app.inject('/tracklight-cloud/docs')).body;
    const guides = /<section class="guides"[^]*?<\/section>/.exec(docs)?.[0] ?? '';
    t.match(guides, '<img class="card-icon" src="/assets/content/icons/guide.svg" alt="" width="100" height="100"', 'the guide card shows its guide\'s icon');
    t.match(docs, '<img class="product-icon" src="/assets/content/icons/tracklight.svg" alt="" width="75" height="110"/>');
    const tree = '<img class="page-tree-icon" loading="lazy" src="/assets/content/icons/tracklight.svg" alt="" width="40" height="40"/>';
    t.match(docs, tree, 'the page tree of the documentation home');
    t.match((await app.inject('/tracklight-cloud/docs/configure-board-columns')).body, tree, 'and of a topic');
    t.match((await app.inject('/tracklight-cloud')).body, 'width="75" height="110"', 'the product landing page');
  });

  t.test('schema.org linked data from the site metadata (spec §3), valid JSON in a data block', async (t) => {
    const site = parse(readFileSync(join(SAMPLE_CONTENT, 'site.yaml'), 'utf8')) as Record<string, unknown>;
    const graphOf = (html: string) => {
      const blocks = [...html.matchAll(/<script type="application\/ld\+json">([^]*?)<\/script>/g)];
      t.equal(blocks.length, 1, 'one linked-data block');
      const data = JSON.parse(blocks[0]?.[1] ?? 'null') as { '@context': string; '@graph': Record<string, any>[] };
      t.equal(data['@context'], 'https://schema.org');
      return Object.fromEntries(data['@graph'].map((node) => [node['@type'], node]));
    };
    const home = graphOf((await app.inject('/')).body);
    t.match(home.Organization, {
      '@id': 'https://help.example.test/#organization', name: site.publisher, legalName: site.legalName, url: 'https://help.example.test/',
      brand: { '@type': 'Brand', name: site.brand }, logo: { url: `https://help.example.test${String(site.logo)}` },
    });
    t.same(home.Organization.owns, (site.owns as string[]).map((name) => ({ '@type': 'Product', name })), 'the products it owns');
    t.match(home.WebSite, {
      name: site.siteName, inLanguage: site.language, publisher: { '@id': 'https://help.example.test/#organization' },
      license: { '@type': 'CreativeWork', name: site.license },
      potentialAction: {
        '@type': 'SearchAction', 'query-input': 'required name=search_term_string',
        target: { urlTemplate: 'https://help.example.test/search-results/?searchTerm={search_term_string}' },
      },
    });
    t.notOk(home.BreadcrumbList, 'the home page has no trail');

    const topicPath = '/tracklight-cloud/docs/write-rich-issue-descriptions';
    const topicHtml = (await app.inject(topicPath)).body;
    const topic = graphOf(topicHtml);
    const names = topic.BreadcrumbList.itemListElement.map((i: { name: string }) => i.name);
    const title = /<h1>([^<]+)<\/h1>/.exec(topicHtml)?.[1];
    t.same(topic.BreadcrumbList.itemListElement.map((i: { position: number }) => i.position), names.map((_: string, i: number) => i + 1));
    t.equal(topic.BreadcrumbList.itemListElement[0].item, 'https://help.example.test/', 'absolute addresses');
    t.equal(topic.BreadcrumbList.itemListElement.at(-1).item, `https://help.example.test${topicPath}`, 'the page itself ends the trail');
    t.equal(names.at(-1), title);
    t.match(/<img [^>]*src="\/assets\/content\/board-view\.svg"[^>]*>/.exec(topicHtml)?.[0], /width="640" height="360"/,
      "an image of the application's own folder reserves its box too");
    t.match(topicHtml, /<nav class="on-this-page"[^>]*>[\s\S]*?href="#formatting-issue-descriptions"/, 'a body with an image keeps its contents list');
    t.match(topic.TechArticle, {
      headline: title, url: `https://help.example.test${topicPath}`, isPartOf: { '@id': 'https://help.example.test/#website' },
      publisher: { '@id': 'https://help.example.test/#organization' }, dateModified: /^\d{4}-\d\d-\d\dT/,
    });
    t.ok(graphOf((await app.inject('/tracklight/kb/cluster-node-stuck-starting')).body).TechArticle, 'a knowledge-base article');
    t.ok(graphOf((await app.inject('/tracklight-cloud/docs/plan-your-first-sprint')).body).TechArticle, 'a topic set');
    const collection = graphOf((await app.inject('/tracklight-cloud/docs/search-and-filters')).body);
    t.ok(collection.BreadcrumbList && !collection.TechArticle, 'a collection has its trail, and is no article');
  });

  t.test('preview errors say which fields are missing', async (t) => {
    const res = await app.inject(`/preview/tracklight-cloud-automate-issue-triage?preview=${PREVIEW_TOKEN}`);
    t.equal(res.statusCode, 200, 'an unpublished topic with its fields previews');
    t.match(res.body, 'PREVIEW MODE');
    t.equal(res.headers['cache-control'], 'private, no-store');
    t.equal((await app.inject('/preview/tracklight-cloud-automate-issue-triage')).statusCode, 404, 'not without the token');
    const error = await app.inject(`/preview/preview-error?preview=${PREVIEW_TOKEN}`);
    t.equal(error.statusCode, 422);
    t.match(error.body, '<h1>This preview can&#x27;t be built yet</h1>', 'the title comes from the preview-error page in content');
  });
});
