import t from 'tap';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseMarkdown } from '../../../server/content/markdown.ts';
import { plainText } from '../../../server/content/rich-text.ts';
import { highlightedLines } from '../../../server/content/markdown/directives.ts';
import { checkContent } from '../../../server/content/import.ts';
import { ContentSnapshot } from '../../../server/content/load.ts';
import { formatProblem } from '../../../server/content/problems.ts';
import { renderRichText, checkDocument } from '../../../views/rich-text/rich-text.tsx';
import { tempContent } from '../../helpers/build.ts';

function render(source: string, embedHosts: string[] = ['codesandbox.io']) {
  const parsed = parseMarkdown(source, { idPrefix: 'p', embedHosts });
  const errors = parsed.issues.filter((i) => !i.warning).map((i) => `${i.line}: ${i.reason}`);
  const problems = checkDocument(parsed.document, parsed.embedded);
  return { parsed, errors, problems, html: String(renderRichText(parsed.document, parsed.embedded)) };
}

t.test('a card grid is a list of cards, each titled by a heading; a linked card is one link', async (t) => {
  const { html, errors, problems, parsed } = render([
    '## Next', '', '::::cards', ':::card{title="Install" icon="rocket" href="./install.md"}', 'Get it **running**.', ':::',
    ':::card{title="Plain"}', 'No link.', ':::', '::link-card{title="API" href="https://api.example/ref" description="Every call"}', '::::', '',
    ':::card{title="Alone"}', 'One card.', ':::', '', '::link-card{title="Lone link" href="/status"}',
  ].join('\n'));
  t.same(errors, []);
  t.same(problems, []);
  t.match(html, /^<h2 id="next">Next<\/h2><ul class="cards"><li class="card card-linked"><h3 class="card-title"><span class="card-icon" aria-hidden="true"><svg[^]*?<\/svg><\/span><a href="\.\/install\.md">Install<\/a><\/h3><p>Get it <b>running<\/b>\.<\/p><\/li>/,
    'the grid is a list; a card title is a heading one below the section, its icon decorative');
  t.match(html, '<li class="card"><h3 class="card-title">Plain</h3><p>No link.</p></li>');
  t.match(html, '<li class="card link-card card-linked"><h3 class="card-title"><a href="https://api.example/ref" rel="noopener">API</a></h3><p class="card-description">Every call</p></li></ul>');
  t.match(html, '</ul><div class="card"><h3 class="card-title">Alone</h3><p>One card.</p></div>', 'a card outside a grid is one card, not a list');
  t.match(html, '<div class="card link-card card-linked"><h3 class="card-title"><a href="/status">Lone link</a></h3></div>');
  t.match(plainText(parsed.document, parsed.embedded), /Install\nGet it running\.\nPlain\nNo link\.\nAPI Every call/, 'card text is searchable');
});

t.test('steps are one ordered list; a file tree is a nested list whose items say folder or file', async (t) => {
  const { html, errors, parsed } = render([
    ':::steps', '1. Download.', '2. Run `setup`.', ':::', '',
    ':::file-tree', '- src/', '  - **index.ts** the entry point', '  - lib', '    - util.ts', '- README.md', ':::',
  ].join('\n'));
  t.same(errors, []);
  t.match(html, '<div class="steps"><ol><li><p>Download.</p></li><li><p>Run <code>setup</code>.</p></li></ol></div>');
  t.match(html, /<div class="file-tree"><ul><li class="file-tree-folder"><span class="file-tree-entry"><svg[^>]*aria-label="Folder"[^]*?<span class="file-tree-name">src\/<\/span><\/span><ul><li class="file-tree-file"><span class="file-tree-entry"><svg[^>]*aria-label="File"[^]*?<strong class="file-tree-name">index.ts<\/strong><span class="file-tree-comment"> the entry point<\/span>/,
    'a highlighted name is strong; the rest of the line is its comment');
  t.match(html, /<li class="file-tree-folder"><span class="file-tree-entry"><svg[^>]*aria-label="Folder"[^]*?<span class="file-tree-name">lib<\/span><\/span><ul>/, 'an item with a list under it is a folder');
  t.match(plainText(parsed.document, parsed.embedded), /Download\.\nRun setup\.\nsrc\/ index\.ts the entry point lib util\.ts README\.md/);
});

t.test('details and collapsible, inline admonitions read without JavaScript', async (t) => {
  const { html, errors } = render([
    ':::details[Why a restart?]', 'Caches are *cold*.', ':::', '',
    ':::tip[What you\'ll learn]{collapsible}', 'Things.', ':::', '',
    ':::warning{collapsible open}', 'Careful.', ':::', '',
    ':::note[Aside]{inline="end"}', 'Beside the text.', ':::', '', ':::caution{inline="start"}', 'Left.', ':::',
  ].join('\n'));
  t.same(errors, []);
  t.match(html, '<details class="details"><summary>Why a restart?</summary><p>Caches are <i>cold</i>.</p></details>');
  t.match(html, '<details class="callout callout-tip callout-collapsible"><summary class="callout-heading">What you&#x27;ll learn</summary><p>Things.</p></details>');
  t.match(html, '<details class="callout callout-warning callout-collapsible" open=""><summary class="callout-heading">Warning</summary>');
  t.match(html, '<div class="callout callout-info callout-inline callout-inline-end" role="note" aria-label="Aside"><p class="callout-heading">Aside</p>');
  t.match(html, 'class="callout callout-warning callout-inline callout-inline-start"');
});

t.test('embeds come from the site\'s embedHosts, sandboxed and titled, with a link to the page', async (t) => {
  const { html, errors } = render('::embed{src="https://codesandbox.io/embed/abc" title="Counter demo"}\n');
  t.same(errors, []);
  t.match(html, '<figure class="embed-frame"><div class="embed-frame-box"><iframe src="https://codesandbox.io/embed/abc" title="Counter demo" loading="lazy"');
  t.match(html, /sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox"/);
  t.match(html, '<figcaption><a href="https://codesandbox.io/embed/abc" rel="noopener">Counter demo</a></figcaption></figure>');
  t.same(render('::embed{src="https://evil.example/x" title="X"}').errors, ['1: embed host evil.example is not one of the site\'s embedHosts (codesandbox.io)']);
  t.same(render('::embed{src="https://codesandbox.io/x" title="X"}', []).errors, ['1: embed host codesandbox.io is not one of the site\'s embedHosts (none listed in site.yaml)']);
});

t.test('highlighted code lines are marked, and named in the code region for screen readers', async (t) => {
  const { html, errors } = render(['```js title="app.js" {1,3-4}', 'a();', 'b();', 'c();', 'd();', '```', '', '```python hl_lines="2"', 'x = 1', 'y = 2', '```'].join('\n'));
  t.same(errors, []);
  t.match(html, 'aria-label="Code: app.js, highlighted lines 1, 3 to 4"><pre><code class="language-js"><mark class="code-line-highlight">a();</mark>\nb();\n<mark class="code-line-highlight">c();</mark>\n<mark class="code-line-highlight">d();</mark></code></pre>');
  t.match(html, 'aria-label="Code, highlighted line 2"><pre><code class="language-python">x = 1\n<mark class="code-line-highlight">y = 2</mark></code></pre>');
  t.same(highlightedLines('showLineNumbers'), {}, 'other meta is not a highlight');
  t.same(highlightedLines('{2-3,1} title="x"'), { lines: [1, 2, 3] });
  t.match(highlightedLines('{a-b}'), { error: /must be line numbers/ });
});

t.test('unknown attributes, missing required ones and wrong contents are errors with their lines', async (t) => {
  const { errors } = render([
    ':::card{title="A" colour="red"}', 'x', ':::', '',
    ':::card', 'no title', ':::', '',
    '::link-card{title="B"}', '',
    '::embed{src="https://codesandbox.io/x"}', '',
    ':::steps', '- not numbered', ':::', '',
    ':::file-tree', 'Just text.', ':::', '',
    ':::details', 'No summary.', ':::', '',
    ':::note{inline="middle"}', 'x', ':::', '',
    ':::tip{open}', 'x', ':::', '',
    '```js {9}', 'one line', '```', '',
    '::::cards', 'loose text', '::::', '',
    ':::steps{start="3"}', '1. x', ':::',
  ].join('\n'));
  t.same(errors, [
    '1: :::card has an unknown attribute "colour"',
    '5: :::card needs a title',
    '9: ::link-card needs a href',
    '11: ::embed needs a title',
    '13: :::steps holds one numbered list (1. … 2. …) and nothing else',
    '17: :::file-tree holds one bullet list (- name) and nothing else',
    '21: details needs a summary: :::details[What it is about]',
    '25: inline="middle" must be "start" or "end"',
    '29: "open" only goes with "collapsible": {collapsible open}',
    '33: highlighted line 9 is past the end of the code (1 line)',
    '38: a ::::cards group holds only :::card{title="…"} blocks and ::link-card{…} lines (use four colons for the group)',
    '41: :::steps has an unknown attribute "start"',
  ]);
});

t.test('an import reads embedHosts from site.yaml and resolves a card\'s link like any link', async (t) => {
  const dir = await tempContent(t);
  const file = 'topics/acme-cloud/first-steps.md';
  const lines = (await readFile(join(dir, file), 'utf8')).split('\n').length;
  await appendFile(join(dir, file), ['', '::::cards', ':::card{title="Draft" href="./draft.md"}', 'See the draft.', ':::', '::link-card{title="Gone" href="./missing.md"}', '::::',
    '', '::embed{src="https://codesandbox.io/embed/1" title="Demo"}', ''].join('\n'));
  await writeFile(join(dir, 'site.yaml'), `${await readFile(join(dir, 'site.yaml'), 'utf8')}\nembedHosts: [codesandbox.io]\n`);
  const { problems } = await checkContent(dir);
  t.same(problems.map(formatProblem), [`${file}:${lines + 5}:1: body: link to ./missing.md: no file topics/acme-cloud/missing.md`],
    'a card link to a missing file is reported where it is written');
  await writeFile(join(dir, file), (await readFile(join(dir, file), 'utf8')).replace('::link-card{title="Gone" href="./missing.md"}\n', ''));
  const again = await checkContent(dir);
  t.same(again.problems.map(formatProblem), []);
  const row = again.plan.entries.find((e) => e.id === 'acme-cloud-first-steps');
  t.match(row?.html, /<h3 class="card-title"><a href="\/acme-cloud\/docs\/upcoming-feature">Draft<\/a><\/h3>/, 'the card links to the topic\'s page');
  t.match(row?.html, '<iframe src="https://codesandbox.io/embed/1" title="Demo"');
  const workers = await checkContent(dir, undefined, { workers: 2, parallelFrom: 0 });
  t.same(workers.problems.map(formatProblem), [], 'parsing in worker threads sees the embed hosts too');

  // Live preview: a site.yaml without the host makes the body's embed an error at once, and with it again fine.
  const snapshot = new ContentSnapshot(dir);
  await snapshot.loadAll();
  const site = await readFile(join(dir, 'site.yaml'), 'utf8');
  await writeFile(join(dir, 'site.yaml'), site.replace('embedHosts: [codesandbox.io]', 'embedHosts: [other.example]'));
  await snapshot.update(['site.yaml']);
  t.match(snapshot.result().problems.map((p) => p.reason), ['embed host codesandbox.io is not one of the site\'s embedHosts (other.example)']);
});
