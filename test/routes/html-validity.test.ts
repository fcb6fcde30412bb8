import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import vnuJar from 'vnu-jar';
import { build, SAMPLE_CONTENT, PREVIEW_TOKEN } from '../helpers/build.ts';

const run = promisify(execFile);

/** One page of every page type and state, as a visitor gets it (the same list the browser journeys audit). */
const PAGES = {
  home: '/',
  'Japanese home': '/ja',
  'product landing': '/tracklight-cloud',
  'product support': '/tracklight-cloud/support',
  'related resources': '/tracklight-cloud/resources',
  'documented product home': '/tracklight-data-center/11.3/docs',
  collection: '/tracklight-cloud/docs/search-and-filters',
  'hub collection': '/migration/docs/plan-and-run-your-migration',
  guide: '/tracklight-cloud/docs/get-started',
  'topic set': '/tracklight-cloud/docs/plan-your-first-sprint',
  topic: '/tracklight-cloud/docs/write-rich-issue-descriptions',
  'guide topic': '/tracklight-cloud/docs/configure-board-columns',
  'topic, feedback reasons': '/tracklight-cloud/docs/save-and-share-a-filter?feedback=reasons',
  'topic, feedback thanks': '/tracklight-cloud/docs/save-and-share-a-filter?feedback=thanks',
  'versioned topic': '/pagewell-data-center/9.5/docs/tune-the-content-cache',
  'KB home': '/tracklight/kb',
  'KB article': '/tracklight/kb/cluster-node-stuck-starting',
  'Japanese topic': '/keyward-cloud/docs/set-up-saml-sso-ja',
  contact: '/contact',
  'Japanese contact': '/ja/contact',
  'hot contact': '/hot-contact',
  'partner contact': '/partnercontact',
  'status page contact': '/statuspage-contact',
  'my requests': '/requests',
  'file download': '/file-download',
  'legal page': '/legal/privacy-policy',
  'version not found': '/version-switch?entry=tracklight-data-center-configure-json-logging&version=10.4&from=11.3',
  'preview error': `/preview/preview-error?preview=${PREVIEW_TOKEN}`,
  'preview of a page': `/preview/tracklight-cloud-automate-issue-triage?preview=${PREVIEW_TOKEN}`,
  'not found': '/no-such-page',
  'search, empty': '/search-results/',
  'search, results': '/search-results/?searchTerm=sprint',
  'search, page 2 with filters': '/search-results/?searchTerm=sprint&deployment=cloud&product=tracklight&page=2',
  'search, no results': '/search-results/?searchTerm=zzzzqqqq',
  'search, spelling rewrite': '/search-results/?searchTerm=sprnt%20planing',
} as const;

/**
 * Every page type is valid HTML by the Nu Html Checker (the W3C validator), which ships as a Java
 * archive in the vnu-jar package: one checker run over all pages, zero errors.
 */
t.test('every page type is valid HTML', async (t) => {
  const app = await build(t, { contentDir: SAMPLE_CONTENT });
  const dir = await mkdtemp(join(tmpdir(), 'signpost-html-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const files = new Map<string, string>();
  for (const [name, path] of Object.entries(PAGES)) {
    const res = await app.inject(path);
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
