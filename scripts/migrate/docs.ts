import { readFile, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { parseDocument } from 'yaml';
import type { SourceDoc } from './model.ts';

/** Every Markdown document (.md, .mdx) under a folder, with its front matter read as YAML. */
export async function readDocs(dir: string, notes: Map<string, string[]>, label: (path: string) => string): Promise<SourceDoc[]> {
  const found = await readdir(dir, { recursive: true, withFileTypes: true });
  const paths = found.filter((e) => e.isFile() && /\.mdx?$/.test(e.name))
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((p) => !p.split('/').some((part) => part.startsWith('.') || part.startsWith('_')))
    .sort();
  const docs: SourceDoc[] = [];
  for (const path of paths) {
    const text = (await readFile(join(dir, path), 'utf8')).replace(/\r\n?/g, '\n');
    const match = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(text);
    let frontMatter: Record<string, unknown> = {};
    if (match) {
      const yaml = parseDocument(match[1] ?? '');
      if (yaml.errors.length > 0) {
        const list = notes.get(label(path)) ?? [];
        list.push(`front matter: does not parse as YAML (${yaml.errors[0]?.message.split('\n')[0]}); left out`);
        notes.set(label(path), list);
      } else {
        const value = yaml.toJS() as unknown;
        if (value && typeof value === 'object' && !Array.isArray(value)) frontMatter = value as Record<string, unknown>;
      }
    }
    const body = match ? text.slice(match[0].length) : text;
    const bodyLine = match ? match[0].split('\n').length - (match[0].endsWith('\n') ? 1 : 0) + 1 : 1;
    // The line of each top-level key, for the report (the file's line 1 is the opening ---).
    const keyLines: Record<string, number> = {};
    (match?.[1] ?? '').split('\n').forEach((line, i) => {
      const key = /^([^\s#:][^:]*?)\s*:(\s|$)/.exec(line)?.[1]?.replace(/^["']|["']$/g, '');
      if (key && !(key in keyLines)) keyLines[key] = i + 2;
    });
    docs.push({ path, frontMatter, body, bodyLine, keyLines });
  }
  return docs;
}

/** Documents of a folder as a navigation tree: files in order, sub-folders as groups. */
export function folderNav(docs: SourceDoc[], folder: string, order: (doc: SourceDoc) => number | undefined,
  groupLabel: (folder: string) => string): import('./model.ts').NavItem[] {
  const prefix = folder ? `${folder.replace(/\/$/, '')}/` : '';
  const within = docs.filter((d) => d.path.startsWith(prefix));
  const direct = within.filter((d) => !d.path.slice(prefix.length).includes('/'));
  const folders = [...new Set(within.map((d) => d.path.slice(prefix.length)).filter((p) => p.includes('/')).map((p) => p.split('/')[0] as string))];
  const items: { sort: number; name: string; item: import('./model.ts').NavItem }[] = [];
  for (const doc of direct) {
    const name = doc.path.slice(prefix.length);
    const isIndex = /^(index|readme)\.mdx?$/i.test(name);
    items.push({ sort: order(doc) ?? (isIndex ? -Infinity : Infinity), name, item: { kind: 'doc', path: doc.path } });
  }
  for (const sub of folders) {
    const index = within.find((d) => new RegExp(`^${escape(prefix + sub)}/(index|readme)\\.mdx?$`, 'i').test(d.path));
    items.push({ sort: (index && order(index)) ?? Infinity, name: sub, item: { kind: 'group', label: groupLabel(prefix + sub), items: folderNav(docs, prefix + sub, order, groupLabel) } });
  }
  items.sort((a, b) => a.sort - b.sort || a.name.localeCompare(b.name));
  return items.map((i) => i.item);
}

function escape(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** 'getting-started' → 'Getting started'. */
export function humanise(name: string): string {
  const words = name.replace(/^\d+[-_.]\s*/, '').replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
