import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { build, SAMPLE_CONTENT } from '../helpers/build.ts';
import { migrate } from '../../scripts/migrate/index.ts';

const ORIGIN = 'https://help.example.test';
/** Sign-in, profile and log-out links lead to the identity service (IDENTITY_URL), not to a page of this app. */
const IDENTITY_BASE = '/auth/';

/** Internal link targets in a page: hrefs and srcs that stay on this site, without their fragment. */
function internalLinks(html: string): string[] {
  const found = new Set<string>();
  for (const m of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
    const raw = (m[1] ?? '').replaceAll('&amp;', '&');
    if (raw === '' || raw.startsWith('#') || raw.startsWith('mailto:')) continue;
    let url: URL;
    try {
      url = new URL(raw, `${ORIGIN}/`);
    } catch {
      found.add(raw);
      continue;
    }
    if (url.origin !== ORIGIN) continue;
    found.add(`${url.pathname}${url.search}`);
  }
  return [...found];
}

interface Crawl {
  start: string[];
  broken: string[];
  linked: Set<string>;
  pages: number;
  links: number;
  seen: Set<string>;
  /** Every answer, by path (the status). */
  status: Map<string, number>;
}

/**
 * Starting from every sitemap page and `extra` paths, follows every internal link (header, footer, logo,
 * cards, body links, assets) to every page it reaches; broken: those answering 404 (but `/no-such-page`)
 * or 5xx.
 */
async function crawl(app: FastifyInstance, extra: string[]): Promise<Crawl> {
  const sitemap = await app.inject('/sitemap.xml');
  const start = [...sitemap.body.matchAll(/<loc>https:\/\/help\.example\.test([^<]+)<\/loc>/g)].map((m) => m[1] as string);
  const queue = [...new Set([...start, ...extra, '/no-such-page'])];
  const seen = new Set(queue);
  const from = new Map<string, string>();
  const broken: string[] = [];
  const linked = new Set<string>();
  const status = new Map<string, number>();
  let pages = 0;
  let links = 0;
  while (queue.length > 0) {
    const path = queue.shift() as string;
    const res = await app.inject(path);
    status.set(path, res.statusCode);
    const expected = path === '/no-such-page' ? 404 : res.statusCode;
    if (res.statusCode >= 500 || (res.statusCode === 404 && expected !== 404)) {
      broken.push(`${path}: ${res.statusCode} (linked from ${from.get(path) ?? 'the sitemap'})`);
      continue;
    }
    if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
      const next = new URL(String(res.headers.location), `${ORIGIN}/`);
      const target = `${next.pathname}${next.search}`;
      if (next.origin === ORIGIN && !seen.has(target)) {
        seen.add(target);
        from.set(target, path);
        queue.push(target);
      }
      continue;
    }
    if (!String(res.headers['content-type']).startsWith('text/html')) continue;
    pages += 1;
    for (const link of internalLinks(res.body)) {
      links += 1;
      if (link !== path) linked.add(link.split('?')[0] as string);
      if (link.startsWith(IDENTITY_BASE) || seen.has(link)) continue;
      seen.add(link);
      from.set(link, path);
      queue.push(link);
    }
  }
  return { start, broken, linked, pages, links, seen, status };
}

/**
 * Every link a visitor can follow goes somewhere: starting from every sitemap page, the support homes in
 * both languages and the 404 page, every internal link is followed, and none answers 404 or 5xx.
 */
t.test('every internal link of the sample site leads to a page', async (t) => {
  const app = await build(t, { contentDir: SAMPLE_CONTENT });
  const { start, broken, linked, pages, links, seen } = await crawl(app, ['/', '/ja']);
  t.same(broken, [], 'no internal link answers 404 or 5xx');
  const orphans = start.filter((path) => path !== '/' && path !== '/ja' && !linked.has(path));
  t.same(orphans, [], 'every sitemap page is linked from some page, not only from the sitemap');
  t.ok(start.some((p) => p.startsWith('/ja')), 'the sitemap lists Japanese pages');
  t.ok(pages > start.length, `${pages} pages crawled, ${links} links followed, ${seen.size} distinct URLs`);
  t.comment(`crawl: ${pages} pages, ${links} links, ${seen.size} distinct URLs, ${broken.length} broken`);
});

/**
 * A site as `npm run migrate` writes it is a working help centre at once: its home, product page, logo,
 * contact and report-a-problem pages and every body link and image answer, with nothing added by hand.
 */
t.test('every internal link of a migrated site leads to a page', async (t) => {
  const out = await mkdtemp(join(tmpdir(), 'signpost-migrated-'));
  t.teardown(() => rm(out, { recursive: true, force: true }));
  const result = await migrate('docusaurus', join(import.meta.dirname, '../fixtures/migrate/docusaurus'), out);
  const app = await build(t, { contentDir: out });
  const { broken, pages, links, seen, status } = await crawl(app, ['/', `/${result.product}`]);
  t.same(broken, [], 'no internal link or image answers 404 or 5xx');
  t.equal(status.get('/'), 200, 'the home page');
  t.equal(status.get(`/${result.product}`), 200, 'the product home');
  t.equal(status.get('/contact'), 200, "the header's Contact");
  const logo = [...status.keys()].find((p) => /^\/assets\/files\/[^/]+\/logo\.svg$/.test(p));
  t.ok(logo && status.get(logo) === 200, 'the logo is the source site\'s, served from the tree');
  t.ok([...status].some(([p, s]) => p.startsWith('/report-problem?page=') && s === 200), "a page's 'Report a problem'");
  t.ok([...status].some(([p, s]) => p.startsWith('/contact?') && s === 200), 'the feedback reasons lead to the contact form');
  t.comment(`migrated crawl: ${pages} pages, ${links} links, ${seen.size} distinct URLs, ${broken.length} broken`);
});
