import t from 'tap';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, tempContent } from '../helpers/build.ts';
import { PAGE_CSP } from '../../server/plugins/render.ts';
import { loadContent, ContentSnapshot } from '../../server/content/load.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';
import { buildDev } from './helpers.ts';
import { booleanFlag, definitions, until } from '../flags/helpers.ts';
import type { FastifyInstance } from 'fastify';
import type { DevStatus } from '../../server/dev/plugin.ts';

const TOPIC = '/acme-cloud/docs/first-steps';
const FILE = 'topics/acme-cloud/first-steps.md';

/**
 * The live-preview state once `done` says the watcher dealt with the save (a write may be seen half
 * done first, as an empty file: the state after the whole write is the one waited for).
 */
async function settled(app: FastifyInstance, done: (status: DevStatus) => boolean): Promise<DevStatus> {
  const started = Date.now();
  while (!done(app.dev.status())) {
    if (Date.now() - started > 120_000) throw new Error('the save was not picked up within 120 s');
    await new Promise((r) => setTimeout(r, 20));
  }
  return app.dev.status();
}

t.test('a snapshot re-reads only the files it is told of and reads the tree as a full load does', async (t) => {
  const dir = await tempContent(t);
  const snapshot = new ContentSnapshot(dir);
  await snapshot.loadAll();
  const ids = (r: { entries: { id: string }[] }) => r.entries.map((e) => e.id);
  t.same(ids(snapshot.result()), ids(await loadContent(dir)));
  t.same(await snapshot.update([FILE]), [], 'an unchanged file is not parsed again');

  const text = await readFile(join(dir, FILE), 'utf8');
  await writeFile(join(dir, FILE), text.replace('Welcome to Acme.', 'Welcome to Acme, edited.'));
  await writeFile(join(dir, 'topics/acme-cloud/new-page.md'), '---\nid: acme-cloud-new\ntitle: New\nslug: new\ncontext: acme-cloud\n---\nNew.\n');
  await rm(join(dir, 'topics/acme-cloud/draft.md'));
  t.same((await snapshot.update([FILE, 'topics/acme-cloud/new-page.md', 'topics/acme-cloud/draft.md'])).sort(),
    ['topics/acme-cloud/draft.md', 'topics/acme-cloud/first-steps.md', 'topics/acme-cloud/new-page.md']);
  const after = snapshot.result();
  t.same(ids(after), ids(await loadContent(dir)), 'same entries, in the same order, as reading the tree again');
  t.ok(after.files.some((f) => f.path === FILE && f.text.includes('edited')));

  await rm(join(dir, 'topics/acme-cloud'), { recursive: true });
  await snapshot.update(['topics/acme-cloud']);
  t.notOk(snapshot.result().files.some((f) => f.path.startsWith('topics/acme-cloud/')), 'a folder removed drops its files');
  t.same(ids(snapshot.result()), ids(await loadContent(dir)));

  t.equal(snapshot.result().flags, undefined, 'the fixture has no flags.json');
  await writeFile(join(dir, 'flags.json'), definitions({ 'csm-ai-agent-on-sac': booleanFlag('on') }));
  t.same(await snapshot.update(['flags.json']), ['flags.json'], 'the flag definitions are part of the tree');
  t.equal(snapshot.result().flags, (await loadContent(dir)).flags, 'as a full load reads them');
});

t.test('live preview: a save is served, a broken save shows its problems over the last good page, a fix clears them; the tree\'s flags.json too', async (t) => {
  const dir = await tempContent(t);
  const app = await buildDev(t, dir, { watch: true, env: { SESSION_SECRET, CONTENT_EDITOR_URL: 'https://forge.example/help/-/edit/main/{file}' } });
  const first = await app.inject({ url: TOPIC, headers: { 'accept-encoding': 'gzip, br' } });
  t.equal(first.statusCode, 200);
  t.notOk(first.headers['content-encoding'], 'pages are sent as is in dev, so the script can be added');
  t.match(first.body, '<script type="module" src="/__dev/client.js"></script></head>');
  t.equal(first.headers['content-security-policy'], PAGE_CSP, 'the pages keep their policy: the script is the site\'s own');
  t.notMatch(first.body, 'signpost-dev-overlay"');
  const client = await app.inject({ url: '/__dev/client.js' });
  t.match(client.body, "new EventSource('/__dev/events')");

  const text = await readFile(join(dir, FILE), 'utf8');
  const before = app.dev.status().state;
  await writeFile(join(dir, FILE), text.replace('Welcome to Acme.', 'Welcome to Acme, now live.'));
  const saved = await settled(app, (s) => s.state !== before && s.problems.length === 0);
  t.same(saved.changed, [FILE], 'the watcher re-read the saved file alone');
  t.comment(`live ${Math.round(saved.ms)} ms after the change was seen`);
  t.match((await app.inject({ url: TOPIC })).body, 'Welcome to Acme, now live.');

  await writeFile(join(dir, FILE), text.replace('title: First steps', 'title: [First steps').replace('Welcome to Acme.', 'Broken save.'));
  const broken = await settled(app, (s) => s.problems.some((p) => p.file === FILE && p.field === 'yaml'));
  t.pass('the problem names the file and field');
  const page = (await app.inject({ url: TOPIC })).body;
  t.match(page, /<body[^>]*><!--dev-overlay--><div id="signpost-dev-overlay" role="alert"/, 'the overlay comes first in the page');
  t.match(page, new RegExp(`<code>${FILE}:4:\\d+: <strong class="error">error</strong>: yaml: [^<]+</code>`), 'as file:line:col: error: field: reason');
  t.match(page, /<pre tabindex="0"> 4 \| slug: first-steps\n {3}\| \^<\/pre>/, 'the line and a caret where the parser stopped');
  t.equal(page.split('/__dev/client.js').length, 2, 'the script is added once, to a page the page cache kept too');
  t.match(page, 'Welcome to Acme, now live.', 'the last good content keeps serving underneath');
  t.notMatch(page, 'Broken save.');

  await writeFile(join(dir, FILE), text);
  const fixed = await settled(app, (s) => s.state !== broken.state && s.problems.length === 0);
  t.same(fixed.problems, []);
  const back = (await app.inject({ url: TOPIC })).body;
  t.notMatch(back, 'signpost-dev-overlay"');
  t.match(back, 'Welcome to Acme.');

  const author = (await app.inject({ url: TOPIC, headers: { cookie: sealed(app, { ...ADA, canEdit: true }) } })).body;
  t.match(author, `href="https://forge.example/help/-/edit/main/${FILE}"`, 'an author\'s edit link names the source file');

  // The tree's flags.json is published with the content: a save changes flags, a broken one is shown.
  const agent = async () => (await app.flags.evaluate('csm-ai-agent-on-sac', {})).value;
  await writeFile(join(dir, 'flags.json'), definitions({ 'csm-ai-agent-on-sac': booleanFlag('on') }));
  await until(agent, 'the saved flag definitions');
  await writeFile(join(dir, 'flags.json'), '{ "flags": ');
  await settled(app, (s) => s.problems.some((p) => p.file === 'flags.json' && p.line === 1));
  t.pass('a broken flags file is shown with where');
  t.equal(await agent(), true, 'the last good definitions keep serving');
  await writeFile(join(dir, 'flags.json'), definitions({ 'csm-ai-agent-on-sac': booleanFlag('off') }));
  await settled(app, (s) => s.problems.length === 0);
  await until(async () => !(await agent()), 'the fixed flag definitions');
});

t.test('in dev mode an author\'s edit link may open a local editor at the entry\'s line; production keeps https', async (t) => {
  const dir = await tempContent(t);
  const kb = 'kb/acme/widget-crash.md';
  const id = 'id: kb-acme-widget-crash\n';
  await writeFile(join(dir, kb), (await readFile(join(dir, kb), 'utf8')).replace(id, '').replace('slug: widget-crash\n', `slug: widget-crash\n${id}`));
  const template = 'vscode://file/{absolutePath}:{line}';
  const app = await buildDev(t, dir, { env: { SESSION_SECRET, CONTENT_EDITOR_URL: template } });
  const cookie = sealed(app, { ...ADA, canEdit: true });
  const absolute = join(dir, FILE).replace(/^\/+/, '');
  t.match((await app.inject({ url: TOPIC, headers: { cookie } })).body, `href="vscode://file/${encodeURI(absolute)}:2"`);
  const [row] = await app.db.query<{ path: string; line: number }>(`select path, source_line as line from content_entries where source = $1`, [kb]);
  t.equal(row?.line, 4, 'the entry\'s id is on the fourth line of its file');
  t.match((await app.inject({ url: row?.path ?? '', headers: { cookie } })).body, `vscode://file/${encodeURI(join(dir, kb).replace(/^\/+/, ''))}:4"`);

  const scripted = await buildDev(t, dir, { env: { SESSION_SECRET, CONTENT_EDITOR_URL: 'javascript:alert({line})' } });
  t.notMatch((await scripted.inject({ url: TOPIC, headers: { cookie: sealed(scripted, { ...ADA, canEdit: true }) } })).body, 'class="edit-link"',
    'only editor schemes, never a script');
  const production = await build(t, { contentDir: dir, env: { SESSION_SECRET, CONTENT_EDITOR_URL: template } });
  const page = (await production.inject({ url: TOPIC, headers: { cookie: sealed(production, { ...ADA, canEdit: true }) } })).body;
  t.notMatch(page, 'vscode:', 'production links to web editors only');
});

t.test('without live preview, pages carry none of it', async (t) => {
  const app = await build(t);
  const page = await app.inject({ url: TOPIC });
  t.notMatch(page.body, '/__dev/');
  t.equal((await app.inject({ url: '/__dev/client.js' })).statusCode, 404);
  t.equal((await app.inject({ url: '/__dev/events' })).statusCode, 404);
});
