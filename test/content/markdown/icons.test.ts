import t from 'tap';
import { parseMarkdown } from '../../../server/content/markdown.ts';
import { renderRichText } from '../../../views/rich-text/rich-text.tsx';

t.test(':icon{set="mdi" key="…"} draws a Material Design icon, filled; Lucide stays the default', async (t) => {
  const parsed = parseMarkdown('Star us on :icon{set="mdi" key="github"} and :icon{set="mdi" key="account-circle-outline"}, or :icon{key="star"}.', { idPrefix: 'p' });
  t.same(parsed.issues, []);
  const icons = Object.values(parsed.embedded).filter((e) => e.type === 'icon');
  t.match(icons, [{ iconKey: 'github', set: 'mdi', nodes: [['path', { d: /^M12 2A10 10 0 0 0 2 12/ }]] }, { iconKey: "account-circle-outline", set: "mdi" }, { iconKey: "star" }]);
  t.notOk((icons[2] as { set?: string }).set, 'a Lucide icon has no set');
  const html = renderRichText(parsed.document, parsed.embedded) as string;
  t.match(html, /<svg class="icon content-icon" viewBox="0 0 24 24"[^>]*role="img" aria-label="github" fill="currentColor"><path d="M12 2A10/);
  t.match(html, /aria-label="star" fill="none" stroke="currentColor"/, 'Lucide icons are stroked');
});

t.test('an unknown mdi icon or set is an error with a suggestion', async (t) => {
  const { issues } = parseMarkdown(':icon{set="mdi" key="githb"} :icon{set="fa" key="x"} :icon{set="mdi"}', { idPrefix: 'p' });
  t.match(issues, [
    { reason: 'unknown icon "githb" in set "mdi"', hint: /did you mean .*"github"/ },
    { reason: 'unknown icon set "fa"', hint: /set="mdi"/ },
    { reason: /icon needs a key/ },
  ]);
  t.notOk(issues.some((i) => i.warning));
});

t.test('an alias of the set names its icon', async (t) => {
  const { embedded, issues } = parseMarkdown(':icon{set="mdi" key="settings"}', { idPrefix: 'p' });
  t.same(issues, []);
  t.match(Object.values(embedded), [{ type: 'icon', set: 'mdi', nodes: [['path', {}]] }]);
});
