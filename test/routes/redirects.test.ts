import t from 'tap';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, editFile, tempContent } from '../helpers/build.ts';

const TOPIC = 'topics/acme-cloud/first-steps.md';

/**
 * One app through a series of imports: the content's redirects.yaml, then renames between imports (each
 * leaving its old path answering 301, a chain collapsed), a page taking an old path back, all through the
 * page cache (a not-found page kept before the import is not answered after it).
 */
t.test('moved pages answer 301 to where they are now', async (t) => {
  const dir = await tempContent(t);
  await writeFile(join(dir, 'redirects.yaml'), [
    '# Old addresses of the previous help site',
    '- { from: /usage/first-steps, entry: acme-cloud-first-steps }',
    '- { from: /usage/basics/, to: /acme-cloud/docs/basics }',
    '- { from: /usage/setup, to: "/acme-cloud/docs/basics?view=all#top" }',
    '',
  ].join('\n'));
  const app = await build(t, { contentDir: dir });
  const get = (url: string) => app.inject({ url, headers: { 'user-agent': 'Mozilla/5.0 (test)' } });

  t.test('from redirects.yaml, with the query kept', async (t) => {
    const moved = await get('/usage/first-steps?utm_source=mail&x=%C3%A9');
    t.equal(moved.statusCode, 301);
    t.equal(moved.headers.location, '/acme-cloud/docs/first-steps?utm_source=mail&x=%C3%A9', 'the query is passed on as sent');
    t.equal((await get('/usage/first-steps/')).headers.location, '/acme-cloud/docs/first-steps', 'a trailing slash is the same path');
    t.equal((await get('/usage/basics')).headers.location, '/acme-cloud/docs/basics');
    t.equal((await get('/usage/setup?a=1')).headers.location, '/acme-cloud/docs/basics?view=all&a=1#top', 'the query joins the target\'s, before the fragment');
    t.equal((await app.inject({ method: 'HEAD', url: '/usage/first-steps' })).statusCode, 301, 'HEAD too');
    t.not((await app.inject({ method: 'POST', url: '/usage/first-steps' })).statusCode, 301, 'never a POST');
    t.equal((await get('/usage/other')).statusCode, 404, 'any other path is not found');
  });

  t.test('a renamed page leaves its old path behind, and a page at that path takes it back', async (t) => {
    const old = '/acme-cloud/docs/first-steps';
    t.equal((await get('/acme-cloud/docs/getting-going')).statusCode, 404, 'not found before the rename (the page kept)');
    await editFile(join(dir, TOPIC), 'slug: first-steps', 'slug: getting-going');
    const renamed = await app.importContentTree(dir);
    t.ok(renamed.imported);
    t.notOk(renamed.written.full, 'an incremental import (only what changed written)');
    t.equal((await get('/acme-cloud/docs/getting-going')).statusCode, 200, 'the kept not-found page is gone with the import');
    const moved = await get(`${old}?q=1`);
    t.equal(moved.statusCode, 301);
    t.equal(moved.headers.location, '/acme-cloud/docs/getting-going?q=1');
    t.equal((await get('/usage/first-steps')).headers.location, '/acme-cloud/docs/getting-going', 'a redirect to an entry follows it');

    // The parent moves: every path under it moves, and the first rename's path goes straight to the newest.
    await editFile(join(dir, TOPIC), 'slug: getting-going', 'slug: start-here');
    t.ok((await app.importContentTree(dir)).imported);
    t.equal((await get(old)).headers.location, '/acme-cloud/docs/start-here', 'a chain collapses: one hop from the first path');
    t.equal((await get('/acme-cloud/docs/getting-going')).headers.location, '/acme-cloud/docs/start-here');

    // A new page at an old path wins over the redirect.
    await writeFile(join(dir, 'topics/acme-cloud/new-first.md'), '---\nid: acme-cloud-new-first\ntitle: New first steps\nslug: first-steps\ncontext: acme-cloud\n---\nA new page.\n');
    await editFile(join(dir, 'collections/acme-cloud-basics.yaml'), 'acme-cloud-draft]', 'acme-cloud-draft, acme-cloud-new-first]');
    t.ok((await app.importContentTree(dir)).imported);
    t.equal((await get(old)).statusCode, 200, 'the page answers');
    t.equal((await get('/acme-cloud/docs/getting-going')).headers.location, '/acme-cloud/docs/start-here', 'the other old path still redirects');
    await editFile(join(dir, TOPIC), 'slug: start-here', 'slug: start-here-now');
    await editFile(join(dir, 'topics/acme-cloud/new-first.md'), 'slug: first-steps', 'slug: new-first-steps');
    t.ok((await app.importContentTree(dir)).imported);
    t.equal((await get(old)).headers.location, '/acme-cloud/docs/new-first-steps', 'the path is now the new page\'s old one');
    const rows = await app.db.query<{ from_path: string; to_path: string; source: string }>('select from_path, to_path, source from content_redirects order by from_path');
    t.same(rows.filter((r) => r.source === 'rename'), [
      { from_path: '/acme-cloud/docs/first-steps', to_path: '/acme-cloud/docs/new-first-steps', source: 'rename' },
      { from_path: '/acme-cloud/docs/getting-going', to_path: '/acme-cloud/docs/start-here-now', source: 'rename' },
      { from_path: '/acme-cloud/docs/start-here', to_path: '/acme-cloud/docs/start-here-now', source: 'rename' },
    ], 'stored once per old path, each pointing at the page now');

    // The entry goes: so do the redirects to it.
    await rm(join(dir, TOPIC));
    await editFile(join(dir, 'collections/acme-cloud-basics.yaml'), 'acme-cloud-first-steps, ', '');
    await writeFile(join(dir, 'redirects.yaml'), '- { from: /usage/first-steps, to: /acme-cloud/docs/basics }\n');
    t.ok((await app.importContentTree(dir)).imported);
    t.equal((await get('/acme-cloud/docs/getting-going')).statusCode, 404, 'no redirect to a page that is gone');
    t.same(await app.db.query(`select from_path, to_path, source from content_redirects order by from_path`), [
      { from_path: '/acme-cloud/docs/first-steps', to_path: '/acme-cloud/docs/new-first-steps', source: 'rename' },
      { from_path: '/usage/first-steps', to_path: '/acme-cloud/docs/basics', source: 'file' },
    ], "the file's redirects as the file says now");
  });
});
