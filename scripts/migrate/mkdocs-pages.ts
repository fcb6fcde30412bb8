/**
 * The pages of a MkDocs site in Signpost's syntax: snippets pasted in (mkdocs-snippets.ts), then each
 * body converted construct by construct (mkdocs-body.ts), with the page's notes in line order.
 */
import { resolve } from 'node:path';
import { note, type SourceDoc } from './model.ts';
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

/** Converts each document's body in place; `config` is mkdocs.yml read as data. */
export function convertMkDocsPages(src: string, config: Record<string, unknown>, docs: SourceDoc[], label: (path: string) => string,
  notes: Map<string, string[]>): void {
  const extensions = markdownExtensions(config.markdown_extensions);
  const unread = [...extensions.keys()].filter((e) => !CONVERTED_EXTENSIONS.has(e));
  if (unread.length > 0) note(notes, 'mkdocs.yml', `markdown_extensions: ${unread.join(', ')} not carried over (their syntax is kept as written)`);
  const snippetConfig = extensions.get('pymdownx.snippets') ?? {};
  const list = (value: unknown): string[] => (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]).map(String);
  const snippets = new Snippets({
    bases: (list(snippetConfig.base_path).length > 0 ? list(snippetConfig.base_path) : ['.']).map((b) => resolve(src, b)),
    autoAppend: list(snippetConfig.auto_append), root: src,
  });
  // A file appended to every page that sits in the docs folder is not a page of its own.
  const appendedFiles = new Set(snippets.appendedFiles());
  for (let i = docs.length - 1; i >= 0; i--) {
    const doc = docs[i] as SourceDoc;
    if (!appendedFiles.has(resolve(src, label(doc.path)))) continue;
    note(notes, label(doc.path), 'snippet appended to every page (auto_append) — pasted into the pages that use it, not a page of its own');
    docs.splice(i, 1);
  }
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
}
