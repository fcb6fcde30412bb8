import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a problem is in its file: 1-based line and column; the end (just past the span) where known. */
export interface Position {
  line: number;
  /** 1-based column of the problem on its line, where known. */
  column?: number;
  /** The span's end: the line and the column just past its last character. */
  endLine?: number;
  endColumn?: number;
}

/** One thing wrong with the content tree, reported as `file:line:col: field: reason`. */
export interface Problem extends Position {
  file: string;
  field: string;
  reason: string;
  /** What to do about it, where there is something to suggest ('did you mean …'). */
  hint?: string;
  /** A warning is reported but does not stop an import. */
  severity?: 'warning';
}

/** One line: `file:line[:col]: field: [warning: ]reason[ (hint)]`, for logs. */
export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}${p.column ? `:${p.column}` : ''}: ${p.field}: ${p.severity === 'warning' ? 'warning: ' : ''}${p.reason}` +
    (p.hint ? ` (${p.hint})` : '');
}

/** A content tree that cannot be imported; carries every problem found, not just the first. */
export class ContentError extends Error {
  override name = 'ContentError';
  /** `warnings`: found with the problems; reported with them, never the reason for the error. */
  constructor(readonly problems: Problem[], readonly warnings: Problem[] = []) {
    super(`${problems.length} problem${problems.length === 1 ? '' : 's'} in the content tree:\n${problems.map(formatProblem).join('\n')}`);
  }
}

/** Link building was given options it cannot use (spec §5). */
export class LinkOptionsError extends Error {
  override name = 'LinkOptionsError';
}

/** A rich-text document cannot be rendered: missing embedded entry, unsupported type, no renderer (spec §5). */
export class RichTextError extends Error {
  override name = 'RichTextError';
  constructor(message: string, readonly line?: number) {
    super(message);
  }
}

// ---------------------------------------------------------------------------------------------------
// Compiler-style diagnostics: the problem, the line of the file it is on, a caret under it, a hint.

/** In file order: by file, line, then column. */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
}

/** The text of a file of the tree (path relative to the content root), or undefined when unreadable. */
export type SourceOf = (file: string) => string | undefined;

/** Reads files of a content tree from disk when asked, each once. */
export function sourcesIn(dir: string): SourceOf {
  const cache = new Map<string, string | undefined>();
  return (file) => {
    if (!cache.has(file)) {
      let text: string | undefined;
      try {
        text = readFileSync(join(dir, file), 'utf8');
      } catch {
        text = undefined;
      }
      cache.set(file, text);
    }
    return cache.get(file);
  };
}

/** Source files given as a list (a loaded tree's `files`). */
export function sourcesOf(files: readonly { path: string; text: string }[]): SourceOf {
  const byPath = new Map(files.map((f) => [f.path, f.text]));
  return (file) => byPath.get(file);
}

export const TAB_WIDTH = 4;
/** Source lines wider than this are trimmed around the column. */
export const MAX_WIDTH = 100;

/** Line `n` (1-based) of a text, without its line break (CRLF or LF). */
export function lineOfText(text: string, n: number): string | undefined {
  let start = 0;
  for (let i = 1; i < n; i++) {
    const next = text.indexOf('\n', start);
    if (next < 0) return undefined;
    start = next + 1;
  }
  if (start > text.length) return undefined;
  const end = text.indexOf('\n', start);
  return text.slice(start, end < 0 ? text.length : end).replace(/\r$/, '');
}

export interface Excerpt {
  /** The line as shown: tabs expanded, trimmed around the column when long (`…` marks a cut). */
  text: string;
  /** The caret line (`^`, or `^~~~` under a known span); empty when the column is not known. */
  caret: string;
}

/**
 * The source line of a problem as it is shown, and the caret under its column. Columns count
 * characters of the line; a span on more than one line is marked to the end of its first line.
 */
export function excerpt(line: string, p: Position, width = MAX_WIDTH): Excerpt {
  // Expand tabs, keeping where each character of the line lands.
  const at: number[] = [];
  let shown = '';
  for (const ch of line) {
    for (let k = 0; k < ch.length; k++) at.push(shown.length);
    if (ch === '\t') shown += ' '.repeat(TAB_WIDTH - (shown.length % TAB_WIDTH));
    else shown += ch.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ');
  }
  at.push(shown.length);
  const place = (column: number) => at[Math.min(Math.max(column - 1, 0), at.length - 1)] as number;
  let start = -1;
  let end = -1;
  if (p.column) {
    start = place(p.column);
    const endColumn = p.endLine === undefined || p.endLine === p.line ? p.endColumn : line.length + 1;
    end = endColumn && endColumn > p.column ? Math.max(place(endColumn), start + 1) : start + 1;
    if (p.endLine !== undefined && p.endLine > p.line) end = Math.max(end, shown.trimEnd().length);
  }
  // Long lines: a window of `width` characters that keeps the column in sight.
  let from = 0;
  if (shown.length > width) {
    const focus = start >= 0 ? start : 0;
    from = Math.max(0, Math.min(focus - Math.floor(width / 3), shown.length - width));
    let cut = shown.slice(from, from + width);
    if (from > 0) cut = `…${cut.slice(1)}`;
    if (from + width < shown.length) cut = `${cut.slice(0, -1)}…`;
    shown = cut;
  }
  if (start < 0) return { text: shown, caret: '' };
  const s = start - from;
  const e = Math.min(end - from, shown.length + 1);
  return { text: shown, caret: `${' '.repeat(s)}^${'~'.repeat(Math.max(0, e - s - 1))}` };
}

export interface FormatOptions {
  /** ANSI colours (see `useColour`). */
  colour?: boolean;
}

/** Colour on a terminal, unless NO_COLOR is set (no-color.org). */
export function useColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(stream.isTTY) && !env.NO_COLOR;
}

const ANSI = { bold: '1', red: '31', yellow: '33', green: '32', cyan: '36', dim: '2' } as const;

/** One problem, compiler style: the heading, the source line with its number, the caret, the hint. */
export function formatDiagnostic(p: Problem, source: SourceOf, options: FormatOptions = {}): string {
  const paint = (style: keyof typeof ANSI, s: string) => (options.colour ? `\u001b[${ANSI[style]}m${s}\u001b[0m` : s);
  const severity = p.severity === 'warning' ? paint('yellow', 'warning') : paint('red', 'error');
  const where = `${p.file}:${p.line}${p.column ? `:${p.column}` : ''}`;
  const out = [`${paint('bold', where)}: ${severity}: ${paint('bold', `${p.field}: ${p.reason}`)}`];
  const text = source(p.file);
  const line = text === undefined ? undefined : lineOfText(text, p.line);
  if (line !== undefined && line.trim() !== '') {
    const { text: shown, caret } = excerpt(line, p);
    const number = String(p.line);
    const gutter = ' '.repeat(number.length);
    out.push(`${paint('dim', ` ${number} |`)} ${shown}`);
    if (caret) out.push(`${paint('dim', ` ${gutter} |`)} ${paint('green', caret)}`);
  }
  if (p.hint) out.push(`  ${paint('cyan', 'hint:')} ${p.hint}`);
  return out.join('\n');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `2 errors, 3 warnings` (each part only when there is one of it; `no problems` when neither). */
export function countProblems(problems: readonly Problem[]): { errors: number; warnings: number; text: string } {
  const warnings = problems.filter((p) => p.severity === 'warning').length;
  const errors = problems.length - warnings;
  const parts = [...(errors > 0 ? [plural(errors, 'error')] : []), ...(warnings > 0 ? [plural(warnings, 'warning')] : [])];
  return { errors, warnings, text: parts.length > 0 ? parts.join(', ') : 'no problems' };
}

/**
 * Every problem compiler style, a blank line between them, then the summary line:
 * `2 errors, 3 warnings; nothing was written.` (`tail` is what follows the counts).
 */
export function formatDiagnostics(problems: readonly Problem[], source: SourceOf, options: FormatOptions & { tail?: string } = {}): string {
  const blocks = problems.map((p) => formatDiagnostic(p, source, options));
  const { text } = countProblems(problems);
  const tail = options.tail ?? (problems.some((p) => p.severity !== 'warning') ? 'nothing was written.' : '');
  return [...blocks, `${text}${tail ? `; ${tail}` : '.'}`].join('\n\n');
}

/** One problem in the JSON format (`--format json`): stable field names, for editors and CI. */
export interface JsonProblem {
  file: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  severity: 'error' | 'warning';
  field: string;
  message: string;
  hint?: string;
}

export function jsonProblem(p: Problem): JsonProblem {
  return {
    file: p.file, line: p.line, column: p.column ?? 1,
    ...(p.endLine !== undefined && p.endColumn !== undefined ? { endLine: p.endLine, endColumn: p.endColumn } : {}),
    severity: p.severity === 'warning' ? 'warning' : 'error', field: p.field, message: p.reason,
    ...(p.hint ? { hint: p.hint } : {}),
  };
}

/** The whole JSON document: the problems and a summary (counts, whether the content was written, and extras). */
export function jsonReport(problems: readonly Problem[], summary: { written: boolean } & Record<string, unknown>): string {
  const { errors, warnings } = countProblems(problems);
  return JSON.stringify({ problems: problems.map(jsonProblem), summary: { errors, warnings, ...summary } }, null, 2);
}
