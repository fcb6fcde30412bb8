/**
 * Rich-text documents (Contentful-style node trees) and the rules of spec §5 applied to them.
 */
import { BLOCKS, INLINES, MARKS, type Document, type Block, type Inline, type Text } from '@contentful/rich-text-types';
import type { Root as HastRoot } from 'hast';
import { hastText } from './markdown/hast-text.ts';

export { BLOCKS, INLINES, MARKS };
export type { Document, Block, Inline, Text };
export type RichNode = Block | Inline | Text;

/** An icon's drawing: SVG elements of a 24x24, stroked icon (tag name and attributes). */
export type IconNodes = [string, Record<string, string>][];

/** Entries defined inside a body (callout, code block, KB image, anchor, icon, …) or referenced by it. */
export type EmbeddedEntry =
  | {
    type: 'callout'; heading?: string; appearance: CalloutAppearance; body: Document;
    /** `{collapsible}`: a <details>, closed unless `open`. */
    collapsible?: boolean; open?: boolean;
    /** `{inline="end"}`: floated beside the text that follows. */
    inline?: 'start' | 'end';
  }
  /** `highlight`: 1-based line numbers shown highlighted (`{1,3-4}` or `hl_lines="1 3"` in the fence). */
  | { type: 'codeBlock'; code: string; language?: string; title?: string; highlight?: number[] }
  | { type: 'kbImage'; image: { url: string; width?: number; height?: number }; altText: string; title?: string; line?: number; column?: number }
  | { type: 'anchor'; id: string }
  /** `set: 'mdi'`: a Material Design icon, drawn filled; otherwise Lucide's stroked drawing. */
  | { type: 'icon'; iconKey: string; nodes?: IconNodes; set?: 'mdi' }
  /** Raw HTML after the allowlist sanitiser; slots hold the Markdown written between its tags. */
  /** `lines` and `columns` (0 when unknown): where each link and image of the tree is written, in document order. */
  | { type: 'html'; tree: HastRoot; slots: Document[]; inline?: boolean; lines?: number[]; columns?: number[] }
  /** The `ref`th reference to footnote `n`. */
  | { type: 'footnoteRef'; label: string; n: number; ref: number }
  | { type: 'footnotes'; items: { label: string; n: number; refs: number; body: Document }[] }
  | { type: 'tabs'; tabs: { label: string; body: Document }[] }
  | { type: 'video'; url: string; title: string }
  /** A sandboxed iframe from one of the site's `embedHosts`. */
  | { type: 'embed'; url: string; title: string }
  /** `::::cards` (a grid, `single` for a lone `:::card`); a card's link is a hyperlink node, so import resolves it. */
  | { type: 'cards'; cards: Card[]; single?: boolean }
  | { type: 'steps'; body: Document }
  | { type: 'fileTree'; items: FileTreeItem[] }
  | { type: 'details'; summary: string; body: Document; open?: boolean };

export interface Card {
  title: string;
  description?: string;
  icon?: { key: string; nodes: IconNodes };
  link?: Inline;
  /** A link card (`::link-card`) has no body. */
  body?: Document;
}

export interface FileTreeItem {
  name: string;
  folder: boolean;
  highlight?: boolean;
  comment?: string;
  children: FileTreeItem[];
}

export const CALLOUT_APPEARANCES = ['info', 'tip', 'warning', 'error', 'success'] as const;
export type CalloutAppearance = (typeof CALLOUT_APPEARANCES)[number];

const HEADINGS = [BLOCKS.HEADING_1, BLOCKS.HEADING_2, BLOCKS.HEADING_3, BLOCKS.HEADING_4, BLOCKS.HEADING_5, BLOCKS.HEADING_6] as string[];

export function headingLevel(node: { nodeType: string }): number {
  const i = HEADINGS.indexOf(node.nodeType);
  return i < 0 ? 0 : i + 1;
}

export function textOf(node: RichNode | Document): string {
  if (node.nodeType === 'text') return (node as Text).value;
  return ((node as Block).content as RichNode[]).map(textOf).join('');
}

/**
 * Spec §5: no heading 1 survives at the top level; headings are re-levelled so the smallest level
 * becomes 2; levels deeper than 4 become bold paragraphs; empty headings are dropped.
 */
export function normaliseHeadings(doc: Document): Document {
  const top = doc.content as Block[];
  const levels = top.map(headingLevel).filter((l) => l > 0);
  const shift = levels.length > 0 ? 2 - Math.min(...levels) : 0;
  const content: Block[] = [];
  for (const node of top) {
    const level = headingLevel(node);
    if (level === 0) {
      content.push(node);
      continue;
    }
    if (textOf(node).trim() === '') continue;
    const next = level + shift;
    if (next > 4) {
      content.push({ nodeType: BLOCKS.PARAGRAPH, data: {}, content: boldened(node.content as RichNode[]) } as Block);
    } else {
      content.push({ ...node, nodeType: HEADINGS[next - 1] as BLOCKS } as Block);
    }
  }
  return { ...doc, content: content as Document['content'] };
}

function boldened(nodes: RichNode[]): RichNode[] {
  return nodes.map((n) => {
    if (n.nodeType === 'text') {
      const t = n as Text;
      return t.marks.some((m) => m.type === MARKS.BOLD) ? t : { ...t, marks: [...t.marks, { type: MARKS.BOLD }] };
    }
    return { ...n, content: boldened((n as Block).content as RichNode[]) } as RichNode;
  });
}

/** The 'on this page' entries: h2 and h3 of a normalised document (spec §5). */
export interface TocItem {
  id: string;
  text: string;
  level: 2 | 3;
}

export function entryTarget(id: string) {
  return { target: { sys: { id, type: 'Link', linkType: 'Entry' } } };
}

export function text(value: string, marks: string[] = []): Text {
  return { nodeType: 'text', value, marks: marks.map((type) => ({ type })), data: {} };
}

/** Readable text of a body for search: paragraphs, headings, callouts and code, one block a line. */
const BOUNDARY_NODES = new Set(['table-cell', 'table-header-cell', 'paragraph', 'list-item', 'heading-2', 'heading-3', 'heading-4']);

export function plainText(doc: Document, embedded: Record<string, EmbeddedEntry> = {}): string {
  const out: string[] = [];
  const walk = (node: RichNode | Document, line: string[]) => {
    if (node.nodeType === 'text') {
      line.push((node as Text).value);
      return;
    }
    const id = (node.data as { target?: { sys?: { id?: unknown } } }).target?.sys?.id;
    const inner = typeof id === 'string' ? embedded[id] : undefined;
    if (inner?.type === 'callout') {
      if (inner.heading) out.push(inner.heading);
      for (const child of inner.body.content as RichNode[]) flush(child);
    } else if (inner?.type === 'html') {
      const words = hastText(inner.tree).replace(/\s+/g, ' ').trim();
      if (inner.inline) line.push(words);
      else if (words) out.push(words);
      for (const slot of inner.slots) {
        if (inner.inline) line.push(plainText(slot, embedded).replace(/\s+/g, ' '));
        else for (const child of slot.content as RichNode[]) flush(child);
      }
    } else if (inner?.type === 'tabs') {
      for (const tab of inner.tabs) {
        out.push(tab.label);
        for (const child of tab.body.content as RichNode[]) flush(child);
      }
    } else if (inner?.type === 'cards') {
      for (const card of inner.cards) {
        out.push([card.title, card.description].filter(Boolean).join(' '));
        for (const child of (card.body?.content ?? []) as RichNode[]) flush(child);
      }
    } else if (inner?.type === 'details' || inner?.type === 'steps') {
      if (inner.type === 'details') out.push(inner.summary);
      for (const child of inner.body.content as RichNode[]) {
        if (child.nodeType === 'ordered-list') for (const item of (child as Block).content as RichNode[]) flush(item);
        else flush(child);
      }
    } else if (inner?.type === 'fileTree') {
      const names = (items: typeof inner.items): string[] => items.flatMap((i) => [i.name, ...(i.comment ? [i.comment] : []), ...names(i.children)]);
      out.push(names(inner.items).join(' '));
    } else if (inner?.type === 'footnotes') {
      for (const item of inner.items) for (const child of item.body.content as RichNode[]) flush(child);
    } else if (inner?.type === 'codeBlock') {
      out.push([inner.title, inner.code].filter(Boolean).join('\n'));
    }
    for (const child of ((node as Block).content ?? []) as RichNode[]) walk(child, line);
    // Cells and blocks inside a row or list item keep a boundary, so snippets never run words together.
    if (BOUNDARY_NODES.has(node.nodeType)) line.push(' ');
  };
  const flush = (node: RichNode) => {
    const line: string[] = [];
    walk(node, line);
    const text = line.join('').replace(/\s+/g, ' ').trim();
    if (text) out.push(text);
  };
  for (const node of doc.content as RichNode[]) {
    if (['unordered-list', 'ordered-list', 'table'].includes(node.nodeType)) {
      for (const child of (node as Block).content as RichNode[]) flush(child);
    } else flush(node);
  }
  return out.join('\n');
}
