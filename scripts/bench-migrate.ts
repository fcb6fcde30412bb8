/**
 * Migration figures for real documentation sites: npm run bench:migrate -- [SITE…]
 * SITE is a site's folder (the one holding docusaurus.config.*, mkdocs.yml or astro.config.*), or
 * `tool=folder`; by default the three public sites scripts/bench-migrate-sites.sh extracts into
 * scratch/real-sites/. Each is migrated into a temporary folder and measured:
 * - the migrator's notes, by construct; `content:check` errors (the goal is none) and warnings;
 * - import time per phase (read+parse, check+render, write), into a fresh database as bench:import does;
 * - the app serving the tree, crawled from the sitemap through every internal link and image: broken
 *   links and images, links whose #fragment names no id on their page, the old URLs of redirects.yaml
 *   that answer 301 to a live page, authoring syntax shown as text (`:::`, `!!!`, `<Tabs`, `{ .`,
 *   `:material-`, paragraphs broken at each source line), and pages whose words differ from their source's.
 * Prints a table; exits non-zero only when the benchmark itself fails.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { parse } from 'yaml';
import app, { serverOptions } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { migrate as migrateDb } from '../server/db/migrate.ts';
import { checkContent, importContent } from '../server/content/import.ts';
import type { PhaseTime } from '../server/content/phases.ts';
import { freshDb } from './bench-db.ts';
import { migrate, TOOLS, type Tool } from './migrate/index.ts';
import { reportLines } from './migrate/report.ts';
import { readDocusaurus } from './migrate/docusaurus.ts';
import { readMkDocs } from './migrate/mkdocs.ts';
import { readStarlight } from './migrate/starlight.ts';
import { urlKey } from './migrate/source-urls.ts';

const ORIGIN = 'https://help.example.test';
const REAL_SITES = resolve(import.meta.dirname, '../scratch/real-sites');
const DEFAULT_SITES = [`docusaurus=${REAL_SITES}/redux/website`, `mkdocs=${REAL_SITES}/httpx`, `starlight=${REAL_SITES}/starlight/docs`];
/** A page differs notably when this share of its source's words is not in the rendered page. */
const DIFFERS = 0.1;

/** Authoring syntax of the three tools that should never reach a reader as text. */
const RAW: [string, RegExp][] = [
  [':::', /(^|\s):::/g], ['!!!', /(^|\s)!!!/g], ['???', /(^|\n)\?\?\?\+? /g], ['=== "', /(^|\n)=== "/g],
  ['<Tabs', /<Tabs?(Item)?\b/g], ['<Card', /<(Card|CardGrid|LinkCard)\b/g], ['<Aside', /<Aside\b/g], ['<Steps', /<Steps\b/g],
  ['<FileTree', /<FileTree\b/g], ['<Other JSX', /<[A-Z][A-Za-z]+[\s/>]/g], ['{ .', /\{\s*[.#][\w-]+[^}]*\}/g],
  [':icon:', /:(material|octicons|fontawesome|simple)-[\w-]+:/g], ['--8<--', /--8<--/g], ['import/export', /(^|\n)(import|export) .+ from /g],
];

interface Site { tool: Tool; dir: string; name: string }

function sitesFrom(args: string[]): Site[] {
  return (args.length > 0 ? args : DEFAULT_SITES).map((arg) => {
    const [toolPart, dirPart] = arg.includes('=') ? arg.split('=', 2) as [string, string] : [undefined, arg];
    const dir = resolve(dirPart);
    const tool = (toolPart ?? detect(dir)) as Tool;
    if (!TOOLS.includes(tool)) throw new Error(`${arg}: no docusaurus.config.*, mkdocs.yml or astro.config.* there; write tool=folder`);
    if (!existsSync(dir)) throw new Error(`${dir} does not exist${dir.startsWith(REAL_SITES) ? ': run scripts/bench-migrate-sites.sh first' : ''}`);
    return { tool, dir, name: dir.replace(`${REAL_SITES}/`, '') };
  });
}

function detect(dir: string): Tool | undefined {
  const has = (re: RegExp) => { try { return readdirSync(dir).some((f) => re.test(f)); } catch { return false; } };
  return has(/^docusaurus\.config\./) ? 'docusaurus' : has(/^mkdocs\.ya?ml$/) ? 'mkdocs' : has(/^astro\.config\./) ? 'starlight' : undefined;
}

const decode = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'")
  .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n))).replace(/&#x([\da-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
  .replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&');

/** The page's main content, without its navigation and forms. */
function mainHtml(html: string): string {
  const main = /<main\b[\s\S]*?<\/main>/.exec(html)?.[0] ?? html;
  return main.replace(/<nav\b[\s\S]*?<\/nav>/g, '').replace(/<form\b[\s\S]*?<\/form>/g, '');
}

/** Text a reader sees as prose: code and tags left out, entities decoded. */
function proseText(html: string): string {
  return decode(html.replace(/<pre\b[\s\S]*?<\/pre>/g, ' ').replace(/<code\b[\s\S]*?<\/code>/g, ' ').replace(/<br\s*\/?>/g, '\n').replace(/<\/(p|li|h\d|div|td|th|dt|dd)>/g, '\n').replace(/<[^>]+>/g, ' '));
}

function words(text: string): Set<string> {
  return new Set((text.toLowerCase().normalize('NFKC').match(/\p{L}[\p{L}\p{N}']{2,}/gu) ?? []).map((w) => w.replace(/'s$/, '')));
}

/** A Markdown source's words as a reader would see them: code, tags, link targets and attributes left out. */
function sourceWords(markdown: string): Set<string> {
  const text = markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, ' ')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/^\s*(import|export)\s.*$/gm, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\]\([^)]*\)/g, '] ')
    .replace(/^\s*\[[^\]]+\]:\s*\S+.*$/gm, ' ')
    .replace(/\{[^}\n]*\}/g, ' ')
    .replace(/^\s*(:::+|!!!|\?\?\?\+?|===)\s*\S*/gm, ' ')
    .replace(/:[a-z]+-[\w-]+:/g, ' ')
    .replace(/https?:\/\/\S+/g, ' ');
  return words(text);
}

function internalLinks(html: string): { href: string; image: boolean }[] {
  const found: { href: string; image: boolean }[] = [];
  for (const m of html.matchAll(/<(\w+)\b[^>]*?\s(href|src)="([^"]*)"/g)) {
    const raw = decode(m[3] ?? '');
    if (raw === '' || raw.startsWith('mailto:')) continue;
    found.push({ href: raw, image: m[1] === 'img' || m[2] === 'src' });
  }
  return found;
}

interface PageOut { path: string; status: number; html?: string; ids?: Set<string>; location?: string }

interface Crawl {
  pages: Map<string, PageOut>;
  broken: { link: string; from: string; image: boolean }[];
  fragments: { path: string; fragment: string; from: string }[];
}

async function crawl(server: FastifyInstance): Promise<Crawl> {
  const sitemap = await server.inject('/sitemap.xml');
  const start = [...sitemap.body.matchAll(/<loc>https:\/\/help\.example\.test([^<]+)<\/loc>/g)].map((m) => decode(m[1] as string));
  const queue = [...new Set(['/', ...start])];
  const seen = new Set(queue);
  const from = new Map<string, { page: string; image: boolean }>();
  const pages = new Map<string, PageOut>();
  const broken: Crawl['broken'] = [];
  const fragments: Crawl['fragments'] = [];
  while (queue.length > 0) {
    const path = queue.shift() as string;
    const res = await server.inject(path);
    const page: PageOut = { path, status: res.statusCode };
    pages.set(path, page);
    const origin = from.get(path);
    if (res.statusCode >= 500 || res.statusCode === 404) {
      broken.push({ link: `${path} (${res.statusCode})`, from: origin?.page ?? 'the sitemap', image: origin?.image ?? false });
      continue;
    }
    const follow = (target: string, image: boolean) => {
      if (seen.has(target) || target.startsWith('/auth/')) return;
      seen.add(target);
      from.set(target, { page: path, image });
      queue.push(target);
    };
    if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
      const next = new URL(String(res.headers.location), `${ORIGIN}${path}`);
      page.location = `${next.pathname}${next.search}`;
      if (next.origin === ORIGIN) follow(page.location, origin?.image ?? false);
      continue;
    }
    if (!String(res.headers['content-type']).startsWith('text/html')) continue;
    page.html = res.body;
    page.ids = new Set([...res.body.matchAll(/\s(?:id|name)="([^"]*)"/g)].map((m) => decode(m[1] as string)));
    for (const { href, image } of internalLinks(res.body)) {
      let url: URL;
      try {
        url = new URL(href, `${ORIGIN}${path}`);
      } catch {
        broken.push({ link: href, from: path, image });
        continue;
      }
      if (url.origin !== ORIGIN) continue;
      const target = `${url.pathname}${url.search}`;
      if (url.hash.length > 1) {
        let fragment = url.hash.slice(1);
        try { fragment = decodeURIComponent(fragment); } catch { /* kept as written */ }
        fragments.push({ path: target, fragment, from: path });
      }
      if (target !== path) follow(target, image);
    }
  }
  return { pages, broken, fragments };
}

/** The page a path ends at, following redirects. */
function landing(pages: Map<string, PageOut>, path: string): PageOut | undefined {
  let page = pages.get(path);
  for (let hops = 0; page?.location && hops < 5; hops++) page = pages.get(page.location);
  return page;
}

interface Figures {
  site: string; tool: Tool; pages: number; notes: number; byConstruct: [string, number][];
  errors: number; errorReasons: [string, number][]; warnings: number; warningReasons: [string, number][];
  ms?: { read: number; check: number; write: number; total: number };
  /** bench:import's phases, wall and CPU time. */
  phases?: PhaseTime[];
  crawled?: number; broken?: Crawl['broken']; anchorsMissing?: Crawl['fragments']; redirects: number; redirectsLive?: number; redirectAnswers?: [string, number][];
  raw?: Map<string, { count: number; pages: Set<string> }>; brRuns?: { count: number; pages: Set<string> };
  compared?: number; differing?: { path: string; share: number; missing: string[] }[];
}

function tally(list: string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const key of list) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

/** A note's construct, its particulars (quoted code, numbers) left out, so notes of a kind count together. */
function construct(text: string): string {
  const head = text.split(' — ')[0] ?? text;
  return head.replace(/`[^`]*`/g, '`…`').replace(/"[^"]*"/g, '"…"').replace(/\d+/g, 'N').slice(0, 70);
}

async function measure(site: Site): Promise<Figures> {
  const out = await mkdtemp(join(tmpdir(), 'signpost-bench-migrate-'));
  try {
    const result = await migrate(site.tool, site.dir, out);
    const notes = reportLines(result.notes);
    const checked = await checkContent(out);
    const reason = (r: string) => r.replace(/`[^`]*`/g, '`…`').replace(/"[^"]*"/g, '"…"').replace(/\d+/g, 'N').slice(0, 80);
    const figures: Figures = {
      site: site.name, tool: site.tool, pages: result.topics, notes: notes.length, byConstruct: tally(notes.map((n) => construct(n.text))),
      errors: checked.problems.length, errorReasons: tally(checked.problems.map((p) => reason(p.reason))),
      warnings: checked.warnings.length, warningReasons: tally(checked.warnings.map((p) => reason(p.reason))), redirects: result.redirects,
    };
    if (checked.problems.length > 0) return figures;

    const { db, done } = await freshDb();
    let server: FastifyInstance | undefined;
    try {
      await migrateDb(db);
      const imported = await importContent(db, out, { force: true });
      figures.ms = imported.ms;
      figures.phases = imported.phases;
      server = Fastify({ ...serverOptions, logger: false });
      const config = loadConfig({ LOG_LEVEL: 'silent', IMPORT_ON_START: 'false', CONTENT_DIR: out, PUBLIC_URL: ORIGIN, OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' });
      await server.register(app, { config, db });
      await server.ready();
      const { pages, broken, fragments } = await crawl(server);
      figures.crawled = [...pages.values()].filter((p) => p.html).length;
      figures.broken = broken;
      figures.anchorsMissing = fragments.filter((f) => {
        const target = landing(pages, f.path);
        return target?.ids && !target.ids.has(f.fragment);
      });

      // The old URLs: each answers 301 and ends at a page that answers 200.
      const redirects = existsSync(join(out, 'redirects.yaml')) ? (parse(await readFile(join(out, 'redirects.yaml'), 'utf8')) as { from: string; to: string }[]) : [];
      let live = 0;
      const redirectAnswers: string[] = [];
      const newPathOf = new Map<string, string>();
      for (const r of redirects) {
        const res = await server.inject(r.from);
        redirectAnswers.push(`${res.statusCode}${res.statusCode === 301 ? '' : ` ${r.from}`}`);
        if (res.statusCode !== 301 || !res.headers.location) continue;
        const to = new URL(String(res.headers.location), ORIGIN);
        const end = await server.inject(`${to.pathname}${to.search}`);
        if (end.statusCode === 200) live++;
        newPathOf.set(urlKey(decodeURI(r.from)), to.pathname);
      }
      figures.redirectsLive = live;
      figures.redirectAnswers = tally(redirectAnswers);

      // Authoring syntax as text, and paragraphs broken at every source line.
      figures.raw = new Map(RAW.map(([label]) => [label, { count: 0, pages: new Set<string>() }]));
      figures.brRuns = { count: 0, pages: new Set() };
      for (const page of pages.values()) {
        if (!page.html) continue;
        const main = mainHtml(page.html);
        const text = proseText(main);
        for (const [label, re] of RAW) {
          const n = [...text.matchAll(re)].length;
          if (n > 0) {
            const entry = figures.raw.get(label) as { count: number; pages: Set<string> };
            entry.count += n;
            entry.pages.add(page.path);
          }
        }
        for (const p of main.matchAll(/<p\b[^>]*>([\s\S]*?)<\/p>/g)) {
          if ((p[1]?.match(/<br\s*\/?>/g)?.length ?? 0) >= 2) {
            figures.brRuns.count++;
            figures.brRuns.pages.add(page.path);
          }
        }
      }

      // Each page of the site's own language against its source: the share of the source's words not on the page.
      const source = site.tool === 'docusaurus' ? await readDocusaurus(site.dir) : site.tool === 'mkdocs' ? await readMkDocs(site.dir) : await readStarlight(site.dir);
      const differing: NonNullable<Figures['differing']> = [];
      let compared = 0;
      for (const doc of source.docs) {
        const path = newPathOf.get(urlKey(source.urlOf(doc)));
        const html = path ? pages.get(path)?.html : undefined;
        if (!path || !html) continue;
        compared++;
        const want = sourceWords(doc.body);
        const have = words(decode(mainHtml(html).replace(/<[^>]+>/g, ' ')));
        const missing = [...want].filter((w) => !have.has(w));
        const share = want.size > 0 ? missing.length / want.size : 0;
        if (share > DIFFERS && missing.length >= 3) differing.push({ path, share, missing });
      }
      differing.sort((a, b) => b.share - a.share);
      figures.compared = compared;
      figures.differing = differing;
    } finally {
      await server?.close();
      await done();
    }
    return figures;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

function print(all: Figures[]) {
  const s = (ms?: number) => (ms === undefined ? '—' : `${(ms / 1000).toFixed(1)} s`);
  const n = (v: number | undefined) => (v === undefined ? '—' : String(v));
  const rawCount = (f: Figures) => (f.raw ? [...f.raw.values()].reduce((a, b) => a + b.count, 0) : undefined);
  const rows: [string, (f: Figures) => string][] = [
    ['tool', (f) => f.tool],
    ['pages (topics)', (f) => String(f.pages)],
    ['migrate notes', (f) => String(f.notes)],
    ['check errors', (f) => String(f.errors)],
    ['check warnings', (f) => String(f.warnings)],
    // The phases bench:import reports, wall time and (in brackets) CPU time.
    ...[...new Set(all.flatMap((f) => (f.phases ?? []).map((p) => p.name)))].map((name): [string, (f: Figures) => string] => [`import ${name}`, (f) => {
      const phase = f.phases?.find((p) => p.name === name);
      return phase ? `${s(phase.ms)} (${s(phase.cpuMs)})` : '—';
    }]),
    ['import total', (f) => s(f.ms?.total)],
    ['pages crawled', (f) => n(f.crawled)],
    ['broken links', (f) => n(f.broken?.filter((b) => !b.image).length)],
    ['broken images', (f) => n(f.broken?.filter((b) => b.image).length)],
    ['anchors missing', (f) => n(f.anchorsMissing?.length)],
    ['redirects', (f) => String(f.redirects)],
    ['redirects 301→live', (f) => n(f.redirectsLive)],
    ['raw authoring tags', (f) => n(rawCount(f))],
    ['<br> runs (paragraphs)', (f) => n(f.brRuns?.count)],
    ['pages compared', (f) => n(f.compared)],
    [`pages differing >${DIFFERS * 100}%`, (f) => n(f.differing?.length)],
  ];
  const width = [Math.max(...rows.map((r) => r[0].length)), ...all.map((f) => Math.max(f.site.length, ...rows.map((r) => r[1](f).length)))];
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(width[0] as number) : c.padStart(width[i] as number))).join('  ');
  console.log(line(['site', ...all.map((f) => f.site)]));
  for (const [label, get] of rows) console.log(line([label, ...all.map(get)]));

  for (const f of all) {
    console.log(`\n${f.site} (${f.tool})`);
    const top = (list: [string, number][], k = 8) => list.slice(0, k).map(([what, count]) => `    ${String(count).padStart(5)}  ${what}`).join('\n');
    if (f.notes) console.log(`  migrate notes by construct:\n${top(f.byConstruct)}`);
    if (f.errors) console.log(`  check errors:\n${top(f.errorReasons)}`);
    if (f.warnings) console.log(`  check warnings:\n${top(f.warningReasons, 5)}`);
    if (f.broken?.length) console.log(`  broken:\n${f.broken.slice(0, 6).map((b) => `    ${b.image ? 'image' : 'link'} ${b.link} from ${b.from}`).join('\n')}`);
    if (f.anchorsMissing?.length) console.log(`  anchors missing:\n${f.anchorsMissing.slice(0, 6).map((a) => `    ${a.path}#${a.fragment} from ${a.from}`).join('\n')}`);
    const odd = f.redirectAnswers?.filter(([k]) => k !== '301') ?? [];
    if (odd.length) console.log(`  redirects not answering 301:\n${top(odd, 6)}`);
    const raw = f.raw ? [...f.raw].filter(([, v]) => v.count > 0) : [];
    if (raw.length) console.log(`  raw authoring tags:\n${raw.map(([k, v]) => `    ${String(v.count).padStart(5)}  ${k} on ${v.pages.size} pages (${[...v.pages].slice(0, 4).join(', ')})`).join('\n')}`);
    if (f.brRuns?.count) console.log(`  <br> runs: ${f.brRuns.count} paragraphs on ${f.brRuns.pages.size} pages (${[...f.brRuns.pages].slice(0, 2).join(', ')})`);
    if (f.differing?.length) console.log(`  differing most:\n${f.differing.slice(0, 4).map((d) => `    ${Math.round(d.share * 100)}% ${d.path}: ${d.missing.slice(0, 8).join(' ')}`).join('\n')}`);
  }
}

try {
  const sites = sitesFrom(process.argv.slice(2).filter((a) => !a.startsWith('--')));
  const all: Figures[] = [];
  for (const site of sites) {
    console.error(`measuring ${site.name} (${site.tool})…`);
    all.push(await measure(site));
  }
  print(all);
} catch (error) {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
}
