import t, { type Test } from 'tap';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { checkContent } from '../../server/content/import.ts';
import { formatProblem, type Problem } from '../../server/content/problems.ts';
import { RUNTIME_PATHS, RUNTIME_PREFIXES } from '../../server/content/runtime-paths.ts';
import { build, tempContent } from '../helpers/build.ts';

const LINKS = join(import.meta.dirname, '../fixtures/links');

/** The minimal tree with a links fixture laid over it. */
async function tree(t: Test, overlay: 'accepted' | 'refused'): Promise<string> {
  const dir = await tempContent(t);
  await cp(join(LINKS, overlay), dir, { recursive: true });
  return dir;
}

const at = (problems: Problem[], file: string, line: number) => problems.filter((p) => p.file === file && p.line === line);

t.test('relative links, reference links and raw <a href> lead to the target page, fragment kept', async (t) => {
  const { plan, problems, warnings } = await checkContent(await tree(t, 'accepted'));
  t.same(problems.map(formatProblem), [], 'the tree is accepted');
  const html = plan.entries.find((e) => e.id === 'acme-cloud-links')?.html ?? '';
  t.match(html, '<a href="/acme-cloud/docs/sso#setup">the set-up</a>');
  t.match(html, '<a href="/acme-cloud/docs/sso">SSO</a>', 'a reference definition');
  t.match(html, '<a href="/acme-cloud/docs/sso">single sign-on</a>', 'raw HTML');
  t.match(html, '<a href="#top">', 'a same-page anchor is kept');
  t.match(html, 'href="https://www.example.com/acme"', 'an external link is kept, not fetched');
  const sso = plan.entries.find((e) => e.id === 'acme-cloud-sso')?.html ?? '';
  t.match(sso, '<a href="/acme-cloud/docs/first-steps">first steps</a>', '../ leads up a folder');
  const warning = warnings.find((w) => w.file === 'topics/acme-cloud/links.md' && /nowhere/.test(w.reason));
  t.match(warning, { line: 10, column: 1, severity: 'warning', reason: /has no heading or anchor "nowhere"/ },
    'an anchor that names no heading is a warning with its place');
});

t.test('broken links, missing files and colliding pages are refused with line, column and hint', async (t) => {
  const { problems } = await checkContent(await tree(t, 'refused'));
  const file = 'topics/acme-cloud/broken.md';
  t.match(at(problems, file, 7), [
    { column: 3, reason: 'link to admin/ssoo.md: no file topics/acme-cloud/admin/ssoo.md' },
    { column: 37, reason: /"shared-note" \(a fragment\) has no page/, hint: /fragment/ },
  ]);
  t.match(at(problems, file, 9), [{ column: 11, reason: 'image img/nope.png: no file topics/acme-cloud/img/nope.png' }]);
  t.match(at(problems, file, 11), [
    { column: 7, reason: 'link to /acme-cloud/docs/frist-steps: no page at /acme-cloud/docs/frist-steps', hint: 'did you mean /acme-cloud/docs/first-steps?' },
    { column: 49, reason: 'link to files/tool.exe: files of type .exe are not served' },
  ]);
  t.match(at(problems, file, 13), [{ reason: 'image to /assets/missing.png: no file assets/missing.png in the content tree' }], 'raw <img src>');
  t.match(at(problems, file, 15), [{ column: 9, reason: /leads outside the content tree/ }, { column: 47, reason: /link to nowhere\.md: no file/ }]);
  t.match(at(problems, 'topics/acme-cloud/files/tool.exe', 1), [{ reason: /not a content file/ }], 'an unknown type is refused');

  // A collection and a topic at one URL: both files say so, and no link is blamed for it.
  const collide = problems.filter((p) => /would share the URL \/acme-cloud\/docs\/first-steps/.test(p.reason));
  t.same(collide.map((p) => p.file).sort(), ['collections/acme-cloud-first-steps.yaml', 'topics/acme-cloud/first-steps.md']);
  t.match(collide.map((p) => p.reason).join('\n'), /a topic and a collection collide/);
  t.notOk(problems.some((p) => /link target .* is not a page/.test(p.reason)), 'no follow-on error about a link');
});

t.test('a file over the size limit is refused', async (t) => {
  const before = process.env.CONTENT_FILE_MAX_BYTES;
  process.env.CONTENT_FILE_MAX_BYTES = '64';
  t.teardown(() => {
    if (before === undefined) delete process.env.CONTENT_FILE_MAX_BYTES;
    else process.env.CONTENT_FILE_MAX_BYTES = before;
  });
  const { problems } = await checkContent(await tree(t, 'accepted'));
  t.match(at(problems, 'topics/acme-cloud/admin/sso.md', 11), [{ column: 1, reason: 'image ./img/login.png: topics/acme-cloud/admin/img/login.png is 73 bytes, over the limit of 64 bytes', hint: /CONTENT_FILE_MAX_BYTES/ }]);
});

t.test('every run-time route a body may link to is served', async (t) => {
  const app = await build(t);
  const examples = [...RUNTIME_PATHS, ...RUNTIME_PREFIXES.map((p) => `${p}login`)];
  for (const path of examples) {
    const res = await app.inject({ method: 'GET', url: path });
    t.not(res.statusCode, 404, `${path} is served (${res.statusCode})`);
  }
});
