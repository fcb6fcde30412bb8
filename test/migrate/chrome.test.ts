import t, { type Test } from 'tap';
import { cp, mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { migrate, type Tool } from '../../scripts/migrate/index.ts';
import { generatedLogo, initialsOf, LOGO_COLOURS } from '../../scripts/migrate/chrome.ts';
import { checkContent } from '../../server/content/import.ts';
import { formatProblem } from '../../server/content/problems.ts';

const FIXTURES = join(import.meta.dirname, '../fixtures/migrate');

async function temp(t: Test, prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Migrates `src` and checks the tree: what the chrome needs is there, and the check finds nothing. */
async function migrated(t: Test, tool: Tool, src: string) {
  const out = await temp(t, `signpost-chrome-${tool}-`);
  const result = await migrate(tool, src, out);
  const { problems, plan } = await checkContent(out);
  t.same(problems.map(formatProblem), [], `${tool}: the tree passes content:check`);
  const paths = new Set(plan.routes.map((r) => r.path));
  for (const path of ['/', '/contact', `/${result.product}`, `/${result.product}/docs`]) t.ok(paths.has(path), `${tool}: a page at ${path}`);
  const yaml = async (path: string) => parse(await readFile(join(out, path), 'utf8')) as Record<string, unknown>;
  t.match(await yaml('header.yaml'), { logo: { v1: { url: /^\/assets\/brand\/logo\./ } }, cloudProducts: [{ product: result.product }] });
  t.match(await yaml('forms/contact.yaml'), { id: 'contact-form' });
  t.match(await yaml('forms/report-problem.yaml'), { id: 'report-problem-form' });
  t.match(await yaml(`products/${result.product}.yaml`), { hasProductLandingPage: true });
  const site = await yaml('site.yaml');
  const stored = plan.entries.find((e) => e.id === 'site')?.fields as { logo?: string } | undefined;
  t.match(stored?.logo, /^\/assets\/files\/[^/]+\/logo\.(svg|png)$/, `${tool}: the logo is stored as a file of the tree`);
  t.ok(plan.files.some((f) => f.name.startsWith('logo.')), `${tool}: and imported with the tree`);
  for (const words of [JSON.stringify(await yaml('forms/contact.yaml')), JSON.stringify(await yaml('pages/home.yaml'))]) {
    t.notMatch(words, /Fernhollow|Tracklight|Pagewell/, 'no sample vendor in the generated text');
  }
  return { out, result, site, read: (path: string) => readFile(join(out, path)) };
}

t.test('a generated logo: the initials on a dark colour, an image named by the site name', async (t) => {
  t.equal(initialsOf('Lantern Fish docs'), 'LF');
  t.equal(initialsOf('brightwater'), 'B');
  t.equal(initialsOf('Éclair 2'), 'E2');
  t.equal(initialsOf('---'), '?');
  const svg = generatedLogo('Tom & <Jerry>');
  t.match(svg, /role="img" aria-labelledby="logo-title"/);
  t.match(svg, '<title id="logo-title">Tom &amp; &lt;Jerry&gt;</title>', 'the name, escaped, is its accessible name');
  t.match(svg, />TJ<\/text>/);
  t.ok(LOGO_COLOURS.some((c) => svg.includes(`fill="${c}"`)), 'on one of the colours white text reads on');
  t.equal(generatedLogo('Tom & <Jerry>'), svg, 'the same site gets the same logo');
  // WCAG AA: white on each colour at least 4.5:1.
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * (r as number) + 0.7152 * (g as number) + 0.0722 * (b as number);
  };
  for (const colour of LOGO_COLOURS) t.ok(1.05 / (luminance(colour) + 0.05) >= 4.5, `white on ${colour} is at least 4.5:1`);
});

t.test("docusaurus: the navbar logo from the static folder", async (t) => {
  const { result, read, site } = await migrated(t, 'docusaurus', join(FIXTURES, 'docusaurus'));
  // The hosts the bodies embed stay allowed when the chrome rewrites site.yaml (a real site's 35 check errors).
  t.match(site, { videoHosts: ['www.youtube-nocookie.com'], embedHosts: ['codesandbox.io'] }, 'the embedded players and pages stay allowed');
  t.same(await read('assets/brand/logo.svg'), await readFile(join(FIXTURES, 'docusaurus/static/img/logo.svg')), "the site's own logo");
  t.match(result.notes.get('site.yaml'), [/logo: the site's own \(docusaurus\.config\.js themeConfig\.navbar\.logo\.src\)/]);
});

t.test('mkdocs: theme.logo from the docs folder; without it, a logo of the initials', async (t) => {
  const plain = await migrated(t, 'mkdocs', join(FIXTURES, 'mkdocs'));
  t.match((await plain.read('assets/brand/logo.svg')).toString(), '<title id="logo-title">Brightwater</title>');
  t.match(plain.result.notes.get('site.yaml'), [/none in the site's config/]);

  const src = await temp(t, 'signpost-mkdocs-logo-');
  await cp(join(FIXTURES, 'mkdocs'), src, { recursive: true });
  const config = await readFile(join(src, 'mkdocs.yml'), 'utf8');
  await writeFile(join(src, 'mkdocs.yml'), config.replace('  name: material\n', '  name: material\n  logo: images/mark.png\n'));
  await mkdir(join(src, 'docs/images'), { recursive: true });
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  await writeFile(join(src, 'docs/images/mark.png'), png);
  const own = await migrated(t, 'mkdocs', src);
  t.same(await own.read('assets/brand/logo.png'), png, "the site's own logo");
  t.match(own.site, { logo: '/assets/brand/logo.png', favicon: '/assets/brand/logo.png' });
});

t.test('starlight: logo.src from the project; a missing file is reported and replaced', async (t) => {
  const src = await temp(t, 'signpost-starlight-logo-');
  await cp(join(FIXTURES, 'starlight'), src, { recursive: true });
  const config = await readFile(join(src, 'astro.config.mjs'), 'utf8');
  t.match(config, /starlight\(\{\n/);
  await writeFile(join(src, 'astro.config.mjs'), config.replace(/starlight\(\{\n/, "starlight({\n      logo: { src: './src/assets/gone.svg' },\n"));
  const { result } = await migrated(t, 'starlight', src);
  t.match(result.notes.get('site.yaml'), [/astro\.config\.mjs starlight logo\.src names \.\/src\/assets\/gone\.svg does not exist: assets\/brand\/logo\.svg is made from the site's initials/]);
});

/**
 * A site with Japanese pages gets the Japanese home and contact page their header and footer link
 * (`/ja`, `/ja/contact`): on a real Starlight site both answered 404 from every Japanese page.
 */
t.test('starlight with a Japanese locale: a home and contact page in Japanese', async (t) => {
  const { out, result } = await migrated(t, 'starlight', join(FIXTURES, 'starlight-i18n'));
  const { plan } = await checkContent(out);
  const paths = new Set(plan.routes.map((r) => r.path));
  t.ok(paths.has('/ja') && paths.has('/ja/contact'), 'pages at /ja and /ja/contact');
  t.match(parse(await readFile(join(out, 'pages/home-ja.yaml'), 'utf8')), { pageType: 'home', language: 'ja-JP', path: '/ja' });
  t.match(result.notes.get('pages/home.yaml'), [/Japanese/]);
});
