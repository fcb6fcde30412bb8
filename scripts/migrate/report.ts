/**
 * The migration report as `npm run migrate` prints it: per file, each note as
 * `file:line: construct — what was done instead` (a note about the whole file without a line), and a
 * summary count, so nothing the migrator changed or left out goes unsaid.
 */
import type { MigrateResult } from './tree.ts';

export interface ReportLine {
  file: string;
  line?: number | undefined;
  text: string;
}

/** The notes as report lines, files in order, each file's notes by line (notes without a line first). */
export function reportLines(notes: Map<string, string[]>): ReportLine[] {
  const out: ReportLine[] = [];
  for (const [file, list] of [...notes].sort(([a], [b]) => a.localeCompare(b))) {
    const lines = list.map((message, i): ReportLine & { i: number } => {
      const at = /^line (\d+)(?: \(with its types stripped\))?: /.exec(message);
      return at ? { file, i, line: Number(at[1]), text: message.slice(at[0].length) } : { file, i, text: message };
    });
    lines.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || a.i - b.i);
    for (const l of lines) out.push({ file: l.file, ...(l.line !== undefined ? { line: l.line } : {}), text: l.text });
  }
  return out;
}

export function formatReport(result: MigrateResult): string {
  const lines = reportLines(result.notes);
  const out: string[] = [];
  let current: string | undefined;
  for (const l of lines) {
    if (l.file !== current) {
      out.push('', l.file);
      current = l.file;
    }
    out.push(`  ${l.file}${l.line !== undefined ? `:${l.line}` : ''}: ${l.text}`);
  }
  const files = new Set(lines.map((l) => l.file)).size;
  const { rewritten, asText, images } = result.links;
  out.push('', `${lines.length} note${lines.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}; `
    + `${rewritten} link${rewritten === 1 ? '' : 's'} and images rewritten for the new tree, ${asText} kept as text, ${images} file${images === 1 ? '' : 's'} copied, `
    + `${result.redirects} redirect${result.redirects === 1 ? '' : 's'} in redirects.yaml.`);
  return out.join('\n');
}
