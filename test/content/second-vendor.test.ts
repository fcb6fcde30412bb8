import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { parse } from 'yaml';
import { build, SAMPLE_CONTENT } from '../helpers/build.ts';

const SECOND_VENDOR = join(import.meta.dirname, '../fixtures/second-vendor');

/** What names the sample vendor: its brand and names, its domain, its products' names, families and slugs, its self-hosted label. */
function sampleTraces(): string[] {
  const site = parse(readFileSync(join(SAMPLE_CONTENT, 'site.yaml'), 'utf8')) as Record<string, string>;
  const traces = new Set<string>([site.brand!, site.legalName!, site.siteName!, new URL(site.communityUrl!).hostname.split('.').slice(-2).join('.')]);
  for (const file of readdirSync(join(SAMPLE_CONTENT, 'products'))) {
    const product = parse(readFileSync(join(SAMPLE_CONTENT, 'products', file), 'utf8')) as Record<string, string>;
    for (const key of ['id', 'productName', 'productNameId', 'resourceSlug']) if (product[key]) traces.add(product[key]);
  }
  traces.add('Data Center');
  return [...traces];
}

t.test('a second vendor sees its own name, labels and colours on every page, and nothing of the sample vendor', async (t) => {
  const traces = sampleTraces();
  t.ok(traces.includes('fernhollow.example') && traces.length > 20, `${traces.length} sample-vendor names`);
  const app = await build(t, { contentDir: SECOND_VENDOR });

  const sitemap = await app.inject('/sitemap.xml');
  const listed = [...sitemap.body.matchAll(/<loc>https:\/\/help\.example\.test([^<]+)<\/loc>/g)].map((m) => m[1] as string);
  t.ok(listed.length >= 8, `${listed.length} pages in the sitemap`);
  const fixed = ['/', '/contact', '/search-results?searchTerm=notebook', '/no-such-page', '/requests'];
  const pages: Record<string, string> = {};
  const failures: string[] = [];
  for (const path of [...new Set([...listed, ...fixed])]) {
    const res = await app.inject(path);
    const expected = path === '/no-such-page' ? 404 : 200;
    if (res.statusCode !== expected) failures.push(`${path}: ${res.statusCode}`);
    pages[path] = res.body;
    for (const trace of traces) {
      if (res.body.toLowerCase().includes(trace.toLowerCase())) failures.push(`${path}: "${trace}"`);
    }
  }
  t.same(failures, [], 'no sample-vendor trace on any page');

  const missing: string[] = [];
  for (const [path, html] of Object.entries(pages)) {
    if (!html.includes('Larkspur')) missing.push(`${path}: no brand`);
    if (!/<link rel="stylesheet" href="\/assets\/theme\/[\w-]+\.css"\/>/.test(html)) missing.push(`${path}: no theme stylesheet`);
  }
  t.same(missing, [], 'the brand and the theme on every page');

  const kb = pages['/quillbook/kb/sync-stalls'] ?? '';
  t.match(kb, 'Platform notice: SaaS and On-premises');
  t.match(kb, 'This article applies to both SaaS and On-premises products.');
  t.match(kb, 'Quillbook On-premises 4 left support on June 30th 2025; read the <a href="https://larkspur.test/retirement">Larkspur 4.x retirement notes</a> before you upgrade.');
  t.match(kb, '<li>Quillbook Self-managed 5.0 and later</li>', 'an alias of the self-hosted label');
  t.match(kb, 'Platform: SaaS, On-premises');
  t.match(pages['/quillbook-saas/docs/write-a-note'] ?? '', />On-premises</, 'the deployment switch names the site\'s labels');
  t.match(pages['/quillbook-on-premises/5.0/docs/install'] ?? '', '<p class="version-note">On-premises 5.0</p>');
  t.match(pages['/'] ?? '', '>On-premises</a>', 'the home page\'s product tabs');
  const search = pages['/search-results?searchTerm=notebook'] ?? '';
  t.match(search, 'Quillbook SaaS');

  // Spec §3: the linked data names this site's publisher, from its own metadata.
  const linked = /<script type="application\/ld\+json">([^]*?)<\/script>/.exec(pages['/quillbook-saas/docs/write-a-note'] ?? '')?.[1] ?? 'null';
  const graph = (JSON.parse(linked) as { '@graph': Record<string, any>[] } | null)?.['@graph'] ?? [];
  t.match(graph.find((n) => n['@type'] === 'Organization'), {
    name: 'Larkspur Systems', legalName: 'Larkspur Systems GmbH', brand: { name: 'Larkspur' }, logo: { url: 'https://cdn.larkspur.test/brand/larkspur-logo.svg' },
  });
  t.match(graph.find((n) => n['@type'] === 'WebSite'), { name: 'Larkspur Help' });
  t.match(graph.find((n) => n['@type'] === 'TechArticle'), { url: 'https://help.example.test/quillbook-saas/docs/write-a-note' });

  const link = /<link rel="stylesheet" href="(\/assets\/theme\/[\w-]+\.css)"\/>/.exec(pages['/'] ?? '')?.[1] ?? '';
  const css = await app.inject(link);
  t.equal(css.statusCode, 200);
  t.match(css.headers['content-type'], /^text\/css/);
  t.match(css.headers['cache-control'], /immutable/);
  t.match(css.body, '--link: #7a1fa2;');
  t.match(css.body, '--accent-text: #fffbe6;');
  t.match(css.body, '--text: rgb(20 20 40);');
  const stale = await app.inject('/assets/theme/0000000000000000.css');
  t.equal(stale.statusCode, 200, 'a page naming an earlier theme still gets today\'s colours');
  t.equal(stale.headers['cache-control'], 'no-cache');
});
