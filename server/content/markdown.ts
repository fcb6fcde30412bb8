/**
 * Markdown bodies -> rich-text documents. CommonMark + GFM (tables with alignment, task lists,
 * footnotes, strikethrough); embedded entries and extensions are directives (docs/ "Authoring").
 * Raw HTML goes through an allowlist sanitiser (markdown/html.ts); what it removes is a warning.
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkFrontmatter from 'remark-frontmatter';
import remarkDirective from 'remark-directive';
import type { Root, RootContent, PhrasingContent, Table, Heading, Blockquote, List, FootnoteDefinition, Definition } from 'mdast';
import type { ContainerDirective, LeafDirective, TextDirective } from 'mdast-util-directive';
import {
  BLOCKS, INLINES, MARKS, CALLOUT_APPEARANCES, entryTarget, normaliseHeadings, text, textOf,
  type Block, type Document, type EmbeddedEntry, type Inline, type Text, type CalloutAppearance,
} from './rich-text.ts';
import { classifyUrl, quoteUrl } from './urls.ts';
import { DIRECTIVE_ADMONITIONS, GITHUB_ALERTS, mkdocsAdmonitionsWithShifts, titleOf } from './markdown/admonitions.ts';
import { SLOT_TAG, hasHtml, isHtmlTag, isVoid, openTags, sanitiseHtml, tagOf, type HtmlPart, type HtmlPosition } from './markdown/html.ts';
import type { Root as HastRoot } from 'hast';
import { abbreviationPattern, splitAbbreviations, takeAbbreviations } from './markdown/abbreviations.ts';
import { lookupIcon, lookupMdiIcon, nearestIcons, nearestMdiIcons } from './markdown/icons.ts';
import { didYouMean, quotedList } from './suggest.ts';
import { attributeProblems, fileTreeItems, highlightedLines } from './markdown/directives.ts';
import type { Card } from './rich-text.ts';

const parser = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm).use(remarkDirective);

export const KB_SECTIONS = ['summary', 'diagnosis', 'cause', 'solution'] as const;
export type KbSection = (typeof KB_SECTIONS)[number];
const SECTION_TITLES: Record<KbSection, string> = { summary: 'Summary', diagnosis: 'Diagnosis', cause: 'Cause', solution: 'Solution' };

export interface BodyIssue {
  line: number;
  /** 1-based column, and the end of the span (just past it), in the file. */
  column?: number;
  endLine?: number;
  endColumn?: number;
  reason: string;
  /** What to do about it ('did you mean …'). */
  hint?: string;
  /** A warning does not stop an import (raw HTML the sanitiser removed, say). */
  warning?: boolean;
}

export interface ParsedMarkdown {
  frontMatter: { text: string; line: number } | null;
  document: Document;
  embedded: Record<string, EmbeddedEntry>;
  sections: Partial<Record<KbSection, Document>>;
  issues: BodyIssue[];
}

export interface ParseOptions {
  /** Prefix for ids of entries defined inside the body. */
  idPrefix: string;
  /** KB articles may use :::summary, :::diagnosis, :::cause and :::solution. */
  allowSections?: boolean;
  /** Hosts whose videos may be embedded (`videoHosts` in site.yaml), e.g. www.youtube-nocookie.com. */
  videoHosts?: readonly string[];
  /** Hosts other pages may be embedded from (`embedHosts` in site.yaml) with `::embed`, e.g. codesandbox.io. */
  embedHosts?: readonly string[];
}

/** Splits front matter from a Markdown file without parsing the body. */
export function splitFrontMatter(source: string): { frontMatter: { text: string; line: number } | null; body: string; bodyLine: number } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(source);
  if (!match) return { frontMatter: null, body: source, bodyLine: 1 };
  const fmLines = match[0].split('\n').length - 1;
  return { frontMatter: { text: match[1] ?? '', line: 2 }, body: source.slice(match[0].length), bodyLine: fmLines + 1 };
}

export function parseMarkdown(source: string, options: ParseOptions): ParsedMarkdown {
  const abbreviations = takeAbbreviations(source);
  const { text, shifts } = mkdocsAdmonitionsWithShifts(abbreviations.text);
  const tree = parser.parse(text) as Root;
  const state = new Converter(options, shifts, text);
  let frontMatter: ParsedMarkdown['frontMatter'] = null;
  const first = tree.children[0];
  if (first?.type === 'yaml') {
    frontMatter = { text: first.value, line: 2 };
    tree.children.shift();
  }
  state.abbreviations = abbreviations.titles;
  state.collect(tree);
  const blocks: Block[] = state.blocks(tree.children, true);
  const footnotes = state.footnotes();
  if (footnotes) blocks.push(footnotes);
  return {
    frontMatter,
    document: normaliseHeadings(doc(blocks)),
    embedded: state.embedded,
    sections: state.sections,
    issues: state.issues,
  };
}

/** Markdown held in a YAML string (a notice message): no front matter, no sections. */
export function parseInlineMarkdown(source: string, idPrefix: string, lineOffset: number): ParsedMarkdown {
  const parsed = parseMarkdown(source, { idPrefix });
  // Lines in the document (links) count from the field's line too, like the issues.
  const shift = (node: { data?: { line?: unknown }; content?: unknown }) => {
    if (typeof node.data?.line === 'number') node.data.line += lineOffset;
    if (Array.isArray(node.content)) for (const child of node.content) shift(child as typeof node);
  };
  shift(parsed.document as unknown as Parameters<typeof shift>[0]);
  return { ...parsed, issues: parsed.issues.map((i) => ({ ...i, line: i.line + lineOffset })) };
}

function doc(content: Block[]): Document {
  return { nodeType: BLOCKS.DOCUMENT, data: {}, content: content as Document['content'] };
}

function block(nodeType: string, content: (Block | Inline | Text)[], data: Record<string, unknown> = {}): Block {
  return { nodeType, data, content } as Block;
}

/** Parses a piece of a file again, its lines counted from where it was. */
function reparse(source: string, lineOffset: number): RootContent[] {
  const tree = parser.parse(source) as Root;
  const shift = (node: { position?: { start: { line: number }; end: { line: number } }; children?: unknown[] }) => {
    if (node.position) {
      node.position.start.line += lineOffset;
      node.position.end.line += lineOffset;
    }
    if (Array.isArray(node.children)) for (const child of node.children) shift(child as typeof node);
  };
  shift(tree);
  return tree.children;
}

/** Phrasing elements the allowlist keeps whole when written without attributes. */
const SIMPLE_INLINE = new Set(['kbd', 'sub', 'sup', 'b', 'i', 'em', 'strong', 'code', 'samp', 'var', 'mark', 'u', 's', 'del', 'ins', 'small', 'q', 'dfn', 'cite']);

/**
 * CommonMark §6.8: a soft line break (a line ending inside a paragraph that is not a hard break) is a
 * space when rendered, so a paragraph wrapped over several lines reads as one. A text's "\n" renders as
 * <br>, so only hard breaks and <br> keep one (the parser already took the spaces around the ending off).
 */
function softBreaks(value: string): string {
  return value.includes('\n') || value.includes('\r') ? value.replace(/[ \t]*(?:\r\n?|\n)[ \t]*/g, ' ') : value;
}

type Point = { line: number; column?: number };
type Positioned = { position?: { start: Point; end?: Point } | undefined };
const HEADING_ID = /[ \t]*\{#([A-Za-z][\w.:-]*)\}[ \t]*$/;
const ALERT = /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(?:\n|$)/;

class Converter {
  embedded: Record<string, EmbeddedEntry> = {};
  sections: Partial<Record<KbSection, Document>> = {};
  issues: BodyIssue[] = [];
  private counter = 0;
  private definitions = new Map<string, Definition>();
  private footnoteDefinitions = new Map<string, FootnoteDefinition>();
  /** Footnotes in the order they are first referred to, and how often each was. */
  private footnoteOrder: string[] = [];
  private footnoteRefs = new Map<string, number>();
  /** `*[HTML]: …` definitions of the body, shown as <abbr> in prose (not in headings, labels or links, whose text makes ids). */
  private abbrTitles = new Map<string, string>();
  private abbrPattern: RegExp | undefined;

  set abbreviations(titles: Map<string, string>) {
    this.abbrTitles = titles;
    this.abbrPattern = abbreviationPattern(titles);
  }

  /** A paragraph's or cell's inlines with each abbreviation in their text (not in code or link text) as an inline `<abbr title>`. */
  private abbreviate(nodes: (Inline | Text)[]): (Inline | Text)[] {
    if (!this.abbrPattern) return nodes;
    return nodes.flatMap((node) => {
      if (node.nodeType !== 'text' || node.marks.some((m) => m.type === MARKS.CODE)) return [node];
      return this.abbreviated(node.value, node.marks.map((m) => m.type));
    });
  }

  /** Text with each abbreviation as the existing inline HTML entry, so search and rendering know it. */
  private abbreviated(value: string, marks: string[]): (Inline | Text)[] {
    return splitAbbreviations(value, this.abbrPattern as RegExp).map((part) => {
      if (!part.abbr) return text(part.text, marks);
      const slot = doc([block(BLOCKS.PARAGRAPH, [text(part.text, marks)])]);
      const tree: HastRoot = { type: 'root', children: [{ type: 'element', tagName: 'abbr', properties: { title: this.abbrTitles.get(part.text) ?? '' },
        children: [{ type: 'element', tagName: SLOT_TAG, properties: { dataSlot: '0' }, children: [] }] }] };
      return this.embedInline(this.define({ type: 'html', tree, slots: [slot], inline: true }));
    });
  }

  /** `shifts`: characters taken off the start of lines (0-based) before parsing, added back to columns. */
  /** Where each line of the parsed source starts (offsets), to find a piece of text's own place in it. */
  private readonly lineStarts: number[] = [0];

  constructor(private readonly options: ParseOptions, private readonly shifts = new Map<number, number>(), private readonly source = '') {
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
  }

  /**
   * The place of each `needle` written inside a node, in order (so two problems on one line are told
   * apart by column); the node's own place for any not found.
   */
  private placesIn(node: Positioned, needles: string[]): Positioned[] {
    const start = node.position?.start;
    const end = node.position?.end;
    const offsetOf = (p: Point) => (this.lineStarts[p.line - 1] ?? this.source.length) + (p.column ?? 1) - 1;
    const pointAt = (offset: number): Point => {
      let line = 1;
      while (line < this.lineStarts.length && (this.lineStarts[line] as number) <= offset) line += 1;
      return { line, column: offset - (this.lineStarts[line - 1] as number) + 1 };
    };
    let from = start?.column ? offsetOf(start) : -1;
    const limit = end?.column ? offsetOf(end) : this.source.length;
    return needles.map((needle) => {
      const at = from < 0 ? -1 : this.source.indexOf(needle, from);
      if (at < 0 || at + needle.length > limit) return node;
      from = at + needle.length;
      return { position: { start: pointAt(at), end: pointAt(at + needle.length) } };
    });
  }

  private issue(node: Positioned, reason: string, warning = false, hint?: string) {
    const { start, end } = node.position ?? { start: { line: 1 } };
    const col = (p: Point) => (p.column ?? 1) + (this.shifts.get(p.line - 1) ?? 0);
    this.issues.push({
      line: start.line, ...(start.column ? { column: col(start) } : {}),
      ...(start.column && end?.column ? { endLine: end.line, endColumn: col(end) } : {}),
      reason, ...(hint ? { hint } : {}), ...(warning ? { warning } : {}),
    });
  }

  private define(entry: EmbeddedEntry): string {
    this.counter += 1;
    const id = `${this.options.idPrefix}~${entry.type}-${this.counter}`;
    this.embedded[id] = entry;
    return id;
  }

  private embedBlock(id: string): Block {
    return block(BLOCKS.EMBEDDED_ENTRY, [], entryTarget(id));
  }

  private embedInline(id: string, line?: number): Inline {
    return { nodeType: INLINES.EMBEDDED_ENTRY, data: { ...entryTarget(id), ...(line === undefined ? {} : { line }) }, content: [] } as Inline;
  }

  /** Link reference definitions and footnote definitions, wherever they are in the file. */
  collect(tree: Root) {
    const walk = (node: { type: string; children?: unknown[] }) => {
      if (node.type === 'definition') {
        const def = node as unknown as Definition;
        if (!this.definitions.has(def.identifier)) this.definitions.set(def.identifier, def);
      } else if (node.type === 'footnoteDefinition') {
        const def = node as unknown as FootnoteDefinition;
        if (this.footnoteDefinitions.has(def.identifier)) this.issue(def, `footnote [^${def.label ?? def.identifier}] is defined more than once`);
        else this.footnoteDefinitions.set(def.identifier, def);
        return;
      }
      if (Array.isArray(node.children)) for (const child of node.children) walk(child as typeof node);
    };
    walk(tree);
  }

  /** The footnotes block at the end of the document, numbered in the order of their first reference. */
  footnotes(): Block | undefined {
    for (const [id, def] of this.footnoteDefinitions) {
      if (!this.footnoteOrder.includes(id)) this.issue(def, `footnote [^${def.label ?? id}] is never referred to`, true);
    }
    if (this.footnoteOrder.length === 0) return undefined;
    const items = this.footnoteOrder.map((id, i) => {
      const def = this.footnoteDefinitions.get(id) as FootnoteDefinition;
      return { label: def.label ?? id, n: i + 1, refs: this.footnoteRefs.get(id) ?? 1, body: doc(this.blocks(def.children)) };
    });
    return this.embedBlock(this.define({ type: 'footnotes', items }));
  }

  /** Blocks of a list of siblings: raw HTML that opens a tag takes the siblings up to the one that closes it. */
  blocks(nodes: RootContent[], topLevel = false): Block[] {
    const out: Block[] = [];
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i] as RootContent;
      if (node.type !== 'html') {
        out.push(...this.block(node, topLevel));
        continue;
      }
      if (!hasHtml(node.value)) {
        // `<id>` on a line of its own is text that looks like a tag: the lines are Markdown with it as text.
        out.push(...this.blocks(reparse(node.value.replace(/</g, '\\<'), (node.position?.start.line ?? 1) - 1)));
        continue;
      }
      const opened = openTags(node.value, []);
      let open = opened;
      let end = i;
      if (open.length > 0) {
        for (let j = i + 1; j < nodes.length; j++) {
          const next = nodes[j] as RootContent;
          if (next.type !== 'html') continue;
          open = openTags(next.value, open);
          if (open.length === 0) {
            end = j;
            break;
          }
        }
        // `<data>` or `<title>` written bare and never closed is a placeholder, not an element.
        if (end === i && opened.every((name) => node.value.toLowerCase().includes(`<${name}>`))) {
          out.push(...this.blocks(reparse(node.value.replace(/</g, '\\<'), (node.position?.start.line ?? 1) - 1)));
          continue;
        }
      }
      out.push(...this.htmlBlock(nodes.slice(i, end + 1)));
      i = end;
    }
    return out;
  }

  private htmlBlock(group: RootContent[]): Block[] {
    const id = this.html(group, (run) => doc(this.blocks(run)), false);
    return id ? [this.embedBlock(id)] : [];
  }

  /**
   * Sanitises a group of raw HTML nodes and the Markdown between them (each run of non-HTML siblings is
   * one slot, rendered by `slot`); reports removals as warnings.
   */
  private html<T extends RootContent | PhrasingContent>(group: T[], slot: (run: T[]) => Document, inline: boolean): string | undefined {
    const parts: HtmlPart[] = [];
    const slots: Document[] = [];
    for (let k = 0; k < group.length; k++) {
      const node = group[k] as T;
      const line = node.position?.start.line ?? 1;
      if (node.type === 'html') {
        const column = node.position?.start.column;
        parts.push({ raw: (node as Extract<RootContent, { type: 'html' }>).value, line, ...(column ? { column } : {}) });
        continue;
      }
      const run: T[] = [node];
      while (k + 1 < group.length && (group[k + 1] as T).type !== 'html') run.push(group[++k] as T);
      slots.push(slot(run));
      parts.push({ slot: slots.length - 1, line });
    }
    const { tree, warnings, imagesWithoutAlt, urls } = sanitiseHtml(parts, this.options.videoHosts ?? []);
    const shift = (line: number, column: number) => column + (this.shifts.get(line - 1) ?? 0);
    const place = (p: HtmlPosition) => ({
      line: p.line, ...(p.column ? { column: shift(p.line, p.column) } : {}),
      ...(p.endLine && p.endColumn ? { endLine: p.endLine, endColumn: shift(p.endLine, p.endColumn) } : {}),
    });
    for (const w of warnings) this.issues.push({ ...place(w), reason: w.reason, warning: true });
    // Each image on its own: a block of HTML with several gets one error for each, where it is written.
    for (const at of imagesWithoutAlt) this.issues.push({ ...place(at), reason: 'image needs alt text describing it (<img alt="…">)' });
    if (tree.children.length === 0 && slots.length === 0) return undefined;
    const where = urls.map(place);
    return this.define({
      type: 'html', tree, slots, ...(inline ? { inline } : {}),
      ...(where.length > 0 ? { lines: where.map((p) => p.line), columns: where.map((p) => p.column ?? 0) } : {}),
    });
  }

  block(node: RootContent, topLevel = false): Block[] {
    switch (node.type) {
      case 'paragraph': {
        const only = node.children.length === 1 ? node.children[0] : undefined;
        if (only?.type === 'image') return [this.image(only, only.url, only.alt ?? '', only.title)];
        if (only?.type === 'imageReference') {
          const def = this.definitions.get(only.identifier);
          return [this.image(only, def?.url, only.alt ?? '', def?.title)];
        }
        const inlines = this.abbreviate(this.inlines(node.children, []));
        return inlines.length > 0 ? [block(BLOCKS.PARAGRAPH, inlines)] : [];
      }
      case 'heading':
        return [this.heading(node)];
      case 'thematicBreak':
        return [block(BLOCKS.HR, [])];
      case 'blockquote':
        return this.blockquote(node);
      case 'list':
        return [this.list(node)];
      case 'table':
        return [this.table(node)];
      case 'code': {
        const title = /(?:^|\s)title=(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(node.meta ?? '');
        const entry: EmbeddedEntry = { type: 'codeBlock', code: node.value };
        if (node.lang) entry.language = node.lang;
        const t = title?.[1] ?? title?.[2] ?? title?.[3];
        if (t) entry.title = t;
        const hl = highlightedLines(node.meta);
        if (hl.error) this.issue(node, hl.error);
        const count = node.value.split('\n').length;
        const past = hl.lines?.find((n) => n > count);
        if (past) this.issue(node, `highlighted line ${past} is past the end of the code (${count} line${count === 1 ? '' : 's'})`);
        else if (hl.lines && hl.lines.length > 0) entry.highlight = hl.lines;
        return [this.embedBlock(this.define(entry))];
      }
      case 'html':
        return this.blocks([node]);
      case 'containerDirective':
        return this.container(node, topLevel);
      case 'leafDirective':
        return this.leaf(node);
      case 'yaml':
        this.issue(node, 'front matter must be the first thing in the file');
        return [];
      case 'definition':
      case 'footnoteDefinition':
        // Read by collect(); the footnotes go at the end.
        return [];
      default:
        this.issue(node, `unsupported Markdown element "${node.type}"`);
        return [];
    }
  }

  /** `## Title {#custom-id}` gives the heading that id. */
  private heading(node: Heading): Block {
    const children = [...node.children];
    const last = children[children.length - 1];
    let id: string | undefined;
    if (last?.type === 'text') {
      const m = HEADING_ID.exec(last.value);
      if (m) {
        id = m[1];
        children[children.length - 1] = { ...last, value: last.value.slice(0, m.index) };
      }
    }
    return block(`heading-${node.depth}`, this.inlines(children, []), id ? { id } : {});
  }

  /** A quote whose first line is `[!NOTE]` (and the other GitHub alerts) is a callout. */
  private blockquote(node: Blockquote): Block[] {
    const first = node.children[0];
    const lead = first?.type === 'paragraph' ? first.children[0] : undefined;
    const m = lead?.type === 'text' ? ALERT.exec(lead.value) : null;
    if (!m || first?.type !== 'paragraph' || lead?.type !== 'text') return [block(BLOCKS.QUOTE, this.blocks(node.children))];
    const kind = m[1] as keyof typeof GITHUB_ALERTS;
    const rest = lead.value.slice(m[0].length);
    const paragraph = { ...first, children: [...(rest ? [{ ...lead, value: rest }] : []), ...first.children.slice(1)] };
    // A line break right after the marker leaves a break first.
    while (paragraph.children[0]?.type === 'break') paragraph.children.shift();
    const body = [...(paragraph.children.length > 0 ? [paragraph] : []), ...node.children.slice(1)] as RootContent[];
    return [this.embedBlock(this.define({ type: 'callout', appearance: GITHUB_ALERTS[kind] as CalloutAppearance, heading: titleOf(kind), body: doc(this.blocks(body)) }))];
  }

  private list(node: List): Block {
    return block(node.ordered ? BLOCKS.OL_LIST : BLOCKS.UL_LIST, node.children.map((item) =>
      block(BLOCKS.LIST_ITEM, this.blocks(item.children), typeof item.checked === 'boolean' ? { checked: item.checked } : {})),
    node.ordered && typeof node.start === 'number' && node.start !== 1 ? { start: node.start } : {});
  }

  private table(node: Table): Block {
    const align = node.align ?? [];
    return block(BLOCKS.TABLE, node.children.map((row, r) =>
      block(BLOCKS.TABLE_ROW, row.children.map((cell, c) =>
        block(r === 0 ? BLOCKS.TABLE_HEADER_CELL : BLOCKS.TABLE_CELL, [block(BLOCKS.PARAGRAPH, this.abbreviate(this.inlines(cell.children, [])))],
          align[c] ? { align: align[c] } : {})))));
  }

  private imageEntry(node: Positioned, url: string | undefined, alt: string, title: string | null | undefined): string | undefined {
    if (!url) this.issue(node, 'image needs a src');
    if (alt.trim() === '') this.issue(node, url ? `image ${url} needs alt text describing it` : 'image needs alt text describing it');
    if (!url) return undefined;
    const source = classifyUrl(url, { images: true });
    if (source.kind === 'unsafe') this.issue(node, `unsafe image source ${quoteUrl(url)}: ${source.reason}; images must be http(s) or a site path`);
    // Where the image is written, for the import's check of its file (resolve.ts).
    const at = (node as { position?: { start: { line: number; column?: number } } }).position?.start;
    return this.define({ type: 'kbImage', image: { url }, altText: alt, ...(title ? { title } : {}), ...(at ? { line: at.line, column: at.column } : {}) });
  }

  private image(node: Positioned, url: string | undefined, alt: string, title?: string | null): Block {
    const id = this.imageEntry(node, url, alt, title);
    return id ? this.embedBlock(id) : block(BLOCKS.PARAGRAPH, []);
  }

  private container(node: ContainerDirective, topLevel: boolean): Block[] {
    const labelNode = node.children.find((c) => c.type === 'paragraph' && c.data?.directiveLabel);
    const children = node.children.filter((c) => c !== labelNode);
    const label = labelNode?.type === 'paragraph' ? textOf(block(BLOCKS.PARAGRAPH, this.inlines(labelNode.children, []))).trim() : '';
    const admonition = DIRECTIVE_ADMONITIONS[node.name];
    if (node.name === 'callout' || admonition) {
      const appearance = admonition ?? node.attributes?.appearance ?? 'info';
      if (!(CALLOUT_APPEARANCES as readonly string[]).includes(appearance)) {
        this.issue(node, `callout appearance "${appearance}" is not one of ${CALLOUT_APPEARANCES.join(', ')}`, false, didYouMean(appearance, CALLOUT_APPEARANCES));
      }
      const attrs = node.attributes ?? {};
      this.attributes(node, node.name === 'callout' ? 'callout' : 'admonition', `:::${node.name}`);
      if (attrs.inline !== undefined && attrs.inline !== 'start' && attrs.inline !== 'end') {
        this.issue(node, `inline="${attrs.inline ?? ''}" must be "start" or "end"`, false, ':::note[Title]{inline="end"}');
      }
      if (attrs.open !== undefined && attrs.collapsible === undefined) this.issue(node, '"open" only goes with "collapsible": {collapsible open}');
      const entry: EmbeddedEntry = {
        type: 'callout', appearance: appearance as CalloutAppearance, body: doc(this.blocks(children)),
        ...(attrs.collapsible !== undefined ? { collapsible: true, ...(attrs.open !== undefined ? { open: true } : {}) } : {}),
        ...(attrs.inline === 'start' || attrs.inline === 'end' ? { inline: attrs.inline } : {}),
      };
      const heading = attrs.heading ?? (label || (admonition ? titleOf(node.name) : ''));
      if (heading) entry.heading = heading;
      return [this.embedBlock(this.define(entry))];
    }
    if (node.name === 'cards') return this.cards(node, children);
    if (node.name === 'card') {
      const card = this.card(node, children);
      return card ? [this.embedBlock(this.define({ type: 'cards', cards: [card], single: true }))] : [];
    }
    if (node.name === 'steps') {
      this.attributes(node, 'steps', ':::steps');
      const only = children.length === 1 ? children[0] : undefined;
      if (only?.type !== 'list' || !only.ordered) {
        this.issue(node, ':::steps holds one numbered list (1. … 2. …) and nothing else');
        return [];
      }
      return [this.embedBlock(this.define({ type: 'steps', body: doc(this.blocks(children)) }))];
    }
    if (node.name === 'file-tree') {
      this.attributes(node, 'file-tree', ':::file-tree');
      const only = children.length === 1 ? children[0] : undefined;
      if (only?.type !== 'list' || only.ordered) {
        this.issue(node, ':::file-tree holds one bullet list (- name) and nothing else');
        return [];
      }
      return [this.embedBlock(this.define({ type: 'fileTree', items: fileTreeItems(only, (n, reason) => this.issue(n, reason)) }))];
    }
    if (node.name === 'details') {
      this.attributes(node, 'details', ':::details');
      if (!label) this.issue(node, 'details needs a summary: :::details[What it is about]');
      const open = node.attributes?.open !== undefined;
      return [this.embedBlock(this.define({ type: 'details', summary: label, body: doc(this.blocks(children)), ...(open ? { open } : {}) }))];
    }
    if (node.name === 'tabs') return this.tabs(node, children);
    if (node.name === 'tab') {
      this.issue(node, ':::tab[Label] belongs inside a ::::tabs group');
      return this.checkOnly(children);
    }
    if ((KB_SECTIONS as readonly string[]).includes(node.name)) {
      const name = node.name as KbSection;
      if (!this.options.allowSections) {
        this.issue(node, `:::${name} sections are only allowed in knowledge-base articles`);
        return this.checkOnly(children);
      }
      if (!topLevel) {
        this.issue(node, `:::${name} must be at the top level of the article`);
        return this.checkOnly(children);
      }
      if (this.sections[name]) this.issue(node, `:::${name} appears more than once`);
      const content = this.blocks(children);
      this.sections[name] = doc(content);
      return [block(BLOCKS.HEADING_2, [text(SECTION_TITLES[name])]), ...content];
    }
    this.issue(node, `unsupported embedded type ":::${node.name}"`, false,
      didYouMean(node.name, ['callout', 'tabs', 'tab', 'cards', 'card', 'steps', 'file-tree', 'details', ...Object.keys(DIRECTIVE_ADMONITIONS), ...(this.options.allowSections ? KB_SECTIONS : [])]));
    return this.checkOnly(children);
  }

  /**
   * The blocks of something refused are still converted, for their own problems, and then dropped: one
   * run of the check reports them all, not the outer one first and the inner ones on the next run.
   */
  private checkOnly(children: RootContent[]): Block[] {
    this.blocks(children);
    return [];
  }

  /** Reports unknown attributes and missing required ones (directives.ts); true when there were none. */
  private attributes(node: ContainerDirective | LeafDirective, kind: string, shown: string): boolean {
    const problems = attributeProblems(kind, shown, node.attributes ?? {});
    for (const p of problems) this.issue(node, p.reason, false, p.hint);
    return problems.length === 0;
  }

  /** A card's or link card's link: a hyperlink node, so the import resolves and checks it like any link. */
  private cardLink(node: ContainerDirective | LeafDirective, href: string | null | undefined): Inline | undefined {
    if (!href) return undefined;
    const link = classifyUrl(href);
    if (link.kind === 'unsafe') {
      this.issue(node, `unsafe link ${quoteUrl(href)}: ${link.reason}; links must be http(s), mailto, tel, a site path or #anchor`);
      return undefined;
    }
    return this.link(href, node.position?.start.line, [], node.position?.start.column);
  }

  private card(node: ContainerDirective, children: RootContent[]): Card | undefined {
    if (!this.attributes(node, 'card', ':::card')) return undefined;
    const attrs = node.attributes ?? {};
    const card: Card = { title: (attrs.title ?? '').trim(), body: doc(this.blocks(children)) };
    if (attrs.icon) {
      const icon = lookupIcon(attrs.icon);
      if (!icon) {
        const near = nearestIcons(attrs.icon);
        this.issue(node, `unknown icon "${attrs.icon}"`, false, near.length > 0 ? `did you mean ${quotedList(near)}? (any Lucide icon name works: lucide.dev/icons)` : 'any Lucide icon name works: lucide.dev/icons');
      } else card.icon = { key: attrs.icon, nodes: icon.nodes };
    }
    const link = this.cardLink(node, attrs.href);
    if (link) card.link = link;
    return card;
  }

  private linkCard(node: LeafDirective): Card | undefined {
    if (!this.attributes(node, 'link-card', '::link-card')) return undefined;
    const attrs = node.attributes ?? {};
    const link = this.cardLink(node, attrs.href);
    if (!link) return undefined;
    return { title: (attrs.title ?? '').trim(), link, ...(attrs.description?.trim() ? { description: attrs.description.trim() } : {}) };
  }

  /** `::::cards` holding `:::card{…}` blocks and `::link-card{…}` lines: a grid, read as a list. */
  private cards(node: ContainerDirective, children: RootContent[]): Block[] {
    this.attributes(node, 'cards', '::::cards');
    const cards: Card[] = [];
    for (const child of children) {
      const card = child.type === 'containerDirective' && child.name === 'card' ? this.card(child, child.children)
        : child.type === 'leafDirective' && child.name === 'link-card' ? this.linkCard(child) : null;
      if (card === null) this.issue(child, 'a ::::cards group holds only :::card{title="…"} blocks and ::link-card{…} lines (use four colons for the group)');
      else if (card) cards.push(card);
    }
    if (cards.length === 0) return [];
    return [this.embedBlock(this.define({ type: 'cards', cards }))];
  }

  /** `::::tabs` holding one `:::tab[Label]` per tab. */
  private tabs(node: ContainerDirective, children: RootContent[]): Block[] {
    const tabs: { label: string; body: Document }[] = [];
    for (const child of children) {
      if (child.type !== 'containerDirective' || child.name !== 'tab') {
        this.issue(child, 'a ::::tabs group holds only :::tab[Label] blocks (use four colons for the group)');
        this.checkOnly([child]);
        continue;
      }
      const labelNode = child.children.find((c) => c.type === 'paragraph' && c.data?.directiveLabel);
      const label = (labelNode?.type === 'paragraph' ? textOf(block(BLOCKS.PARAGRAPH, this.inlines(labelNode.children, []))) : child.attributes?.label ?? '').trim();
      if (!label) this.issue(child, 'a tab needs a label: :::tab[macOS]');
      tabs.push({ label, body: doc(this.blocks(child.children.filter((c) => c !== labelNode))) });
    }
    if (tabs.length === 0) {
      this.issue(node, 'a ::::tabs group needs at least one :::tab[Label] block');
      return [];
    }
    return [this.embedBlock(this.define({ type: 'tabs', tabs }))];
  }

  private leaf(node: LeafDirective): Block[] {
    const attrs = node.attributes ?? {};
    switch (node.name) {
      case 'anchor':
        if (!attrs.id) {
          this.issue(node, 'anchor needs an id, e.g. ::anchor{id="configure-smtp"}');
          return [];
        }
        return [this.embedBlock(this.define({ type: 'anchor', id: attrs.id }))];
      case 'image':
        return [this.image(node, attrs.src ?? undefined, attrs.alt ?? '', attrs.title)];
      case 'video':
        return this.video(node);
      case 'embed':
        return this.embed(node);
      case 'link-card': {
        const card = this.linkCard(node);
        return card ? [this.embedBlock(this.define({ type: 'cards', cards: [card], single: true }))] : [];
      }
      case 'media':
      case 'fragment':
        if (!attrs.id) {
          this.issue(node, `${node.name} needs an id, e.g. ::${node.name}{id="..."}`);
          return [];
        }
        return [block(BLOCKS.EMBEDDED_ENTRY, [], { ...entryTarget(attrs.id), line: node.position?.start.line })];
      default:
        this.issue(node, `unsupported embedded type "::${node.name}"`, false, didYouMean(node.name, ['anchor', 'image', 'video', 'embed', 'link-card', 'media', 'fragment']));
        this.inlines(node.children, []);
        return [];
    }
  }

  /** `::video{src="https://…" title="…"}`: a player from one of the site's video hosts; as many as a page needs. */
  private video(node: LeafDirective): Block[] {
    const src = node.attributes?.src ?? '';
    const title = (node.attributes?.title ?? '').trim();
    const host = httpsHost(src);
    const hosts = (this.options.videoHosts ?? []).map((h) => h.toLowerCase());
    if (!host) this.issue(node, `video needs an https src, e.g. ::video{src="https://…" title="…"}`);
    else if (!hosts.includes(host)) {
      this.issue(node, `video host ${host} is not one of the site's videoHosts (${hosts.length > 0 ? hosts.join(', ') : 'none listed in site.yaml'})`);
    }
    if (!title) this.issue(node, 'video needs a title describing it: ::video{src="…" title="…"}');
    if (!host || !title) return [];
    return [this.embedBlock(this.define({ type: 'video', url: src, title }))];
  }

  /** `::embed{src="https://…" title="…"}`: another site's page in a sandboxed frame, from one of the site's embedHosts. */
  private embed(node: LeafDirective): Block[] {
    if (!this.attributes(node, 'embed', '::embed')) return [];
    const src = node.attributes?.src ?? '';
    const host = httpsHost(src);
    const hosts = (this.options.embedHosts ?? []).map((h) => h.toLowerCase());
    if (!host) {
      this.issue(node, 'embed needs an https src, e.g. ::embed{src="https://…" title="…"}');
      return [];
    }
    if (!hosts.includes(host)) {
      this.issue(node, `embed host ${host} is not one of the site's embedHosts (${hosts.length > 0 ? hosts.join(', ') : 'none listed in site.yaml'})`,
        false, `add ${host} to embedHosts in site.yaml`);
      return [];
    }
    return [this.embedBlock(this.define({ type: 'embed', url: src, title: (node.attributes?.title ?? '').trim() }))];
  }

  /** Inlines of a run of siblings: raw HTML that opens a tag takes the siblings up to the one that closes it. */
  inlines(nodes: PhrasingContent[], marks: string[]): (Inline | Text)[] {
    if (!nodes.some((n) => n.type === 'html')) return nodes.flatMap((node) => this.inline(node, marks));
    const out: (Inline | Text)[] = [];
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i] as PhrasingContent;
      if (node.type !== 'html') {
        out.push(...this.inline(node, marks));
        continue;
      }
      const tag = tagOf(node.value);
      if (tag === 'comment') continue;
      if (!tag || !isHtmlTag(tag.name)) {
        out.push(text(softBreaks(node.value), marks));
        continue;
      }
      if (tag.closing) continue;
      if (tag.name === 'br') {
        out.push(text('\n', marks));
        continue;
      }
      let end = i;
      if (!tag.selfClosing && !isVoid(tag.name)) {
        let depth = 0;
        for (let j = i + 1; j < nodes.length; j++) {
          const next = nodes[j] as PhrasingContent;
          const t = next.type === 'html' ? tagOf(next.value) : undefined;
          if (!t || t === 'comment' || t.name !== tag.name) continue;
          if (!t.closing && !t.selfClosing) depth += 1;
          else if (t.closing && depth-- === 0) {
            end = j;
            break;
          }
        }
        // `<data>` written bare and never closed is a placeholder, not an element.
        if (end === i && /^<[A-Za-z][A-Za-z0-9-]*>$/.test(node.value)) {
          out.push(text(node.value, marks));
          continue;
        }
      }
      out.push(...this.htmlInline(nodes.slice(i, end + 1) as PhrasingContent[], marks));
      i = end;
    }
    return out;
  }

  private htmlInline(group: PhrasingContent[], marks: string[]): (Inline | Text)[] {
    // `<kbd>…</kbd>` and the like, bare: the tree is built as is, with nothing to parse or remove.
    const first = group[0];
    const last = group[group.length - 1];
    const bare = first?.type === 'html' ? /^<([a-z]+)>$/.exec(first.value) : null;
    if (bare && SIMPLE_INLINE.has(bare[1] as string) && group.length > 2 && last?.type === 'html' && last.value === `</${bare[1]}>`
      && !group.slice(1, -1).some((n) => n.type === 'html')) {
      const slot = doc([block(BLOCKS.PARAGRAPH, this.inlines(group.slice(1, -1), marks))]);
      const tree: HastRoot = { type: 'root', children: [{ type: 'element', tagName: bare[1] as string, properties: {}, children: [{ type: 'element', tagName: SLOT_TAG, properties: { dataSlot: '0' }, children: [] }] }] };
      return [this.embedInline(this.define({ type: 'html', tree, slots: [slot], inline: true }))];
    }
    const id = this.html(group, (run) => doc([block(BLOCKS.PARAGRAPH, this.inlines(run, marks))]), true);
    return id ? [this.embedInline(id)] : [];
  }

  private inline(node: PhrasingContent, marks: string[]): (Inline | Text)[] {
    switch (node.type) {
      case 'text':
        // A footnote reference without a definition is left as text by the parser.
        if (node.value.includes('[^')) {
          const refs = [...node.value.matchAll(/\[\^([^\]\s]+)\]/g)];
          const places = this.placesIn(node, refs.map((m) => m[0]));
          refs.forEach((m, i) => this.issue(places[i] as Positioned, `footnote [^${m[1]}] has no definition ([^${m[1]}]: text)`));
        }
        return [text(softBreaks(node.value), marks)];
      case 'emphasis':
        return this.inlines(node.children, [...marks, MARKS.ITALIC]);
      case 'strong':
        return this.inlines(node.children, [...marks, MARKS.BOLD]);
      case 'delete':
        return this.inlines(node.children, [...marks, MARKS.STRIKETHROUGH]);
      case 'inlineCode':
        // CommonMark §6.1: line endings in a code span are spaces.
        return [text(node.value.replace(/\r\n?|\n/g, ' '), [...marks, MARKS.CODE])];
      case 'break':
        // A hard break (two spaces or a backslash before the line ending) is the one "\n" a text keeps.
        return [text('\n', marks)];
      case 'link':
        // The line lets the import name where an unsafe link is (checkDocument).
        return [this.link(node.url, node.position?.start.line, this.inlines(node.children, marks), node.position?.start.column)];
      case 'linkReference': {
        const def = this.definitions.get(node.identifier);
        if (!def) return [text(`[${node.label ?? node.identifier}]`, marks), ...this.inlines(node.children, marks)];
        return [this.link(def.url, node.position?.start.line, this.inlines(node.children, marks), node.position?.start.column)];
      }
      case 'image': {
        const id = this.imageEntry(node, node.url, node.alt ?? '', node.title);
        return id ? [this.embedInline(id)] : [];
      }
      case 'imageReference': {
        const def = this.definitions.get(node.identifier);
        const id = this.imageEntry(node, def?.url, node.alt ?? '', def?.title);
        return id ? [this.embedInline(id)] : [];
      }
      case 'footnoteReference': {
        if (!this.footnoteDefinitions.has(node.identifier)) {
          this.issue(node, `footnote [^${node.label ?? node.identifier}] has no definition ([^${node.label ?? node.identifier}]: text)`);
          return [];
        }
        if (!this.footnoteOrder.includes(node.identifier)) this.footnoteOrder.push(node.identifier);
        const n = this.footnoteOrder.indexOf(node.identifier) + 1;
        const ref = (this.footnoteRefs.get(node.identifier) ?? 0) + 1;
        this.footnoteRefs.set(node.identifier, ref);
        return [this.embedInline(this.define({ type: 'footnoteRef', label: node.label ?? node.identifier, n, ref }))];
      }
      case 'html':
        return this.inlines([node], marks);
      case 'textDirective':
        return this.textDirective(node, marks);
      default:
        this.issue(node, `unsupported Markdown element "${(node as { type: string }).type}"`);
        return [];
    }
  }

  private link(uri: string, line: number | undefined, content: (Inline | Text)[], column?: number): Inline {
    return { nodeType: INLINES.HYPERLINK, data: { uri, line, ...(column === undefined ? {} : { column }) }, content } as Inline;
  }

  /** `:icon{set="mdi" key="…"}`: an icon of another set than Lucide (only Material Design Icons so far). */
  private setIcon(node: TextDirective, set: string, key: string): (Inline | Text)[] {
    if (set !== 'mdi') {
      this.issue(node, `unknown icon set "${set}"`, false, 'set="mdi" (Material Design Icons, pictogrammers.com/library/mdi) or no set for Lucide');
      return [];
    }
    const icon = key ? lookupMdiIcon(key) : undefined;
    if (!icon) {
      const near = key ? nearestMdiIcons(key) : [];
      const any = 'any Material Design Icons name works: pictogrammers.com/library/mdi';
      if (key) this.issue(node, `unknown icon "${key}" in set "mdi"`, false, near.length > 0 ? `did you mean ${quotedList(near)}? (${any})` : any);
      else this.issue(node, 'icon needs a key, e.g. :icon{set="mdi" key="github"}', false, any);
      return [];
    }
    return [this.embedInline(this.define({ type: 'icon', iconKey: key, nodes: icon.nodes, set: 'mdi' }))];
  }

  private textDirective(node: TextDirective, marks: string[]): (Inline | Text)[] {
    const attrs = node.attributes ?? {};
    const line = node.position?.start.line;
    switch (node.name) {
      case 'link': {
        if (!attrs.to) {
          this.issue(node, 'link needs a target id, e.g. :link[Label]{to="entry-id"}');
          this.inlines(node.children, marks);
          return [];
        }
        const label = this.inlines(node.children, marks);
        return [{
          nodeType: INLINES.ENTRY_HYPERLINK, data: { ...entryTarget(attrs.to), line, ...(attrs.hash ? { hash: attrs.hash } : {}) },
          content: label.length > 0 ? label : [text('', marks)],
        } as Inline];
      }
      case 'icon': {
        const key = attrs.key ?? attrs.name ?? '';
        if (attrs.set !== undefined) return this.setIcon(node, attrs.set ?? '', key);
        const icon = key ? lookupIcon(key) : undefined;
        if (!icon) {
          const near = key ? nearestIcons(key) : [];
          const any = 'any Lucide icon name works: lucide.dev/icons';
          if (key) this.issue(node, `unknown icon "${key}"`, false, near.length > 0 ? `did you mean ${quotedList(near)}? (${any})` : any);
          else this.issue(node, 'icon needs a key, e.g. :icon{key="settings"}', false, any);
          return [];
        }
        return [this.embedInline(this.define({ type: 'icon', iconKey: key, nodes: icon.nodes }))];
      }
      case 'anchor':
        if (!attrs.id) {
          this.issue(node, 'anchor needs an id');
          return [];
        }
        return [this.embedInline(this.define({ type: 'anchor', id: attrs.id }))];
      case 'fragment':
        if (!attrs.id) {
          this.issue(node, 'fragment needs an id');
          return [];
        }
        return [this.embedInline(attrs.id, line)];
      default: {
        // Prose such as "Error:Timeout" parses as a directive; without a label or attributes it is text.
        const hasParts = node.children.length > 0 || Object.keys(attrs).length > 0;
        if (!hasParts) return [text(`:${node.name}`, marks)];
        this.issue(node, `unsupported embedded type ":${node.name}"`, false, didYouMean(node.name, ['link', 'icon', 'anchor', 'fragment']));
        this.inlines(node.children, marks);
        return [];
      }
    }
  }
}

/** The host of an https URL, lower-cased; '' for anything else (a frame's src must be https). */
function httpsHost(src: string): string {
  try {
    const url = new URL(src);
    return url.protocol === 'https:' ? url.host.toLowerCase() : '';
  } catch {
    return '';
  }
}
