/**
 * pymdownx.snippets, read the way MkDocs builds a page: `--8<-- "file"` (and `--8<-- ["a", "b"]`, and
 * the block form, one file a line between two `--8<--` lines) is replaced by the file's text, indented
 * like the include line; files listed in `auto_append` are added to every page. Signpost has no
 * includes, so the text is pasted into each page; an appended file of link definitions and
 * abbreviations gives each page only the ones it uses.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A line of a page, with the line of the source file it came from (an included line: its include's). */
export interface Line {
  text: string;
  at: number;
}

export interface SnippetOptions {
  /** Folders snippet names are found in (`base_path`, relative to the folder of mkdocs.yml). */
  bases: string[];
  autoAppend: string[];
  /** The folder of mkdocs.yml, to name files in notes. */
  root: string;
}

const INCLUDE = /^([ \t]*)(;?)--8<--[ \t]+(.+?)[ \t]*$/;
const BLOCK = /^([ \t]*)--8<--[ \t]*$/;
const SECTION_MARK = /^\s*(?:<!--\s*)?--8<--\s*\[(?:start|end):[\w-]+\]\s*(?:-->)?\s*$/;
const MAX_DEPTH = 8;

/** `x.md:3:5` (lines), `x.md:name` (a section): the file and which part. */
function parseName(raw: string): { file: string; lines?: [number, number]; section?: string } {
  const range = /^(.+?):(\d*):(\d*)$/.exec(raw) ?? /^(.+?):(\d+)$/.exec(raw);
  if (range) return { file: range[1] as string, lines: [Number(range[2] || 1), Number(range[3] ?? range[2]) || Infinity] };
  const section = /^(.+\.\w+):([\w-]+)$/.exec(raw);
  if (section) return { file: section[1] as string, section: section[2] as string };
  return { file: raw };
}

/** The names of an include line: `"a.md"`, `'a.md'`, `["a.md", "b.md"]`; undefined when it is not one. */
function namesOf(spec: string): string[] | undefined {
  const quoted = /^"([^"]+)"$|^'([^']+)'$/.exec(spec);
  if (quoted) return [(quoted[1] ?? quoted[2]) as string];
  if (/^\[.*\]$/.test(spec)) {
    const names = [...spec.slice(1, -1).matchAll(/"([^"]+)"|'([^']+)'/g)].map((m) => (m[1] ?? m[2]) as string);
    return names.length > 0 ? names : undefined;
  }
  return undefined;
}

export class Snippets {
  private cache = new Map<string, string | undefined>();

  constructor(private readonly options: SnippetOptions) {}

  /** Where the `auto_append` files are (those found). */
  appendedFiles(): string[] {
    return this.options.autoAppend.map((name) => this.find(name)).filter((p): p is string => p !== undefined);
  }

  private find(file: string): string | undefined {
    for (const base of this.options.bases) {
      const path = join(base, file);
      if (existsSync(path) && statSync(path).isFile()) return path;
    }
    return undefined;
  }

  private read(path: string): string | undefined {
    if (!this.cache.has(path)) this.cache.set(path, readFileSync(path, 'utf8').replace(/\r\n?/g, '\n'));
    return this.cache.get(path);
  }

  /** A snippet's lines (a line range or section of it when named), or why there are none. */
  private text(raw: string): { lines: string[] } | { problem: string } {
    if (/^https?:/i.test(raw)) return { problem: `is a URL, which Signpost does not fetch` };
    const name = parseName(raw);
    const path = this.find(name.file) ?? (name.lines || name.section ? undefined : this.find(raw));
    if (!path) return { problem: `was not found in ${this.options.bases.map((b) => relative(this.options.root, b) || '.').join(', ')}` };
    let lines = (this.read(path) ?? '').replace(/\n$/, '').split('\n');
    if (name.section) {
      const start = lines.findIndex((l) => new RegExp(`--8<--\\s*\\[start:${name.section}\\]`).test(l));
      const end = lines.findIndex((l) => new RegExp(`--8<--\\s*\\[end:${name.section}\\]`).test(l));
      if (start < 0) return { problem: `has no section "${name.section}"` };
      lines = lines.slice(start + 1, end < 0 ? undefined : end);
    } else if (name.lines) lines = lines.slice(name.lines[0] - 1, name.lines[1]);
    return { lines: lines.filter((l) => !SECTION_MARK.test(l)) };
  }

  /** The page's lines with every include replaced by its text; `problem` notes what could not be included. */
  expand(lines: Line[], problem: (at: number, message: string) => void, depth = 0, seen: string[] = []): Line[] {
    const out: Line[] = [];
    let fence: string | undefined;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as Line;
      const f = /^\s*(`{3,}|~{3,})/.exec(line.text);
      if (fence || f) {
        if (fence && f?.[1]?.startsWith(fence)) fence = undefined;
        else if (!fence) fence = f?.[1];
        out.push(line);
        continue;
      }
      let indent = '';
      let names: string[] | undefined;
      const block = BLOCK.exec(line.text);
      const one = INCLUDE.exec(line.text);
      if (block) {
        const close = lines.findIndex((l, k) => k > i && BLOCK.test(l.text));
        if (close < 0) {
          out.push(line);
          continue;
        }
        indent = block[1] as string;
        names = lines.slice(i + 1, close).map((l) => l.text.trim()).filter((n) => n && !n.startsWith(';'));
        i = close;
      } else if (one && one[2] === ';') {
        // `;--8<--` is how a page shows the marker itself; escaped, it stays text here too.
        out.push({ ...line, text: line.text.replace(';--8<--', '\\--8<--') });
        continue;
      } else if (one) {
        names = namesOf(one[3] as string);
        indent = one[1] as string;
        if (!names) {
          out.push(line);
          continue;
        }
      } else {
        out.push(line);
        continue;
      }
      for (const name of names) {
        if (depth >= MAX_DEPTH || seen.includes(name)) {
          problem(line.at, `snippet include "${name}" — includes itself; left out`);
          continue;
        }
        const found = this.text(name);
        if ('problem' in found) {
          problem(line.at, `snippet include "${name}" — the file ${found.problem}; left out`);
          continue;
        }
        const included = found.lines.map((text) => ({ text: text === '' ? '' : indent + text, at: line.at }));
        out.push(...this.expand(included, problem, depth + 1, [...seen, name]));
      }
    }
    return out;
  }

  /**
   * What `auto_append` adds to a page: link definitions and abbreviations the page uses (MkDocs adds
   * them all, but only used ones show), and any other text whole.
   */
  appended(page: string, problem: (message: string) => void): string[] {
    const out: string[] = [];
    const lower = page.toLowerCase();
    for (const name of this.options.autoAppend) {
      const found = this.text(name);
      if ('problem' in found) {
        problem(`snippet auto_append "${name}" — the file ${found.problem}; left out`);
        continue;
      }
      const lines = this.expand(found.lines.map((text) => ({ text, at: 0 })), (_, message) => problem(message)).map((l) => l.text);
      for (const line of lines) {
        const link = /^ {0,3}\[([^\]^][^\]]*)\]:\s*\S/.exec(line);
        const abbr = /^ {0,3}\*\[([^\]]+)\]:/.exec(line);
        if (link) {
          const label = (link[1] as string).toLowerCase().replace(/\s+/g, ' ').trim();
          if (lower.replace(/\s+/g, ' ').includes(`[${label}]`)) out.push(line);
        } else if (abbr) {
          const word = (abbr[1] as string).trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          if (new RegExp(`(?<![\\p{L}\\p{N}_])${word}(?![\\p{L}\\p{N}_])`, 'u').test(page)) out.push(line);
        } else if (line.trim() !== '' || (out.length > 0 && out[out.length - 1] !== '')) out.push(line);
      }
    }
    while (out.length > 0 && out[out.length - 1]?.trim() === '') out.pop();
    return out;
  }
}
