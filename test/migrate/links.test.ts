import t, { type Test } from 'tap';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { parse } from 'yaml';
import { migrate, type Tool } from '../../scripts/migrate/index.ts';
import { formatReport, reportLines } from '../../scripts/migrate/report.ts';
import { readDocs } from '../../scripts/migrate/docs.ts';
import { maskCode } from '../../scripts/migrate/links.ts';
import { basePath, docusaurusUrl, mkdocsUrl, starlightUrl } from '../../scripts/migrate/source-urls.ts';
import type { SourceDoc } from '../../scripts/migrate/model.ts';
import { checkContent } from '../../server/content/import.ts';
import { formatProblem } from '../../server/content/problems.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/migrate');

async function convert(t: Test, tool: Tool, fixture: string) {
  const out = await mkdtemp(join(tmpdir(), `signpost-migrate-${tool}-`));
  t.teardown(() => rm(out, { recursive: true, force: true }));
  const result = await migrate(tool, join(FIXTURES, fixture), out);
  const { problems, warnings, plan } = await checkContent(out);
  t.same(problems.map(formatProblem), [], `${fixture}: content:check finds no error in the migrated tree`);
  t.same(warnings.map(formatProblem), [], `${fixture}: nor a warning (every fragment names a heading)`);
  const read = (path: string) => readFile(join(out, path), 'utf8');
  const front = async (path: string) => parse((await read(path)).split('---\n')[1] ?? '') as Record<string, unknown>;
  const redirects = existsSync(join(out, 'redirects.yaml')) ? parse(await read('redirects.yaml')) as { from: string; to: string }[] : [];
  return { out, result, plan, read, front, redirects, notes: (file: string) => result.notes.get(file) ?? [] };
}

/** Links and images of a body outside code: inline, reference definitions and HTML. */
function targets(body: string): string[] {
  const found: string[] = [];
  let fence = false;
  for (const line of body.split('\n')) {
    if (/^\s*(`{3,}|~{3,})/.test(line)) fence = !fence;
    if (fence) continue;
    const text = maskCode(line);
    for (const m of text.matchAll(/!?\[(?:[^[\]]|\[[^[\]]*\])*\]\(\s*([^\s)]*)/g)) found.push(m[1] as string);
    for (const m of text.matchAll(/^ {0,3}\[[^\]^]+\]:\s*(\S+)/g)) found.push(m[1] as string);
    for (const m of text.matchAll(/<(?:img|a)\b[^>]*?\b(?:src|href)=["']([^"']*)["']/gi)) found.push(m[1] as string);
  }
  return found;
}

/**
 * Every link and image of every source page is resolved in the new tree (a file of the tree, a page, the
 * search) or reported: the output's targets lead somewhere, and each one fewer than the source had is a
 * note of its file.
 */
async function everyLinkResolvedOrReported(t: Test, site: Awaited<ReturnType<typeof convert>>, sources: { label: (p: string) => string; docs: SourceDoc[]; topic: (p: string) => string }[]) {
  for (const { label, docs, topic } of sources) {
    for (const doc of docs) {
      const file = topic(doc.path.replace(/\.mdx$/, '.md'));
      const body = await site.read(file);
      const written = targets(body.slice(body.indexOf('\n---\n') + 5));
      for (const target of written) {
        if (/^(https?:|mailto:|#)/.test(target) || target.startsWith('/search-results?searchTerm=')) continue;
        const path = posix.normalize(posix.join(posix.dirname(file), decodeURIComponent(target.split('#')[0] as string)));
        t.ok(existsSync(join(site.out, path)), `${file}: ${target} is a file of the new tree`);
      }
      const before = targets(doc.body).length;
      const dropped = site.notes(label(doc.path)).filter((n) => /— (kept as (the|its alt) text|the dark-mode variant: left out)/.test(n)).length;
      t.equal(written.length + dropped, before, `${label(doc.path)}: each of its ${before} links and images is in the new page or reported`);
    }
  }
}

t.test('docusaurus: docs.path outside website/, base URL, route base, static folders, i18n', async (t) => {
  const site = await convert(t, 'docusaurus', 'docusaurus-monorepo/website');
  const { result, read, front, notes, redirects, plan } = site;
  t.equal(result.topics, 8, 'seven pages from ../docs and one Japanese translation');
  const intro = await read('topics/harbourlight/01-intro.md');
  t.match(intro, 'Read [code splitting](./02-usage/code-splitting.md) first,\nthen the [configuration](./reference/configuration.md) and the\n[same page again](./reference/configuration.md) without the base URL.',
    'docs-root-relative and site-absolute links, with and without the base URL and trailing slash');
  t.match(intro, '[store questions](/search-results?searchTerm=store%20api)', 'a search link goes to the help centre\'s search');
  t.match(intro, '[in Japanese](./ja/01-intro.md)', 'a link with the locale prefix leads to the translation');
  t.match(intro, '[logo]: ../../assets/harbourlight/img/logo.png', 'a reference-style image from static/ is copied');
  t.match(intro, '<img alt="Arch light" src="../../assets/harbourlight/img/arch-light.png">', 'an HTML image gets alt text and its copy; the fragment goes');
  t.notMatch(intro, 'arch-dark', 'of a light/dark pair the light one is kept');
  t.match(intro, '![Diagram](../../assets/harbourlight/diagram.svg)', 'from the second of staticDirectories');
  const splitting = await read('topics/harbourlight/02-usage/code-splitting.md');
  t.match(splitting, 'Split the plan with the [Store](../api/Store.md) and its [methods](../api/Store.md#methods).\n'
    + 'Continue with [part 3](./part-3-state.md), go back [home](../01-intro.md),\nor see [the API](../api/index.md).',
  'from the docs root, extension-less, ..//, .md#fragment and a folder\'s index');
  t.match(await read('topics/harbourlight/api/Store.md'), '::anchor{id="plan-method"}\n`plan()` returns the plan, as :anchor{id="plan-inline"}one object.',
    'empty <a id> / <a name> targets become anchors, so links to them land (no warning either)');
  t.match(splitting, '![Flow](./img/flow.png)', 'the query dropped, alt text made from the file name');
  t.match(splitting, 'This old page is gone, and so is this one.', 'links to pages that do not exist are kept as text');
  t.match(await read('topics/harbourlight/reference/configuration.md'),
    'in the [release notes](./release%20notes.md) and the [same notes](./release%20notes.md).\n\n![Logo again](../../../assets/harbourlight/img/logo.png)',
    'a file name with a space, in <…> or encoded, and the @site/ alias');
  t.ok(result.files.includes('assets/harbourlight/img/logo.png') && !result.files.includes('assets/harbourlight/img/arch-dark.png'));
  t.equal(new Set(result.files).size, result.files.length, 'each file is copied once');

  t.same(notes('../docs/01-intro.md'), [
    'line 11: image /img/arch-light.png#gh-light-mode-only — copied as arch-light.png; "#gh-light-mode-only" dropped',
    'line 11: <img> without alt text — alt text "Arch light" made from its file name: describe the image',
    'line 12: <img src="/img/arch-dark.png#gh-dark-mode-only"> — the dark-mode variant: left out, Signpost shows the light one beside it',
    'line 16: search link /search?q=store%20api — links to the help centre\'s search for "store api"',
  ]);
  t.match(notes('../docs/02-usage/code-splitting.md'), [
    /^line 14: image \.\/img\/flow\.png\?raw=true — copied/, /^line 14: image without alt text — alt text "Flow"/,
    /^line 16: link to \.\/does-not-exist\.md — kept as the text "old page"/, /^line 16: link to \/guide\/legacy\/ — kept as the text "this one"/,
  ]);
  t.notMatch(notes('../docs/02-usage/code-splitting.md').join('\n'), /Tabs|component/, 'a tag inside inline code is not a component');

  t.match(await front('topics/harbourlight/ja/01-intro.md'), { id: 'harbourlight-01-intro-ja', language: 'ja-JP', slug: 'intro-ja' },
    'a Japanese translation is a ja-JP topic, its id that of its page with the locale');
  t.match(await read('topics/harbourlight/ja/01-intro.md'), '[コード分割](../02-usage/code-splitting.md)', 'an untranslated page is the English one');
  t.ok(result.files.includes('topics/harbourlight/ja/img/flow-ja.png'), 'a translation\'s own image');
  t.match(notes('i18n/fr/docusaurus-plugin-content-docs/current'), ['locale "fr": 1 translated page (i18n/fr/docusaurus-plugin-content-docs/current/01-intro.md) not carried over — Signpost pages are in English or Japanese'], 'a locale Signpost has no language for is listed');
  t.notOk(result.files.some((f) => f.includes('/fr/')), 'and not merged into the English pages');
  for (const file of result.files.filter((f) => f.startsWith('topics/') && f.endsWith('.md') && !f.includes('/ja/'))) {
    t.notMatch((await front(file)).slug, /-\d+$/, `${file}: an English page keeps its own slug`);
  }

  t.same(redirects, [
    { from: '/guide/intro/', to: '/harbourlight/docs/intro' },
    { from: '/guide/usage/code-splitting/', to: '/harbourlight/docs/code-splitting' },
    { from: '/guide/usage/part-3-state/', to: '/harbourlight/docs/part-3-state' },
    { from: '/guide/api/Store/', to: '/harbourlight/docs/store' },
    { from: '/guide/api/', to: '/harbourlight/docs/api' },
    { from: '/guide/reference/configuration/', to: '/harbourlight/docs/configuration' },
    { from: '/guide/reference/release%20notes/', to: '/harbourlight/docs/release-notes' },
    { from: '/ja/guide/intro/', to: '/harbourlight/docs/intro-ja' },
  ], 'the old URLs, base URL stripped, by the slug rules: number prefixes, slug front matter, a folder\'s index, trailingSlash, encoded');
  const routes = new Set(plan.routes.map((r) => r.path));
  for (const r of redirects) t.ok(routes.has(r.to), `${r.from} → ${r.to}, a page of the new tree`);

  await everyLinkResolvedOrReported(t, site, [
    { label: (p) => `../docs/${p}`, docs: await readDocs(join(FIXTURES, 'docusaurus-monorepo/docs'), new Map(), (p) => p), topic: (p) => `topics/harbourlight/${p}` },
    { label: (p) => `i18n/ja/docusaurus-plugin-content-docs/current/${p}`,
      docs: await readDocs(join(FIXTURES, 'docusaurus-monorepo/website/i18n/ja/docusaurus-plugin-content-docs/current'), new Map(), (p) => p),
      topic: (p) => `topics/harbourlight/ja/${p}` },
  ]);
});

t.test('starlight: locales, base, public/, links relative to the page URL', async (t) => {
  const site = await convert(t, 'starlight', 'starlight-i18n');
  const { result, read, front, notes, redirects, plan } = site;
  const start = await read('topics/tidewater/guides/getting-started.md');
  t.match(start, 'Read the [tides guide](./tides.md) and the [configuration](../reference/configuration.md#units).\n'
    + 'The [same page](../reference/configuration.md) by its full address.', 'URL-relative, site-absolute with base, fragment, and the site\'s full address');
  t.match(start, '![Tide chart](../../../assets/tidewater/images/tide-chart.png)\n![Moon phases](./moon.png)', 'public/ and a co-located image');
  t.match(start, '[日本語で読む](../ja/guides/getting-started.md)');
  t.match(await read('topics/tidewater/guides/tides.md'), '[chart](../../../assets/tidewater/images/tide-chart.png)', 'a link to a public/ file without the base');
  t.equal(result.files.filter((f) => f.endsWith('tide-chart.png')).length, 1, 'one copy for three uses');
  t.match(await read('topics/tidewater/guides/tides.md'), '![moon][]\n\n[moon]: ./moon.png', 'a collapsed reference image');
  t.equal(result.files.filter((f) => f.endsWith('moon.png')).length, 1, 'copied once for two pages');

  t.match(await front('topics/tidewater/ja/guides/getting-started.md'), { language: 'ja-JP', id: 'tidewater-guides-getting-started-ja' });
  t.match(await front('topics/tidewater/ja/index.md'), { id: 'tidewater-home-ja', slug: 'tidewater-ja' }, 'ja/index.md translates index.mdx');
  t.same(notes('src/content/docs/ja/index.md'), [], 'so it is not a page on its own');
  t.match(await read('topics/tidewater/ja/guides/getting-started.md'), '[潮汐ガイド](../../guides/tides.md)(未翻訳)と[設定](../../reference/configuration.md)',
    'an untranslated page under the locale\'s prefix is the English page');
  t.match(notes('src/content/docs/pt-br'), [/locale "pt-br": 1 translated page .* not carried over/]);
  t.notOk(result.files.some((f) => f.includes('pt-br')), 'no English topic holds a translation');
  t.same(notes('src/content/docs/reference/configuration.md'),
    ['line 9: link to /manual/pt-br/ — kept as the text "Em português": a page in locale "pt-br", which is not carried over'], 'a link to a page left out says why');
  t.match(await front('topics/tidewater/index.md'), { slug: 'tidewater' });
  t.match(await read('topics/tidewater/index.md'), '::link-card{title="Tides" href="./guides/tides.md"}', 'a component\'s link follows its page too');

  t.same(redirects, [
    { from: '/guides/getting-started/', to: '/tidewater/docs/getting-started' },
    { from: '/guides/tides/', to: '/tidewater/docs/tides' },
    { from: '/reference/configuration/', to: '/tidewater/docs/configuration' },
    { from: '/ja/guides/getting-started/', to: '/tidewater/docs/getting-started-ja' },
  ], 'base stripped; the roots (/, /ja/) are the help centre\'s homes');
  const routes = new Set(plan.routes.map((r) => r.path));
  for (const r of redirects) t.ok(routes.has(r.to), `${r.from} → ${r.to}, a page of the new tree`);

  const all = await readDocs(join(FIXTURES, 'starlight-i18n/src/content/docs'), new Map(), (p) => p);
  await everyLinkResolvedOrReported(t, site, [
    { label: (p) => `src/content/docs/${p}`, docs: all.filter((d) => !/^(ja|pt-br)\//.test(d.path)), topic: (p) => `topics/tidewater/${p}` },
    { label: (p) => `src/content/docs/ja/${p}`, docs: all.filter((d) => d.path.startsWith('ja/')).map((d) => ({ ...d, path: d.path.slice(3) })), topic: (p) => `topics/tidewater/ja/${p}` },
  ]);
});

t.test('mkdocs: site_url, directory URLs, odd and broken links and images', async (t) => {
  const site = await convert(t, 'mkdocs', 'mkdocs');
  const { read, notes, redirects, plan, result } = site;
  const sensors = await read('topics/brightwater/user-guide/sensors.md');
  t.match(sensors, 'Set them up in [Configure](./configure.md) after [installing](./install.md),\n'
    + 'or go [home](../index.md), up one folder or to the [same install page](./install.md).\n'
    + 'Probes that are not documented and a [search](/search-results?searchTerm=ph%20probe) for more.\nAn empty link says nothing.',
  'URL-relative links, a link to the title heading, the site\'s own address; what leads nowhere as text, never an empty target');
  t.match(sensors, '![pH probe][probe]\n\n<img alt="Probe" src="../img/probe.png" width="200">\n\n![Wiring](./img/wiring-light.png)\n\n\n![Probe from the site root](../img/probe.png)\nMissing photo\n\n[probe]: ../img/probe.png "The probe"');
  t.equal(result.files.filter((f) => f.endsWith('probe.png')).length, 1, 'copied once');
  t.match(notes('docs/user-guide/sensors.md'), [
    /^line 6: link to \.\.\/ — kept as the text "up one folder"/, /^line 7: link to nowhere\.md — kept as the text/, /^line 7: search link/,
    /^line 8: link to {2}— kept as the text "empty link": an empty link/, /^line 14: <img> without alt text/, /^line 16: image img\/wiring-light\.png#only-light/,
    /^line 17: image img\/wiring-dark\.png#only-dark — the dark-mode variant/, /^line 20: image img\/missing\.jpg — kept as its alt text "Missing photo"/,
  ]);
  t.match(redirects, [{ from: '/about/license/', to: '/brightwater/docs/license' }]);
  t.notOk(redirects.some((r) => r.from === '/'), 'the home page is the help centre\'s');
  const routes = new Set(plan.routes.map((r) => r.path));
  for (const r of redirects) t.ok(routes.has(r.to), `${r.from} → ${r.to}, a page of the new tree`);
  await everyLinkResolvedOrReported(t, site, [
    { label: (p) => `docs/${p}`, docs: await readDocs(join(FIXTURES, 'mkdocs/docs'), new Map(), (p) => p), topic: (p) => `topics/brightwater/${p}` },
  ]);
});

t.test('mkdocs: the i18n plugin\'s suffixes, use_directory_urls: false', async (t) => {
  const site = await convert(t, 'mkdocs', 'mkdocs-i18n');
  const { result, read, front, notes, redirects } = site;
  t.equal(result.topics, 5, 'three pages and two Japanese translations; the German one is not merged in');
  t.match(await read('topics/saltmarsh/index.md'), 'Read the [guide](./guide.md#usage) and [set up](./setup.md) the gauges.', '.html links are the pages\' URLs');
  t.match(await read('topics/saltmarsh/setup.md'), '[guide](./guide.md)');
  t.match(await read('topics/saltmarsh/setup.md'), '[guide file](./guide.md#usage) as the repository names it', 'a path from the repository root, as GitHub reads it');
  t.match(await front('topics/saltmarsh/ja/guide.md'), { id: 'saltmarsh-guide-ja', language: 'ja-JP', slug: 'guide-ja' }, 'guide.ja.md translates guide.md');
  t.match(await read('topics/saltmarsh/ja/index.md'), '[ガイド](./guide.md)と[セットアップ](../setup.md)', 'to the translation, else the English page');
  t.match(await read('topics/saltmarsh/ja/guide.md'), '[最初のページ](./index.md)');
  t.same(notes('docs'), ['locale "de": 1 translated page (docs/guide.de.md) not carried over — Signpost pages are in English or Japanese']);
  t.match(notes('mkdocs.yml'), [/^line 4: plugins — the i18n plugin's languages are read/]);
  t.same(redirects, [
    { from: '/guide.html', to: '/saltmarsh/docs/guide' },
    { from: '/setup.html', to: '/saltmarsh/docs/setup' },
    { from: '/ja/guide.html', to: '/saltmarsh/docs/guide-ja' },
  ]);
});

t.test('a docs path that leads nowhere is named, not a crash', async (t) => {
  const src = await mkdtemp(join(tmpdir(), 'signpost-migrate-src-'));
  const out = await mkdtemp(join(tmpdir(), 'signpost-migrate-out-'));
  t.teardown(() => Promise.all([rm(src, { recursive: true, force: true }), rm(out, { recursive: true, force: true })]));
  await mkdir(join(src, 'website'));
  await writeFile(join(src, 'website/docusaurus.config.js'), "module.exports = { title: 'X', presets: [['classic', { docs: { path: '../documentation' } }]] };\n");
  await t.rejects(migrate('docusaurus', join(src, 'website'), out), { message: '../documentation/: no docs folder there (docusaurus.config.js names it as the docs path)' });
});

t.test('the report: file:line: construct — what was done, grouped per file, with a count', async (t) => {
  const out = await mkdtemp(join(tmpdir(), 'signpost-migrate-report-'));
  t.teardown(() => rm(out, { recursive: true, force: true }));
  const result = await migrate('mkdocs', join(FIXTURES, 'mkdocs'), out);
  const text = formatReport(result);
  t.match(text, '\ndocs/user-guide/sensors.md\n  docs/user-guide/sensors.md:6: link to ../ — kept as the text "up one folder"');
  t.match(text, '  mkdocs.yml:5: theme — not carried over');
  const lines = reportLines(result.notes);
  t.ok(lines.every((l) => text.includes(`  ${l.file}${l.line ? `:${l.line}` : ''}: ${l.text}`)), 'every note is printed');
  t.match(text, new RegExp(`\\n${lines.length} notes in ${new Set(lines.map((l) => l.file)).size} files; ${result.links.rewritten} links and images rewritten for the new tree, `
    + `${result.links.asText} kept as text, ${result.links.images} files copied, ${result.redirects} redirects in redirects.yaml\\.$`));
});

t.test('source URLs: each tool\'s slug rules', async (t) => {
  const doc = (path: string, frontMatter: Record<string, unknown> = {}): SourceDoc => ({ path, frontMatter, body: '', bodyLine: 1 });
  t.equal(docusaurusUrl(doc('01-intro.md'), 'docs'), '/docs/intro', 'number prefixes stripped');
  t.equal(docusaurusUrl(doc('02-guides/03-deploy.mdx'), '/'), '/guides/deploy');
  t.equal(docusaurusUrl(doc('guides/index.md'), 'docs'), '/docs/guides', 'index is the folder\'s page');
  t.equal(docusaurusUrl(doc('guides/README.md'), 'docs'), '/docs/guides');
  t.equal(docusaurusUrl(doc('guides/guides.md'), 'docs'), '/docs/guides', 'so is a file named like its folder');
  t.equal(docusaurusUrl(doc('a/b.md', { slug: '/usage/b' }), 'docs'), '/docs/usage/b', 'an absolute slug');
  t.equal(docusaurusUrl(doc('a/b.md', { slug: 'bee' }), 'docs'), '/docs/a/bee', 'a relative slug');
  t.equal(docusaurusUrl(doc('a/b.md', { id: 'bee' }), 'docs'), '/docs/a/bee', 'the id');
  t.equal(docusaurusUrl(doc('intro.md', { slug: '/' }), '/'), '/');
  t.equal(mkdocsUrl(doc('user-guide/install.md'), true), '/user-guide/install/');
  t.equal(mkdocsUrl(doc('user-guide/index.md'), true), '/user-guide/');
  t.equal(mkdocsUrl(doc('README.md'), true), '/');
  t.equal(mkdocsUrl(doc('user-guide/install.md'), false), '/user-guide/install.html', 'use_directory_urls: false');
  t.equal(mkdocsUrl(doc('user-guide/index.md'), false), '/user-guide/index.html');
  t.equal(starlightUrl(doc('Guides/Getting Started.md')), '/guides/getting-started/');
  t.equal(starlightUrl(doc('guides/index.mdx')), '/guides/');
  t.equal(starlightUrl(doc('x.md', { slug: 'custom/place' })), '/custom/place/');
  t.equal(basePath('https://example.com/manual'), '/manual/');
  t.equal(basePath('/docs-site'), '/docs-site/');
  t.equal(basePath(undefined), '/');
});
