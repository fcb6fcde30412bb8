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
}

export interface SourceSite {
  tool: 'docusaurus' | 'mkdocs' | 'starlight';
  name: string;
  description?: string | undefined;
  /** Absolute path of the folder holding the documents. */
  docsDir: string;
  docs: SourceDoc[];
  nav: NavItem[];
  /** Front matter keys the tool-specific step used (ordering, labels): not reported as left out. */
  consumedKeys: string[];
  /** What could not be carried over, per file (config files included). */
  notes: Map<string, string[]>;
}

export function note(notes: Map<string, string[]>, file: string, message: string) {
  const list = notes.get(file) ?? [];
  list.push(message);
  notes.set(file, list);
}
