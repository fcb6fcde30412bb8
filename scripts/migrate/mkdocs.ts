/** MkDocs (and MkDocs Material): `mkdocs.yml` (site_name, docs_dir, nav) and the docs folder. */
import { readFile } from 'node:fs/promises';
import { convertMkDocsPages } from './mkdocs-pages.ts';
import { join } from 'node:path';
import { parseDocument, isMap, isScalar } from 'yaml';
import { folderNav, humanise, readDocs } from './docs.ts';
import { noteAt, type NavItem, type SourceSite, type Translation } from './model.ts';
import { basePath, mkdocsUrl, originOf } from './source-urls.ts';
import { splitLocaleFolders, splitLocaleSuffixes } from './locales.ts';

export async function readMkDocs(src: string): Promise<SourceSite> {
  const notes = new Map<string, string[]>();
  const text = await readFile(join(src, 'mkdocs.yml'), 'utf8');
  // MkDocs configs use tags such as !!python/name:… and !ENV: read as plain values, never run.
  const yaml = parseDocument(text, { customTags: [], logLevel: 'silent' });
  const config = (yaml.toJS({ maxAliasCount: 100 }) ?? {}) as Record<string, unknown>;
  const docsFolder = typeof config.docs_dir === 'string' ? config.docs_dir.replace(/^\.\//, '').replace(/\/+$/, '') : 'docs';
  let docsDir = join(src, docsFolder);
  let label = (path: string) => `${docsFolder}/${path}`;
  const directoryUrls = config.use_directory_urls !== false;
  let docs = await readDocs(docsDir, notes, label);
  // The i18n plugin (mkdocs-static-i18n): `guide.fr.md` beside `guide.md`, or a folder per language.
  let translations: Translation[] = [];
  let defaultLocale: string | undefined;
  const plugins = Array.isArray(config.plugins) ? config.plugins : [];
  const i18n = plugins.map((p) => (p && typeof p === 'object' ? (p as Record<string, unknown>).i18n : undefined)).find((p) => p && typeof p === 'object') as Record<string, unknown> | undefined;
  if (i18n) {
    const languages = (Array.isArray(i18n.languages) ? i18n.languages : []).filter((l): l is Record<string, unknown> => Boolean(l) && typeof l === 'object');
    const locales = languages.map((l) => String(l.locale ?? '')).filter(Boolean);
    defaultLocale = String(languages.find((l) => l.default === true)?.locale ?? locales[0] ?? 'en');
    if (i18n.docs_structure === 'folder') {
      const split = splitLocaleFolders(docs, docsDir, locales, label, defaultLocale);
      docs = split.docs;
      translations = split.translations;
      docsDir = split.docsDir;
      label = split.label;
    } else {
      const split = splitLocaleSuffixes(docs, docsDir, locales, defaultLocale, label);
      docs = split.docs;
      translations = split.translations;
    }
  }
  const name = typeof config.site_name === 'string' ? config.site_name : 'Documentation';
  for (const key of Object.keys(config)) {
    if (['theme', 'plugins', 'extra', 'extra_css', 'extra_javascript', 'hooks'].includes(key)) {
      const line = text.split('\n').findIndex((l) => l.startsWith(`${key}:`)) + 1;
      if (key === 'plugins' && i18n) noteAt(notes, 'mkdocs.yml', line || 1, 'plugins', 'the i18n plugin\'s languages are read; the other plugins are not carried over');
      else noteAt(notes, 'mkdocs.yml', line || 1, key, 'not carried over (Signpost has its own theme and Markdown)');
    }
  }
  convertMkDocsPages(src, config, docs, label, notes);
  for (const t of translations) convertMkDocsPages(src, config, t.docs, t.label, notes);
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
  return {
    tool: 'mkdocs', name, description: typeof config.site_description === 'string' ? config.site_description : undefined,
    root: src, docsDir, label, staticDirs: [join(src, docsFolder)], baseUrl: basePath(config.site_url), origin: originOf(config.site_url),
    urlOf: (doc, locale) => `${locale ? `/${locale}` : ''}${mkdocsUrl(doc, directoryUrls)}`,
    defaultLocale, translations, docs, nav, consumedKeys: [], notes,
  };
}
