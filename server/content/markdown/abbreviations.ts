/**
 * Abbreviations as PHP Markdown Extra and MkDocs write them: a line `*[HTML]: Hyper Text Markup Language`
 * anywhere in the body (outside code) defines one, and every whole-word `HTML` in the body's prose is
 * then shown as `<abbr title="Hyper Text Markup Language">HTML</abbr>`.
 */

const DEFINITION = /^ {0,3}\*\[([^\]\n]+)\]:[ \t]*(.*?)[ \t]*$/;
const FENCE = /^\s*(`{3,}|~{3,})/;

export interface Abbreviations {
  /** The body with each definition line blanked, so every other line keeps its number. */
  text: string;
  /** Abbreviation → what it stands for (a later definition wins, as in MkDocs). */
  titles: Map<string, string>;
}

export function takeAbbreviations(source: string): Abbreviations {
  const titles = new Map<string, string>();
  if (!source.includes('*[')) return { text: source, titles };
  let fence: string | undefined;
  const lines = source.split('\n').map((line) => {
    const f = FENCE.exec(line);
    if (fence) {
      if (f?.[1]?.startsWith(fence)) fence = undefined;
      return line;
    }
    if (f) {
      fence = f[1];
      return line;
    }
    const m = DEFINITION.exec(line);
    if (!m) return line;
    const name = (m[1] as string).trim();
    if (name) titles.set(name, m[2] as string);
    return '';
  });
  return { text: lines.join('\n'), titles };
}

/** A matcher of the defined abbreviations as whole words (longest first, so `HTML5` wins over `HTML`). */
export function abbreviationPattern(titles: Map<string, string>): RegExp | undefined {
  const names = [...titles.keys()].filter((n) => titles.get(n)).sort((a, b) => b.length - a.length);
  if (names.length === 0) return undefined;
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${escaped.join('|')})(?![\\p{L}\\p{N}_])`, 'gu');
}

/** Text split into plain runs and abbreviations. */
export function splitAbbreviations(value: string, pattern: RegExp): { text: string; abbr: boolean }[] {
  const parts: { text: string; abbr: boolean }[] = [];
  let at = 0;
  for (const m of value.matchAll(pattern)) {
    if (m.index > at) parts.push({ text: value.slice(at, m.index), abbr: false });
    parts.push({ text: m[0], abbr: true });
    at = m.index + m[0].length;
  }
  if (at < value.length) parts.push({ text: value.slice(at), abbr: false });
  return parts;
}
