/**
 * npm run docs:reference: writes the reference pages of docs/ that the code decides, so they cannot
 * drift from it: every setting from server/config.ts's SETTINGS (the list the loader itself names
 * settings by), every package.json script with what it does, and the HTTP API (scripts/docs-http-api.ts). A script without a description here,
 * or a description of a script that is gone, stops it; test/docs/docs.test.ts checks the written pages
 * are what this makes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTINGS } from '../server/config.ts';
import { HTTP_API_PAGE, httpApiReference, openApiDocument } from './docs-http-api.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CONFIGURATION_PAGE = join(ROOT, 'docs/topics/reference/configuration-reference.md');
export const COMMANDS_PAGE = join(ROOT, 'docs/topics/reference/commands.md');

interface Command {
  usage: string;
  what: string;
}

/** What each package.json script does, as an operator or contributor runs it; a script may have several forms. */
const COMMANDS: Record<string, Command[]> = {
  'import': [{ usage: '`npm run import -- [dir]`', what: 'checks a content tree and replaces the stored content with it (`--force` even when unchanged). Safe at any time: with PGlite, while a server runs on the same `DATA_DIR` it holds the data directory\'s lock, so the command hands the import to that server (its local admin endpoint, with the token the server writes to `DATA_DIR/admin.json`, mode 0600) and prints the same result' }],
  'accounts': [{ usage: '`npm run accounts -- <command>`', what: 'the embedded identity provider\'s accounts: `add`, `list`, `disable`, `enable`, `reset` (see [Identity and sign-in](../people/identity.md)); like `npm run import`, hands itself to a running server on the same PGlite `DATA_DIR`' }],
  'content:check': [{ usage: '`npm run content:check -- [dir]`', what: 'checks a content tree and lists every problem, writing nothing (`--format json` for editors and CI: see [Check and import a content tree](../authoring/checking-and-importing.md))' }],
  'dev': [{ usage: '`npm run dev`', what: 'the help centre with live preview: watches the content tree, imports each save, reloads open pages, shows a broken tree\'s problems over the page (see [Live preview](../authoring/live-preview.md))' }],
  'migrate': [{ usage: '`npm run migrate -- --from docusaurus\\|mkdocs\\|starlight SRC OUT`', what: 'converts another tool\'s docs site into a content tree and lists what it could not carry over (see [Migrate from another documentation tool](../authoring/migration.md))' }],
  'generate-corpus': [{ usage: '`npm run generate-corpus -- --count 10000 --out /tmp/corpus`', what: 'writes a synthetic content tree for benchmarks' }],
  'bench:start': [{ usage: '`npm run bench:start [-- --content dir] [--page path]`', what: 'measures first start on a fresh data directory and restart with existing data: time to serving (`/healthz`), to content stored (`/readyz`) and to the first 200 of a page (`/` by default), with what the page answered before it; `BENCH_DEADLINE_S` (600) bounds each start' }],
  'bench:memory': [{ usage: '`npm run bench:memory [-- --runs 3] [--content dir] [--env "VAR=value …"] [--node-flags "…"]`', what: 'resident memory of the production build on the embedded database: starts it as `npm run start:built` does (its variables and node flags, unless `--env` or `--node-flags` replace them) on a fresh data directory (first start, the import running in the server) and again on the stored data (restart), and prints VmRSS, the part of it in WebAssembly memory (PGlite\'s heap) and VmHWM (the peak) when `/readyz` first answers 200 and after a load (every page of the sitemap, then 20 searches); medians of `--runs`, each run in brackets. Linux only (reads `/proc`); see [Capacity and sizing](../operating/capacity.md)' }],
  'bench:import': [{ usage: '`npm run bench:import -- [dir]`', what: 'measures an import of a content tree: wall and CPU time of each phase (read, assets, parse, check, render, each part of the write, search index, passages, commit, vacuum), the total, the rate, and the longest event-loop block with the phase it was in' }],
  'bench:dev': [{ usage: '`npm run bench:dev -- [dir]`', what: 'live preview: time from a saved topic to its new content being stored and served, on a copy of the tree (default the sample content)' }],
  'bench:search': [{ usage: '`npm run bench:search -- <corpus dir> [--skip-import] [--flood-only | --distinct-only]`', what: 'search figures: MRR@10 of the judged queries, import and search-index build, engine latency cold, API latency over HTTP against the production server with 10 connections (`BENCH_CONNECTIONS`; distinct queries, broad words, repeated queries), a flood of `BENCH_FLOOD_CONNECTIONS` (500) connections of distinct searches (shed count, p50/p99 of served and shed answers), results-page render. `--skip-import` reuses the database `DATABASE_URL` or `DATA_DIR` names; `--flood-only` measures the flood alone, `--distinct-only` the distinct queries alone' }],
  'bench:outage': [{ usage: '`npm run bench:outage`', what: 'needs `DATABASE_URL`: a 10 s PostgreSQL outage through a TCP proxy; prints what pages, the search API and feedback posts answered during it, the time from the server coming back to the first 200 of an uncached page and to the listener being back, and acknowledged versus stored feedback writes' }],
  'bench:lighthouse': [{ usage: '`npm run bench:lighthouse [-- --runs 3] [--content DIR] [--cpu-slowdown N]`', what: 'Lighthouse\'s mobile profile (performance only) on the production build: home, a topic, a knowledge-base article and a results page found from the sitemap; medians of the score, total blocking time, first and largest contentful paint and bytes transferred. Lighthouse is not a dependency: it runs with `npx lighthouse@12.2.3` (fetched once into npm\'s cache; the last release for Node 20), or the CLI named by `LIGHTHOUSE`; Chromium from `CHROMIUM` (default `/usr/bin/chromium`). Its CPU slowdown (4, meant for a high-end desktop) multiplies the host\'s own load: run it on a quiet machine; each run\'s benchmark index (the host\'s speed as Lighthouse measured it) is printed beside its score, and `--cpu-slowdown` runs with another factor, as Lighthouse\'s throttling guide recommends for slower hosts' }],
  'bench:cluster': [{ usage: '`npm run bench:cluster [-- --quick] [--runs 3] [--seconds 8] [--connections 20] [--dir DIR] [--only throughput,publish,kill,rolling,primary,replica]`', what: 'builds, starts `npm run cluster`\'s fleet (primary, replica, 3 instances, nginx) in a temporary folder (or `--dir`, kept) and measures it through nginx: req/s, p50 and p97.5 of 1, 2 and 3 instances on a mix of nine page views to one distinct search, with the CPU time of instances, PostgreSQL and nginx and the memory of each; publish propagation (an import\'s commit to every instance serving the new text, asked directly); `kill -9` of an instance, a rolling restart, a primary restart (with feedback, support-request and analytics writers: acknowledged versus stored) and a replica stop, each under load, with the requests that failed. Medians of `--runs`; `--quick` is one 3 s run of each, a smoke run of a few minutes. Raises the per-client limits, since all load comes from one address. See [Capacity and sizing](../operating/capacity.md)' }],
  'bench:pages': [{ usage: '`npm run bench:pages [-- --content dir \\| --data-dir dir]`', what: 'page budgets: HTML sizes (plain, gzip, brotli, links) of the home page, topics, a knowledge-base article and a results page, compressed CSS, render-blocking scripts, server CPU per request of a topic rendered anew and answered from the cache, and of a topic for a signed-in visitor (signed in through the real flow)' }, { usage: '`npm run bench:pages -- --throughput [--content dir] [--data-dir dir] [--seconds 8] [--repeats 3]`', what: 'the production server against `@fastify/static` serving the same bytes with the same compression, 10 connections: requests per second of a topic, the home page, a knowledge-base article and a cached results page, and their ratio (median of the repeats); a signed-in visitor\'s topic (a bench account made with `npm run accounts`, signed in through the real flow) against the anonymous topic in the same run; a topic page at 200 req/s and at full speed, alone and with distinct searches beside it; resident memory after start and after the load. `--data-dir` reuses a directory the tree is already imported into' }],
  'bench:assets': [{ usage: '`npm run bench:assets`', what: 'static assets: stylesheet, islands script and a content SVG as sent (identity, gzip, brotli sizes) and their throughput with 10 connections on the production build, medians of three runs' }],
  'fuzz': [{ usage: '`npm run fuzz`', what: 'the fuzz tests at full size: 10 000 requests per route group (pages, search, feedback, sign-in and the embedded provider, support forms with whole and broken multipart, requests as customer and staff, the helpdesk API, analytics batches in JSON and text/plain, the assistant, insights, any route) on the sample content, then bodies cut off on a real socket; prints per group the requests, 5xx, hangs (no answer within `FUZZ_HANG_MS`, 30 s), time and statuses, and fails on any 5xx or hang. `FUZZ_REQUESTS` (or one group\'s, `FUZZ_REQUESTS_FORMS`), `FUZZ_SEED`, `FUZZ_GROUPS=forms,events` and `DATABASE_URL` change the run; `npm test` runs the same tests with 150 per group' }],
  'build': [{ usage: '`npm run build`', what: 'production build into `dist/` (the `Procfile` runs it, then `npm run start:built`)' }],
  'start:built': [{ usage: '`npm run start:built`', what: 'runs the production build in `dist/` (the `Procfile` builds, then runs this) with the memory settings of [Capacity and sizing](../operating/capacity.md): `MALLOC_ARENA_MAX=2`, `MALLOC_MMAP_THRESHOLD_=65536`, and `--max-semi-space-size=4`' }],
  'start': [{ usage: '`npm start`', what: 'builds, creates `./data` (PGlite), migrates, imports `content/`, serves on :3000 (see [Install, run and test Signpost](../getting-started/install-and-run.md))' }],
  'test': [{ usage: '`npm test`', what: 'type-checks, then runs every unit, integration and browser test (see [Install, run and test Signpost](../getting-started/install-and-run.md)); `.ci/run` runs it on PGlite and on PostgreSQL' }],
  'typecheck': [{ usage: '`npm run typecheck`', what: '`tsc -p .`: type-checks the whole project, as `npm test` does first' }],
  'test:unit': [{ usage: '`npm run test:unit`', what: 'the tests from their TypeScript sources without the browser journeys of `test/e2e/`' }],
  'cluster': [{ usage: '`npm run cluster -- [--instances 3] [--port 8080] [--dir DIR] [--content DIR] [--no-replica] [--no-seed]`', what: 'builds, then starts the reference deployment of `deploy/` on one machine: a PostgreSQL primary and a streaming replica, N instances and nginx in front (see [Run a fleet of instances](../operating/fleet.md))' }],
  'bench:migrate': [{ usage: '`npm run bench:migrate -- [SITE…]`', what: 'migrates each documentation site into a temporary folder, checks, imports, serves and crawls it, and prints what it found (see [Migrate from another documentation tool](../authoring/migration.md))' }],
  'bench:stall': [{ usage: '`npm run bench:stall`', what: 'measures cached topic pages while long Japanese queries run (see [How search finds pages](../authoring/search.md))' }],
  'bench:relevance': [{ usage: '`npm run bench:relevance [-- --misses]`', what: 'MRR@10, hit@1 and more of the judged queries of each content tree (see [How search finds pages](../authoring/search.md))' }],
  'bench:forms': [{ usage: '`npm run bench:forms [-- --seconds 10 --clients 10 --no-delivery]`', what: 'support form submissions a second from 10 clients posting as a browser without JavaScript would (see [Delivery to the helpdesk](../integrations/helpdesk-delivery.md))' }],
  'bench:flags': [{ usage: '`npm run bench:flags`', what: 'flag evaluations per second, the cost of one evaluation and of a page render\'s flags (see [Feature flags](../integrations/feature-flags.md))' }],
  'bench:assistant': [{ usage: '`npm run bench:assistant [-- <corpus dir>] [--explain]`', what: 'the share of the checked-in questions whose answer cites a right page in its top 3, the answer time, and on each tree with a judged set (the sample content, the second tree, the held-out third tree): answered correctly / answerable, refused / unanswerable, wrong answers shown; `--explain` prints the candidates of each wrong answer (see [AI assistant](../integrations/assistant.md))' }],
  'bench:events': [{ usage: '`npm run bench:events [-- --seconds 4 --repeats 3 --rate 1000 --content DIR]`', what: 'analytics events accepted per second by `POST /api/events` and the rows stored (see [Analytics](../analytics/analytics.md))' }],
  'bench:insights': [{ usage: '`npm run bench:insights [-- <raw events>]`', what: 'times every table of the insights sections over 200 000 raw events (see [Insights](../analytics/insights.md))' }],
  'docs': [{ usage: '`npm run docs`', what: 'this documentation as a help centre with live preview, on its own data directory (`.data-docs`) and port (`4100`): `docs/` is the content tree; regenerates the reference pages first' }],
  'docs:build': [{ usage: '`npm run docs:build [-- OUT]`', what: 'writes this documentation as static files for any web host into `OUT` (default `dist-docs/`): every page of the sitemap and every same-site page, stylesheet, script and file they link (`scripts/docs-build.ts`); set `PUBLIC_URL` to the address it will be served at. Search comes along for a small index: the results of the words the titles use most (`/search-results/q/{word}/`), the results address listing them (where a search without scripts lands), and a script that sends the search form to the closest of them. Forms, sign-in, filters and other searches need the server' }],
  'docs:reference': [{ usage: '`npm run docs:reference`', what: 'writes the configuration reference and this page from `server/config.ts` and `package.json`, and the [HTTP API reference](http-api.md) from the routes\' OpenAPI document (`scripts/docs-reference.ts`)' }],
};

/** Variables the tests and benchmarks read; the server itself never does. */
const TOOL_VARIABLES: [string, string][] = [
  ['CHROMIUM_PATH', 'Chromium for the browser tests (else `/usr/bin/chromium`, else a browser installed by `npx playwright install chromium`)'],
];

function frontMatter(id: string, title: string, slug: string): string {
  return `---\nid: ${id}\ntitle: ${title}\nslug: ${slug}\ncontext: signpost\nlastPublished: 2026-11-28T12:00:00Z\n---\n`;
}

/** A table cell: a bare `|` would end it. */
const cell = (text: string) => text.replace(/(?<!\\)\|/g, '\\|');

export function configurationReference(): string {
  const rows = SETTINGS.map((s) => `| \`${s.name}\` | ${cell(s.default)} | ${cell(s.meaning)} |`);
  return `${frontMatter('signpost-configuration-reference', 'Configuration reference', 'configuration-reference')}`
    + 'Everything is read from the environment and checked at start; a bad value stops start-up naming the\n'
    + `variable. These are all ${SETTINGS.length} settings, written from \`server/config.ts\` by \`npm run docs:reference\`.\n`
    + 'How they fit together: [Configure Signpost](../operating/configuration.md).\n\n'
    + '| variable | default | meaning |\n|---|---|---|\n'
    + `${rows.join('\n')}\n`;
}

export function packageScripts(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  return Object.keys(pkg.scripts);
}

export function commandsReference(): string {
  const scripts = packageScripts();
  const undocumented = scripts.filter((s) => !(s in COMMANDS));
  const gone = Object.keys(COMMANDS).filter((s) => !scripts.includes(s));
  if (undocumented.length > 0 || gone.length > 0) {
    throw new Error([
      undocumented.length > 0 ? `package.json scripts without a description in scripts/docs-reference.ts: ${undocumented.join(', ')}` : '',
      gone.length > 0 ? `described in scripts/docs-reference.ts but not in package.json: ${gone.join(', ')}` : '',
    ].filter(Boolean).join('\n'));
  }
  const rows = scripts.flatMap((s) => (COMMANDS[s] ?? []).map((c) => `| ${cell(c.usage)} | ${cell(c.what)} |`));
  const variables = TOOL_VARIABLES.map(([name, meaning]) => `| \`${name}\` | ${cell(meaning)} |`);
  return `${frontMatter('signpost-commands', 'Commands', 'commands')}`
    + `Every script of \`package.json\` (${scripts.length}), in its order there, written by \`npm run docs:reference\`.\n\n`
    + '| command | what it does |\n|---|---|\n'
    + `${rows.join('\n')}\n\n`
    + '## Variables of the tests\n\n'
    + 'The server never reads these; its own settings are in [the configuration reference](configuration-reference.md).\n\n'
    + '| variable | meaning |\n|---|---|\n'
    + `${variables.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    writeFileSync(CONFIGURATION_PAGE, configurationReference());
    writeFileSync(COMMANDS_PAGE, commandsReference());
    writeFileSync(HTTP_API_PAGE, httpApiReference(await openApiDocument()));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
