/**
 * Pieces of the block directives that are plain data: which attributes each takes, the highlighted
 * lines of a code fence, and a file tree read from a bullet list (docs/ "Authoring content").
 */
import type { List, ListItem, PhrasingContent, RootContent } from 'mdast';
import type { FileTreeItem } from '../rich-text.ts';

/** Attributes each directive reads, and which of them it needs. */
export const DIRECTIVE_ATTRIBUTES: Record<string, { allowed: string[]; required: string[]; example: string }> = {
  card: { allowed: ['title', 'icon', 'href'], required: ['title'], example: ':::card{title="Install" icon="rocket" href="./install.md"}' },
  'link-card': { allowed: ['title', 'href', 'description'], required: ['title', 'href'], example: '::link-card{title="Install" href="./install.md" description="…"}' },
  embed: { allowed: ['src', 'title'], required: ['src', 'title'], example: '::embed{src="https://…" title="…"}' },
  cards: { allowed: [], required: [], example: '::::cards' },
  steps: { allowed: [], required: [], example: ':::steps' },
  'file-tree': { allowed: [], required: [], example: ':::file-tree' },
  details: { allowed: ['open'], required: [], example: ':::details[Summary]' },
  admonition: { allowed: ['heading', 'collapsible', 'open', 'inline'], required: [], example: ':::note[Title]{collapsible open}' },
  callout: { allowed: ['appearance', 'heading', 'collapsible', 'open', 'inline'], required: [], example: ':::callout{appearance="tip" heading="…"}' },
};

/** What is wrong with a directive's attributes: names it does not read, and ones it needs but lacks. */
export function attributeProblems(kind: string, shown: string, attributes: Record<string, string | null | undefined>): { reason: string; hint: string }[] {
  const spec = DIRECTIVE_ATTRIBUTES[kind];
  if (!spec) return [];
  const hint = spec.allowed.length > 0 ? `${shown} takes ${spec.allowed.join(', ')}: ${spec.example}` : `${shown} takes no attributes: ${spec.example}`;
  const out: { reason: string; hint: string }[] = [];
  for (const name of Object.keys(attributes)) {
    // `{#x}` and `{.x}` parse as id and class.
    if (!spec.allowed.includes(name)) out.push({ reason: `${shown} has an unknown attribute "${name}"`, hint });
  }
  for (const name of spec.required) {
    if ((attributes[name] ?? '').trim() === '') out.push({ reason: `${shown} needs a ${name}`, hint });
  }
  return out;
}

/**
 * Highlighted lines of a fence's meta: `{1,3-4}` (Docusaurus, Starlight) or `hl_lines="1 3-4"` (MkDocs).
 * Undefined when the meta names none; `error` when it names them wrongly.
 */
export function highlightedLines(meta: string | null | undefined): { lines?: number[]; error?: string } {
  if (!meta) return {};
  const braces = /(?:^|\s)\{([^}]*)\}(?=\s|$)/.exec(meta);
  const hl = /(?:^|\s)hl_lines=(?:"([^"]*)"|'([^']*)')/.exec(meta);
  const spec = braces ? braces[1] as string : hl ? (hl[1] ?? hl[2] ?? '') : undefined;
  if (spec === undefined) return {};
  const lines = new Set<number>();
  for (const part of spec.split(/[\s,]+/).filter(Boolean)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    const from = Number(m?.[1]);
    const to = m?.[2] === undefined ? from : Number(m[2]);
    if (!m || from < 1 || to < from || to - from > 10000) return { error: `highlighted lines "${spec}" must be line numbers and ranges, e.g. {1,3-4}` };
    for (let n = from; n <= to; n++) lines.add(n);
  }
  return { lines: [...lines].sort((a, b) => a - b) };
}

function phrasingText(nodes: readonly PhrasingContent[]): string {
  return nodes.map((n) => ('value' in n ? n.value : 'children' in n ? phrasingText(n.children as PhrasingContent[]) : '')).join('');
}

/**
 * A file tree from a bullet list: an item's first word (or its **bold** name, highlighted) is the name,
 * the rest a comment; a name ending in `/` or an item with a list under it is a folder.
 */
export function fileTreeItems(list: List, problem: (node: RootContent | ListItem, reason: string) => void): FileTreeItem[] {
  return list.children.map((item) => {
    const first = item.children[0];
    const nested = item.children.find((c): c is List => c.type === 'list');
    for (const c of item.children) if (c !== first && c !== nested) problem(c, 'a file-tree item is a name and an optional comment on one line, and a list under it for a folder');
    let name = '';
    let comment = '';
    let highlight = false;
    if (first?.type === 'paragraph') {
      const [head, ...rest] = first.children;
      if (head?.type === 'strong') {
        highlight = true;
        name = phrasingText(head.children).trim();
        comment = phrasingText(rest).trim();
      } else {
        const all = phrasingText(first.children).trim();
        const cut = all.search(/\s/);
        name = cut < 0 ? all : all.slice(0, cut);
        comment = cut < 0 ? '' : all.slice(cut).trim();
      }
    }
    if (!name) problem(item, 'a file-tree item needs a file or folder name');
    const children = nested ? fileTreeItems(nested, problem) : [];
    return {
      name, folder: name.endsWith('/') || children.length > 0, children,
      ...(highlight ? { highlight } : {}), ...(comment ? { comment } : {}),
    };
  });
}
