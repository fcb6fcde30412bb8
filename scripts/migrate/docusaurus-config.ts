/**
 * What docusaurus.config.js says of the docs: the classic preset's `docs` options or the
 * plugin-content-docs plugin's (`path`, possibly outside the site's folder such as `'../docs'`,
 * `routeBasePath`, `sidebarPath`), and the `i18n` locales whose translations sit under
 * `i18n/<locale>/docusaurus-plugin-content-docs/current/`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readDocs } from './docs.ts';
import { note, type Translation } from './model.ts';

export interface DocsOptions {
  /** The docs folder, relative to the site's folder. */
  path: string;
  routeBasePath: string;
  sidebarPath?: string | undefined;
  /** The docs plugin's id, which names its translation folder. */
  pluginId: string;
}

export function docsOptions(config: Record<string, unknown>, configName: string, notes: Map<string, string[]>): DocsOptions {
  const found: Record<string, unknown>[] = [];
  const nameOf = (entry: unknown) => (Array.isArray(entry) ? entry[0] : entry);
  const optionsOf = (entry: unknown) => (Array.isArray(entry) && entry[1] && typeof entry[1] === 'object' ? entry[1] as Record<string, unknown> : undefined);
  for (const preset of Array.isArray(config.presets) ? config.presets : []) {
    const name = nameOf(preset);
    if (typeof name !== 'string' || !/(^|\/)(classic|preset-classic)$/.test(name)) continue;
    const docs = optionsOf(preset)?.docs;
    if (docs && typeof docs === 'object') found.push(docs as Record<string, unknown>);
  }
  for (const plugin of Array.isArray(config.plugins) ? config.plugins : []) {
    const name = nameOf(plugin);
    if (typeof name !== 'string' || !/(^|\/)(content-docs|plugin-content-docs)$/.test(name)) continue;
    found.push(optionsOf(plugin) ?? {});
  }
  const main = found.find((o) => o.id === undefined || o.id === 'default') ?? found[0] ?? {};
  for (const other of found) {
    if (other !== main) note(notes, configName, `docs plugin "${String(other.id ?? other.path)}": a second docs instance is not carried over; migrate its folder on its own`);
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    path: text(main.path) ?? 'docs',
    routeBasePath: text(main.routeBasePath) ?? 'docs',
    sidebarPath: text(main.sidebarPath)?.replace(/^\.\//, ''),
    pluginId: text(main.id) ?? 'default',
  };
}

export async function readDocusaurusTranslations(src: string, config: Record<string, unknown>, options: DocsOptions, notes: Map<string, string[]>):
  Promise<{ defaultLocale?: string; list: Translation[] }> {
  const i18n = config.i18n && typeof config.i18n === 'object' ? config.i18n as Record<string, unknown> : undefined;
  if (!i18n) return { list: [] };
  const defaultLocale = typeof i18n.defaultLocale === 'string' ? i18n.defaultLocale : 'en';
  const locales = Array.isArray(i18n.locales) ? i18n.locales.filter((l): l is string => typeof l === 'string') : [];
  const plugin = options.pluginId === 'default' ? 'docusaurus-plugin-content-docs' : `docusaurus-plugin-content-docs-${options.pluginId}`;
  const list: Translation[] = [];
  for (const locale of locales) {
    if (locale === defaultLocale) continue;
    const folder = `i18n/${locale}/${plugin}/current`;
    if (!existsSync(join(src, folder))) continue;
    const label = (p: string) => `${folder}/${p}`;
    list.push({ locale, docsDir: join(src, folder), docs: await readDocs(join(src, folder), notes, label), label });
  }
  return { defaultLocale, list };
}
