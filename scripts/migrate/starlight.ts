/**
 * Starlight (Astro): the `starlight({ title, sidebar })` integration in astro.config.mjs, read
 * statically, and the pages under src/content/docs/.
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { folderNav, humanise, readDocs } from './docs.ts';
import { isCall, readJsConfig, unwrapCall } from './js-config.ts';
import { note, noteAt, type NavItem, type SourceDoc, type SourceSite } from './model.ts';
import { splitLocaleFolders } from './locales.ts';
import { basePath, originOf, starlightUrl } from './source-urls.ts';

export async function readStarlight(src: string): Promise<SourceSite> {
  const notes = new Map<string, string[]>();
  const configName = ['astro.config.mjs', 'astro.config.js', 'astro.config.ts'].find((f) => existsSync(join(src, f))) ?? 'astro.config.mjs';
  let options: Record<string, unknown> = {};
  let astro: Record<string, unknown> = {};
  if (existsSync(join(src, configName))) {
    const read = readJsConfig(await readFile(join(src, configName), 'utf8'), configName);
    for (const n of read.notes) note(notes, configName, n);
    const config = (unwrapCall(read.value) ?? {}) as Record<string, unknown>;
    astro = config;
    const integrations = Array.isArray(config.integrations) ? config.integrations : [];
    const starlight = integrations.find((i) => isCall(i, 'starlight'));
    if (starlight && isCall(starlight)) options = (starlight.args[0] ?? {}) as Record<string, unknown>;
    else note(notes, configName, 'no starlight({…}) integration found: the navigation is made from the folders');
  }
  // `locales: { root: {…}, fr: {…} }` keeps the site's own pages at the root and a folder per other
  // locale; with `defaultLocale: 'en'` and no root, the site's own pages are in en/ and served under /en/.
  const localeMap = options.locales && typeof options.locales === 'object' ? options.locales as Record<string, unknown> : {};
  const localeKeys = Object.keys(localeMap);
  const defaultFolder = localeKeys.includes('root') ? undefined
    : typeof options.defaultLocale === 'string' && localeKeys.includes(options.defaultLocale) ? options.defaultLocale : localeKeys[0];
  const langOf = (key: string) => {
    const entry = localeMap[key] as Record<string, unknown> | undefined;
    return typeof entry?.lang === 'string' ? entry.lang : key;
  };
  const split = splitLocaleFolders(await readDocs(join(src, 'src/content/docs'), notes, (p) => `src/content/docs/${p}`),
    join(src, 'src/content/docs'), localeKeys.filter((k) => k !== 'root'), (p) => `src/content/docs/${p}`, defaultFolder);
  const { docs, docsDir, label } = split;
  const slugOf = (doc: SourceDoc) => typeof doc.frontMatter.slug === 'string' ? doc.frontMatter.slug
    : doc.path.replace(/\.mdx?$/, '').replace(/(^|\/)index$/, '').toLowerCase();
  const bySlug = new Map(docs.map((d) => [slugOf(d), d]));
  const order = (doc: SourceDoc) => {
    const sidebar = doc.frontMatter.sidebar as Record<string, unknown> | undefined;
    return typeof sidebar?.order === 'number' ? sidebar.order : undefined;
  };
  const docPath = (slug: string) => bySlug.get(slug.replace(/^\/|\/$/g, ''))?.path ?? `${slug}.md`;
  const toNav = (items: unknown): NavItem[] => (Array.isArray(items) ? items : []).flatMap((item): NavItem[] => {
    if (typeof item === 'string') return [{ kind: 'doc', path: docPath(item) }];
    if (!item || typeof item !== 'object') return [];
    const i = item as Record<string, unknown>;
    const label = typeof i.label === 'string' ? i.label : undefined;
    if (typeof i.slug === 'string') return [{ kind: 'doc', path: docPath(i.slug), ...(label ? { label } : {}) }];
    if (typeof i.link === 'string') {
      return /^[a-z]+:/i.test(i.link) ? [{ kind: 'link', label: label ?? i.link, href: i.link }] : [{ kind: 'doc', path: docPath(i.link), ...(label ? { label } : {}) }];
    }
    const auto = i.autogenerate as Record<string, unknown> | undefined;
    if (auto && typeof auto.directory === 'string') {
      return [{ kind: 'group', label: label ?? humanise(auto.directory), items: folderNav(docs, auto.directory, order, (f) => humanise(f.split('/').pop() ?? f)) }];
    }
    if (Array.isArray(i.items)) return [{ kind: 'group', label: label ?? 'Pages', items: toNav(i.items) }];
    note(notes, configName, `sidebar item ${JSON.stringify(i)} not carried over`);
    return [];
  });
  const nav = Array.isArray(options.sidebar) ? toNav(options.sidebar) : folderNav(docs, '', order, (f) => humanise(f.split('/').pop() ?? f));
  // Starlight pages that are not documentation: hidden ones are noted as left out of the navigation.
  for (const doc of docs) {
    const sidebar = doc.frontMatter.sidebar as Record<string, unknown> | undefined;
    if (sidebar && typeof sidebar === 'object') {
      for (const key of Object.keys(sidebar)) {
        if (key !== 'order' && key !== 'label') noteAt(notes, label(doc.path), doc.keyLines?.sidebar ?? 1, `front matter \`sidebar.${key}\``, 'not carried over');
      }
      if (typeof sidebar.label === 'string') doc.frontMatter.sidebar_label = sidebar.label;
    }
  }
  const title = typeof options.title === 'string' ? options.title
    : options.title && typeof options.title === 'object' ? String(Object.values(options.title)[0]) : 'Documentation';
  const defaultLocale = defaultFolder ?? (localeKeys.includes('root') ? langOf('root') : undefined);
  return {
    tool: 'starlight', name: title, description: typeof options.description === 'string' ? options.description : undefined,
    root: src, docsDir, label, staticDirs: [join(src, typeof astro.publicDir === 'string' ? astro.publicDir : 'public')], baseUrl: basePath(astro.base), origin: originOf(astro.site),
    urlOf: (doc, locale) => `${locale ? `/${locale}` : defaultFolder ? `/${defaultFolder}` : ''}${starlightUrl(doc)}`,
    defaultLocale, translations: split.translations, docs, nav, consumedKeys: ['sidebar'], notes,
  };
}
