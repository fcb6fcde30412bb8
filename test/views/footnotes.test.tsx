/**
 * Footnotes speak the page's language: their section's name and back-references come from the strings
 * catalogue by the body's language, at render and through an import (a ja-JP topic).
 */
import t from 'tap';
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseMarkdown } from '../../server/content/markdown.ts';
import { renderRichText } from '../../views/rich-text/rich-text.tsx';
import { build, SAMPLE_CONTENT, tempContent } from '../helpers/build.ts';

const SOURCE = 'Footnoted[^1] twice[^1].\n\n[^1]: The note.\n';

t.test('labels by language, English without one', async (t) => {
  const { document, embedded } = parseMarkdown(SOURCE, { idPrefix: 'f' });
  const ja = renderRichText(document, embedded, 'ja-JP');
  t.match(ja, '<section class="footnotes" aria-label="脚注">');
  t.match(ja, 'aria-label="参照 1 に戻る"');
  t.match(ja, 'aria-label="参照 1-2 に戻る"');
  const en = renderRichText(document, embedded);
  t.match(en, '<section class="footnotes" aria-label="Footnotes">');
  t.match(en, 'aria-label="Back to reference 1-2"');
  t.match(renderRichText(document, embedded, 'fr-FR'), 'aria-label="Footnotes"', 'a language without a catalogue: English');
});

t.test('a ja-JP topic shows Japanese footnote labels', async (t) => {
  const dir = await tempContent(t, SAMPLE_CONTENT);
  const file = join(dir, 'topics/keyward-cloud/set-up-saml-sso-ja.md');
  t.ok((await readFile(file, 'utf8')).includes('language: ja-JP'));
  await appendFile(file, `\n${SOURCE}`);
  const app = await build(t, { contentDir: dir });
  const page = (await app.inject('/keyward-cloud/docs/set-up-saml-sso-ja')).body;
  t.match(page, '<section class="footnotes" aria-label="脚注">');
  t.match(page, 'aria-label="参照 1 に戻る"');
});
