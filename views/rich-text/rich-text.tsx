/**
 * Rich-text documents -> React. Used at import to produce stored HTML and at request time in
 * preview mode. Unknown embedded entries and types without a renderer are errors (spec §5).
 */
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { documentToReactComponents, type Options } from '@contentful/rich-text-react-renderer';
import GithubSlugger from 'github-slugger';
import { BLOCKS, INLINES, headingLevel, textOf, type Block, type Document, type Inline, type RichNode, type EmbeddedEntry } from '../../server/content/rich-text.ts';
import { RichTextError } from '../../server/content/problems.ts';
import { trustRenderedMarkup, type SafeHtml } from './safe-html.tsx';
import { IconGlyph } from '../parts/icon.tsx';
import { classifyUrl, quoteUrl, safeHref } from '../../server/content/urls.ts';

/** What a document may embed or link to, by id: the link list. */
export type LinkedEntry =
  | EmbeddedEntry
  | { type: 'media'; image: { url: string }; altTag: string }
  | { type: 'fragment'; document: Document }
  | { type: 'page'; entryType: string; url: string; title: string }
  | { type: 'unrenderable'; entryType: string };
export type LinkList = Record<string, LinkedEntry>;

const BLOCK_RENDERERS = new Set(['callout', 'codeBlock', 'kbImage', 'anchor', 'media', 'fragment']);
const INLINE_RENDERERS = new Set(['icon', 'anchor', 'fragment']);

/** Problems a document would raise when rendered, all of them, with lines where known. */
export function checkDocument(doc: Document, links: LinkList): { line?: number; reason: string }[] {
  const problems: { line?: number; reason: string }[] = [];
  const walk = (node: RichNode | Document) => {
    const data = node.data as { target?: { sys?: { id?: string } }; line?: number; uri?: string };
    const id = data.target?.sys?.id;
    const at = data.line === undefined ? {} : { line: data.line };
    if (node.nodeType === INLINES.HYPERLINK) {
      const link = classifyUrl(data.uri);
      if (link.kind === 'unsafe') {
        problems.push({ ...at, reason: `unsafe link ${quoteUrl(String(data.uri ?? ''))}: ${link.reason}; links must be http(s), mailto, tel, a site path or #anchor` });
      }
    }

    if (id !== undefined) {
      const target = links[id];
      const kind = node.nodeType === BLOCKS.EMBEDDED_ENTRY ? 'block' : node.nodeType === INLINES.EMBEDDED_ENTRY ? 'inline' : 'link';
      if (!target) problems.push({ ...at, reason: `${kind === 'link' ? 'link target' : 'embedded entry'} "${id}" does not exist` });
      else if (kind === 'link' && target.type !== 'page') problems.push({ ...at, reason: `link target "${id}" is not a page` });
      else if (kind === 'block' && !BLOCK_RENDERERS.has(target.type)) problems.push({ ...at, reason: `no renderer for embedded entry type "${entryTypeName(target)}" ("${id}")` });
      else if (kind === 'inline' && !INLINE_RENDERERS.has(target.type)) problems.push({ ...at, reason: `no inline renderer for entry type "${entryTypeName(target)}" ("${id}")` });
      else if (target.type === 'callout') walk(target.body);
    }
    if ('content' in node) for (const child of node.content as RichNode[]) walk(child);
  };
  walk(doc);
  return problems;
}

function entryTypeName(entry: LinkedEntry): string {
  return entry.type === 'page' || entry.type === 'unrenderable' ? entry.entryType : entry.type;
}


/** Heading ids for h2-h4 of a document, and its 'on this page' list (h2, h3). */
export function headingAnchors(doc: Document, links: LinkList = {}) {
  const slugger = new GithubSlugger();
  // Author-placed anchors keep their ids; headings take the next free one.
  for (const entry of Object.values(links)) if (entry.type === 'anchor') slugger.slug(entry.id);
  const ids = new Map<Block, string>();
  const toc: { id: string; text: string; level: 2 | 3 }[] = [];
  for (const node of doc.content as Block[]) {
    const level = headingLevel(node);
    if (level < 2) continue;
    const title = textOf(node).trim();
    const id = slugger.slug(title) || `section-${ids.size + 1}`;
    ids.set(node, id);
    if (level <= 3) toc.push({ id, text: title, level: level as 2 | 3 });
  }
  return { ids, toc };
}

export function RichText({ document, links, depth = 0, inline = false }: { document: Document; links: LinkList; depth?: number; inline?: boolean }): ReactNode {
  if (depth > 4) throw new RichTextError('text fragments nest more than 4 deep (a fragment includes itself?)');
  const { ids } = headingAnchors(document, links);
  const lookup = (node: Block | Inline): LinkedEntry => {
    const id = (node.data as { target?: { sys?: { id?: string } } }).target?.sys?.id ?? '';
    const entry = links[id];
    if (!entry) throw new RichTextError(`embedded entry "${id}" not found in the link list`, (node.data as { line?: number }).line);
    return entry;
  };
  const heading = (Tag: 'h2' | 'h3' | 'h4') => (node: Block | Inline, children: ReactNode) => (
    <Tag id={ids.get(node as Block)}>{children}</Tag>
  );
  const options: Options = {
    renderText: (text) => {
      const parts = text.split('\n');
      return parts.flatMap((part, i) => (i === 0 ? [part] : [<br key={i} />, part]));
    },
    renderNode: {
      ...(inline ? { [BLOCKS.PARAGRAPH]: (_node: Block | Inline, children: ReactNode) => <>{children}</> } : {}),
      [BLOCKS.HEADING_1]: heading('h2'),
      [BLOCKS.HEADING_2]: heading('h2'),
      [BLOCKS.HEADING_3]: heading('h3'),
      [BLOCKS.HEADING_4]: heading('h4'),
      [BLOCKS.TABLE]: (_node, children) => (
        <div className="table-scroll" role="region" aria-label="Table" tabIndex={0}>
          <table><tbody>{children}</tbody></table>
        </div>
      ),
      [BLOCKS.TABLE_HEADER_CELL]: (_node, children) => <th scope="col">{children}</th>,
      [INLINES.HYPERLINK]: (node, children) => {
        // Checked at import; preview renders stored documents at request time, so an unsafe link
        // is rendered as its text here too rather than trusted.
        const link = classifyUrl((node.data as { uri?: unknown }).uri);
        if (link.kind === 'unsafe') return <>{children}</>;
        return <a href={link.href} {...(link.kind === 'external' ? { rel: 'noopener' } : {})}>{children}</a>;
      },
      [INLINES.ENTRY_HYPERLINK]: (node, children) => {
        const target = lookup(node);
        if (target.type !== 'page') throw new RichTextError(`link target is a ${target.type}, not a page`);
        const hash = (node.data as { hash?: string }).hash;
        return <a href={hash ? `${target.url}#${hash}` : target.url}>{children}</a>;
      },
      [BLOCKS.EMBEDDED_ENTRY]: (node) => <EmbeddedBlock entry={lookup(node)} links={links} depth={depth} />,
      [INLINES.EMBEDDED_ENTRY]: (node) => <EmbeddedInline entry={lookup(node)} links={links} depth={depth} />,
    },
  };
  return <>{documentToReactComponents(document, options)}</>;
}

function EmbeddedBlock({ entry, links, depth }: { entry: LinkedEntry; links: LinkList; depth: number }): ReactNode {
  switch (entry.type) {
    case 'callout':
      return (
        <div className={`callout callout-${entry.appearance}`} role="note" aria-label={entry.heading ?? calloutLabel(entry.appearance)}>
          {entry.heading ? <p className="callout-heading">{entry.heading}</p> : null}
          <RichText document={entry.body} links={links} depth={depth} />
        </div>
      );
    case 'codeBlock':
      return (
        <figure className="code-block">
          {entry.title ? <figcaption>{entry.title}</figcaption> : null}
          {entry.code === ''
            ? <pre><code /></pre>
            // A long line scrolls: the scrolling region is focusable and named for keyboard and screen-reader users
            // (a <pre> itself may not carry a name).
            : <div className="code-scroll" role="region" aria-label={entry.title ? `Code: ${entry.title}` : 'Code'} tabIndex={0}>
                <pre><code className={entry.language ? `language-${entry.language}` : undefined}>{entry.code}</code></pre>
              </div>}
        </figure>
      );
    case 'kbImage':
      return <ContentImage src={entry.image.url} alt={entry.altText} />;
    case 'media':
      return <ContentImage src={entry.image.url} alt={entry.altTag} />;
    case 'anchor':
      return <span id={entry.id} className="anchor-target" />;
    case 'fragment':
      return <RichText document={entry.document} links={links} depth={depth + 1} />;
    default:
      throw new RichTextError(`no renderer for embedded entry type "${entryTypeName(entry)}"`);
  }
}

function EmbeddedInline({ entry, links, depth }: { entry: LinkedEntry; links: LinkList; depth: number }): ReactNode {
  switch (entry.type) {
    case 'icon':
      return <IconGlyph name={entry.iconKey} label={entry.iconKey} />;
    case 'anchor':
      return <span id={entry.id} className="anchor-target" />;
    case 'fragment': {
      // Inline use takes the fragment's first paragraph's content.
      const first = (entry.document.content as Block[]).find((n) => n.nodeType === BLOCKS.PARAGRAPH);
      if (!first) return null;
      const inlineDoc = { ...entry.document, content: [first] } as Document;
      return <span className="fragment"><RichText document={inlineDoc} links={links} depth={depth + 1} inline /></span>;
    }
    default:
      throw new RichTextError(`no inline renderer for entry type "${entryTypeName(entry)}"`);
  }
}

function ContentImage({ src, alt }: { src: string; alt: string }): ReactNode {
  const safe = safeHref(src, { images: true });
  if (safe === undefined) return null;
  return <figure className="content-image"><img src={safe} alt={alt} loading="lazy" /></figure>;
}

function calloutLabel(appearance: string): string {
  return { info: 'Note', tip: 'Tip', warning: 'Warning', error: 'Important', success: 'Success' }[appearance] ?? 'Note';
}

/** Renders a document to stored HTML. */
export function renderRichText(document: Document, links: LinkList): SafeHtml {
  return trustRenderedMarkup(renderToStaticMarkup(<RichText document={document} links={links} />));
}
