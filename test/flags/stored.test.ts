/**
 * Flag definitions published with the content (server/flags/stored-provider.ts): two instances on one
 * database, each with its own copy of the tree (separate hosts, no shared disk). An import on one
 * changes flags on the other; a broken flags file refuses the import and both keep the last good
 * definitions; a tree without flags.json gives every flag its default everywhere; an operator's own
 * FLAGS_FILE outside the tree is still read from disk.
 */
import { rm, readFile, writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import t from 'tap';
import { build, testDb } from '../helpers/build.ts';
import { loadConfig } from '../../server/config.ts';
import { ContentError, formatProblem } from '../../server/content/problems.ts';
import { flagsInContent } from '../../server/flags/providers.ts';
import { booleanFlag, contentWithVideo, definitions, until, VIDEO_TOPIC } from './helpers.ts';

const VIDEO = 'class="featured-video"';

function logTo(lines: string[]) {
  return new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done(); } });
}

t.test('a flags change imported on one instance is evaluated on the other', async (t) => {
  const db = await testDb(t);
  const [treeA, treeB] = [await contentWithVideo(t), await contentWithVideo(t)];
  await writeFile(join(treeA, 'flags.json'), definitions({ 'sac-featured-video': booleanFlag('on'), 'csm-ai-agent-on-sac': booleanFlag('on') }));
  // B's own copy is stale and never imported (IMPORT_ON_START=false): what it evaluates comes from the database.
  const stale = definitions({ 'sac-featured-video': booleanFlag('off') });
  await writeFile(join(treeB, 'flags.json'), stale);
  const linesA: string[] = [];
  const a = await build(t, { db, contentDir: treeA, env: { LOG_LEVEL: 'info' }, logStream: logTo(linesA) });
  const b = await build(t, { db, contentDir: treeB, env: { IMPORT_ON_START: 'false' } });
  const flag = async (app: typeof a, name: 'sac-featured-video' | 'csm-ai-agent-on-sac') =>
    (await app.flags.evaluate(name, { role: 'anonymous', signedIn: false })).value;

  t.equal(b.flags.source, 'content', 'the tree\'s own flags.json is the imported one');
  t.equal(await flag(b, 'sac-featured-video'), true, 'B evaluates what A imported, not its own disk');
  t.equal(await flag(b, 'csm-ai-agent-on-sac'), true);
  const kept = await b.inject({ url: VIDEO_TOPIC });
  t.equal(kept.statusCode, 200);
  t.match(kept.body, VIDEO, 'B\'s page shows the video (and keeps that copy)');

  t.test('an import on A changes the evaluation and the kept page on B', async (t) => {
    await writeFile(join(treeA, 'flags.json'), definitions({ 'sac-featured-video': booleanFlag('off'), 'csm-ai-agent-on-sac': booleanFlag('on') }));
    const result = await a.importContentTree(treeA);
    t.equal(result.imported, true, 'a flags-only change is a new content version');
    const imported = performance.now();
    await until(async () => !(await flag(b, 'sac-featured-video')), 'the new definitions on B');
    t.comment(`B evaluates the new definitions ${Math.round(performance.now() - imported)} ms after A's import returned`);
    await until(async () => !(await b.inject({ url: VIDEO_TOPIC })).body.includes(VIDEO), 'B\'s kept page dropped');
    t.equal(await flag(a, 'sac-featured-video'), false, 'and on A');
    t.equal(await readFile(join(treeB, 'flags.json'), 'utf8'), stale, 'B\'s disk was never read');
    t.ok(linesA.some((l) => l.includes('flag definitions loaded') && l.includes('imported content')), 'logged as the imported content\'s');
  });

  t.test('a broken flags file refuses the import with where; both keep the last good definitions', async (t) => {
    const broken = definitions({ 'sac-featured-video': booleanFlag('on') }).replace('"state": "ENABLED"', '"state": ENABLED');
    await writeFile(join(treeA, 'flags.json'), broken);
    const refused = await a.importContentTree(treeA).then(() => undefined, (error: unknown) => error);
    t.ok(refused instanceof ContentError, 'refused as a content problem');
    t.match((refused as ContentError).problems.map(formatProblem), [/^flags\.json:4:\d+: .*not valid JSON/], 'the file, line and reason');
    // A schema problem names the field.
    await writeFile(join(treeA, 'flags.json'), definitions({ 'sac-featured-video': { ...booleanFlag('on'), state: 'SOMETIMES' } }));
    const schema = await a.importContentTree(treeA).then(() => undefined, (error: unknown) => error);
    t.ok((schema as ContentError).problems.map(formatProblem).some((p) => /^flags\.json:4:\d+: \/flags\/sac-featured-video\/state: /.test(p)), 'the field');
    for (const app of [a, b]) {
      t.equal(await flag(app, 'sac-featured-video'), false, 'the last good definitions');
      const page = await app.inject({ url: VIDEO_TOPIC });
      t.equal(page.statusCode, 200, 'pages are served');
      t.notMatch(page.body, VIDEO);
    }
  });

  t.test('a tree without flags.json: every flag takes its default on every instance', async (t) => {
    await rm(join(treeA, 'flags.json'));
    t.equal((await a.importContentTree(treeA)).imported, true);
    await until(async () => !(await flag(b, 'csm-ai-agent-on-sac')), 'the defaults on B');
    t.equal(await flag(b, 'sac-featured-video'), true, 'the video flag\'s default is on');
    await until(async () => (await b.inject({ url: VIDEO_TOPIC })).body.includes(VIDEO), 'B\'s page with the default');
  });
});

t.test('FLAGS_FILE outside the content tree is the operator\'s own file, read from disk', async (t) => {
  const inTree = loadConfig({ CONTENT_DIR: '/srv/help/content' });
  t.equal(flagsInContent(inTree), true, 'the default location is the tree\'s');
  t.equal(flagsInContent(loadConfig({ CONTENT_DIR: '/srv/help/content', FLAGS_FILE: '/srv/help/content/flags.json' })), true);
  t.equal(flagsInContent(loadConfig({ CONTENT_DIR: '/srv/help/content', FLAGS_FILE: '/etc/signpost/flags.json' })), false);
  const content = await contentWithVideo(t);
  const own = join(content, '..', `${content.split('/').at(-1)}-flags.json`);
  t.teardown(() => rm(own, { force: true }));
  await writeFile(own, definitions({ 'sac-featured-video': booleanFlag('off') }));
  const app = await build(t, { contentDir: content, env: { FLAGS_FILE: own } });
  t.equal(app.flags.source, 'file');
  t.equal((await app.flags.evaluate('sac-featured-video', {})).value, false, 'the file on disk decides');
});
