import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseMarkdown } from '../../server/content/markdown.ts';
import { plainText, type EmbeddedEntry } from '../../server/content/rich-text.ts';
import { checkContent } from '../../server/content/import.ts';
import { formatProblem } from '../../server/content/problems.ts';
import { renderRichText, checkDocument, headingAnchors } from '../../views/rich-text/rich-text.tsx';
import { tempContent } from '../helpers/build.ts';

const FIXTURES = new URL('../fixtures/markdown/', import.meta.url);
const videoHosts = ['video.example'];

function parse(name: string) {
  const source = readFileSync(new URL(name, FIXTURES), 'utf8');
  const parsed = parseMarkdown(source, { idPrefix: 'page', videoHosts });
  const errors = parsed.issues.filter((i) => !i.warning).map((i) => `${i.line}: ${i.reason}${i.hint ? ` (${i.hint})` : ''}`);
  const warnings = parsed.issues.filter((i) => i.warning).map((i) => `${i.line}: ${i.reason}`);
  return { parsed, errors, warnings };
}

function render(t: Test, name: string) {
  const { parsed, errors, warnings } = parse(name);
  t.same(checkDocument(parsed.document, parsed.embedded), [], `${name}: every embedded entry renders`);
  return { html: renderRichText(parsed.document, parsed.embedded) as string, parsed, errors, warnings };
}

const entries = (embedded: Record<string, EmbeddedEntry>, type: EmbeddedEntry['type']) => Object.values(embedded).filter((e) => e.type === type);

t.test('allowed raw HTML is kept, Markdown between its tags stays Markdown, and tag-like text stays text', async (t) => {
  const { html, errors, warnings, parsed } = render(t, 'accepted/html.md');
  t.same(errors, []);
  t.same(warnings, []);
  t.match(html, '<kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>P</kbd>');
  t.match(html, 'replace &lt;id&gt; and &lt;your-server&gt; with your values; set &lt;data&gt; and &lt;title&gt; too.',
    'HTML element names written bare and never closed are placeholders too');
  t.match(html, '<p>&lt;id&gt; is <b>yours</b> on a line of its own.</p>', 'a tag-like line of its own is Markdown text, its line ending a space');
  t.match(html, 'H<sub>2</sub>O');
  t.match(html, 'm<sup>2</sup>');
  t.match(html, /<details>\s*<summary>Show the log<\/summary>\s*<p>The log has <b>three<\/b> parts:<\/p><ol><li><p>a header<\/p><\/li>/);
  t.match(html, /<td><p>80<br\/>443<\/p><\/td>/, 'a <br> in a table cell is a line break');
  t.match(html, /<table>\s*<thead><tr><th>Key<\/th>/);
  t.match(html, /<dl>\s*<dt>Board<\/dt>\s*<dd>A view of issues in columns.<\/dd>/);
  t.match(html, '<img src="/assets/content/board-view.svg" alt="A board with three columns"/>');
  t.notMatch(html, 'author', 'comments are dropped');
  t.match(plainText(parsed.document, parsed.embedded), /Show the log[\s\S]*The log has three parts/, 'search reads the text inside HTML');
});

t.test('scripts, event handlers, javascript: URLs, styles and iframes are removed, each a warning with its line', async (t) => {
  const { html, errors, warnings } = render(t, 'refused/unsafe-html.md');
  t.same(errors, []);
  t.same(warnings, [
    "3: removed <script> and its content: it is not allowed in a body",
    '5: removed the href "javascript:alert(1)" of <a>: only http(s), mailto, tel and site addresses are allowed',
    '5: removed the onclick attribute of <a>: scripts are not allowed in a body',
    '7: removed the style attribute of <p>: inline styles are not allowed in a body',
    "9: removed <iframe> from evil.example: only videos from the site's videoHosts may be embedded",
    '13: removed <style> and its content: it is not allowed in a body',
  ]);
  t.match(html, 'Safe text stays.');
  t.match(html, '<a>a link</a>');
  t.match(html, '<p>Styled text</p>');
  t.match(html, '<iframe src="https://video.example/embed/abc" title="A video"></iframe>', 'an iframe from a listed host stays');
  for (const bad of ['<script', 'alert', 'onclick', 'style=', 'evil.example', 'display: none']) t.notMatch(html, bad);
  // Without listed hosts, every iframe goes.
  const none = parseMarkdown('<iframe src="https://video.example/embed/abc" title="A video"></iframe>\n', { idPrefix: 'p' });
  t.same(none.issues.map((i) => i.reason), ["removed <iframe> from video.example: only videos from the site's videoHosts may be embedded"]);
});

t.test('the stored tree is sanitised again when it is rendered', async (t) => {
  const { parsed } = parse('accepted/html.md');
  const entry = entries(parsed.embedded, 'html')[0] as Extract<EmbeddedEntry, { type: 'html' }>;
  // A stored document altered after import: the renderer still removes what the allowlist does not allow.
  entry.tree.children.push({ type: 'element', tagName: 'script', properties: {}, children: [{ type: 'text', value: 'alert(1)' }] },
    { type: 'element', tagName: 'a', properties: { href: 'javascript:alert(2)', onClick: 'x()' }, children: [{ type: 'text', value: 'go' }] });
  const html = renderRichText(parsed.document, parsed.embedded) as string;
  t.notMatch(html, 'alert');
  t.notMatch(html, 'onclick');
  t.match(html, '<a>go</a>');
});

t.test('admonitions of Docusaurus, Starlight, MkDocs and GitHub are callouts', async (t) => {
  const { html, errors, parsed } = render(t, 'accepted/admonitions.md');
  t.same(errors, []);
  t.same(entries(parsed.embedded, 'callout').map((c) => c.type === 'callout' && [c.appearance, c.heading]), [
    ['info', 'Note'], ['error', 'Data loss'], ['warning', 'Back up first'], ['tip', 'Tip'],
  ]);
  t.match(html, /<div class="callout callout-warning" role="note" aria-label="Back up first"><p class="callout-heading">Back up first<\/p><p>MkDocs warning body.<\/p><p>Second paragraph.<\/p><\/div><p>Between.<\/p>/);
  t.match(html, /callout-tip[^>]*><p class="callout-heading">Tip<\/p><p>GitHub tip.<\/p>/);
  t.match(html, '<blockquote><p>An ordinary quote.</p></blockquote>');
  t.notMatch(html, '[!TIP]');
  t.notMatch(html, '!!!');
});

t.test('MkDocs admonitions keep the lines of what follows them', async (t) => {
  const source = ['!!! note', '    Body.', '', ':::widget', ':::', ''].join('\n');
  t.same(parseMarkdown(source, { idPrefix: 'p' }).issues, [{ line: 4, column: 1, endLine: 5, endColumn: 4, reason: 'unsupported embedded type ":::widget"' }]);
});

t.test('footnotes, reference links, task lists, alignment, figures, inline images, heading ids, tabs, videos, icons', async (t) => {
  const { html, errors, warnings, parsed } = render(t, 'accepted/constructs.md');
  t.same(errors, []);
  t.same(warnings, []);
  t.match(html, '<h2 id="setup">Set up</h2>');
  t.same(headingAnchors(parsed.document).toc, [{ id: 'setup', text: 'Set up', level: 2 }]);
  t.match(html, /Footnoted<sup class="footnote-ref"><a href="#fn-1" id="fnref-1">1<\/a><\/sup> text/);
  t.match(html, /<section class="footnotes" aria-label="Footnotes"><ol><li id="fn-1"><p>The footnote text.<\/p> <a href="#fnref-1"/);
  t.match(html, '<a href="https://docs.example/start" rel="noopener">link</a>');
  t.match(html, /and <img class="inline-image" src="\/assets\/content\/i.svg" alt="inline icon" loading="lazy"\/> in a sentence/);
  t.match(html, /<li class="task-item"><input type="checkbox" disabled="" aria-labelledby="([^"]+)" checked=""\/><div id="\1" class="task-text"><p>Installed<\/p>/);
  t.match(html, /<li class="task-item"><input type="checkbox" disabled="" aria-labelledby="[^"]+"\/><div[^>]*><p>Configured<\/p>/);
  t.match(html, /<th scope="col" class="align-left">.*<th scope="col" class="align-center">.*<th scope="col" class="align-right">/);
  t.match(html, /<td class="align-center"><p><img class="inline-image" src="\/assets\/content\/c.svg" alt="cell image"/);
  t.match(html, '<figure class="content-image"><img src="/assets/content/board.svg" alt="A board" loading="lazy"/><figcaption>The board after setup</figcaption></figure>');
  t.match(html, /<div class="island" data-island="body-tabs" data-hydrate="visible"><div class="tabs" data-tabs=""><section class="tab-panel" id="tabs-panel-macos" aria-labelledby="macos"><h3 id="macos" class="tab-label">macOS<\/h3><div class="tab-body"><p>Use Homebrew.<\/p><\/div><\/section><section[^>]*><h3 id="linux"[^>]*>Linux<\/h3><div class="tab-body"><p>Use the package.<\/p>/);
  t.match(html, '<script type="application/json" data-island-props="body-tabs">{"tabs":[{"id":"macos","label":"macOS"},{"id":"linux","label":"Linux"}],"level":3}</script>', 'the island has the labels and ids, not the panels');
  t.equal(html.match(/<iframe /g)?.length, 2, 'two videos on one page');
  t.match(html, '<iframe src="https://video.example/embed/two" title="Advanced set-up" loading="lazy"');
  t.equal(html.match(/<svg class="icon content-icon"/g)?.length, 3);
  t.match(html, /aria-label="calendar-check"[^>]*><path d="M8 2v3"><\/path>/);
  const text = plainText(parsed.document, parsed.embedded);
  t.match(text, /macOS\nUse Homebrew.\nLinux\nUse the package./);
  t.match(text, 'The footnote text.');
});

t.test('refused constructs are errors with their lines; an unknown icon suggests the nearest names', async (t) => {
  const { errors } = parse('refused/constructs.md');
  t.same(errors, [
    '1: footnote [^nowhere] has no definition ([^nowhere]: text)',
    '3: :::tab[Label] belongs inside a ::::tabs group',
    '7: video host other.example is not one of the site\'s videoHosts (video.example)',
    '9: video needs a title describing it: ::video{src="…" title="…"}',
    '11: image needs alt text describing it (<img alt="…">)',
    '13: unknown icon "calender" (did you mean "calendar", "blender" or "cylinder"? (any Lucide icon name works: lucide.dev/icons))',
  ]);
});

t.test('an import reports HTML removals as warnings with file and line, and goes on', async (t) => {
  const dir = await tempContent(t);
  const file = 'topics/acme-cloud/first-steps.md';
  const lines = readFileSync(join(dir, file), 'utf8').split('\n').length;
  await appendFile(join(dir, file), ['', 'Press <kbd>Esc</kbd>.', '', '<b onmouseover="x()">Bold</b>', ''].join('\n'));
  await writeFile(join(dir, 'site.yaml'), `${readFileSync(join(dir, 'site.yaml'), 'utf8')}\nvideoHosts: [video.example]\n`);
  await appendFile(join(dir, 'topics/acme-cloud/draft.md'), '\n::video{src="https://video.example/embed/1" title="One"}\n');
  const { problems, warnings, plan } = await checkContent(dir);
  t.same(problems.map(formatProblem), []);
  t.same(warnings.map(formatProblem), [`${file}:${lines + 3}:4: body: warning: removed the onmouseover attribute of <b>: scripts are not allowed in a body`]);
  const row = plan.entries.find((e) => e.id === 'acme-cloud-first-steps');
  t.match(row?.html, '<kbd>Esc</kbd>');
  t.match(row?.html, '<b>Bold</b>');
});
