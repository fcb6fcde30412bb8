import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { checkContent } from '../../server/content/import.ts';
import { loadFile } from '../../server/content/load.ts';
import { parseMarkdown } from '../../server/content/markdown.ts';
import {
  excerpt, formatDiagnostic, formatDiagnostics, formatProblem, jsonReport, lineOfText, sortProblems, sourcesIn, useColour,
  type JsonProblem, type Problem,
} from '../../server/content/problems.ts';
import { overlayHtml } from '../../server/dev/overlay.tsx';
import { runScript } from '../helpers/server-process.ts';

const SECOND_VENDOR = join(import.meta.dirname, '../fixtures/second-vendor');
const BROKEN = join(import.meta.dirname, '../fixtures/diagnostics');

/** The second vendor's tree with the broken files of fixtures/diagnostics over it; one topic saved with CRLF. */
async function brokenTree(t: { teardown: (fn: () => unknown) => void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'diagnostics-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await cp(SECOND_VENDOR, dir, { recursive: true });
  await cp(BROKEN, dir, { recursive: true });
  const crlf = join(dir, 'topics/quillbook-saas/share-a-notebook.md');
  await writeFile(crlf, (await readFile(crlf, 'utf8')).replace(/\n/g, '\r\n'));
  return dir;
}

const WRITE = 'topics/quillbook-saas/write-a-note.md';

t.test('a broken tree: every problem with its column, span and hint, printed compiler style', async (t) => {
  const dir = await brokenTree(t);
  const { problems, warnings } = await checkContent(dir);
  const all = sortProblems([...problems, ...warnings]);
  const at = (p: Problem) => `${p.file}:${p.line}:${p.column}-${p.endLine}:${p.endColumn} ${p.field}${p.severity ? ' (warning)' : ''}${p.hint ? ` | ${p.hint}` : ''}`;
  t.same(all.map(at), [
    // YAML syntax: where the parser stops.
    'collections/broken.yaml:3:1-3:2 yaml',
    // An enum value: the allowed ones, the nearest first.
    'kb/quillbook/sync-stalls.md:6:11-6:32 platform | did you mean "cloud-and-data-center"? allowed: cloud-only, cloud-and-data-center, data-center-only, data-center-and-cloud-by-request',
    // A site check, inside a flow map.
    'kb/quillbook/sync-stalls.md:10:49-10:60 productVersions.1.platform | did you mean "Self-managed"? (site.yaml deployments lists them)',
    // A CRLF file: columns as in the file; the span of a directive over three lines.
    'topics/quillbook-saas/share-a-notebook.md:10:1-12:4 body | did you mean "success"?',
    // The first line of front matter (line 2 of the file): the field's name.
    `${WRITE}:2:1-2:6 tilte | did you mean "title"?`,
    `${WRITE}:9:30-9:46 body (warning)`,
    `${WRITE}:13:7-13:28 body | did you mean "calendar", "blender" or "cylinder"? (any Lucide icon name works: lucide.dev/icons)`,
    `${WRITE}:15:212-15:232 body | did you mean "pencil"? (any Lucide icon name works: lucide.dev/icons)`,
    // The last line of the file, with no line break after it.
    `${WRITE}:17:1-17:9 body`,
  ]);
  t.equal(formatProblem(all[4] as Problem), `${WRITE}:2:1: tilte: unknown field (did you mean "title"?)`, 'the one-line form adds the column and the hint');

  const text = formatDiagnostics(all, sourcesIn(dir));
  const blocks = text.split('\n\n');
  t.equal(blocks.length, all.length + 1);
  t.equal(blocks[0], [
    'collections/broken.yaml:3:1: error: yaml: Flow sequence in block collection must be sufficiently indented and end with a ]',
    ' 3 | children: []',
    '   | ^',
  ].join('\n'));
  t.equal(blocks[3], [
    'topics/quillbook-saas/share-a-notebook.md:10:1: error: body: callout appearance "sucess" is not one of info, tip, warning, error, success',
    ' 10 | :::callout{appearance="sucess"}',
    '    | ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~',
    '  hint: did you mean "success"?',
  ].join('\n'), 'CRLF: no carriage return in the line; a span over lines is marked to the end of its first');
  t.equal(blocks[5], [
    `${WRITE}:9:30: warning: body: removed the onclick attribute of <b>: scripts are not allowed in a body`,
    ' 9 | Open a notebook and press <b onclick="save()">New note</b>.',
    '   |                              ^~~~~~~~~~~~~~~~',
  ].join('\n'), 'a warning: where the removed attribute is written');
  t.equal(blocks[6], [
    `${WRITE}:13:7: error: body: unknown icon "calender"`,
    ' 13 | Press   :icon{key="calender"} to plan.',
    '    |         ^~~~~~~~~~~~~~~~~~~~~',
    '  hint: did you mean "calendar", "blender" or "cylinder"? (any Lucide icon name works: lucide.dev/icons)',
  ].join('\n'), 'tabs expanded, the caret under the expanded column');
  const long = (blocks[7] as string).split('\n');
  t.match(long[1], /^ 15 \| … .* Then choose :icon\{key="pencill"\} to edit\.$/, 'a long line trimmed around the column');
  t.ok((long[1] as string).length <= 100 + ' 15 | '.length);
  t.equal((long[2] as string).indexOf('^'), (long[1] as string).indexOf(':icon{key="pencill"}'), 'the caret stays under it');
  t.equal(blocks[8], [`${WRITE}:17:1: error: body: unsupported embedded type "::widget"`, ' 17 | ::widget', '    | ^~~~~~~~'].join('\n'));
  t.equal(blocks[9], '8 errors, 1 warning; nothing was written.');
  t.notMatch(text, '\u001b[', 'no colour unless asked');
  t.match(formatDiagnostics(all, sourcesIn(dir), { colour: true }), '\u001b[31merror\u001b[0m');

  const json = JSON.parse(jsonReport(all, { written: false })) as { problems: JsonProblem[]; summary: Record<string, unknown> };
  t.same(json.summary, { errors: 8, warnings: 1, written: false });
  t.same(json.problems[4], {
    file: WRITE, line: 2, column: 1, endLine: 2, endColumn: 6, severity: 'error', field: 'tilte', message: 'unknown field', hint: 'did you mean "title"?',
  });
  t.equal(json.problems[5]?.severity, 'warning');
  t.notOk('hint' in (json.problems[0] as object), 'no hint: no hint field');

  // The live preview overlay shows the same, escaped.
  const html = overlayHtml(all, sourcesIn(dir));
  t.match(html, `${WRITE}:9:30: <strong class="warning">warning</strong>: body: removed the onclick attribute of &lt;b&gt;`);
  t.match(html, '<pre tabindex="0"> 9 | Open a notebook and press &lt;b onclick=&quot;save()&quot;&gt;New note&lt;/b&gt;.\n   |                              ^~~~~~~~~~~~~~~~</pre>');
  t.match(html, '<p class="hint">hint: did you mean &quot;title&quot;?</p>');
});

t.test('front matter lines count from the file: a YAML error in front matter', async (t) => {
  const problems: Problem[] = [];
  const source = [
    '---', 'id: x-topic', 'title: T', 'slug: t', 'context: c', 'lastPublished: 2026-05-02T10:00:00Z',
    'relatedLinks: [', '---', 'Body', '',
  ].join('\n');
  loadFile('topics/c/t.md', source, problems);
  t.same(problems.map((p) => [p.line, p.column, p.field]), [[7, 16, 'yaml']], 'the unclosed list: where the parser stops, in file lines');
});

t.test('columns inside an MkDocs admonition are the file\'s, though its body is unindented to be read', async (t) => {
  const source = ['---', 'id: x', '---', '!!! note', '    Press :icon{key="calender"}.', '', '    !!! tip', '        A <b onclick="x()">b</b>', ''].join('\n');
  const issues = parseMarkdown(source, { idPrefix: 'x' }).issues;
  t.same(issues.map((i) => [i.line, i.column, i.endColumn, i.warning ?? false]), [[5, 11, 32, false], [8, 14, 27, true]]);
});

t.test('excerpt: tabs, control characters, long lines, spans, unknown columns', async (t) => {
  t.same(excerpt('\ta\tb', { line: 1, column: 4, endColumn: 5 }), { text: '    a   b', caret: '        ^' }, 'a tab stops every four columns');
  t.same(excerpt('x = 1', { line: 1, column: 5 }), { text: 'x = 1', caret: '    ^' });
  t.same(excerpt('abc', { line: 1 }), { text: 'abc', caret: '' }, 'no column: the line alone');
  t.same(excerpt('abc', { line: 1, column: 4 }), { text: 'abc', caret: '   ^' }, 'just past the end (a missing value)');
  t.same(excerpt('ab\u0007c', { line: 1, column: 1, endColumn: 5 }), { text: 'ab c', caret: '^~~~' }, 'control characters shown as spaces');
  const line = `${'a'.repeat(150)}HERE${'b'.repeat(150)}`;
  const { text, caret } = excerpt(line, { line: 1, column: 151, endColumn: 155 });
  t.equal(text.length, 100);
  t.ok(text.startsWith('…') && text.endsWith('…'), 'cut at both ends');
  t.equal(text.slice(caret.indexOf('^'), caret.indexOf('^') + 4), 'HERE');
  t.equal(caret.trim(), '^~~~');
  t.equal(lineOfText('a\r\nb\r\nc', 2), 'b');
  t.equal(lineOfText('a\nb', 3), undefined);
  t.equal(lineOfText('a\nb\n', 2), 'b');
});

t.test('colour only on a terminal, and never with NO_COLOR', async (t) => {
  t.equal(useColour({ isTTY: true }, {}), true);
  t.equal(useColour({ isTTY: false }, {}), false);
  t.equal(useColour({ isTTY: true }, { NO_COLOR: '1' }), false);
  const p: Problem = { file: 'gone.md', line: 3, column: 2, field: 'body', reason: 'r', severity: 'warning' };
  t.equal(formatDiagnostic(p, () => undefined), 'gone.md:3:2: warning: body: r', 'a file that cannot be read: the heading alone');
  t.equal(formatDiagnostics([p], () => undefined, { tail: '' }), 'gone.md:3:2: warning: body: r\n\n1 warning.');
});

t.test('the command line: text on stderr, JSON on stdout, a usage error for an unknown format', async (t) => {
  const dir = await brokenTree(t);
  const text = await runScript('scripts/import.ts', ['--check', dir], { NO_COLOR: '1' });
  t.equal(text.code, 1);
  t.equal(text.stdout, '');
  t.match(text.stderr, `${WRITE}:2:1: error: tilte: unknown field\n 2 | tilte: Write a note\n   | ^~~~~\n  hint: did you mean "title"?\n`);
  t.match(text.stderr, /\n8 errors, 1 warning; nothing was written\.\n$/);

  const json = await runScript('scripts/import.ts', ['--check', '--format', 'json', dir], {});
  t.equal(json.code, 1);
  const report = JSON.parse(json.stdout) as { problems: JsonProblem[]; summary: Record<string, unknown> };
  t.equal(report.problems.length, 9);
  t.same(report.summary, { errors: 8, warnings: 1, written: false, entries: 22, pages: 18 });
  t.same(Object.keys(report.problems[1] as object), ['file', 'line', 'column', 'endLine', 'endColumn', 'severity', 'field', 'message', 'hint']);
  t.ok(report.problems.every((p) => !p.file.startsWith('/')), 'paths relative to the content root');

  const bad = await runScript('scripts/import.ts', ['--check', '--format=xml', dir], {});
  t.equal(bad.code, 2);
  t.equal(bad.stdout, '');
  t.match(bad.stderr, 'unknown --format "xml": use text or json');
});
