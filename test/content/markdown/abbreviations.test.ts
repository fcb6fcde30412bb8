import t from 'tap';
import { parseMarkdown } from '../../../server/content/markdown.ts';
import { plainText } from '../../../server/content/rich-text.ts';
import { renderRichText } from '../../../views/rich-text/rich-text.tsx';

const render = (source: string) => {
  const parsed = parseMarkdown(source, { idPrefix: 'page' });
  return { parsed, html: renderRichText(parsed.document, parsed.embedded) as string };
};

t.test('*[ABBR]: title lines define abbreviations shown as <abbr title> in prose', async (t) => {
  const { parsed, html } = render([
    '## Serving HTML', '', 'Write **HTML** or HTML5; XHTML and HTMLish are other words.', '',
    '| Format | Use |', '| --- | --- |', '| HTML | pages |', '', '[HTML docs](https://example.com)', '',
    '```', 'HTML in code', '*[CODE]: not a definition', '```', '',
    '*[HTML]: Hyper Text Markup Language', '*[HTML5]: The fifth version of "HTML"', 'Last line.',
  ].join('\n'));
  t.same(parsed.issues, []);
  t.match(html, '<abbr title="Hyper Text Markup Language"><b>HTML</b></abbr>', 'marks stay on the abbreviation');
  t.match(html, '<abbr title="The fifth version of &quot;HTML&quot;">HTML5</abbr>', 'the longest name wins');
  t.notMatch(html, /X<abbr|<abbr[^>]*>HTML<\/abbr>ish/, 'only whole words');
  t.match(html, '<td><p><abbr title="Hyper Text Markup Language">HTML</abbr></p></td>', 'in table cells too');
  t.match(html, '<h2 id="serving-html">Serving HTML</h2>', 'not in headings, whose text makes the anchor');
  t.match(html, '>HTML docs</a>', 'not inside link text');
  t.match(html, 'HTML in code\n*[CODE]: not a definition', 'code is left alone');
  t.notMatch(render('Inline `HTML` code.\n\n*[HTML]: x').html, '<abbr', 'inline code too');
  t.notMatch(html, '*[HTML]', 'the definition lines are not shown');
  t.match(plainText(parsed.document, parsed.embedded), 'Write HTML or HTML5; XHTML and HTMLish are other words.', 'search reads the words');
});

t.test('definition lines keep the line numbers of the rest of the body', async (t) => {
  const issues = parseMarkdown('*[A]: a\n\n![](x.png)\n', { idPrefix: 'p' }).issues;
  t.match(issues, [{ line: 3, reason: /needs alt text/ }]);
});
