import t from 'tap';
import { parseMarkdown } from '../../server/content/markdown.ts';
import { normaliseHeadings, plainText, BLOCKS, text, type Document, type Block } from '../../server/content/rich-text.ts';
import { buildLink } from '../../server/content/links.ts';
import { LinkOptionsError, RichTextError } from '../../server/content/problems.ts';
import { renderRichText, checkDocument } from '../../views/rich-text/rich-text.tsx';

const doc = (...content: Block[]): Document => ({ nodeType: BLOCKS.DOCUMENT, data: {}, content: content as Document['content'] });
const h = (level: number, value: string): Block => ({ nodeType: `heading-${level}`, data: {}, content: value ? [text(value)] : [] } as unknown as Block);
const types = (d: Document) => (d.content as Block[]).map((n) => n.nodeType);

t.test('headings: no h1 survives; the smallest level becomes 2', async (t) => {
  t.same(types(normaliseHeadings(doc(h(1, 'A'), h(2, 'B'), h(3, 'C')))), ['heading-2', 'heading-3', 'heading-4']);
  t.same(types(normaliseHeadings(doc(h(3, 'A'), h(4, 'B')))), ['heading-2', 'heading-3']);
});

t.test('headings deeper than 4 become bold paragraphs; empty headings are dropped', async (t) => {
  const out = normaliseHeadings(doc(h(2, 'A'), h(5, 'Deep'), h(3, ''), h(6, 'Deeper')));
  t.same(types(out), ['heading-2', 'paragraph', 'paragraph']);
  const bold = (out.content[1] as Block).content[0] as { marks: { type: string }[] };
  t.same(bold.marks, [{ type: 'bold' }]);
});

t.test('link building needs string basePath and slug', async (t) => {
  t.equal(buildLink('docs', { basePath: '/acme-cloud', slug: 'x' }), '/acme-cloud/docs/x');
  t.equal(buildLink('kb', { basePath: '/acme', slug: 'y' }), '/acme/kb/y');
  t.equal(buildLink('kbHome', { basePath: '/acme' }), '/acme/kb');
  t.equal(buildLink('resources', { basePath: '/acme' }), '/acme/resources');
  t.equal(buildLink('base', { basePath: '' }), '/');
  t.throws(() => buildLink('docs', { basePath: 7, slug: 'x' }), LinkOptionsError);
  t.throws(() => buildLink('docs', { basePath: '/a', slug: undefined }), { name: 'LinkOptionsError', message: /slug must be a non-empty string/ });
});

t.test('rendering: missing embedded entries and types without a renderer are errors', async (t) => {
  const d = doc({ nodeType: BLOCKS.EMBEDDED_ENTRY, data: { target: { sys: { id: 'x' } } }, content: [] } as unknown as Block);
  t.throws(() => renderRichText(d, {}), RichTextError);
  t.throws(() => renderRichText(d, { x: { type: 'unrenderable', entryType: 'product' } }), { message: /no renderer for embedded entry type "product"/ });
  t.same(checkDocument(d, {}), [{ reason: 'embedded entry "x" does not exist' }]);
});

t.test('markdown renders escaped, with code titles, callouts, tables and anchors', async (t) => {
  const md = parseMarkdown([
    '# Title 5 < 6 & "quoted"', '', 'Text with `<b>` and [a link](https://example.com).', '',
    '```sh title="Run it"', 'echo "<hi>"', '```', '', ':::callout{appearance="warning" heading="Careful"}', 'Body', ':::', '',
    '| a | b |', '|---|---|', '| 1 | 2 |', '', '::anchor{id="here"}', '', 'javascript link: [x](javascript:alert(1))',
  ].join('\n'), { idPrefix: 't' });
  t.same(md.issues, []);
  const problems = checkDocument(md.document, md.embedded);
  t.match(problems, [{ reason: /unsafe link "javascript:alert\(1\)"/ }], 'unsafe link schemes are refused');
  const html = renderRichText({ ...md.document, content: md.document.content.slice(0, -1) }, md.embedded);
  t.match(html, '<h2 id="title-5--6--quoted">Title 5 &lt; 6 &amp; &quot;quoted&quot;</h2>');
  t.match(html, '<code>&lt;b&gt;</code>');
  t.match(html, '<figcaption>Run it</figcaption>');
  t.match(html, 'echo &quot;&lt;hi&gt;&quot;');
  t.match(html, 'class="callout callout-warning"');
  t.match(html, '<th scope="col">');
  t.match(html, '<span id="here" class="anchor-target">');
  t.notMatch(html, '<script');
});

t.test('KB sections are kept apart and rendered with their headings', async (t) => {
  const md = parseMarkdown(':::summary\nIt breaks.\n:::\n\n:::cause\nA bug.\n:::\n', { idPrefix: 'k', allowSections: true });
  t.same(Object.keys(md.sections), ['summary', 'cause']);
  t.match(renderRichText(md.document, {}), /<h2 id="summary">Summary<\/h2><p>It breaks.<\/p><h2 id="cause">Cause<\/h2>/);
  const outside = parseMarkdown(':::summary\nIt breaks.\n:::\n', { idPrefix: 'k' });
  t.match(outside.issues, [{ reason: /only allowed in knowledge-base articles/ }]);
});

t.test('plain text for search keeps table cells and blocks apart', async (t) => {
  const md = parseMarkdown('| field | Typical value |\n|---|---|\n| Story points | Velocity |\n\n- one\n\n  two\n', { idPrefix: 'p' });
  const plain = plainText(md.document, md.embedded);
  t.match(plain, 'field Typical value');
  t.match(plain, 'Story points Velocity');
  t.notMatch(plain, /fieldTypical|valueStory|pointsVelocity|onetwo/);
});

t.test('line breaks: a "\\n" in a stored text is a <br>; a Markdown soft break is a space, a hard break a <br>', async (t) => {
  // A YAML rich-text body writes its line breaks as "\n" in a text, as the rich-text model does.
  const p = { nodeType: BLOCKS.PARAGRAPH, data: {}, content: [text('Line one\nLine two')] } as unknown as Block;
  t.equal(renderRichText(doc(p), {}), '<p>Line one<br/>Line two</p>');
  const md = parseMarkdown('A paragraph wrapped\nover *three\nsource* lines,  \nthen a hard break and `code\nspan`.\n', { idPrefix: 'b' });
  t.equal(renderRichText(md.document, md.embedded), '<p>A paragraph wrapped over <i>three source</i> lines,<br/>then a hard break and <code>code span</code>.</p>');
});
