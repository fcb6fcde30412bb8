/**
 * CommonMark's own spec examples (the `commonmark-spec` package) through the real pipeline: Markdown ->
 * rich-text document (parseMarkdown) -> the body's server-rendered HTML (renderRichText), compared with
 * the spec's HTML after the normalisation in test/helpers/commonmark-html.ts.
 *
 * Sections in scope are the ones this pipeline renders as CommonMark does. Every example of them runs;
 * the ones that differ on purpose are listed by number with the reason, and are checked to still differ,
 * so the list stays true. Sections out of scope, and why:
 * - HTML blocks, Raw HTML: raw HTML is sanitised by design (an allowlist), parsed into a well-formed tree,
 *   and a tag that is not an HTML element is text (server/content/markdown/html.ts).
 * - ATX headings, Setext headings: headings are re-levelled so the smallest is h2 and deeper than h4 are
 *   bold paragraphs (spec §5).
 * - Lists, List items, Precedence: the rich-text model has no tight lists; a list item holds paragraphs.
 * - Emphasis and strong emphasis: bold and italic are marks, a set per run of text, so emphasis nested in
 *   itself and the order of <em> and <strong> are not kept.
 * - Links, Images, Autolinks, Link reference definitions: link titles are not kept, URLs are written as
 *   given rather than percent-encoded, an image alone in a paragraph is a figure and unsafe URLs are refused.
 */
import t from 'tap';
import { createRequire } from 'node:module';
import { parseMarkdown } from '../../server/content/markdown.ts';
import { renderRichText } from '../../views/rich-text/rich-text.tsx';
import { normaliseHtml } from '../helpers/commonmark-html.ts';

interface Example { markdown: string; html: string; section: string; number: number }
const { tests } = createRequire(import.meta.url)('commonmark-spec') as { tests: Example[] };

const RELEVELLED = 'headings are re-levelled: the smallest is h2 (spec §5)';
const LOOSE = 'a list item holds paragraphs: the rich-text model has no tight lists';
const RAW_HTML = 'raw HTML is sanitised into a well-formed tree: an unclosed tag is closed where its block ends';
const NO_TITLE = 'link titles are not kept (a hyperlink holds its URI only)';
const NOT_ENCODED = 'URLs are written as given, not percent-encoded (a browser requests the same URL)';

const SECTIONS: Record<string, Record<number, string>> = {
  'Soft line breaks': {},
  'Hard line breaks': { 642: RAW_HTML, 643: RAW_HTML, 646: RELEVELLED, 647: RELEVELLED },
  Paragraphs: {},
  'Textual content': {},
  Inlines: {},
  'Blank lines': { 227: RELEVELLED },
  Tabs: { 9: LOOSE, 10: RELEVELLED },
  'Backslash escapes': { 20: NOT_ENCODED, 22: NO_TITLE, 23: NO_TITLE },
  'Entity and numeric character references': { 32: `${NO_TITLE}; ${NOT_ENCODED}`, 33: `${NO_TITLE}; ${NOT_ENCODED}`, 38: LOOSE },
  'Code spans': { 344: RAW_HTML, 346: NOT_ENCODED },
  'Thematic breaks': { 57: LOOSE, 60: LOOSE, 61: LOOSE },
  'Indented code blocks': { 109: LOOSE, 115: RELEVELLED },
  'Fenced code blocks': { 141: RELEVELLED },
  'Block quotes': { 228: RELEVELLED, 229: RELEVELLED, 230: RELEVELLED, 232: RELEVELLED, 235: LOOSE },
};

function render(markdown: string): string {
  const parsed = parseMarkdown(markdown, { idPrefix: 'spec' });
  return renderRichText(parsed.document, parsed.embedded) as string;
}

// The spec writes a tab as "→".
const tabs = (s: string) => s.replace(/→/g, '\t');

for (const [section, differ] of Object.entries(SECTIONS)) {
  t.test(section, async (t) => {
    const examples = tests.filter((e) => e.section === section);
    t.ok(examples.length > 0, `the spec has a section "${section}"`);
    for (const n of Object.keys(differ)) t.ok(examples.some((e) => e.number === Number(n)), `example ${n} is in "${section}"`);
    for (const example of examples) {
      const got = normaliseHtml(render(tabs(example.markdown)));
      const want = normaliseHtml(tabs(example.html));
      const reason = differ[example.number];
      const name = `example ${example.number}: ${JSON.stringify(tabs(example.markdown))}`;
      if (reason) t.not(got, want, `${name} differs on purpose (${reason}); drop it from the list if it now matches`);
      else t.equal(got, want, name);
    }
  });
}

t.test('the normalisation keeps breaks, tags and text apart', async (t) => {
  t.not(normaliseHtml('<p>a<br>b</p>'), normaliseHtml('<p>a\nb</p>'), 'a hard break is not a soft one');
  t.equal(normaliseHtml('<p>a<br/>\nb</p>'), normaliseHtml('<p>a<br>b</p>'), 'the line ending after <br> is not rendered');
  t.not(normaliseHtml('<p>a b</p>'), normaliseHtml('<p>ab</p>'));
  t.not(normaliseHtml('<pre><code>a\n b</code></pre>'), normaliseHtml('<pre><code>a b</code></pre>'), 'code keeps its whitespace');
  t.equal(normaliseHtml('<figure class="code-block"><div class="code-scroll" role="region" tabindex="0"><pre><code class="language-js">x</code></pre></div></figure>'),
    '<pre><code>x</code></pre>', 'our wrappers and classes go');
  t.not(normaliseHtml('<p><em>a</em></p>'), normaliseHtml('<p>a</p>'));
});
