import t from 'tap';
import { convertMdx, docHref, highlightComments } from '../../scripts/migrate/mdx.ts';
import { parseMarkdown } from '../../server/content/markdown.ts';

const mdx = (lines: string[]) => convertMdx(lines, { firstLine: 10 });
/** The converted Markdown parses without an error (the renderer's side is tested in test/content/markdown/). */
const errorsOf = (lines: string[]) => parseMarkdown(lines.join('\n'), { idPrefix: 'p', videoHosts: ['www.youtube-nocookie.com'], embedHosts: ['codesandbox.io'] })
  .issues.filter((i) => !i.warning).map((i) => `${i.line}: ${i.reason}`);

t.test('titled admonitions get their title in brackets; Docusaurus-only types become callouts', async (t) => {
  const r = mdx([':::tip What you\'ll learn', 'Text.', ':::', '', ':::note[Kept]', 'x', ':::', '', ':::success', 'Done.', ':::', '', ':::secondary Aside', 'y', ':::']);
  t.same(r.lines, [':::tip[What you\'ll learn]', 'Text.', ':::', '', ':::note[Kept]', 'x', ':::', '',
    ':::callout{appearance="success" heading="Success"}', 'Done.', ':::', '', ':::note[Aside]', 'y', ':::']);
  t.same(errorsOf(r.lines), []);
  t.same(r.notes, []);
});

t.test('Starlight and Docusaurus components become the directives that render alike', async (t) => {
  const r = mdx([
    '<Aside type="danger" title="Do [not] do this">', 'Really.', '</Aside>', '',
    '<CardGrid stagger>', '  <Card title="A &quot;quoted&quot; one" icon="setting">', '    Body **text**.', '  </Card>',
    '  <LinkCard title="Guide" href="./guide.mdx#top" description="Read it." />', '</CardGrid>', '',
    '<Steps>', '1. One', '2. Two', '</Steps>', '', '<FileTree>', '- src/', '  - a.ts', '</FileTree>', '',
    '<details open>', '<summary><b>More</b></summary>', '', 'Hidden.', '</details>',
  ]);
  t.same(r.lines, [
    ':::danger[Do \\[not\\] do this]', 'Really.', ':::', '',
    '::::cards', ':::card{title="A &quot;quoted&quot; one" icon="settings"}', 'Body **text**.', ':::',
    '::link-card{title="Guide" href="./guide.mdx#top" description="Read it."}', '::::', '',
    ':::steps', '1. One', '2. Two', ':::', '', ':::file-tree', '- src/', '  - a.ts', ':::', '',
    ':::details[More]{open}', 'Hidden.', ':::',
  ]);
  t.same(r.notes, []);
  t.same(errorsOf(r.lines), []);
  const parsed = parseMarkdown(r.lines.join('\n'), { idPrefix: 'p' });
  t.match(Object.values(parsed.embedded), [{ type: 'callout', heading: 'Do [not] do this' }, { type: 'cards', cards: [{ title: 'A "quoted" one' }, { title: 'Guide' }] }],
    'brackets and quotes in titles come through');
});

t.test('nested tab groups, each fence longer than the one inside it', async (t) => {
  const r = mdx(['<Tabs>', '  <TabItem label="Desktop">', '    <Tabs>', '      <TabItem label="Windows">Ctrl+S.</TabItem>',
    '      <TabItem value="mac">Cmd+S.</TabItem>', '    </Tabs>', '  </TabItem>', '  <TabItem label="Web">Automatic.</TabItem>', '</Tabs>']);
  t.same(r.lines, ['::::::tabs', ':::::tab[Desktop]', '::::tabs', ':::tab[Windows]', 'Ctrl+S.', ':::', ':::tab[mac]', 'Cmd+S.', ':::', '::::', ':::::',
    ':::::tab[Web]', 'Automatic.', ':::::', '::::::']);
  t.same(errorsOf(r.lines), []);
});

t.test('videos and iframes: players are ::video, other pages ::embed, and their hosts are listed', async (t) => {
  const r = mdx(['<LiteYouTubeEmbed id="abc" title="Tour" />', '', '<iframe src="https://codesandbox.io/embed/x" title="Demo"></iframe>', '',
    '<iframe', '  src="https://player.vimeo.com/video/1"', '></iframe>', '', '<iframe src="http://insecure.example/x" title="Old"></iframe>']);
  t.same(r.lines, ['::video{src="https://www.youtube-nocookie.com/embed/abc" title="Tour"}', '', '::embed{src="https://codesandbox.io/embed/x" title="Demo"}', '',
    '::video{src="https://player.vimeo.com/video/1" title="Embedded page from player.vimeo.com"}', '', '[Old](http://insecure.example/x)']);
  t.same(r.videoHosts, ['player.vimeo.com', 'www.youtube-nocookie.com']);
  t.same(r.embedHosts, ['codesandbox.io']);
  t.same(r.notes, ['line 14: <iframe> has no title: titled "Embedded page from player.vimeo.com"; describe it',
    'line 18: <iframe> of http://insecure.example/x is not an https page: a link to it instead']);
});

t.test('a component with no counterpart keeps its text, without tags, and is noted at its line', async (t) => {
  const r = mdx(['Press <Kbd>Ctrl</Kbd> now. <Badge text="Beta" />', '', '<BrowserWindow url="x">', '', '    Indented **text**.', '', '</BrowserWindow>', '', '<Spacer />', 'End.']);
  t.same(r.lines, ['Press Ctrl now. Beta', '', 'Indented **text**.', '', '', 'End.'], 'dedented, so it does not turn into code');
  t.same(r.notes, [
    'line 10: <Kbd> — not a Signpost block: its text is kept, its tags removed',
    'line 10: <Badge> — not a Signpost block: replaced by its text "Beta"',
    'line 12: <BrowserWindow> — not a Signpost block: its text is kept, its tags removed',
    'line 18: <Spacer> — not a Signpost block: removed (it has no text)',
  ]);
});

t.test('tags in inline code and code fences are neither converted nor noted', async (t) => {
  const lines = ['Write `<Card title="x">` or ``<Steps>`` in prose.', '', '```mdx', '<CardGrid>', '  <Card title="A">B</Card>', '</CardGrid>', '```'];
  const r = mdx(lines);
  t.same(r.lines, lines);
  t.same(r.notes, []);
});

t.test('highlight comments become highlighted lines in the fence meta, merged with its own', async (t) => {
  t.same(highlightComments('```js title="a.js" {1}', ['a();', '// highlight-next-line', 'b();', 'c();', '// highlight-start', 'd();', 'e();', '// highlight-end']),
    ['```js title="a.js" {1-2,4-5}', 'a();', 'b();', 'c();', 'd();', 'e();']);
  t.same(highlightComments('```', ['# highlight-next-line', 'x']), ['```text {1}', 'x'], 'a fence without a language gets one, so the meta is not taken for it');
  t.same(highlightComments('  ```html', ['<!-- highlight-next-line -->', '<p>', '{/* highlight-next-line */}', '<b/>']), ['  ```html {1-2}', '<p>', '<b/>']);
  t.same(highlightComments('```py', ['x = 1']), ['```py', 'x = 1'], 'a fence without them is left alone');
  const r = mdx(['```js', '// highlight-next-line', 'a();', '```']);
  t.same(r.lines, ['```js {1}', 'a();', '```']);
  t.same(errorsOf(r.lines), []);
});

t.test('a card link to a site path of a document becomes the relative link to its topic', async (t) => {
  const docs = ['index.mdx', 'guides/deploy.md', 'reference/cli.mdx'];
  t.equal(docHref('/guides/deploy/', 'reference/cli.mdx', docs), '../guides/deploy.md');
  t.equal(docHref('/reference/cli/#flags', 'reference/other.md', docs), './cli.md#flags');
  t.equal(docHref('./cli.mdx', 'reference/x.md', docs), './cli.md');
  t.equal(docHref('/', 'guides/deploy.md', docs), '../index.md');
  t.equal(docHref('/not/a/doc/', 'index.mdx', docs), '/not/a/doc/');
  t.equal(docHref('https://x.example/', 'index.mdx', docs), 'https://x.example/');
  // A translation's card to its locale's page (a real Starlight site's three broken links).
  t.equal(docHref('/ja/guides/deploy/', 'reference/cli.mdx', docs, ['ja', 'pt-br']), '../guides/deploy.md');
  t.equal(docHref('/PT-BR/reference/cli/#flags', 'index.mdx', docs, ['ja', 'pt-br']), './reference/cli.md#flags');
});

t.test("a Starlight aside's own icon is left out, with a note; its title and other attributes stay", async (t) => {
  const r = convertMdx([':::tip{icon="heart"}', 'Kind.', ':::', ':::note[Hey]{collapsible icon=star}', 'x', ':::'], { firstLine: 1 });
  t.same(r.lines.join('\n'), ':::tip\nKind.\n:::\n:::note[Hey]{collapsible}\nx\n:::');
  t.same(r.notes, ['line 1: aside icon "heart" — left out: the admonition shows its type\'s icon', "line 4: aside icon star — left out: the admonition shows its type's icon"]);
  t.same(errorsOf(r.lines), []);
});

t.test('imports are removed and noted at their lines, MDX comments removed', async (t) => {
  const r = mdx(['import Tabs from \'@theme/Tabs\';', '', 'Text {/* a note to editors */} here.', '{/*', 'several lines', '*/}', 'After.']);
  t.same(r.lines, ['', 'Text  here.', 'After.']);
  t.same(r.notes, ['line 10: MDX import removed: `import Tabs from \'@theme/Tabs\';`']);
});

t.test('a component whose opening tag runs over many lines (a JavaScript literal) is removed, not shown as text', async (t) => {
  const items = Array.from({ length: 12 }, (_, k) => [`\t\t{`, `\t\t\thref: 'https://x.example/${k}',`, `\t\t\ttitle: 'Video ${k}',`, '\t\t},']).flat();
  const r = convertMdx(['Before.', '', '<VideoGrid', '\tvideos={[', ...items, '\t]}', '/>', '', 'After.'], { firstLine: 1 });
  t.notMatch(r.lines.join('\n'), /VideoGrid|href:/, 'no part of the tag is left');
  t.match(r.lines.join('\n'), /Before\.[\s\S]*After\./);
  t.match(r.notes, [/line 3: <VideoGrid>/]);
});
