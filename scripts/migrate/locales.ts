/**
 * Translations written beside the site's own pages: Starlight's and the MkDocs i18n plugin's locale
 * folders (`fr/guide.md`) and the MkDocs plugin's suffixes (`guide.fr.md`). They are taken out of the
 * site's documents, so a translation never becomes a page of the site's own language.
 */
import { join } from 'node:path';
import type { SourceDoc, Translation } from './model.ts';

/**
 * Splits documents by their first folder: a locale's folder holds its translations (paths without the
 * folder). With `defaultFolder`, the site's own pages sit in that folder too (`en/guide.md`).
 */
export function splitLocaleFolders(docs: SourceDoc[], docsDir: string, locales: string[], label: (p: string) => string, defaultFolder?: string):
  { docs: SourceDoc[]; docsDir: string; label: (p: string) => string; translations: Translation[] } {
  const within = (folder: string) => docs.filter((d) => d.path.startsWith(`${folder}/`)).map((d) => ({ ...d, path: d.path.slice(folder.length + 1) }));
  const translations: Translation[] = locales.filter((l) => l !== defaultFolder).map((locale) => ({
    locale, docsDir: join(docsDir, locale), docs: within(locale), label: (p: string) => label(`${locale}/${p}`),
  })).filter((t) => t.docs.length > 0);
  if (defaultFolder) {
    return { docs: within(defaultFolder), docsDir: join(docsDir, defaultFolder), label: (p) => label(`${defaultFolder}/${p}`), translations };
  }
  const folders = new Set(locales);
  return { docs: docs.filter((d) => !folders.has(d.path.split('/')[0] ?? '')), docsDir, label, translations };
}

/** MkDocs i18n suffixes: `guide.fr.md` translates `guide.md`; `guide.en.md` of the default locale is `guide.md`. */
export function splitLocaleSuffixes(docs: SourceDoc[], docsDir: string, locales: string[], defaultLocale: string, label: (p: string) => string):
  { docs: SourceDoc[]; translations: Translation[] } {
  const suffix = (d: SourceDoc) => /\.([A-Za-z]{2}(?:[-_][A-Za-z]{2,4})?)\.mdx?$/.exec(d.path)?.[1];
  const plain = (d: SourceDoc) => ({ ...d, path: d.path.replace(/\.[A-Za-z]{2}(?:[-_][A-Za-z]{2,4})?(\.mdx?)$/, '$1') });
  const own = docs.filter((d) => !locales.includes(suffix(d) ?? '') || suffix(d) === defaultLocale).map((d) => (suffix(d) === defaultLocale ? plain(d) : d));
  const translations = locales.filter((l) => l !== defaultLocale).map((locale) => {
    const mine = docs.filter((d) => suffix(d) === locale);
    const originals = new Map(mine.map((d) => [plain(d).path, d.path]));
    return { locale, docsDir, docs: mine.map(plain), label: (p: string) => label(originals.get(p) ?? p) };
  }).filter((t) => t.docs.length > 0);
  return { docs: own, translations };
}
