import t from 'tap';
import { parseMarkdown } from '../../server/content/markdown.ts';
import { passagesOf } from '../../server/assistant/passages.ts';

const source = `Intro paragraph.

## Install

- Install with pip
- Requires Python 3.9+

\`\`\`python
import secret_code_token
\`\`\`

:::note
A callout keeps its words.
:::

| Plan | Limit |
| --- | --- |
| Free | 10 MB |
`;

t.test('a passage keeps list items, table rows and callouts on lines of their own, and leaves code out', async (t) => {
  const parsed = parseMarkdown(source, { idPrefix: 'p' });
  t.same(parsed.issues, []);
  const passages = passagesOf('e1', parsed.document, parsed.embedded);
  t.equal(passages.length, 2);
  const install = passages[1]!;
  t.equal(install.heading, 'Install');
  const lines = install.text.split('\n');
  t.ok(lines.includes('Install with pip') && lines.includes('Requires Python 3.9+'), `list items on lines of their own: ${JSON.stringify(lines)}`);
  t.ok(lines.some((l) => /Free\s+10 MB/.test(l)), 'a table row on a line, its cells apart');
  t.match(install.text, /A callout keeps its words\./);
  t.notMatch(install.text, /secret_code_token/, 'code is not quoted');
});
