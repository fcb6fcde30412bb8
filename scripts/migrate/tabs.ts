/**
 * Tab groups as Signpost writes them (`::::tabs`, one `:::tab[Label]` per tab): MkDocs Material's
 * content tabs (`=== "Label"` with the tab's text indented under it) and the MDX `<Tabs>` /
 * `<TabItem label="…">` of Docusaurus and Starlight, when the tags stand on lines of their own (or a
 * tab is one line: `<TabItem label="x">text</TabItem>`). Anything else is left as written, and the
 * caller lists it. Code fences are never looked into.
 */

const MKDOCS_TAB = /^===[!+]? "(.*)"\s*$/;
const MDX_TABS_OPEN = /^\s*<Tabs(\s[^>]*)?>\s*$/;
const MDX_TABS_CLOSE = /^\s*<\/Tabs>\s*$/;
const MDX_TAB_OPEN = /^\s*<TabItem(\s[^>]*)?>\s*$/;
const MDX_TAB_ONE_LINE = /^\s*<TabItem(\s[^>]*)?>(.*)<\/TabItem>\s*$/;
const MDX_TAB_CLOSE = /^\s*<\/TabItem>\s*$/;
const FENCE = /^\s*(`{3,}|~{3,})/;

/** Follows code fences line by line: true for a fence's lines, its opening and closing lines included. */
export function fenceTracker(): (line: string) => boolean {
  let fence: string | undefined;
  return (line) => {
    const match = FENCE.exec(line);
    if (fence) {
      if (match?.[1]?.startsWith(fence)) fence = undefined;
      return true;
    }
    if (match) fence = match[1];
    return match !== null;
  };
}

export interface Tab {
  label: string;
  lines: string[];
}

export interface TabsResult {
  lines: string[];
  /** How many groups were converted. */
  groups: number;
}

export function convertTabs(lines: string[], tool: 'docusaurus' | 'mkdocs' | 'starlight'): TabsResult {
  return tool === 'mkdocs' ? convertMkdocs(lines) : convertMdx(lines);
}

/** The group in Signpost's syntax; the fences grow when a tab holds directives of its own. */
export function group(tabs: Tab[]): string[] {
  const inner = Math.max(2, ...tabs.flatMap((t) => t.lines.map((l) => /^\s*(:{3,})/.exec(l)?.[1]?.length ?? 0))) + 1;
  const tab = ':'.repeat(inner);
  const out = [`${':'.repeat(inner + 1)}tabs`];
  for (const t of tabs) out.push(`${tab}tab[${t.label.replace(/[[\]]/g, '')}]`, ...trimBlank(dedent(t.lines)), tab);
  out.push(':'.repeat(inner + 1));
  return out;
}

function convertMkdocs(lines: string[]): TabsResult {
  const out: string[] = [];
  let groups = 0;
  const inFence = fenceTracker();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (inFence(line) || !MKDOCS_TAB.test(line)) {
      out.push(line);
      continue;
    }
    const tabs: Tab[] = [];
    let j = i;
    while (j < lines.length) {
      const head = MKDOCS_TAB.exec(lines[j] as string);
      if (!head) break;
      const body: string[] = [];
      let k = j + 1;
      // The tab's text: blank lines and lines indented by four or more.
      while (k < lines.length && (/^\s*$/.test(lines[k] as string) || /^( {4}|\t)/.test(lines[k] as string))) body.push(lines[k++] as string);
      // Blank lines before the next tab belong between tabs, not in this one.
      while (body.length > 0 && /^\s*$/.test(body[body.length - 1] as string)) body.pop(), k--;
      tabs.push({ label: head[1] as string, lines: body });
      j = k;
      let next = j;
      while (next < lines.length && /^\s*$/.test(lines[next] as string)) next++;
      if (next < lines.length && MKDOCS_TAB.test(lines[next] as string)) j = next;
      else break;
    }
    out.push(...group(tabs));
    groups++;
    i = j - 1;
  }
  return { lines: out, groups };
}

function convertMdx(lines: string[]): TabsResult {
  const out: string[] = [];
  let groups = 0;
  const inFence = fenceTracker();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (inFence(line) || !MDX_TABS_OPEN.test(line)) {
      out.push(line);
      continue;
    }
    const tabs = readMdxGroup(lines, i + 1);
    if (!tabs) {
      out.push(line);
      continue;
    }
    out.push(...group(tabs.tabs));
    groups++;
    i = tabs.end;
  }
  return { lines: out, groups };
}

/** The tabs of a `<Tabs>` group from the line after it to its `</Tabs>`, or undefined when its shape is not one we read. */
function readMdxGroup(lines: string[], from: number): { tabs: Tab[]; end: number } | undefined {
  const tabs: Tab[] = [];
  let current: Tab | undefined;
  let fence: string | undefined;
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] as string;
    const fenceMatch = FENCE.exec(line);
    if (current && (fence || fenceMatch)) {
      if (fence && fenceMatch?.[1]?.startsWith(fence)) fence = undefined;
      else if (!fence && fenceMatch) fence = fenceMatch[1];
      current.lines.push(line);
      continue;
    }
    if (MDX_TABS_CLOSE.test(line)) return current || tabs.length === 0 ? undefined : { tabs, end: i };
    if (MDX_TABS_OPEN.test(line)) return undefined;
    const one = MDX_TAB_ONE_LINE.exec(line);
    if (one && !current) {
      tabs.push({ label: labelOf(one[1] ?? '') ?? '', lines: [(one[2] ?? '').trim()] });
      if (!tabs[tabs.length - 1]?.label) return undefined;
      continue;
    }
    const open = MDX_TAB_OPEN.exec(line);
    if (open) {
      if (current) return undefined;
      const label = labelOf(open[1] ?? '');
      if (!label) return undefined;
      current = { label, lines: [] };
      continue;
    }
    if (MDX_TAB_CLOSE.test(line)) {
      if (!current) return undefined;
      tabs.push(current);
      current = undefined;
      continue;
    }
    if (!current) {
      if (/^\s*$/.test(line)) continue;
      return undefined;
    }
    current.lines.push(line);
  }
  return undefined;
}

/** A tab's label: `label="…"`, else its `value="…"`. */
export function labelOf(attributes: string): string | undefined {
  const label = /\blabel=(?:"([^"]*)"|'([^']*)'|\{["'`]([^"'`]*)["'`]\})/.exec(attributes);
  const value = /\bvalue=(?:"([^"]*)"|'([^']*)')/.exec(attributes);
  const text = (label?.[1] ?? label?.[2] ?? label?.[3] ?? value?.[1] ?? value?.[2])?.trim();
  return text || undefined;
}

/** Lines without the indentation they all share (blank lines aside). */
export function dedent(lines: string[]): string[] {
  const expanded = lines.map((l) => l.replace(/^[ \t]+/, (lead) => lead.replace(/\t/g, '    ')));
  const widths = expanded.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)?.[0].length ?? 0);
  const cut = widths.length > 0 ? Math.min(...widths) : 0;
  return expanded.map((l) => l.slice(Math.min(cut, /^ */.exec(l)?.[0].length ?? 0)));
}

export function trimBlank(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] as string).trim() === '') start++;
  while (end > start && (lines[end - 1] as string).trim() === '') end--;
  return lines.slice(start, end);
}
