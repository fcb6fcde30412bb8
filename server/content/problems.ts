/** One thing wrong with the content tree, reported as `file:line: field: reason`. */
export interface Problem {
  file: string;
  line: number;
  /** 1-based column of the problem on its line, where known. */
  column?: number;
  field: string;
  reason: string;
  /** What to do about it, where there is something to suggest ('did you mean …'). */
  hint?: string;
  /** A warning is reported but does not stop an import. */
  severity?: 'warning';
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}: ${p.field}: ${p.severity === 'warning' ? 'warning: ' : ''}${p.reason}`;
}

/** A content tree that cannot be imported; carries every problem found, not just the first. */
export class ContentError extends Error {
  override name = 'ContentError';
  constructor(readonly problems: Problem[]) {
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
