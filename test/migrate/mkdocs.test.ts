import t from 'tap';
import { mkdtemp, readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../scripts/migrate/index.ts';
import { MkDocsBody } from '../../scripts/migrate/mkdocs-body.ts';
import { Snippets, type Line } from '../../scripts/migrate/mkdocs-snippets.ts';
import { checkContent } from '../../server/content/import.ts';
import { formatProblem } from '../../server/content/problems.ts';
import { parseMarkdown, splitFrontMatter } from '../../server/content/markdown.ts';
import { renderRichText } from '../../views/rich-text/rich-text.tsx';

const FIXTURE = join(import.meta.dirname, '../fixtures/migrate/mkdocs-material');

/** Card grids are rendered by the body's `::::cards` directive; where this build lacks it, only that error is expected. */
const rendersCards = parseMarkdown('::::cards\n:::card{title="x"}\ny\n:::\n::::\n', { idPrefix: 'probe' }).issues.length === 0;

const lines = (text: string): Line[] => text.split('\n').map((line, i) => ({ text: line, at: i + 1 }));
function body(text: string) {
  const notes: string[] = [];
  const out = new MkDocsBody((at, message) => notes.push(`line ${at}: ${message}`)).convert(lines(text)).map((l) => l.text).join('\n');
  return { out, notes };
}

t.test('mkdocs-material: every construct in Signpost\'s syntax, the tree checks clean and renders as the source read', async (t) => {
  const out = await mkdtemp(join(tmpdir(), 'signpost-migrate-material-'));
  t.teardown(() => rm(out, { recursive: true, force: true }));
  const result = await migrate('mkdocs', FIXTURE, out);
  const read = async (path: string) => readFile(join(out, path), 'utf8');
  const notes = (file: string) => result.notes.get(file) ?? [];
  const { problems } = await checkContent(out);
  const errors = problems.map(formatProblem).filter((p) => rendersCards || !/unsupported embedded type ":::cards?"/.test(p));
  t.same(errors, [], 'content:check finds nothing');

  const setup = await read('topics/tidewell/guide/setup.md');
  t.match(setup, ':::info[Requirements]{inline="end"}\nPython 3.12 and a NOAA station id.\n:::', '!!! info inline end');
  t.match(setup, ':::note[Why ten minutes?]{collapsible}\n', '??? is collapsible; a type Signpost lacks is a note with its title');
  t.match(setup, ':::tip{collapsible open}\nKeep the collector on the harbour network.\n:::', '???+ is open');
  t.match(setup, ':::note{heading=""}\nA station id looks like `8454000`.\n:::', 'an empty title shows none');
  t.match(setup, ':::callout[Success]{appearance="success"}\n', 'success and failure types keep their colour as a callout');
  t.match(setup, [
    '::::::note[Choose how to install]', ':::::tabs', '::::tab[pip]', '```bash', 'pip install tidewell', '```', '::::', '::::tab[Docker]',
    '```yaml title="compose.yaml"', 'services:', '  tidewell:', '    image: tidewell/collector', '```', '', ':::tip[Volumes]',
    'Mount `/data` to keep readings.', ':::', '::::', ':::::', '::::::',
  ].join('\n'), 'tabs inside an admonition, an admonition inside a tab: each fence longer than the one it holds');
  t.match(setup, '## Install {#install-tidewell}', '{ #id } on a heading is its id');
  t.notMatch(setup, '{ #setup }', 'the title heading goes, its attribute list with it');
  t.match(setup, ':::warning[Offline stations]\nA station that has not reported', 'a snippet is pasted in, and converted like the page');
  t.match(setup, '1. Download the tide table for your harbour.\n2. Import it under **Stations**.', '--8<-- ["a", "b"] pastes both');
  t.match(setup, '\\--8<-- "shown-as-text.md"', ';--8<-- is the marker written as text');
  t.match(setup, '```markdown\n!!! note "Kept in code"\n    --8<-- "offline.md"\n:material-github: { .md-button }\n```', 'code is never converted');
  t.match(setup, /\n\[tide-api\]: https:\/\/api\.tidewell\.example\/v2\n\[Harbour Guide\]: https:\/\/harbour\.example\/guide "The harbour guide"\n\n\*\[NOAA\]: National Oceanic and Atmospheric Administration\n\*\[UTC\]: Coordinated Universal Time$/,
    'the appended snippet brings the link definitions and abbreviations the page uses');
  t.notMatch(setup, /unused-ref|\*\[GPS\]/, 'and none it does not');
  const outsideCode = (text: string) => text.replace(/^```[\s\S]*?^```$/gm, '');
  t.notMatch(outsideCode(setup), /!!!|\?\?\?|===|\{ \.|\{: /, 'no MkDocs syntax left outside code');

  const reference = await read('topics/tidewell/guide/reference.md');
  t.match(reference, '## Station options {#station-options}', '{: #id .class } keeps the id');
  t.match(reference, '**`station_id`**\n\nThe NOAA id of the station.\n\n:::warning\nIds of retired stations are refused.\n:::\n\n**`interval`**\n\nMinutes between readings, in UTC.\nDefaults to 10.',
    'a definition list: the term in bold, the definition and the admonition in it under it');
  t.match(reference, '**`gps`**\n\nWhere the gauge is, as GPS coordinates.\n\nMay be left empty for a floating gauge.', 'a second definition of a term');
  t.match(reference, '- Pick a station.\n\n    :::tip[Tip]\n    Pick the one nearest your berth.\n    :::\n\n- Set the interval, then', 'an admonition inside a list item stays in it');
  t.match(reference, ':icon{set="mdi" key="github"} Source', 'an Octicon with a Material twin');
  t.match(reference, 'Made with :icon{set="mdi" key="heart"} in the harbour.', 'its attribute list dropped');
  t.match(reference, '*[GPS]: Global Positioning System');
  t.match(reference, '- Set the interval, then press <kbd>Ctrl</kbd>+<kbd>S</kbd> to <mark>save it</mark>.', 'keys and marked text as HTML bodies take');

  const home = await read('topics/tidewell/index.md');
  t.match(home, 'from NOAA data. :icon{set="mdi" key="waves"} Start');
  t.match(home, '[Get started](./guide/setup.md)\n[Star us :icon{set="mdi" key="github"}](https://git.example/tidewell)', 'buttons are links');
  t.match(home, [
    '::::cards', ':::card{title="Set up in five minutes"}', ':icon{set="mdi" key="clock-fast"}', '', 'Install Tidewell and load your first station.', '',
    '[:icon{set="mdi" key="arrow-right"} Setup](./guide/setup.md)', ':::', ':::card{title="Open source, MIT"}', ':icon{set="mdi" key="scale-balance"}', '',
    'Read the licence on the :icon{set="mdi" key="github"} repository.', ':::', ':::card{title="Any harbour"}', 'Stations in UTC, worldwide.', ':::', '::::',
  ].join('\n'), 'a grid of cards: bold first line the title, the rule under it dropped, the icon at the top');
  t.match(home, '![Harbour at dawn](./img/harbour.png)\n', 'image attributes dropped');
  t.match(home, '![The tide gauge](img/harbour.png "The gauge at \\"Pier 4\\"")', 'a figure: its caption is the image\'s title, which Signpost shows as the caption');
  t.notMatch(home, /<div|md-button|\{ \./);

  t.same(notes('docs/guide/reference.md'), [
    'line 5: definition list — each term is a bold line with its definition below it',
    'line 30: icon :simple-unknownbrandxyz: — no equivalent icon in Signpost\'s icon sets; left out',
    'line 30: icon :material-not-an-icon-name: — no equivalent icon in Signpost\'s icon sets; left out',
    'line 33: code annotations ({ .annotate }) — the markers and their list are kept as text',
  ]);
  t.same(notes('docs/guide/setup.md'), [
    'line 13: admonition type "question" — shown as a note titled "Why ten minutes?"',
    'line 19: admonition type "example" — shown as a note titled "Example"',
    'line 56: snippet include "missing.md" — the file was not found in ., includes; left out',
  ]);
  t.same(notes('docs/index.md'), [
    'line 5: button link ({ .md-button }) — kept as a plain link',
    'line 34: image attributes { width="300" loading=lazy } — size and alignment left out',
  ]);
  t.match(notes('mkdocs.yml'), [/^line \d+: theme — not carried over \(Signpost has its own theme and Markdown\)$/, 'markdown_extensions: pymdownx.critic not carried over (their syntax is kept as written)']);

  // What the reader sees: the bodies as the server renders them.
  const render = (source: string) => {
    const parsed = parseMarkdown(splitFrontMatter(source).body, { idPrefix: 'p' });
    t.same(parsed.issues, [], 'the body parses without issues');
    return renderRichText(parsed.document, parsed.embedded) as string;
  };
  const setupHtml = render(setup);
  t.notMatch(setupHtml.replace(/<pre>[\s\S]*?<\/pre>/g, ''), /```|:::|!!!|===|\[tide-api\]|\*\[/, 'no raw markup shows outside code');
  t.match(setupHtml, '<code class="language-yaml">services:', 'the tab\'s code is a code block');
  t.match(setupHtml, /<h2 id="install-tidewell">Install<\/h2>/);
  t.match(setupHtml, '<a href="https://api.tidewell.example/v2" rel="noopener">tide API</a>', '[text][ref] from the appended snippet');
  t.match(setupHtml, '<abbr title="Coordinated Universal Time">UTC</abbr>');
  const referenceHtml = render(reference);
  t.match(referenceHtml, '<h2 id="station-options">Station options</h2>');
  t.match(referenceHtml, 'press <kbd>Ctrl</kbd>+<kbd>S</kbd> to <mark>save it</mark>.');
  t.match(referenceHtml, /<li><p>Pick a station.<\/p><div class="callout callout-tip"/, 'the admonition is inside the list item');
  t.match(referenceHtml, /<svg class="icon content-icon"[^>]*aria-label="heart" fill="currentColor">/, 'a Material icon, drawn');
  if (rendersCards) {
    const homeHtml = render(home);
    t.match(homeHtml, 'Set up in five minutes', 'the cards render');
    t.match(homeHtml, '<figcaption>The gauge at &quot;Pier 4&quot;</figcaption>');
    t.notMatch(homeHtml, /:::|<div class="grid|md-button/);
  }
});

t.test('admonitions: types, nesting and indentation', async (t) => {
  t.same(body('!!! danger\n    Outer.\n\n    !!! bug "Inner"\n        Deep.\n\nAfter.').out,
    '::::danger\nOuter.\n\n:::callout[Inner]{appearance="error"}\nDeep.\n:::\n::::\n\nAfter.', 'the outer fence is longer than the inner');
  t.same(body('Text right above.\n!!! hint inline\n    Body.').out, 'Text right above.\n\n:::tip[Hint]{inline="start"}\nBody.\n:::', 'a blank line before, an alias with its own title');
  t.same(body('1. Step\n\n    ??? warning "More"\n        Hidden.\n\n2. Next').out, '1. Step\n\n    :::warning[More]{collapsible}\n    Hidden.\n    :::\n\n2. Next');
  t.same(body('!!! note "A [b] c"\n    x').out, ':::note[A \\[b\\] c]\nx\n:::', 'brackets in a title are escaped');
  t.same(body('!!! abstract').out, ':::note[Abstract]\n:::');
});

t.test('tabs: groups, ===! starting a new one, labels', async (t) => {
  t.same(body('=== "A"\n    a\n=== "B"\n    b\n===! "C"\n    c').out,
    '::::tabs\n:::tab[A]\na\n:::\n:::tab[B]\nb\n:::\n::::\n\n::::tabs\n:::tab[C]\nc\n:::\n::::');
  t.same(body('=== ":material-apple: macOS"\n    x').out, '::::tabs\n:::tab[macOS]\nx\n:::\n::::', 'an icon in a label goes (labels are text)');
});

t.test('definition lists: several terms of one definition keep a line each', async (t) => {
  const { out, notes } = body('Term one\nTerm two\n:   Shared definition.\n    Lazy line.\n\nAfter.');
  t.same(out, '**Term one**\\\n**Term two**\n\nShared definition.\nLazy line.\n\nAfter.');
  t.same(notes, ['line 1: definition list — each term is a bold line with its definition below it']);
  t.same(body(': alone').out, ': alone', 'without a term it is text');
});

t.test('attribute lists and heading ids', async (t) => {
  const { out, notes } = body('# Title { #top }\n\n## A {#a}\n\n### B { #9lives .x }\n\nSee {: #here } there.\n\n[x](y){ target=_blank }\n\n{ .center }\n\nText');
  t.same(out, '# Title\n\n## A {#a}\n\n### B\n\nSee :anchor{id="here"} there.\n\n[x](y)\n\n\nText', 'a block attribute list alone on a line goes');
  t.same(notes, [
    'line 5: heading id #9lives — not one Signpost takes (a letter first, then letters, digits, - _ . :); the heading\'s own id is used',
    'line 9: attribute list { target=_blank } — styling left out',
  ]);
  t.same(body('## Secret { data-search-exclude }').out, '## Secret');
  t.same(body('++page-up++ ++cmd+shift+p++ a == b, ==x== ===').out, '<kbd>Page Up</kbd> <kbd>Cmd</kbd>+<kbd>Shift</kbd>+<kbd>P</kbd> a == b, <mark>x</mark> ===');
  t.same(body('Inline `{ .md-button }` code and ``{ #x }``').out, 'Inline `{ .md-button }` code and ``{ #x }``', 'code spans are left alone');
});

t.test('markdown divs: a grid without a list is unwrapped; a list after the cards stays a list', async (t) => {
  const grid = body('<div class="grid" markdown>\n\n**A** text\n\n</div>');
  t.same(grid.out, '**A** text');
  t.same(grid.notes, ['line 1: <div class="grid" markdown> — its content kept, the wrapper left out']);
  t.same(body('<div class="grid cards" markdown>\n\n- Plain card\n\n</div>').out, '::::cards\n:::card{title="Plain card"}\n:::\n::::', 'the first line is the title');
  t.same(body('<div class="grid cards" markdown>\n- :material-rocket: **Launch**\n</div>').out, '::::cards\n:::card{title="Launch" icon="rocket"}\n:::\n::::',
    'an icon Lucide has is the card\'s icon');
  t.same(body('<div markdown>\n<div>\n').out, '<div markdown>\n<div>\n', 'an unclosed div is left for the HTML check');
});

t.test('snippets: line ranges, sections, the block form, and includes of includes', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'signpost-snippets-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await mkdir(join(root, 'parts'));
  await writeFile(join(root, 'parts/a.md'), 'one\ntwo\nthree\n<!-- --8<-- [start:mid] -->\nmiddle\n<!-- --8<-- [end:mid] -->\n');
  await writeFile(join(root, 'parts/loop.md'), 'loop\n--8<-- "loop.md"\n');
  await writeFile(join(root, 'parts/nest.md'), '- item\n\n    --8<-- "a.md:2:2"\n');
  const snippets = new Snippets({ bases: [join(root, 'parts')], autoAppend: [], root });
  const problems: string[] = [];
  const expand = (text: string) => snippets.expand(lines(text), (at, m) => problems.push(`${at}: ${m}`)).map((l) => l.text).join('\n');
  t.same(expand('--8<-- "a.md:2:3"'), 'two\nthree');
  t.same(expand('--8<-- "a.md:mid"'), 'middle');
  t.same(expand('  --8<--\n  a.md:1:1\n  ;skipped.md\n  nest.md\n  --8<--'), '  one\n  - item\n\n      two', 'indented like the include, nested includes too');
  t.same(expand('--8<-- "loop.md"'), 'loop');
  t.same(expand('--8<-- "https://example.com/x.md"\n--8<-- "a.md:nope"'), '');
  t.same(problems, [
    '1: snippet include "loop.md" — includes itself; left out',
    '1: snippet include "https://example.com/x.md" — the file is a URL, which Signpost does not fetch; left out',
    '2: snippet include "a.md:nope" — the file has no section "nope"; left out',
  ]);
});

t.test('an auto_append file inside the docs folder is pasted into the pages, not made a page', async (t) => {
  const src = await mkdtemp(join(tmpdir(), 'signpost-append-src-'));
  const out = await mkdtemp(join(tmpdir(), 'signpost-append-out-'));
  t.teardown(() => Promise.all([rm(src, { recursive: true, force: true }), rm(out, { recursive: true, force: true })]));
  await mkdir(join(src, 'docs/includes'), { recursive: true });
  await writeFile(join(src, 'mkdocs.yml'), 'site_name: Kelp\nmarkdown_extensions:\n  - pymdownx.snippets:\n      auto_append: [docs/includes/abbr.md]\n');
  await writeFile(join(src, 'docs/index.md'), '# Home\n\nUse HTML.\n');
  await writeFile(join(src, 'docs/includes/abbr.md'), '*[HTML]: Hyper Text Markup Language\n*[CSS]: Cascading Style Sheets\n');
  const result = await migrate('mkdocs', src, out);
  t.notOk(result.files.some((f) => f.includes('includes')), 'no topic for the snippet');
  t.match(await readFile(join(out, 'topics/kelp/index.md'), 'utf8'), /Use HTML\.\n\n\n\*\[HTML\]: Hyper Text Markup Language$/);
  t.same(result.notes.get('docs/includes/abbr.md'), ['snippet appended to every page (auto_append) — pasted into the pages that use it, not a page of its own']);
});

/**
 * mkdocstrings' and mkautodoc's `::: module.name` lines (an API reference the plugin generates from code)
 * are no Signpost directive: found on a real MkDocs site, they showed as `:::` text. The name stays, as
 * code, with its options block left out and a note.
 */
t.test('autodoc lines: the name kept as code, the options left out, noted', async (t) => {
  const { out, notes } = body('# API\n\n::: httpx.request\n    :docstring:\n\n::: httpx.Client\n    options:\n      members: [get]\n\nText');
  t.same(out, '# API\n\n`httpx.request`\n\n`httpx.Client`\n\nText');
  t.same(notes, [
    'line 3: autodoc `::: httpx.request` (mkdocstrings, mkautodoc) — the reference it generates from code is not carried over; its name kept as code',
    'line 6: autodoc `::: httpx.Client` (mkdocstrings, mkautodoc) — the reference it generates from code is not carried over; its name kept as code',
  ]);
});
