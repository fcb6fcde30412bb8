/** MkDocs (and MkDocs Material): `mkdocs.yml` (site_name, docs_dir, nav) and the docs folder. */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseDocument, isMap, isScalar } from 'yaml';
import { folderNav, humanise, readDocs } from './docs.ts';
import { note, type NavItem, type SourceSite } from './model.ts';
import { MkDocsBody } from './mkdocs-body.ts';
import { Snippets } from './mkdocs-snippets.ts';

/** Extensions whose syntax the migrator converts (mkdocs-body.ts) or Signpost reads as it is. */
const CONVERTED_EXTENSIONS = new Set([
  'admonition', 'pymdownx.details', 'pymdownx.superfences', 'pymdownx.tabbed', 'attr_list', 'def_list', 'md_in_html', 'abbr',
  'pymdownx.snippets', 'pymdownx.emoji', 'footnotes', 'tables', 'toc', 'meta', 'pymdownx.highlight', 'pymdownx.inlinehilite',
  'pymdownx.keys', 'pymdownx.mark', 'pymdownx.tasklist', 'pymdownx.tilde', 'pymdownx.magiclink', 'pymdownx.betterem', 'pymdownx.saneheaders', 'sane_lists', 'smarty',
]);

/** `markdown_extensions:` as a name → options map (an entry is a name, or a one-key map of a name to its options). */
function markdownExtensions(value: unknown): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const entry of Array.isArray(value) ? value : []) {
    if (typeof entry === 'string') out.set(entry, {});
    else if (entry && typeof entry === 'object') {
      for (const [key, options] of Object.entries(entry as Record<string, unknown>)) {
        out.set(key, options && typeof options === 'object' ? options as Record<string, unknown> : {});
      }
    }
  }
  return out;
}

export async function readMkDocs(src: string): Promise<SourceSite> {
  const notes = new Map<string, string[]>();
  const text = await readFile(join(src, 'mkdocs.yml'), 'utf8');
  // MkDocs configs use tags such as !!python/name:… and !ENV: read as plain values, never run.
  const yaml = parseDocument(text, { customTags: [], logLevel: 'silent' });
  const config = (yaml.toJS({ maxAliasCount: 100 }) ?? {}) as Record<string, unknown>;
  const docsDir = join(src, typeof config.docs_dir === 'string' ? config.docs_dir : 'docs');
  const label = (path: string) => `${typeof config.docs_dir === 'string' ? config.docs_dir : 'docs'}/${path}`;
  const docs = await readDocs(docsDir, notes, label);
  const name = typeof config.site_name === 'string' ? config.site_name : 'Documentation';
  const extensions = markdownExtensions(config.markdown_extensions);
  for (const key of Object.keys(config)) {
    if (['theme', 'plugins', 'extra', 'extra_css', 'extra_javascript', 'hooks'].includes(key)) {
      note(notes, 'mkdocs.yml', `${key}: not carried over (Signpost has its own theme and Markdown)`);
    }
  }
  const unread = [...extensions.keys()].filter((e) => !CONVERTED_EXTENSIONS.has(e));
  if (unread.length > 0) note(notes, 'mkdocs.yml', `markdown_extensions: ${unread.join(', ')} not carried over (their syntax is kept as written)`);
  const snippetConfig = extensions.get('pymdownx.snippets') ?? {};
  const list = (value: unknown): string[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]).map(String);
  const snippets = new Snippets({
    bases: (list(snippetConfig.base_path).length > 0 ? list(snippetConfig.base_path) : ['.']).map((b) => resolve(src, b)),
    autoAppend: list(snippetConfig.auto_append), root: src,
  });
  for (const doc of docs) {
    const file = label(doc.path);
    const found: { at: number; message: string }[] = [];
    const problem = (at: number, message: string) => found.push({ at, message });
    const lines = snippets.expand(doc.body.split('\n').map((text, i) => ({ text, at: doc.bodyLine + i })), problem);
    const appended = snippets.appended(lines.map((l) => l.text).join('\n'), (message) => note(notes, file, message));
    const end = doc.bodyLine + doc.body.split('\n').length;
    if (appended.length > 0) lines.push({ text: '', at: end }, ...appended.map((text) => ({ text, at: end })));
    doc.body = new MkDocsBody(problem).convert(lines).map((l) => l.text).join('\n');
    // Snippets are read first, the rest after: the page's notes in the order of its lines.
    for (const { at, message } of found.sort((a, b) => a.at - b.at)) note(notes, file, `line ${at}: ${message}`);
  }
  const toNav = (items: unknown[]): NavItem[] => items.flatMap((item): NavItem[] => {
    if (typeof item === 'string') return /^[a-z]+:/i.test(item) ? [{ kind: 'link', label: item, href: item }] : [{ kind: 'doc', path: item }];
    if (!item || typeof item !== 'object') return [];
    return Object.entries(item as Record<string, unknown>).map(([title, value]): NavItem => {
      if (Array.isArray(value)) return { kind: 'group', label: title, items: toNav(value) };
      const target = String(value);
      return /^[a-z]+:/i.test(target) || target.startsWith('/') ? { kind: 'link', label: title, href: target } : { kind: 'doc', path: target, label: title };
    });
  });
  // Without nav, MkDocs lists every page, folders as sections, index first.
  const nav = Array.isArray(config.nav) ? toNav(config.nav) : folderNav(docs, '', () => undefined, (f) => humanise(f.split('/').pop() ?? f));
  void isMap; void isScalar;
  return { tool: 'mkdocs', name, description: typeof config.site_description === 'string' ? config.site_description : undefined, docsDir, docs, nav, consumedKeys: [], notes };
}
