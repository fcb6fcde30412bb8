/**
 * What every migrator reads a site into, before it is written as a Signpost tree (tree.ts): the site's
 * name, its documents (path in the docs folder, front matter, Markdown body) and its navigation.
 */
export type NavItem =
  | { kind: 'doc'; path: string; label?: string }
  | { kind: 'group'; label: string; items: NavItem[]; index?: string }
  | { kind: 'link'; label: string; href: string };

export interface SourceDoc {
  /** Path in the docs folder, `/`-separated. */
  path: string;
  frontMatter: Record<string, unknown>;
  /** The Markdown after the front matter. */
  body: string;
  /** Line of the body's first line in the source file. */
  bodyLine: number;
  /** Line of each top-level front matter key in the source file. */
  keyLines?: Record<string, number> | undefined;
}

/** Documents of one locale other than the site's own (a translation of the docs folder). */
export interface Translation {
  /** The tool's locale code (`ja`, `fr`, `pt-BR`). */
  locale: string;
  /** Absolute path of the folder holding them. */
  docsDir: string;
  /** Paths are those of the source documents they translate (same path, same page). */
  docs: SourceDoc[];
  /** The file's name in notes and the report. */
  label: (docPath: string) => string;
}

export interface SourceSite {
  tool: 'docusaurus' | 'mkdocs' | 'starlight';
  name: string;
  description?: string | undefined;
  /** Absolute path of the site's folder (the one holding its config). */
  root: string;
  /** Absolute path of the folder holding the documents. */
  docsDir: string;
  /** A document's file as the report names it, relative to the site's folder (`docs/intro.md`, `../docs/intro.md`). */
  label: (docPath: string) => string;
  /** Folders whose files the site serves at its root (Docusaurus `static/`, Starlight `public/`, MkDocs' docs_dir), absolute. */
  staticDirs: string[];
  /** The site's address (`https://docs.example.com`), if the config gives it: links written with it are the site's own. */
  origin?: string | undefined;
  /** The site's base path (`/`, `/docs/`): stripped from site-absolute links and from redirects. */
  baseUrl: string;
  /** A document's URL on the source site, the base path left out (`/docs/intro`, `/user-guide/install/`). */
  urlOf: (doc: SourceDoc, locale?: string) => string;
  /** The site's locale code when it has several (`en`); its pages are at the root, others under `/{locale}/`. */
  defaultLocale?: string | undefined;
  translations: Translation[];
  docs: SourceDoc[];
  nav: NavItem[];
  /** Front matter keys the tool-specific step used (ordering, labels): not reported as left out. */
  consumedKeys: string[];
  /** What could not be carried over, per file (config files included). */
  notes: Map<string, string[]>;
}

/**
 * The migration report: per file, what could not be carried over as written. A note about a place in a
 * file starts `line N: ` (noteAt writes them so); the report prints it as `file:N: construct — what was
 * done instead`.
 */
export function note(notes: Map<string, string[]>, file: string, message: string) {
  const list = notes.get(file) ?? [];
  list.push(message);
  notes.set(file, list);
}

/** A note at a line of a file: the construct found there, and what the migrator did instead. */
export function noteAt(notes: Map<string, string[]>, file: string, line: number, construct: string, instead: string) {
  note(notes, file, `line ${line}: ${construct} — ${instead}`);
}
