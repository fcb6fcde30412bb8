/**
 * The admonition syntaxes of other documentation tools, read as callouts:
 * - `:::note` … `:::` (Docusaurus, Starlight; a `[label]` is the heading),
 * - `!!! note "Title"` with an indented body (MkDocs Material; `???` collapsible ones too),
 * - `> [!NOTE]` as the first line of a quote (GitHub alerts).
 */
import type { CalloutAppearance } from '../rich-text.ts';

/** Container directive names that are admonitions (`:::summary` and the other KB sections are not). */
export const DIRECTIVE_ADMONITIONS: Record<string, CalloutAppearance> = {
  note: 'info', info: 'info', important: 'info', tip: 'tip', warning: 'warning', caution: 'warning', danger: 'error',
};

/** MkDocs Material's types (and their aliases). */
const MKDOCS: Record<string, CalloutAppearance> = {
  note: 'info', abstract: 'info', summary: 'info', tldr: 'info', info: 'info', todo: 'info', question: 'info', help: 'info', faq: 'info',
  example: 'info', quote: 'info', cite: 'info', tip: 'tip', hint: 'tip', important: 'tip', success: 'success', check: 'success', done: 'success',
  warning: 'warning', caution: 'warning', attention: 'warning', failure: 'error', fail: 'error', missing: 'error', danger: 'error',
  error: 'error', bug: 'error',
};

export const GITHUB_ALERTS: Record<string, CalloutAppearance> = {
  NOTE: 'info', TIP: 'tip', IMPORTANT: 'info', WARNING: 'warning', CAUTION: 'error',
};

export function titleOf(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1).toLowerCase();
}

const MKDOCS_START = /^(!!!|\?\?\?\+?)[ \t]+([A-Za-z][\w-]*)(?:[ \t]+"([^"]*)")?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Rewrites MkDocs admonitions as callout directives before parsing, keeping every other line where it
 * was (the body is only unindented; the closing fence takes the blank line after the body), so lines
 * in messages stay right; `shifts` says how many characters were taken off the start of each line
 * (0-based), so columns can be given as they are in the file.
 */
export function mkdocsAdmonitionsWithShifts(source: string): { text: string; shifts: Map<number, number> } {
  const shifts = new Map<number, number>();
  if (!source.includes('!!!') && !source.includes('???')) return { text: source, shifts };
  return { text: convert(source.split('\n'), 0, 0, shifts).join('\n'), shifts };
}

function convert(lines: string[], depth: number, first = 0, shifts = new Map<number, number>()): string[] {
  const out: string[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const f = FENCE.exec(line);
    if (fence) {
      if (f && (f[1] as string)[0] === fence[0] && (f[1] as string).length >= fence.length) fence = null;
      out.push(line);
      continue;
    }
    if (f) {
      fence = f[1] as string;
      out.push(line);
      continue;
    }
    const m = MKDOCS_START.exec(line);
    const type = m?.[2]?.toLowerCase();
    if (!m || !type) {
      out.push(line);
      continue;
    }
    let end = i;
    for (let j = i + 1; j < lines.length; j++) {
      const next = lines[j] as string;
      if (next.trim() === '') continue;
      if (/^( {4}|\t)/.test(next)) end = j;
      else break;
    }
    const body = lines.slice(i + 1, end + 1).map((l, k) => {
      const indent = /^( {4}|\t)/.exec(l)?.[0].length ?? 0;
      if (indent) shifts.set(first + i + 1 + k, (shifts.get(first + i + 1 + k) ?? 0) + indent);
      return l.slice(indent);
    });
    const colons = ':'.repeat(Math.max(3, 12 - depth));
    const title = m[3] ?? titleOf(type);
    const attrs = [`appearance="${MKDOCS[type] ?? 'info'}"`, ...(title ? [`heading="${title.replace(/"/g, '&quot;')}"`] : [])];
    out.push(`${colons}callout{${attrs.join(' ')}}`, ...convert(body, depth + 1, first + i + 1, shifts));
    const after = lines[end + 1];
    if (after !== undefined && after.trim() === '') {
      out.push(colons);
      i = end + 1;
    } else {
      out.push(colons);
      i = end;
    }
  }
  return out;
}
