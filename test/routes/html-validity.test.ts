import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import vnuJar from 'vnu-jar';
import { build, SAMPLE_CONTENT, PREVIEW_TOKEN } from '../helpers/build.ts';
import { PAGE_TYPES } from '../fixtures/page-types.ts';
import { definitions } from '../flags/helpers.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';

const run = promisify(execFile);

/** Every page type and state of the browser journeys, and the search page's states. */
const PAGES = {
  ...PAGE_TYPES,
  'preview of a page': `/preview/tracklight-cloud-automate-issue-triage?preview=${PREVIEW_TOKEN}`,
  'search, empty': '/search-results/',
  'search, results': '/search-results/?searchTerm=sprint',
  'search, page 2, sorted': '/search-results/?searchTerm=configure&sort=last_published&page=2',
  'search, no results': '/search-results/?searchTerm=zzzzqqqq',
  'search, spelling rewrite': '/search-results/?searchTerm=sprnt%20planing',
  'search, no results with a suggestion': '/search-results/?searchTerm=escalaton&exact=1',
} as const;

/** Pages as a signed-in customer sees them, with the AI summary experiment on. */
const SIGNED_IN_PAGES = {
  'search, no results with the assistant\'s answer': '/search-results/?searchTerm=escalation&deployment=cloud&product=codebarn',
} as const;

/**
 * Every page type is valid HTML by the Nu Html Checker (the W3C validator), which ships as a Java
 * archive in the vnu-jar package: one checker run over all pages, zero errors.
 */
t.test('every page type is valid HTML', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'signpost-html-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  // The sample's flags with the AI summary experiment on: it is only ever on for signed-in accounts.
  const flags = JSON.parse(await readFile(join(SAMPLE_CONTENT, 'flags.json'), 'utf8')) as { flags: Record<string, { defaultVariant: string }> };
  flags.flags['sac-search-ai-experiment']!.defaultVariant = 'on';
  await writeFile(join(dir, 'flags.json'), definitions(flags.flags));
  const app = await build(t, { contentDir: SAMPLE_CONTENT, env: { SESSION_SECRET, FLAGS_FILE: join(dir, 'flags.json') } });
  const files = new Map<string, string>();
  const pages = [
    ...Object.entries(PAGES).map(([name, url]) => ({ name, url, headers: {}, shows: undefined })),
    ...Object.entries(SIGNED_IN_PAGES).map(([name, url]) => ({ name, url, headers: { cookie: sealed(app, ADA) }, shows: 'class="ai-summary search-answer"' })),
  ];
  for (const { name, url, headers, shows } of pages) {
    const res = await app.inject({ url, headers });
    if (shows) t.match(res.body, shows, `${name}: the state it is named for`);
    t.ok(String(res.headers['content-type']).startsWith('text/html'), `${name} is an HTML page (${res.statusCode})`);
    const file = join(dir, `${files.size}.html`);
    await writeFile(file, res.body);
    files.set(`file:${file}`, name);
  }
  // A page with a known error proves the checker ran and reported: a silent checker must not pass.
  const canary = join(dir, 'canary.html');
  await writeFile(canary, '<!doctype html><html lang="en"><head><title>x</title></head><body><pre aria-label="Code">x</pre></body></html>');
  files.set(`file:${canary}`, 'canary');
  let output = '';
  try {
    const result = await run('java', ['-jar', String(vnuJar), '--format', 'json', '--errors-only', ...[...files.keys()].map((f) => f.slice(5))], { maxBuffer: 16 << 20 });
    output = result.stderr;
  } catch (error) {
    const failure = error as { code?: string | number; stderr?: string };
    if (failure.code === 'ENOENT') throw new Error('No Java runtime for the HTML checker: install one (Debian: apt-get install openjdk-17-jre-headless).');
    output = failure.stderr ?? '';
  }
  const report = JSON.parse(output || '{"messages":[]}') as { messages: { type: string; url?: string; lastLine?: number; message: string; extract?: string }[] };
  const found = report.messages.filter((m) => m.type === 'error');
  t.ok(found.some((m) => files.get(m.url ?? '') === 'canary'), 'the checker reports the known error of the canary page');
  const errors = found
    .filter((m) => files.get(m.url ?? '') !== 'canary')
    .map((m) => `${files.get(m.url ?? '') ?? m.url}:${m.lastLine ?? 0}: ${m.message}${m.extract ? ` (${m.extract.trim().slice(0, 80)})` : ''}`);
  t.same(errors, [], `${files.size - 1} pages, no HTML errors`);
});
