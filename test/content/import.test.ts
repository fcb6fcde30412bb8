import tap, { type Test } from 'tap';

const t = tap;
import { appendFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { importContent, checkContent, currentDigest } from '../../server/content/import.ts';
import { ContentError, formatProblem } from '../../server/content/problems.ts';
import type { Db } from '../../server/db/driver.ts';
import { tempContent, testDb, SAMPLE_CONTENT, editFile } from '../helpers/build.ts';

const count = async (db: Db) => (await db.query<{ n: number }>('select count(*)::int as n from content_entries'))[0]?.n;

t.test('rows larger than one statement holds are each written once, whole', async (t) => {
  const db = await testDb(t);
  const dir = await tempContent(t);
  // Three bodies of about 200 000 characters: each row (its HTML, rich text and search text) is over
  // half of what one statement carries, so the rows go in several statements.
  const ids = [1, 2, 3].map((n) => `acme-cloud-long-${n}`);
  for (const [i, id] of ids.entries()) {
    const body = Array.from({ length: 1000 }, (_, p) => `Paragraph ${p} of long page ${i + 1}: ${'installer '.repeat(18)}`).join('\n\n');
    await writeFile(join(dir, `topics/acme-cloud/long-${i + 1}.md`),
      `---\nid: ${id}\ntitle: Long page ${i + 1}\nslug: long-${i + 1}\ncontext: acme-cloud\n---\n${body}\n`);
  }
  await editFile(join(dir, 'collections/acme-cloud-basics.yaml'), 'acme-cloud-draft]', `acme-cloud-draft, ${ids.join(', ')}]`);
  const result = await importContent(db, dir);
  t.equal(await count(db), result.entries, 'every entry is stored');
  const rows = await db.query<{ id: string; n: number; whole: boolean; searched: boolean }>(
    `select id, count(*) over (partition by id)::int as n, html like '%Paragraph 999 of long page ' || right(id, 1) || ':%' as whole,
       search_text like '%Paragraph 999 of long page%' as searched
     from content_entries where id = any($1::text[]) order by id`, [ids]);
  t.same(rows, ids.map((id) => ({ id, n: 1, whole: true, searched: true })), 'each long row once, to its last paragraph');
  const routed = await db.query<{ entry_id: string }>('select distinct entry_id from content_routes where entry_id = any($1::text[]) order by 1', [ids]);
  t.same(routed.map((r) => r.entry_id), ids, 'each has its page');
});

let good: Promise<Db> | undefined;

/**
 * Imports a broken tree over a good one: returns the problems and checks nothing changed. One database
 * holds the good tree for every such test of the file: a refused import writes nothing, so it stays as
 * it was, and importing the good tree again is a no-op (same digest).
 */
async function refused(t: Test, change: (dir: string) => Promise<void>): Promise<string[]> {
  good ??= testDb(tap);
  const db = await good;
  const dir = await tempContent(t);
  await importContent(db, dir);
  const before = { n: await count(db), digest: await currentDigest(db) };
  await change(dir);
  const error = await importContent(db, dir).then(() => undefined, (e: unknown) => e);
  t.type(error, ContentError, 'the import is refused');
  t.same({ n: await count(db), digest: await currentDigest(db) }, before, 'nothing was written');
  return (error as ContentError).problems.map(formatProblem);
}


t.test('the sample content imports whole, with every page routed', async (t) => {
  const db = await testDb(t);
  const result = await importContent(db, SAMPLE_CONTENT);
  t.ok(result.imported);
  const byType: Record<string, number> = Object.fromEntries((await db.query<{ type: string; n: number }>(
    'select type, count(*)::int as n from content_entries group by type')).map((r) => [r.type, r.n]));
  for (const type of ['topic', 'kbArticle', 'collection', 'product', 'topicSet']) byType[type] ??= 0;
  t.ok(byType.topic! >= 80, `80+ topics (${byType.topic})`);
  t.ok(byType.kbArticle! >= 30, `30+ KB articles (${byType.kbArticle})`);
  t.ok(byType.collection! >= 12, `12+ collections (${byType.collection})`);
  t.ok(byType.product! >= 16, `16+ products (${byType.product})`);
  t.ok(byType.topicSet! >= 6, `topic sets (${byType.topicSet})`);
  const guides = await db.query(`select id from content_entries where type = 'collection' and fields->>'pageType' = 'Guide'`);
  t.ok(guides.length >= 3, 'three guides');
  const again = await importContent(db, SAMPLE_CONTENT);
  t.notOk(again.imported, 'an unchanged tree is not written again');
  const forced = await importContent(db, SAMPLE_CONTENT, { force: true });
  t.ok(forced.imported);
  t.equal(await count(db), result.entries, 'a forced import replaces rather than adds');
});

t.test('broken YAML is reported with its line', async (t) => {
  const problems = await refused(t, (dir) => editFile(join(dir, 'collections/acme-cloud-basics.yaml'), 'title: Basics', 'title: [Basics'));
  t.match(problems.join('\n'), /^collections\/acme-cloud-basics\.yaml:\d+:\d+: yaml: /m);
});

t.test('an unknown field is reported by name and line', async (t) => {
  const problems = await refused(t, (dir) => appendFile(join(dir, 'products/acme-cloud.yaml'), 'colour: blue\n'));
  t.same(problems, ['products/acme-cloud.yaml:5:1: colour: unknown field']);
});

t.test('a missing required field is reported', async (t) => {
  const problems = await refused(t, (dir) => editFile(join(dir, 'topics/acme-cloud/first-steps.md'), 'slug: first-steps\n', ''));
  t.same(problems, ['topics/acme-cloud/first-steps.md:2:1: slug: is required']);
});

t.test('a wrong value names the allowed ones', async (t) => {
  const problems = await refused(t, (dir) => editFile(join(dir, 'kb/acme/widget-crash.md'), 'platform: data-center-only', 'platform: mainframe'));
  t.match(problems[0], /^kb\/acme\/widget-crash\.md:6:11: platform: "mainframe" is not one of the allowed values \(allowed: cloud-only, cloud-and-data-center, data-center-only, data-center-and-cloud-by-request\)$/);
});

t.test('a missing reference is reported where it is made', async (t) => {
  const problems = await refused(t, (dir) => editFile(join(dir, 'collections/acme-cloud-basics.yaml'), 'acme-cloud-draft]', 'acme-cloud-missing]'));
  t.same(problems, ['collections/acme-cloud-basics.yaml:5:36: children.1: child "acme-cloud-missing" does not exist']);
});

t.test('a duplicate id is reported with the first use', async (t) => {
  const problems = await refused(t, async (dir) => {
    await writeFile(join(dir, 'media/copy.yaml'), 'id: acme-screenshot\nimage: { url: /x.svg }\naltTag: Copy\n');
  });
  t.same(problems, ['media/copy.yaml:1:5: id: duplicate id "acme-screenshot", already used in media/acme-screenshot.yaml:1']);
});

t.test('a duplicate slug in one context is reported', async (t) => {
  const problems = await refused(t, (dir) => editFile(join(dir, 'topics/acme-cloud/draft.md'), 'slug: upcoming-feature', 'slug: first-steps'));
  t.match(problems.join('\n'), /topics\/acme-cloud\/(draft|first-steps)\.md:4:7: slug: duplicate path \/acme-cloud\/docs\/first-steps, already used by "acme-cloud-(first-steps|draft)"/);
});

t.test('a version the product does not have is reported', async (t) => {
  const problems = await refused(t, (dir) => editFile(join(dir, 'topics/acme-data-center/upgrade.md'), '["2.0"]', '["2.0", "3.0"]'));
  t.same(problems, ['topics/acme-data-center/upgrade.md:6:19: versions.1: version 3.0 is not one of the product\'s versions (1.0, 2.0)']);
});

t.test('rich-text errors: every one reported, with lines', async (t) => {
  const problems = await refused(t, (dir) => appendFile(join(dir, 'topics/acme-cloud/first-steps.md'), [
    '', '<img src="/assets/content/board-view.svg">', '', '::widget{size=2}', '', '::media{id="no-such-media"}', '',
    ':link[a link]{to="nowhere"}', '', '::fragment{id="acme-cloud"}', '', '![](/assets/content/board-view.svg)', '',
    ':::callout{appearance="purple"}', 'Hi', ':::', '',
  ].join('\n')));
  const f = 'topics/acme-cloud/first-steps.md';
  t.same(problems, [
    `${f}:21:1: body: image needs alt text describing it (<img alt="…">)`,
    `${f}:23:1: body: unsupported embedded type "::widget"`,
    `${f}:25: body: embedded entry "no-such-media" does not exist`,
    `${f}:27: body: link target "nowhere" does not exist`,
    `${f}:29: body: no renderer for embedded entry type "product" ("acme-cloud")`,
    `${f}:31:1: body: image /assets/content/board-view.svg needs alt text describing it`,
    `${f}:33:1: body: callout appearance "purple" is not one of info, tip, warning, error, success`,
  ].sort());
});

t.test('rich-text JSON bodies are validated too', async (t) => {
  const problems = await refused(t, (dir) => writeFile(join(dir, 'collections/acme-cloud-basics.yaml'), [
    'id: acme-cloud-basics', 'title: Basics', 'slug: basics', 'context: acme-cloud', 'children: [acme-cloud-first-steps]',
    'body:', '  nodeType: document', '  data: {}', '  content:', '    - nodeType: paragraph', '      data: {}', '      content: 7', '',
  ].join('\n')));
  t.match(problems.join('\n'), /^collections\/acme-cloud-basics\.yaml:\d+: body/m);
});

t.test('a site path in a structural field must lead to a page', async (t) => {
  const problems = await refused(t, async (dir) => {
    await mkdir(join(dir, 'featured'));
    await writeFile(join(dir, 'featured/home.yaml'), [
      'id: home-featured', 'title: Popular', 'featuredEntries:',
      '  - { id: f1, url: /acme-cloud/docs/first-steps, linkText: First }',
      '  - { id: f2, url: /acme-cloud/docs/gone, linkText: Gone }', '',
    ].join('\n'));
  });
  t.same(problems, ['featured/home.yaml:5:20: featuredEntries.1.url: no page at /acme-cloud/docs/gone']);
});

t.test('a file in no known folder is refused', async (t) => {
  const problems = await refused(t, async (dir) => {
    await mkdir(join(dir, 'articles'));
    await writeFile(join(dir, 'articles/x.md'), '---\nid: x\n---\nHi\n');
  });
  t.match(problems[0], /^articles\/x\.md:1: file: not a content file/);
});

t.test('checkContent lists every problem of a tree without writing', async (t) => {
  const dir = await tempContent(t);
  await appendFile(join(dir, 'products/acme-cloud.yaml'), 'colour: blue\n');
  await editFile(join(dir, 'topics/acme-cloud/first-steps.md'), 'context: acme-cloud', 'context: acme-nowhere');
  const { problems } = await checkContent(dir);
  t.equal(problems.length, 2);
});

t.test('parsing in worker threads gives what parsing in turn gives, problems and lines included', async (t) => {
  const sequential = await checkContent(SAMPLE_CONTENT, undefined, { workers: 1 });
  const parallel = await checkContent(SAMPLE_CONTENT, undefined, { workers: 2, parallelFrom: 0 });
  t.equal(parallel.digest, sequential.digest);
  t.same(parallel.problems, []);
  t.same(parallel.plan.entries, sequential.plan.entries, 'the same entries, rendered alike');
  t.same(parallel.plan.routes, sequential.plan.routes);

  const dir = await tempContent(t);
  await appendFile(join(dir, 'products/acme-cloud.yaml'), 'colour: blue\n');
  await editFile(join(dir, 'collections/acme-cloud-basics.yaml'), 'acme-cloud-draft]', 'acme-cloud-missing]');
  await editFile(join(dir, 'topics/acme-data-center/upgrade.md'), '["2.0"]', '["2.0", "3.0"]');
  await editFile(join(dir, 'topics/acme-cloud/draft.md'), 'slug: upcoming-feature', 'slug: first-steps');
  const broken = { in: await checkContent(dir, undefined, { workers: 1 }), workers: await checkContent(dir, undefined, { workers: 2, parallelFrom: 0 }) };
  // Four problems; the colliding slug is reported at both files.
  t.equal(broken.workers.problems.length, 5);
  t.same(broken.workers.problems.map(formatProblem), broken.in.problems.map(formatProblem), 'the same problems on the same lines');
});

t.test('a NUL character is reported by file, line and field, and nothing is written', async (t) => {
  const problems = await refused(t, async (dir) => {
    await editFile(join(dir, 'collections/acme-cloud-basics.yaml'), 'title: Basics', 'title: "Bas\\0ics"');
    await appendFile(join(dir, 'topics/acme-cloud/first-steps.md'), '\nA body line with a NUL \u0000 in it.\n');
  });
  t.match(problems.join('\n'), /^collections\/acme-cloud-basics\.yaml:\d+: title: must not contain a NUL character$/m);
  t.match(problems.join('\n'), /^topics\/acme-cloud\/first-steps\.md:\d+: body: must not contain a NUL character$/m);
});

t.test('the credits list (credits overlay) is checked like any field', async (t) => {
  const missing = await refused(t, (dir) => appendFile(join(dir, 'site.yaml'), 'credits:\n  - { name: Someone Made-Up }\n'));
  t.equal(missing.length, 1);
  t.match(missing[0], /^site\.yaml:\d+:\d+: credits\.0\.role: is required$/);
  const extra = await refused(t, (dir) => appendFile(join(dir, 'site.yaml'), 'credits:\n  - { name: A, role: B, email: a@example.test }\n'));
  t.match(extra[0], /^site\.yaml:\d+:\d+: credits\.0\.email: unknown field$/);
  const notList = await refused(t, (dir) => appendFile(join(dir, 'site.yaml'), 'credits: everyone\n'));
  t.match(notList[0], /^site\.yaml:\d+:\d+: credits: /);
});

t.test('copy an author cannot see twice: a label saying "(optional)" and a notice naming a page in bold are warned of', async (t) => {
  const dir = await tempContent(t);
  await mkdir(join(dir, 'forms'));
  await writeFile(join(dir, 'forms/ask.yaml'), [
    'id: ask-form', 'title: Ask',
    'fields:',
    '  - { name: email, type: email, audience: anonymous, label: Your e-mail address (Optional), labels: { ja-JP: メールアドレス（任意） } }',
    '  - { name: details, type: longText, label: Details, required: true }', ''].join('\n'));
  await mkdir(join(dir, 'notices'));
  await writeFile(join(dir, 'notices/change.yaml'), [
    'id: acme-change', 'title: A change', 'appearance: change',
    'message: Read **First steps** for the new way; **nothing else** is a page.', ''].join('\n'));
  const { problems, warnings } = await checkContent(dir);
  t.same(problems.map(formatProblem), [], 'nothing stops the import');
  const lines = warnings.map(formatProblem).sort();
  t.match(lines, [
    /^forms\/ask\.yaml:4:\d+: fields\.0\.labels\.ja-JP: warning: "メールアドレス（任意）" says whether/,
    /^forms\/ask\.yaml:4:\d+: fields\.0\.label: warning: "Your e-mail address \(Optional\)" says whether the field is required/,
    /^notices\/change\.yaml:4(:\d+)?: message: warning: "First steps" names a page but does not link to it \(write :link\[First steps\]\{to="acme-cloud-first-steps"\}\)$/,
  ]);
  t.equal(lines.length, 3, `only those (${lines.join(' | ')})`);
});
