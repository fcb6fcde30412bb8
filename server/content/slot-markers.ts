/**
 * The two private-use characters that delimit a personal slot of a signed-in page: where the visitor's
 * name and e-mail go (server/identity/personal-pages.ts). Slots carry a nonce of their render, so text
 * from content can never be filled in; content holding the delimiters is refused at import all the same,
 * so no tree written to probe for a slot (or to make a page's source misleading) gets stored.
 *
 * Only these two are refused: the rest of the private-use area stays usable (icon fonts put glyphs there).
 * Kept free of imports: the import's worker threads load it.
 */
export const SLOT_OPEN = '\uE000';
export const SLOT_CLOSE = '\uE001';

/**
 * A delimiter in a parsed value (YAML escapes and character references already decoded): the character
 * itself, or its UTF-8 percent-encoding, which a URL decodes to the same character.
 */
const IN_VALUE = /[\uE000\uE001]|%EE%80%8[01]/i;

/**
 * A delimiter in Markdown source, for its line and column: the character, its percent-encoding, or a
 * numeric character reference (`&#xE000;`, `&#57344;`), which Markdown and raw HTML decode.
 */
const IN_MARKDOWN = /[\uE000\uE001]|%EE%80%8[01]|&#(?:x0*E00[01]|0*5734[45]);?/gi;
const IN_MARKDOWN_ANYWHERE = new RegExp(IN_MARKDOWN.source, 'i');

export const SLOT_MARKER_REASON =
  'must not contain U+E000 or U+E001, as a character, a character reference or percent-encoded (%EE%80%80, %EE%80%81): ' +
  "the server keeps them to mark where a signed-in visitor's name and e-mail go";

export function holdsSlotMarker(value: string): boolean {
  return IN_VALUE.test(value);
}

/** The path of every string (or key) in a parsed value that holds a delimiter. */
export function slotMarkerPaths(value: unknown): (string | number)[][] {
  const found: (string | number)[][] = [];
  // Almost every value has none: one native pass (JSON keeps both characters and `%` as they are) before the walk.
  if (!IN_VALUE.test(JSON.stringify(value) ?? '')) return found;
  const stack: [unknown, (string | number)[]][] = [[value, []]];
  while (stack.length > 0) {
    const [item, at] = stack.pop() as [unknown, (string | number)[]];
    if (typeof item === 'string') {
      if (holdsSlotMarker(item)) found.push(at);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (holdsSlotMarker(key)) found.push(at);
        stack.push([child, [...at, Array.isArray(item) ? Number(key) : key]]);
      }
    }
  }
  return found.reverse();
}

/** Where delimiters are in Markdown source, from line `fromLine` on: 1-based line, column and end column. */
export function slotMarkersInMarkdown(text: string, fromLine = 1): { line: number; column: number; endColumn: number }[] {
  const found: { line: number; column: number; endColumn: number }[] = [];
  // Almost every file has none: one pass over the text before any line is split out.
  if (!IN_MARKDOWN_ANYWHERE.test(text)) return found;
  text.split('\n').forEach((content, i) => {
    if (i + 1 < fromLine) return;
    for (const match of content.matchAll(IN_MARKDOWN)) {
      found.push({ line: i + 1, column: match.index + 1, endColumn: match.index + 1 + match[0].length });
    }
  });
  return found;
}
