/**
 * Markdown bodies -> rich-text documents. CommonMark + GFM tables; embedded entries and
 * extensions are directives (README "Authoring"). Raw HTML is refused, never passed through.
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkFrontmatter from 'remark-frontmatter';
import remarkDirective from 'remark-directive';
import type { Root, RootContent, PhrasingContent, Table } from 'mdast';
import type { ContainerDirective, LeafDirective, TextDirective } from 'mdast-util-directive';
import {
  BLOCKS, INLINES, MARKS, CALLOUT_APPEARANCES, ICON_KEYS, entryTarget, normaliseHeadings, text,
  type Block, type Document, type EmbeddedEntry, type Inline, type Text, type CalloutAppearance,
} from './rich-text.ts';
import { classifyUrl, quoteUrl } from './urls.ts';

const parser = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm).use(remarkDirective);

export const KB_SECTIONS = ['summary', 'diagnosis', 'cause', 'solution'] as const;
export type KbSection = (typeof KB_SECTIONS)[number];
const SECTION_TITLES: Record<KbSection, string> = { summary: 'Summary', diagnosis: 'Diagnosis', cause: 'Cause', solution: 'Solution' };

export interface BodyIssue {
  line: number;
  reason: string;
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
}

/** Splits front matter from a Markdown file without parsing the body. */
export function splitFrontMatter(source: string): { frontMatter: { text: string; line: number } | null; body: string; bodyLine: number } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(source);
  if (!match) return { frontMatter: null, body: source, bodyLine: 1 };
  const fmLines = match[0].split('\n').length - 1;
  return { frontMatter: { text: match[1] ?? '', line: 2 }, body: source.slice(match[0].length), bodyLine: fmLines + 1 };
}

export function parseMarkdown(source: string, options: ParseOptions): ParsedMarkdown {
  const tree = parser.parse(source) as Root;
  const state = new Converter(options);
  let frontMatter: ParsedMarkdown['frontMatter'] = null;
  const blocks: Block[] = [];
  tree.children.forEach((node, index) => {
    if (node.type === 'yaml' && index === 0) {
      frontMatter = { text: node.value, line: 2 };
      return;
    }
    blocks.push(...state.block(node, true));
  });
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

class Converter {
  embedded: Record<string, EmbeddedEntry> = {};
  sections: Partial<Record<KbSection, Document>> = {};
  issues: BodyIssue[] = [];
  private counter = 0;

  constructor(private readonly options: ParseOptions) {}

  private issue(node: { position?: { start: { line: number } } | undefined }, reason: string) {
    this.issues.push({ line: node.position?.start.line ?? 1, reason });
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

  block(node: RootContent, topLevel = false): Block[] {
    switch (node.type) {
      case 'paragraph': {
        const only = node.children.length === 1 ? node.children[0] : undefined;
        if (only?.type === 'image') return [this.image(only, only.url, only.alt ?? '')];
        const inlines = this.inlines(node.children, []);
        return inlines.length > 0 ? [block(BLOCKS.PARAGRAPH, inlines)] : [];
      }
      case 'heading':
        return [block(`heading-${node.depth}`, this.inlines(node.children, []))];
      case 'thematicBreak':
        return [block(BLOCKS.HR, [])];
      case 'blockquote':
        return [block(BLOCKS.QUOTE, node.children.flatMap((c) => this.block(c)))];
      case 'list':
        return [block(node.ordered ? BLOCKS.OL_LIST : BLOCKS.UL_LIST, node.children.map((item) =>
          block(BLOCKS.LIST_ITEM, item.children.flatMap((c) => this.block(c)))))];
      case 'table':
        return [this.table(node)];
      case 'code': {
        const title = /(?:^|\s)title=(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(node.meta ?? '');
        const entry: EmbeddedEntry = { type: 'codeBlock', code: node.value };
        if (node.lang) entry.language = node.lang;
        const t = title?.[1] ?? title?.[2] ?? title?.[3];
        if (t) entry.title = t;
        return [this.embedBlock(this.define(entry))];
      }
      case 'html':
        this.issue(node, 'raw HTML is not allowed; use Markdown or a directive');
        return [];
      case 'containerDirective':
        return this.container(node, topLevel);
      case 'leafDirective':
        return this.leaf(node);
      case 'yaml':
        this.issue(node, 'front matter must be the first thing in the file');
        return [];
      case 'definition':
      case 'footnoteDefinition':
        this.issue(node, `${node.type === 'definition' ? 'reference-style link definitions' : 'footnotes'} are not supported`);
        return [];
      default:
        this.issue(node, `unsupported Markdown element "${node.type}"`);
        return [];
    }
  }

  private table(node: Table): Block {
    return block(BLOCKS.TABLE, node.children.map((row, r) =>
      block(BLOCKS.TABLE_ROW, row.children.map((cell) =>
        block(r === 0 ? BLOCKS.TABLE_HEADER_CELL : BLOCKS.TABLE_CELL, [block(BLOCKS.PARAGRAPH, this.inlines(cell.children, []))])))));
  }

  private image(node: RootContent | LeafDirective, url: string | undefined, alt: string): Block {
    if (!url) {
      this.issue(node, 'image needs a src');
      return block(BLOCKS.PARAGRAPH, []);
    }
    if (alt.trim() === '') this.issue(node, `image ${url} needs alt text describing it`);
    const source = classifyUrl(url, { images: true });
    if (source.kind === 'unsafe') this.issue(node, `unsafe image source ${quoteUrl(url)}: ${source.reason}; images must be http(s) or a site path`);
    return this.embedBlock(this.define({ type: 'kbImage', image: { url }, altText: alt }));
  }

  private container(node: ContainerDirective, topLevel: boolean): Block[] {
    const children = node.children.filter((c) => !(c.type === 'paragraph' && c.data?.directiveLabel));
    if (node.name === 'callout') {
      const appearance = node.attributes?.appearance ?? 'info';
      if (!(CALLOUT_APPEARANCES as readonly string[]).includes(appearance)) {
        this.issue(node, `callout appearance "${appearance}" is not one of ${CALLOUT_APPEARANCES.join(', ')}`);
      }
      const entry: EmbeddedEntry = {
        type: 'callout', appearance: appearance as CalloutAppearance, body: doc(children.flatMap((c) => this.block(c))),
      };
      if (node.attributes?.heading) entry.heading = node.attributes.heading;
      return [this.embedBlock(this.define(entry))];
    }
    if ((KB_SECTIONS as readonly string[]).includes(node.name)) {
      const name = node.name as KbSection;
      if (!this.options.allowSections) {
        this.issue(node, `:::${name} sections are only allowed in knowledge-base articles`);
        return [];
      }
      if (!topLevel) {
        this.issue(node, `:::${name} must be at the top level of the article`);
        return [];
      }
      if (this.sections[name]) this.issue(node, `:::${name} appears more than once`);
      const content = children.flatMap((c) => this.block(c));
      this.sections[name] = doc(content);
      return [block(BLOCKS.HEADING_2, [text(SECTION_TITLES[name])]), ...content];
    }
    this.issue(node, `unsupported embedded type ":::${node.name}"`);
    return [];
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
        return [this.image(node, attrs.src ?? undefined, attrs.alt ?? '')];
      case 'media':
      case 'fragment':
        if (!attrs.id) {
          this.issue(node, `${node.name} needs an id, e.g. ::${node.name}{id="..."}`);
          return [];
        }
        return [block(BLOCKS.EMBEDDED_ENTRY, [], { ...entryTarget(attrs.id), line: node.position?.start.line })];
      default:
        this.issue(node, `unsupported embedded type "::${node.name}"`);
        return [];
    }
  }

  inlines(nodes: PhrasingContent[], marks: string[]): (Inline | Text)[] {
    return nodes.flatMap((node) => this.inline(node, marks));
  }

  private inline(node: PhrasingContent, marks: string[]): (Inline | Text)[] {
    switch (node.type) {
      case 'text':
        return [text(node.value, marks)];
      case 'emphasis':
        return this.inlines(node.children, [...marks, MARKS.ITALIC]);
      case 'strong':
        return this.inlines(node.children, [...marks, MARKS.BOLD]);
      case 'delete':
        return this.inlines(node.children, [...marks, MARKS.STRIKETHROUGH]);
      case 'inlineCode':
        return [text(node.value, [...marks, MARKS.CODE])];
      case 'break':
        return [text('\n', marks)];
      case 'link':
        // The line lets the import name where an unsafe link is (checkDocument).
        return [{ nodeType: INLINES.HYPERLINK, data: { uri: node.url, line: node.position?.start.line }, content: this.inlines(node.children, marks) } as Inline];
      case 'image':
        this.issue(node, 'an image must stand in a paragraph of its own');
        return [];
      case 'html':
        this.issue(node, 'raw HTML is not allowed; use Markdown or a directive');
        return [];
      case 'textDirective':
        return this.textDirective(node, marks);
      default:
        this.issue(node, `unsupported Markdown element "${node.type}"`);
        return [];
    }
  }

  private textDirective(node: TextDirective, marks: string[]): (Inline | Text)[] {
    const attrs = node.attributes ?? {};
    const line = node.position?.start.line;
    switch (node.name) {
      case 'link': {
        if (!attrs.to) {
          this.issue(node, 'link needs a target id, e.g. :link[Label]{to="entry-id"}');
          return [];
        }
        const label = this.inlines(node.children, marks);
        return [{
          nodeType: INLINES.ENTRY_HYPERLINK, data: { ...entryTarget(attrs.to), line, ...(attrs.hash ? { hash: attrs.hash } : {}) },
          content: label.length > 0 ? label : [text('', marks)],
        } as Inline];
      }
      case 'icon': {
        const key = attrs.key ?? '';
        if (!(ICON_KEYS as readonly string[]).includes(key)) {
          this.issue(node, `icon key "${key}" is not one of ${ICON_KEYS.join(', ')}`);
          return [];
        }
        return [{ nodeType: INLINES.EMBEDDED_ENTRY, data: entryTarget(this.define({ type: 'icon', iconKey: key })), content: [] } as Inline];
      }
      case 'anchor':
        if (!attrs.id) {
          this.issue(node, 'anchor needs an id');
          return [];
        }
        return [{ nodeType: INLINES.EMBEDDED_ENTRY, data: entryTarget(this.define({ type: 'anchor', id: attrs.id })), content: [] } as Inline];
      case 'fragment':
        if (!attrs.id) {
          this.issue(node, 'fragment needs an id');
          return [];
        }
        return [{ nodeType: INLINES.EMBEDDED_ENTRY, data: { ...entryTarget(attrs.id), line }, content: [] } as Inline];
      default: {
        // Prose such as "Error:Timeout" parses as a directive; without a label or attributes it is text.
        const hasParts = node.children.length > 0 || Object.keys(attrs).length > 0;
        if (!hasParts) return [text(`:${node.name}`, marks)];
        this.issue(node, `unsupported embedded type ":${node.name}"`);
        return [];
      }
    }
  }
}
