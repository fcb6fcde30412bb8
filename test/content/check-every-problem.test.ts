/**
 * `content:check` reports every problem of a body in one run (issue 26, item 7): each image of a raw-HTML
 * block on its own (no alt, no file: two problems at one image), every link and footnote of a line, what
 * is inside a refused directive, and the body of a file whose front matter has no id.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { checkContent } from '../../server/content/import.ts';
import { sortProblems, type Problem } from '../../server/content/problems.ts';

const MINIMAL = join(import.meta.dirname, '../fixtures/minimal');
const MANY = join(import.meta.dirname, '../fixtures/check-all');
const FILE = 'topics/acme-cloud/many-problems.md';
const NO_ID = 'topics/acme-cloud/no-id.md';

t.test('every problem of a body, each at its own line and column', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'check-all-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await cp(MINIMAL, dir, { recursive: true });
  await cp(MANY, dir, { recursive: true });
  const { problems, warnings } = await checkContent(dir);
  const at = (p: Problem) => `${p.file}:${p.line}:${p.column ?? '-'} ${p.field}: ${p.reason}`;
  const alt = 'image needs alt text describing it (<img alt="…">)';
  t.same(sortProblems(problems).map(at), [
    // A <div> holding two images with no alt and no file: four problems, not one.
    `${FILE}:10:3 body: ${alt}`,
    `${FILE}:10:8 body: image screens/before.png: no file topics/acme-cloud/screens/before.png`,
    `${FILE}:11:3 body: ${alt}`,
    `${FILE}:11:8 body: image screens/after.png: no file topics/acme-cloud/screens/after.png`,
    // Its two links, on one line.
    `${FILE}:12:10 body: link to setup.md: no file topics/acme-cloud/setup.md`,
    `${FILE}:12:43 body: link to /acme-cloud/docs/nowhere: no page at /acme-cloud/docs/nowhere`,
    // Two inline images in a sentence (alt=" " is no alt).
    `${FILE}:15:7 body: ${alt}`,
    `${FILE}:15:12 body: image icons/start.png: no file topics/acme-cloud/icons/start.png`,
    `${FILE}:15:40 body: ${alt}`,
    `${FILE}:15:45 body: image icons/stop.png: no file topics/acme-cloud/icons/stop.png`,
    // Markdown images: the missing alt and the missing file at the same place are two problems.
    `${FILE}:17:1 body: image diagram.png needs alt text describing it`,
    `${FILE}:17:1 body: image diagram.png: no file topics/acme-cloud/diagram.png`,
    `${FILE}:17:22 body: image chart.png needs alt text describing it`,
    `${FILE}:17:22 body: image chart.png: no file topics/acme-cloud/chart.png`,
    `${FILE}:17:55 body: link to guide.md: no file topics/acme-cloud/guide.md`,
    `${FILE}:17:79 body: link to /acme/gone: no page at /acme/gone`,
    // Two footnotes without a definition on one line.
    `${FILE}:19:14 body: footnote [^missing] has no definition ([^missing]: text)`,
    `${FILE}:19:29 body: footnote [^absent] has no definition ([^absent]: text)`,
    // A directive that is refused, and the problems inside it.
    `${FILE}:21:1 body: unsupported embedded type ":::sidebar"`,
    `${FILE}:22:1 body: image sidebar.png needs alt text describing it`,
    `${FILE}:22:1 body: image sidebar.png: no file topics/acme-cloud/sidebar.png`,
    `${FILE}:25:1 body: a ::::tabs group needs at least one :::tab[Label] block`,
    `${FILE}:28:1 body: image needs a src`,
    `${FILE}:28:1 body: image needs alt text describing it`,
    // A file whose front matter has no id: its body is still checked.
    `${NO_ID}:2:1 id: is required`,
    `${NO_ID}:6:16 body: image where.png needs alt text describing it`,
    `${NO_ID}:6:35 body: ${alt}`,
  ]);
  t.same(warnings.filter((w) => w.file === FILE).map(at), [`${FILE}:9:6 body: removed the class attribute of <div>: it is not allowed in a body`]);
  const spans = problems.filter((p) => p.file === FILE && p.reason === alt).map((p) => `${p.line}:${p.column}-${p.endLine}:${p.endColumn}`);
  t.same(spans, ['10:3-10:7', '11:3-11:7', '15:7-15:11', '15:40-15:44'], 'the caret goes under each <img');
});
