/** MkDocs (and MkDocs Material): `mkdocs.yml` (site_name, docs_dir, nav) and the docs folder. */
import { readFile } from 'node:fs/promises';
import { convertMkDocsPages } from './mkdocs-pages.ts';
import { join } from 'node:path';
import { parseDocument, isMap, isScalar } from 'yaml';
import { folderNav, humanise, readDocs } from './docs.ts';
import { note, type NavItem, type SourceSite } from './model.ts';

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
  for (const key of Object.keys(config)) {
    if (['theme', 'plugins', 'extra', 'extra_css', 'extra_javascript', 'hooks'].includes(key)) {
      note(notes, 'mkdocs.yml', `${key}: not carried over (Signpost has its own theme and Markdown)`);
    }
  }
  convertMkDocsPages(src, config, docs, label, notes);
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
