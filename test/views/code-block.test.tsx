import t from 'tap';
import { parseMarkdown } from '../../server/content/markdown.ts';
import { renderRichText } from '../../views/rich-text/rich-text.tsx';

const html = (md: string) => {
  const parsed = parseMarkdown(md, { idPrefix: 'c' });
  return renderRichText(parsed.document, parsed.embedded);
};

t.test('a code block scrolls in a named, focusable region; <pre> carries no name (not allowed there)', async (t) => {
  const titled = html('```sh title="Restart the service"\nsudo systemctl restart app\n```\n');
  t.match(titled, '<div class="code-scroll" role="region" tabindex="0" aria-label="Code: Restart the service"><pre><code class="language-sh">');
  t.notMatch(titled, /<pre[^>]*aria-label/);
  t.match(html('```\nls\n```\n'), 'tabindex="0" aria-label="Code"');
});

t.test('an empty code block is not a focusable, named region', async (t) => {
  const empty = html('```\n```\n');
  t.match(empty, '<pre><code></code></pre>');
  t.notMatch(empty, 'tabindex');
  t.notMatch(empty, 'aria-label');
});
