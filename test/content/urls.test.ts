import t, { type Test } from 'tap';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { classifyUrl, type UrlKind } from '../../server/content/urls.ts';
import { checkContent, importContent, currentDigest } from '../../server/content/import.ts';
import { ContentError, formatProblem } from '../../server/content/problems.ts';
import { parseMarkdown } from '../../server/content/markdown.ts';
import { renderRichText } from '../../views/rich-text/rich-text.tsx';
import { BLOCKS, INLINES, type Document } from '../../server/content/rich-text.ts';
import { build, tempContent, testDb, PREVIEW_TOKEN } from '../helpers/build.ts';

/**
 * The URL-scheme corpus (issue 8 item 7): what the one classifier makes of each spelling, which must
 * be what a browser makes of it.
 */
const CORPUS: [string, UrlKind][] = [
  // Schemes that run code or carry content, in every spelling a browser still reads as that scheme.
  ['javascript:alert(1)', 'unsafe'],
  ['JavaScript:alert(1)', 'unsafe'],
  ['JAVASCRIPT:alert(1)', 'unsafe'],
  ['java\tscript:alert(1)', 'unsafe'],
  ['java\nscript:alert(1)', 'unsafe'],
  ['java\rscript:alert(1)', 'unsafe'],
  ['java\r\nscript:alert(1)', 'unsafe'],
  ['javascript\n:alert(1)', 'unsafe'],
  ['javascript\t:alert(1)', 'unsafe'],
  ['j\ta\nv\ra\tscript:alert(1)', 'unsafe'],
  ['\tjavascript:alert(1)', 'unsafe'],
  ['\njavascript:alert(1)', 'unsafe'],
  [' javascript:alert(1)', 'unsafe'],
  ['   \t javascript:alert(1)', 'unsafe'],
  ['\u0001javascript:alert(1)', 'unsafe'],
  ['\u0000javascript:alert(1)', 'unsafe'],
  ['\u001fjavascript:alert(1)', 'unsafe'],
  ['\u000bjavascript:alert(1)', 'unsafe'],
  ['\u000cjavascript:alert(1)', 'unsafe'],
  ['javascript:alert(1)\u0000 ', 'unsafe'],
  ['jAvAsCrIpT\t:alert(1)', 'unsafe'],
  ['data:text/html,<script>alert(1)</script>', 'unsafe'],
  ['DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', 'unsafe'],
  ['da\nta:text/html,<script>alert(1)</script>', 'unsafe'],
  ['data:image/svg+xml,<svg onload=alert(1)>', 'unsafe'],
  ['vbscript:msgbox(1)', 'unsafe'],
  ['VBScript:msgbox(1)', 'unsafe'],
  ['vb\tscript:msgbox(1)', 'unsafe'],
  ['file:///etc/passwd', 'unsafe'],
  ['blob:https://help.example.test/x', 'unsafe'],
  ['ftp://files.example/x', 'unsafe'],
  ['https:', 'unsafe'],
  // Site paths that decode to another host wherever something decodes them before redirecting.
  ['/%2F%2Fevil.example', 'unsafe'],
  ['/%2f%2fevil.example/x', 'unsafe'],
  ['/%5C%5Cevil.example', 'unsafe'],
  // Other hosts, however written.
  ['//evil.example', 'external'],
  [' //evil.example', 'external'],
  ['/\\evil.example', 'external'],
  ['\\/evil.example', 'external'],
  ['\\\\evil.example', 'external'],
  ['/\t/evil.example', 'external'],
  ['/\n/evil.example/x', 'external'],
  ['///evil.example', 'external'],
  ['https:evil.example', 'external'],
  ['http:/evil.example', 'external'],
  ['https://help.example.test@evil.example/', 'external'],
  ['https://evil.example\\@help.example.test/', 'external'],
  ['https://\u0435xample.com/', 'external'],
  ['HTTPS://EVIL.EXAMPLE/', 'external'],
  ['ht\ttps://evil.example/', 'external'],
  ['https://evil.example/', 'external'],
  // mailto and tel.
  ['mailto:help@example.test', 'contact'],
  ['MAILTO:help@example.test', 'contact'],
  ['ma\tilto:help@example.test', 'contact'],
  ['tel:+15550100', 'contact'],
  // This site.
  ['/acme-cloud/docs/first-steps', 'site'],
  ['/acme-cloud/docs/first-steps?x=1#a', 'site'],
  ['#section', 'site'],
  ['?q=1', 'site'],
  ['relative/page', 'site'],
  ['./javascript:alert(1)', 'site'],
  ['/javascript:alert(1)', 'site'],
  ['javascript%3Aalert(1)', 'site'],
  ['javascript&#58;alert(1)', 'site'],
  ['java script:alert(1)', 'site'],
];

const ALLOWED = new Set(['http:', 'https:', 'mailto:', 'tel:']);
const BASE = 'https://help.example.test/';

t.test('the classifier reads each URL as a browser does', async (t) => {
  t.ok(CORPUS.length >= 60, `${CORPUS.length} variants`);
  for (const [raw, kind] of CORPUS) {
    const c = classifyUrl(raw);
    t.equal(c.kind, kind, `${JSON.stringify(raw)} is ${kind}`);
    if (c.kind === 'unsafe') continue;
    // What the browser would follow, on an https page and on an http one.
    for (const base of [BASE, BASE.replace('https:', 'http:')]) {
      const followed = new URL(c.href, base);
      t.ok(ALLOWED.has(followed.protocol), `${JSON.stringify(raw)} -> ${followed.protocol}`);
      if (kind === 'site') t.equal(followed.host, 'help.example.test', `${JSON.stringify(raw)} stays on the site`);
      if (kind === 'external') t.not(followed.host, 'help.example.test', `${JSON.stringify(raw)} leaves the site`);
    }
  }
  t.equal(classifyUrl('mailto:x@example.test', { images: true }).kind, 'unsafe', 'an image is never mailto');
  t.equal(classifyUrl('data:image/png;base64,AAAA', { images: true }).kind, 'unsafe', 'nor data:');
});

/** Every href and src attribute value in some HTML, entities decoded as the browser decodes them. */
function urlsIn(html: string): string[] {
  const decode = (s: string) => s.replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => decode(m[1] ?? ''));
}

function assertNoUnsafeUrl(t: Test, html: string) {
  for (const url of urlsIn(html)) {
    const protocol = new URL(url, BASE).protocol;
    t.ok(ALLOWED.has(protocol), `rendered URL ${JSON.stringify(url)} is ${protocol}`);
  }
}

function linkDocument(uris: string[]): Document {
  return {
    nodeType: BLOCKS.DOCUMENT, data: {},
    content: uris.map((uri) => ({
      nodeType: BLOCKS.PARAGRAPH, data: {},
      content: [{ nodeType: INLINES.HYPERLINK, data: { uri }, content: [{ nodeType: 'text', value: `link ${uri}`, marks: [], data: {} }] }],
    })),
  } as Document;
}

t.test('the renderer drops unsafe links to their text and marks other hosts as external', async (t) => {
  const html = renderRichText(linkDocument(CORPUS.map(([raw]) => raw)), {});
  assertNoUnsafeUrl(t, html);
  t.notMatch(html, /href="\s*(java|vb)script:/i, 'no script: scheme survives anywhere');
  t.match(html, '>link javascript:alert(1)</p>', 'an unsafe link is rendered as its text');
  t.match(html, '<a href="https://evil.example/" rel="noopener">link //evil.example</a>', '//host is rendered as the external link it is');
  t.match(html, '<a href="https://evil.example/" rel="noopener">link /\\evil.example</a>');
  t.match(html, '<a href="/acme-cloud/docs/first-steps">', 'site paths stay as written');
});

t.test('the import refuses every unsafe or off-site link, wherever it is written, and writes nothing', async (t) => {
  const dir = await tempContent(t);
  const db = await testDb(t);
  await importContent(db, dir);
  const before = await currentDigest(db);
  const lines = [
    'Welcome.', '',
    '[tab](java&#9;script:alert(1))', '',
    '[newline](javascript&#10;:alert(1))', '',
    '[cr](java&#13;script:alert(1))', '',
    '[angle](<java\tscript:alert(1)>)', '',
    '[space](&#x20;javascript:alert(1))', '',
    '[case](JaVaScRiPt:alert(1))', '',
    '<vbscript:msgbox(1)>', '',
    '[data](data:text/html,hi)', '',
    '![picture](javascript:alert(1))', '',
    '[fine](//elsewhere.example/x) and [fine too](/acme-cloud/docs/first-steps)', '',
  ];
  await writeFile(join(dir, 'topics/acme-cloud/first-steps.md'), [
    '---', 'id: acme-cloud-first-steps', 'title: First steps', 'slug: first-steps', 'context: acme-cloud', '---', ...lines,
  ].join('\n'));
  await mkdir(join(dir, 'notices'), { recursive: true });
  await writeFile(join(dir, 'notices/maintenance.yaml'), 'id: maintenance\ntitle: Maintenance\nappearance: info\nmessage: "See [status](java&#9;script:alert(1))."\n');
  await writeFile(join(dir, 'topics/acme-cloud/rich.yaml'), [
    'id: acme-cloud-rich', 'title: Rich', 'slug: rich', 'context: acme-cloud', 'body:', '  nodeType: document', '  data: {}', '  content:',
    '    - nodeType: paragraph', '      data: {}', '      content:',
    '        - nodeType: hyperlink', '          data: { uri: "java\\tscript:alert(1)" }',
    '          content: [{ nodeType: text, value: click, marks: [], data: {} }]',
  ].join('\n'));
  await writeFile(join(dir, 'header.yaml'), [
    'id: header', 'logo: { v1: { url: "java\\tscript:alert(1)" } }', 'cloudProducts: []', 'serverProducts: []', 'resources: []',
    'guides:', '  - { title: G, url: "//evil.example/guide", description: D }',
    'documentation:', '  - { id: d, title: D, url: "/\\\\evil.example", description: D }',
    'additionalLinks:', '  - { id: a, linkLabel: A, linkUrl: "javascript\\n:alert(1)" }', '  - { id: b, linkLabel: B, linkUrl: "https://ok.example/" }',
    'menus:', '  - id: m', '    heading: M', '    primarySection: [{ title: P, buttonLink: "data:text/html,x" }]',
    '    secondarySection: { heading: S, numberOfColumns: 1, resources: [{ linkText: R, url: "\\\\\\\\evil.example" }] }',
  ].join('\n'));
  await writeFile(join(dir, 'products/acme-cloud.yaml'), [
    'id: acme-cloud', 'productNameId: acme', 'productName: Acme', 'deployment: Cloud',
    'icon: { url: "mailto:x@example.test" }', 'deploymentUrls: { cloud: "vbscript:x", default: "https:evil.example" }',
    'customSupportFormAuthenticated: "/%2F%2Fevil.example"',
  ].join('\n'));
  await writeFile(join(dir, 'media/acme-screenshot.yaml'), 'id: acme-screenshot\nimage: { url: "data:image/svg+xml,<svg onload=alert(1)>" }\naltTag: The Acme widget\n');
  await mkdir(join(dir, 'featured'), { recursive: true });
  await writeFile(join(dir, 'featured/home.yaml'), 'id: home-featured\ntitle: F\nfeaturedEntries:\n  - { id: e, url: " javascript:alert(1)", linkText: E }\n');

  const { problems } = await checkContent(dir);
  const messages = problems.map(formatProblem);
  const expect = (re: RegExp, what: string) => t.ok(messages.some((m) => re.test(m)), `${what}: ${re}`);
  const topic = 'topics/acme-cloud/first-steps.md';
  expect(new RegExp(`^${topic}:9:\\d+: body: unsafe link "java\\\\tscript:alert\\(1\\)"`), 'tab in a Markdown link (entity)');
  expect(new RegExp(`^${topic}:11:\\d+: body: unsafe link "javascript\\\\n:alert\\(1\\)"`), 'newline in a Markdown link');
  expect(new RegExp(`^${topic}:13:\\d+: body: unsafe link "java\\\\rscript`), 'carriage return');
  expect(new RegExp(`^${topic}:15:\\d+: body: unsafe link "java\\\\tscript`), 'angle-bracket destination with a tab');
  expect(new RegExp(`^${topic}:17:\\d+: body: unsafe link " javascript:`), 'leading space');
  expect(new RegExp(`^${topic}:19:\\d+: body: unsafe link "JaVaScRiPt:`), 'mixed case');
  expect(new RegExp(`^${topic}:21:\\d+: body: unsafe link "vbscript:`), 'autolink');
  expect(new RegExp(`^${topic}:23:\\d+: body: unsafe link "data:`), 'data:');
  expect(new RegExp(`^${topic}:25:\\d+: body: unsafe image source "javascript:`), 'image source');
  t.notOk(messages.some((m) => m.startsWith(`${topic}:27:`)), 'an off-site body link is allowed (rendered as external)');
  expect(/^notices\/maintenance\.yaml:4: message: unsafe link "java\\tscript/, 'notice message');
  expect(/^topics\/acme-cloud\/rich\.yaml:\d+(?::\d+)?: body: unsafe link "java\\tscript/, 'rich-text hyperlink uri');
  expect(/^header\.yaml:2(?::\d+)?: logo\.v1\.url: unsafe link "java\\tscript/, 'logo');
  expect(/^header\.yaml:\d+(?::\d+)?: guides\.0\.url: "\/\/evil\.example\/guide" is not a site path/, 'guide //host');
  expect(/^header\.yaml:\d+(?::\d+)?: documentation\.0\.url: "\/\\\\evil\.example" is not a site path/, 'documentation /\\host');
  expect(/^header\.yaml:\d+(?::\d+)?: additionalLinks\.0\.linkUrl: unsafe link "javascript\\n:alert\(1\)"/, 'additional link');
  t.notOk(messages.some((m) => m.includes('additionalLinks.1')), 'an https link is fine');
  expect(/^header\.yaml:\d+(?::\d+)?: menus\.0\.primarySection\.0\.buttonLink: unsafe link "data:/, 'menu card');
  expect(/^header\.yaml:\d+(?::\d+)?: menus\.0\.secondarySection\.resources\.0\.url: "\\\\\\\\evil\.example" is not a site path/, 'menu link \\\\host');
  expect(/^products\/acme-cloud\.yaml:\d+(?::\d+)?: icon\.url: unsafe link "mailto:/, 'icon');
  expect(/^products\/acme-cloud\.yaml:\d+(?::\d+)?: deploymentUrls\.cloud: unsafe link "vbscript:/, 'deployment URL');
  expect(/^products\/acme-cloud\.yaml:\d+(?::\d+)?: deploymentUrls\.default: "https:evil\.example" must be an absolute URL/, 'scheme without slashes');
  expect(/^products\/acme-cloud\.yaml:\d+(?::\d+)?: customSupportFormAuthenticated: unsafe link "\/%2F%2Fevil\.example"/, 'support form');
  expect(/^media\/acme-screenshot\.yaml:2(?::\d+)?: image\.url: unsafe link "data:/, 'media');
  expect(/^featured\/home\.yaml:\d+(?::\d+)?: featuredEntries\.0\.url: unsafe link " javascript:/, 'featured entry');

  const error = await importContent(db, dir).then(() => undefined, (e: unknown) => e);
  t.type(error, ContentError, 'the import is refused');
  t.equal(await currentDigest(db), before, 'nothing was written');
});

t.test('the body as parsed from Markdown keeps the decoded scheme for the check to see', async (t) => {
  const { document } = parseMarkdown('[m](java&#9;script:alert(1))', { idPrefix: 'x' });
  t.match(JSON.stringify(document), '"uri":"java\\tscript:alert(1)"');
});

t.test('preview renders of a stored document drop unsafe links and mark off-site ones', async (t) => {
  const db = await testDb(t);
  const app = await build(t, { db });
  // PostgreSQL's jsonb holds no NUL character, so those variants are covered by the render test above.
  const bad = CORPUS.filter(([raw, kind]) => kind === 'unsafe' && !raw.includes('\u0000')).map(([raw]) => raw);
  const doc = linkDocument([...bad, '//evil.example/x', '/\\evil.example/y']);
  await db.query(`update content_entries set document = jsonb_set(document, '{document}', $1::jsonb) where id = 'acme-cloud-first-steps'`, [JSON.stringify(doc)]);
  await db.query(`select pg_notify('signpost_content', 'test')`); // every instance drops its caches
  const res = await app.inject({ url: '/preview/acme-cloud-first-steps', headers: { 'x-preview-token': PREVIEW_TOKEN } });
  t.equal(res.statusCode, 200);
  assertNoUnsafeUrl(t, res.body);
  t.match(res.body, 'link java\tscript:alert(1)', 'the unsafe link is shown as text');
  t.match(res.body, '<a href="https://evil.example/x" rel="noopener">', 'an off-site link is external');
});

t.test('links and cards in the chrome treat //host and /\\host as other sites', async (t) => {
  const { createElement } = await import('react');
  const { renderToStaticMarkup } = await import('react-dom/server');
  const { SiteLink } = await import('../../views/parts/links.tsx');
  const { CardGrid } = await import('../../views/parts/card-grid.tsx');
  const { cardOf } = await import('../../server/pages/chrome.ts');
  for (const href of ['//evil.example/x', '/\\evil.example/x', 'https:evil.example']) {
    const html = renderToStaticMarkup(createElement(SiteLink, { href, children: 'Go' }));
    t.match(html, /target="_blank" rel="noopener">Go<span class="visually-hidden"> \(opens in a new tab\)<\/span><\/a>/, `${href} opens in a new tab`);
    t.ok(cardOf({ id: 'c', title: 'C', buttonLink: href }).external, `a resource card to ${href} is external`);
    const grid = renderToStaticMarkup(createElement(CardGrid, { cards: [{ title: 'C', href }], headingLevel: 2 }));
    t.match(grid, 'target="_blank"', `a card to ${href} opens in a new tab`);
  }
  t.equal(renderToStaticMarkup(createElement(SiteLink, { href: 'java\tscript:alert(1)', children: 'Go' })), '<span>Go</span>', 'an unsafe link is text');
  t.equal(renderToStaticMarkup(createElement(SiteLink, { href: '/acme', children: 'Go' })), '<a href="/acme">Go</a>', 'a site path is a plain link');
});
