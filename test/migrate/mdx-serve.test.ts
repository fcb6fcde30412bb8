import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../scripts/migrate/index.ts';
import { build } from '../helpers/build.ts';

t.test('a migrated Starlight page with every component is served, its blocks in the page and its player allowed', async (t) => {
  const out = await mkdtemp(join(tmpdir(), 'signpost-migrate-serve-'));
  t.teardown(() => rm(out, { recursive: true, force: true }));
  await migrate('starlight', join(import.meta.dirname, '../fixtures/migrate/starlight'), out);
  const app = await build(t, { contentDir: out });
  const res = await app.inject({ url: '/quillmate/docs/components' });
  t.equal(res.statusCode, 200);
  const html = res.body;
  t.match(html, '<ul class="cards">');
  t.match(html, '<li class="card link-card card-linked"><h2 class="card-title"><a href="/quillmate/docs/cli">CLI reference</a></h2>');
  t.match(html, '<div class="steps"><ol>');
  t.match(html, /<div class="file-tree"><ul>/);
  t.match(html, '<iframe src="https://player.vimeo.com/video/123456" title="Quillmate in two minutes"');
  t.match(res.headers['content-security-policy'], /frame-src https:/, 'the page may frame the player');
  t.notMatch(html.replace(/<code[^]*?<\/code>/g, ''), /&lt;\/?(Card|CardGrid|LinkCard|Steps|FileTree|Aside|Tabs|TabItem|Badge|Icon)\b/, 'no component shows as text');
  const linked = await app.inject({ url: '/quillmate/docs/cli' });
  t.equal(linked.statusCode, 200, 'the link card leads to a page');
});
