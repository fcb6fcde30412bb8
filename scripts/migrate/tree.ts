/**
 * Writes a site read by one of the migrators as a Signpost content tree: one product (the site), its
 * documentation page, a collection per top-level navigation group, a topic set per group inside it, and
 * a topic per document. Bodies keep the source's Markdown (admonitions as written; tab groups in Signpost's `::::tabs`); what does
 * not come across is noted per file.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { note, noteAt, type NavItem, type SourceDoc, type SourceSite } from './model.ts';
import { convertTabs } from './tabs.ts';
import { convertMdx, docHref } from './mdx.ts';
import { Assets, rewriteLinks, type LinkScope, type LinkStats } from './links.ts';
import { stripNumberPrefix, urlKey } from './source-urls.ts';

export interface MigrateResult {
  product: string;
  files: string[];
  collections: number;
  topicSets: number;
  topics: number;
  notes: Map<string, string[]>;
  /** Links rewritten and kept as text, and files copied into the tree. */
  links: LinkStats & { images: number };
  /** Entries of redirects.yaml: one per page of the source site served elsewhere now. */
  redirects: number;
}

/** Signpost's page languages, by the tools' locale codes. */
function signpostLanguage(locale: string): 'ja-JP' | undefined {
  return /^ja([-_]|$)/i.test(locale) ? 'ja-JP' : undefined;
}
const LANGUAGE_NAMES: Record<string, string> = { 'ja-JP': '日本語' };

/** Source URL (compared as urlKey) → document path; a locale's pages with and without their prefix. */
function urlTable(site: SourceSite, docs: SourceDoc[], locale?: string): Map<string, string> {
  const table = new Map<string, string>();
  for (const doc of docs) {
    table.set(urlKey(site.urlOf(doc, locale)), doc.path);
    if (locale) table.set(urlKey(site.urlOf(doc)), doc.path);
  }
  return table;
}

/** Description, date and draft, as every topic carries them; the front matter left over is noted at its line. */
function commonFields(doc: SourceDoc, site: SourceSite, file: string, notes: Map<string, string[]>): Record<string, unknown> {
  const fm = doc.frontMatter;
  const fields: Record<string, unknown> = {};
  const description = str(fm.description);
  if (description) fields.metaDescription = description.length > 300 ? `${description.slice(0, 297)}…` : description;
  const date = dateOf(fm.last_update) ?? dateOf(fm.lastUpdated) ?? dateOf(fm.date);
  if (date) fields.lastPublished = date;
  if (fm.draft === true) fields.published = false;
  for (const key of Object.keys(fm)) {
    if (!MAPPED.has(key) && !site.consumedKeys.includes(key)) noteAt(notes, file, doc.keyLines?.[key] ?? 1, `front matter \`${key}\``, 'not carried over');
  }
  return fields;
}

/** Front matter every tool shares that becomes a Signpost field (the rest is noted). */
const MAPPED = new Set(['title', 'description', 'sidebar_label', 'slug', 'draft', 'last_update', 'lastUpdated', 'date', 'id']);

export function slugify(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80);
}

/** `_sourceLabel` is the site's own `label` now (kept so callers need not change). */
export async function writeTree(site: SourceSite, out: string, _sourceLabel?: (docPath: string) => string): Promise<MigrateResult> {
  const notes = site.notes;
  const product = slugify(site.name) || 'docs';
  const files: string[] = [];
  const write = async (path: string, text: string) => {
    await mkdir(dirname(join(out, path)), { recursive: true });
    await writeFile(join(out, path), text);
    files.push(path);
  };
  const yaml = (value: Record<string, unknown>) => stringify(value, { lineWidth: 0 });
  const slugs = new Set<string>(['docs']);
  const ids = new Set<string>();
  const unique = (set: Set<string>, base: string) => {
    let value = base || 'page';
    for (let n = 2; set.has(value); n++) value = `${base}-${n}`;
    set.add(value);
    return value;
  };

  const byPath = new Map(site.docs.map((d) => [d.path, d]));
  const topicOf = new Map<string, string>();
  const labels = new Map<string, string>();
  const used = new Set<string>();
  const indexes = new Set<string>();
  const collectIndexes = (items: NavItem[]): void => items.forEach((i) => {
    if (i.kind === 'group') {
      if (i.index) indexes.add(i.index);
      collectIndexes(i.items);
    }
  });
  collectIndexes(site.nav);
  const topicId = (doc: SourceDoc) => {
    let id = topicOf.get(doc.path);
    if (!id) {
      id = unique(ids, `${product}-${slugify(doc.path.replace(/\.mdx?$/, '').replace(/(^|\/)(index|readme)$/i, '')) || 'home'}`);
      topicOf.set(doc.path, id);
    }
    return id;
  };
  const navDoc = (item: Extract<NavItem, { kind: 'doc' }>, where: string): string | undefined => {
    const doc = byPath.get(item.path);
    if (!doc) {
      note(notes, where, `navigation names "${item.path}", which is not a document of the docs folder; left out`);
      return undefined;
    }
    if (used.has(doc.path)) {
      // A topic has one place in the navigation (and one breadcrumb trail): the first one.
      // A category's own page listed again in it (Docusaurus autogenerated items) is no news.
      if (!indexes.has(doc.path)) note(notes, where, `navigation lists "${item.path}" more than once: kept at its first place`);
      return undefined;
    }
    if (item.label) labels.set(doc.path, item.label);
    used.add(doc.path);
    return topicId(doc);
  };
  const flatten = (items: NavItem[], where: string, group: string): string[] => items.flatMap((item) => {
    if (item.kind === 'doc') return navDoc(item, where) ?? [];
    if (item.kind === 'link') {
      note(notes, where, `navigation link "${item.label}" (${item.href}) not carried over: Signpost navigation holds pages only`);
      return [];
    }
    note(notes, where, `navigation group "${item.label}" is nested more than two levels deep: its pages are listed in "${group}"`);
    return [...(item.index ? [navDoc({ kind: 'doc', path: item.index }, where) ?? []].flat() : []), ...flatten(item.items, where, group)];
  });

  const configFile = { docusaurus: 'sidebars.js', mkdocs: 'mkdocs.yml', starlight: 'astro.config.mjs' }[site.tool];
  const collections: { id: string; title: string; children: string[] }[] = [];
  const topicSets: { id: string; title: string; topics: string[] }[] = [];
  const loose: string[] = [];
  for (const item of site.nav) {
    if (item.kind === 'doc') {
      const id = navDoc(item, configFile);
      if (id) loose.push(id);
    } else if (item.kind === 'link') {
      note(notes, configFile, `navigation link "${item.label}" (${item.href}) not carried over: Signpost navigation holds pages only`);
    } else {
      const children: string[] = [];
      if (item.index) {
        const id = navDoc({ kind: 'doc', path: item.index }, configFile);
        if (id) children.push(id);
      }
      for (const child of item.items) {
        if (child.kind === 'group') {
          const topics = [...(child.index ? [navDoc({ kind: 'doc', path: child.index }, configFile)] : []), ...flatten(child.items, configFile, child.label)]
            .filter((id): id is string => Boolean(id));
          if (topics.length === 0) {
            note(notes, configFile, `navigation group "${child.label}" has no pages; left out`);
            continue;
          }
          const id = unique(ids, `${product}-${slugify(child.label)}-set`);
          topicSets.push({ id, title: child.label, topics });
          children.push(id);
        } else {
          children.push(...flatten([child], configFile, item.label));
        }
      }
      if (children.length === 0) {
        note(notes, configFile, `navigation group "${item.label}" has no pages; left out`);
        continue;
      }
      collections.push({ id: unique(ids, `${product}-${slugify(item.label)}`), title: item.label, children });
    }
  }
  if (loose.length > 0) collections.unshift({ id: unique(ids, `${product}-overview`), title: 'Overview', children: loose });
  const unlisted = site.docs.filter((d) => !used.has(d.path));
  for (const doc of unlisted) noteAt(notes, site.label(doc.path), 1, 'a page not in the navigation', 'listed in the collection "More pages"');
  if (unlisted.length > 0) collections.push({ id: unique(ids, `${product}-more-pages`), title: 'More pages', children: unlisted.map(topicId) });

  // Each page's topic file, known before any body is written so that links between pages can follow them.
  const topicPath = (prefix: string, docPath: string) => `${prefix}/${docPath.replace(/\.mdx$/, '.md')}`;
  const ownScope: LinkScope = {
    docsDir: site.docsDir, docs: byPath, byUrl: urlTable(site, site.docs),
    topicFile: (p) => (byPath.has(p) ? topicPath(`topics/${product}`, p) : undefined),
  };
  const translations = site.translations.map((t) => ({ ...t, language: signpostLanguage(t.locale) }));
  const carried = translations.filter((t) => t.language);
  const scopes = carried.map((t): LinkScope & { translation: typeof t } => {
    const docs = new Map(t.docs.map((d) => [d.path, d]));
    return { translation: t, locale: t.locale, docsDir: t.docsDir, docs, byUrl: urlTable(site, t.docs, t.locale), fallback: ownScope,
      topicFile: (p) => (docs.has(p) ? topicPath(`topics/${product}/${t.locale}`, p) : undefined) };
  });
  ownScope.others = scopes;
  ownScope.leftOut = new Map(translations.filter((t) => !t.language).flatMap((t) => t.docs.map((d) => [urlKey(site.urlOf(d, t.locale)), t.locale] as const)));
  const assets = new Assets(site, out, product, [
    ...scopes.map((s) => ({ dir: s.docsDir, prefix: `topics/${product}/${s.locale}` })).filter((s) => s.dir !== site.docsDir),
    { dir: site.docsDir, prefix: `topics/${product}` },
  ]);
  const stats: LinkStats = { rewritten: 0, asText: 0 };
  const origin = site.origin ? `${site.origin.replace(/\/+$/, '')}${site.baseUrl.replace(/\/$/, '')}` : undefined;
  const redirects: { from: string; to: string }[] = [];
  const redirect = (doc: SourceDoc, locale: string | undefined, slug: string) => {
    // As a browser asks for it: a space or a non-ASCII letter percent-encoded.
    const from = encodeURI(site.urlOf(doc, locale));
    const to = `/${product}/docs/${slug}`;
    // The site's root (and a locale's, `/ja/`) is the help centre's home now; a page of the old site served
    // there is reached by its topic path.
    const key = urlKey(from);
    if (key === '/' || (locale && key === `/${locale.toLowerCase()}`) || from === to || redirects.some((r) => r.from === from)) return;
    redirects.push({ from, to });
  };

  let topicCount = 0;
  const hosts = { videoHosts: new Set<string>(), embedHosts: new Set<string>() };
  const englishSlugs = new Map<string, string>();
  for (const doc of site.docs) {
    const id = topicOf.get(doc.path) ?? topicId(doc);
    const file = site.label(doc.path);
    const linked = { ...doc, body: await rewriteLinks(doc, ownScope, site, assets, notes, file, stats, origin) };
    const { body, heading } = convertBody(linked, site, file, notes, hosts);
    const fm = doc.frontMatter;
    const title = str(fm.title) ?? heading ?? labels.get(doc.path) ?? humaniseFile(doc.path);
    const label = str(fm.sidebar_label) ?? labels.get(doc.path);
    const slugSource = str(fm.slug)?.split('/').filter(Boolean).pop() ?? doc.path.replace(/\.mdx?$/, '').replace(/\/(index|readme)$/i, '').split('/').pop() ?? '';
    const fields: Record<string, unknown> = { id, title };
    if (label && label !== title) fields.shortTitle = label;
    fields.slug = unique(slugs, slugify(/^(index|readme)$/i.test(slugSource) ? title : stripNumberPrefix(slugSource)) || slugify(title));
    englishSlugs.set(doc.path, fields.slug as string);
    fields.context = product;
    Object.assign(fields, commonFields(doc, site, file, notes));
    const target = topicPath(`topics/${product}`, doc.path);
    await write(target, `---\n${yaml(fields)}---\n${body.startsWith('\n') ? '' : '\n'}${body}`);
    redirect(doc, undefined, fields.slug as string);
    topicCount++;
  }

  // Slugs share one namespace per product (/{product}/docs/{slug}): the pages took theirs first, since
  // their slugs carry the old URLs; a collection or topic set named like a page is numbered instead.
  for (const c of collections) {
    await write(`collections/${c.id}.yaml`, yaml({ id: c.id, title: c.title, slug: unique(slugs, slugify(c.title)), context: product, children: c.children }));
  }
  for (const s of topicSets) {
    await write(`topic-sets/${s.id}.md`, `---\n${yaml({ id: s.id, title: s.title, slug: unique(slugs, slugify(s.title)), context: product, topics: s.topics })}---\n`);
  }
  // Translations Signpost has a language for become topics in that language, linked to their page by
  // id (`<page id>-<locale>`), in a collection of their own; the others are listed, never merged in.
  for (const t of translations.filter((x) => !x.language)) {
    const named = t.docs.slice(0, 3).map((d) => t.label(d.path)).join(', ') + (t.docs.length > 3 ? ` and ${t.docs.length - 3} more` : '');
    note(notes, t.label('').replace(/\/$/, ''), `locale "${t.locale}": ${t.docs.length} translated page${t.docs.length === 1 ? '' : 's'} (${named}) not carried over — Signpost pages are in English or Japanese`);
  }
  for (const scope of scopes) {
    const t = scope.translation;
    const children: string[] = [];
    const stem = (p: string) => p.replace(/\.mdx?$/, '');
    const order = new Map([...topicOf.keys()].map((p, i) => [stem(p), i]));
    for (const doc of [...t.docs].sort((a, b) => (order.get(stem(a.path)) ?? Infinity) - (order.get(stem(b.path)) ?? Infinity))) {
      const file = t.label(doc.path);
      // A translation may be .md where its page is .mdx, or the other way round.
      const source = byPath.get(doc.path) ?? site.docs.find((d) => d.path.replace(/\.mdx?$/, '') === doc.path.replace(/\.mdx?$/, ''));
      const base = source ? topicOf.get(source.path) ?? topicId(source) : `${product}-${slugify(doc.path.replace(/\.mdx?$/, '')) || 'home'}`;
      const id = unique(ids, `${base}-${slugify(t.locale)}`);
      if (!source) note(notes, file, `a ${t.locale} page with no page of the site's own language at ${doc.path}: written on its own`);
      const linked = { ...doc, body: await rewriteLinks(doc, scope, site, assets, notes, file, stats, origin) };
      const { body, heading } = convertBody(linked, site, file, notes, hosts);
      const title = str(doc.frontMatter.title) ?? heading ?? humaniseFile(doc.path);
      const slug = unique(slugs, `${(source && englishSlugs.get(source.path)) || slugify(title) || 'page'}-${slugify(t.locale)}`);
      const fields: Record<string, unknown> = { id, title, slug, context: product, language: t.language, ...commonFields(doc, site, file, notes) };
      if (str(doc.frontMatter.sidebar_label) && str(doc.frontMatter.sidebar_label) !== title) fields.shortTitle = str(doc.frontMatter.sidebar_label);
      await write(scope.topicFile(doc.path) as string, `---\n${yaml(fields)}---\n${body.startsWith('\n') ? '' : '\n'}${body}`);
      redirect(doc, t.locale, slug);
      children.push(id);
      topicCount++;
    }
    if (children.length > 0) {
      const id = unique(ids, `${product}-${slugify(t.locale)}`);
      await write(`collections/${id}.yaml`, yaml({ id, title: LANGUAGE_NAMES[t.language as string] ?? t.locale, slug: unique(slugs, slugify(`docs-${t.locale}`)),
        context: product, language: t.language, children }));
    }
  }
  files.push(...assets.files);
  if (redirects.length > 0) await write('redirects.yaml', stringify(redirects, { lineWidth: 0 }));

  // The players and pages the bodies embed are allowed by name.
  const allow = Object.fromEntries(Object.entries(hosts).filter(([, set]) => set.size > 0).map(([key, set]) => [key, [...set].sort()]));
  await write('site.yaml', yaml({ id: 'site', siteName: site.name, brand: site.name, legalName: site.name, publisher: site.name, language: 'en-US', logo: '/assets/content/logo.svg', ...allow }));
  note(notes, 'site.yaml', 'written with the site name as brand, legalName and publisher, and logo /assets/content/logo.svg: change them to yours');
  await write(`products/${product}.yaml`, yaml({ id: product, productNameId: product, productName: site.name, deployment: 'Cloud' }));
  await write(`pages/${product}-docs.yaml`, yaml({ id: `${product}-docs`, pageType: 'documentedProduct', title: `${site.name} documentation`, context: product,
    ...(site.description ? { metaDescription: site.description.slice(0, 300) } : {}), collections: collections.map((c) => c.id) }));
  await write('pages/not-found.md', `---\n${yaml({ id: 'not-found', pageType: 'notFound', title: 'Page not found' })}---\nThat page does not exist. Try the search or the documentation home.\n`);
  return { product, files, collections: collections.length, topicSets: topicSets.length, topics: topicCount, notes,
    links: { ...stats, images: assets.count }, redirects: redirects.length };
}

/** The body as Signpost takes it: the title heading out, MDX components and tab groups converted (mdx.ts), the rest as the source wrote it. */
function convertBody(doc: SourceDoc, site: SourceSite, file: string, notes: Map<string, string[]>,
  hosts: { videoHosts: Set<string>; embedHosts: Set<string> }): { body: string; heading?: string } {
  let lines = doc.body.split('\n');
  if (site.tool !== 'mkdocs') {
    const mdx = convertMdx(lines, { firstLine: doc.bodyLine, href: (href) => docHref(href, doc.path, site.docs.map((d) => d.path),
      site.translations.map((t) => t.locale)) });
    for (const n of mdx.notes) note(notes, file, n);
    for (const h of mdx.videoHosts) hosts.videoHosts.add(h);
    for (const h of mdx.embedHosts) hosts.embedHosts.add(h);
    lines = mdx.lines;
  }
  let heading: string | undefined;
  let fence: string | undefined;
  const out: string[] = [];
  for (const [i, line] of lines.entries()) {
    const at = doc.bodyLine + i;
    const fenceMatch = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (fenceMatch && fenceMatch[1]?.startsWith(fence)) fence = undefined;
      out.push(line);
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      out.push(line);
      continue;
    }
    if (heading === undefined && out.every((l) => l.trim() === '') && /^#\s+/.test(line)) {
      heading = line.replace(/^#\s+/, '').replace(/\s+#*\s*$/, '').trim();
      continue;
    }
    if (/^(import\s.+\sfrom\s+['"].+['"]|import\s+['"].+['"]|export\s+(const|default|function)\b.*);?\s*$/.test(line)) {
      note(notes, file, `line ${at}: MDX ${line.startsWith('import') ? 'import' : 'export'} removed: \`${line.trim()}\``);
      continue;
    }
    if (site.tool === 'mkdocs' && /^\s*--8<--/.test(line)) note(notes, file, `line ${at}: snippet include (--8<--) not carried over: paste the text in`);
    if (site.tool === 'mkdocs' && /\{\{.*\}\}|\{%.*%\}/.test(line)) note(notes, file, `line ${at}: template (macros) expression kept as written`);
    // Links between documents keep working once .mdx files are .md.
    out.push(line.replace(/(\]\((?!https?:|\/|#)[^)\s]*?)\.mdx(#[^)\s]*)?\)/g, '$1.md$2)'));
  }
  // MDX tab groups were converted with the other components.
  const tabs = site.tool === 'mkdocs' ? convertTabs(out, site.tool) : { lines: out };
  while (tabs.lines.length > 0 && tabs.lines[0]?.trim() === '') tabs.lines.shift();
  return { body: tabs.lines.join('\n'), ...(heading !== undefined ? { heading } : {}) };
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function dateOf(value: unknown): string | undefined {
  const raw = value instanceof Date ? value : typeof value === 'string' ? new Date(value)
    : value && typeof value === 'object' && 'date' in value ? new Date(String((value as { date: unknown }).date)) : undefined;
  return raw && !Number.isNaN(raw.getTime()) ? raw.toISOString().replace(/\.\d{3}Z$/, 'Z') : undefined;
}

function humaniseFile(path: string): string {
  const name = path.replace(/\.mdx?$/, '').replace(/\/(index|readme)$/i, '').split('/').pop() ?? path;
  const words = name.replace(/[-_]+/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
