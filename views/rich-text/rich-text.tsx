/**
 * Rich-text documents -> React. Used at import to produce stored HTML and at request time in
 * preview mode. Unknown embedded entries and types without a renderer are errors (spec §5).
 */
import { useId, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { documentToReactComponents, type Options } from '@contentful/rich-text-react-renderer';
import GithubSlugger from 'github-slugger';
import { BLOCKS, INLINES, headingLevel, textOf, type Block, type Document, type Inline, type RichNode, type EmbeddedEntry } from '../../server/content/rich-text.ts';
import { RichTextError } from '../../server/content/problems.ts';
import { trustRenderedMarkup, JsonScript, islandJson, type SafeHtml } from './safe-html.tsx';
import { BodyTabs, type BodyTabsProps } from '../islands/body-tabs.tsx';
import { StringsProvider, useStrings } from '../i18n/catalogue.tsx';
import { IconGlyph, ContentIcon } from '../parts/icon.tsx';
import { SanitisedHtml } from './sanitised-html.tsx';
import { classifyUrl, quoteUrl, safeHref } from '../../server/content/urls.ts';
import { Cards, CodeLines, FileTree, VideoPlayer } from './blocks.tsx';

/** What a document may embed or link to, by id: the link list. */
export type LinkedEntry =
  | EmbeddedEntry
  | { type: 'media'; image: { url: string }; altTag: string }
  | { type: 'fragment'; document: Document }
  | { type: 'page'; entryType: string; url: string; title: string }
  | { type: 'unrenderable'; entryType: string };
export type LinkList = Record<string, LinkedEntry>;

const BLOCK_RENDERERS = new Set(['callout', 'codeBlock', 'kbImage', 'anchor', 'media', 'fragment', 'html', 'tabs', 'footnotes', 'video', 'embed', 'cards', 'steps', 'fileTree', 'details']);
const INLINE_RENDERERS = new Set(['icon', 'anchor', 'fragment', 'html', 'footnoteRef', 'kbImage']);

/** Documents an embedded entry holds (a callout's body, Markdown inside raw HTML, tabs, footnotes). */
function innerDocuments(entry: LinkedEntry): Document[] {
  switch (entry.type) {
    case 'callout': return [entry.body];
    case 'html': return entry.slots;
    case 'tabs': return entry.tabs.map((t) => t.body);
    case 'footnotes': return entry.items.map((i) => i.body);
    case 'cards': return entry.cards.flatMap((c) => (c.body ? [c.body] : []));
    case 'steps': case 'details': return [entry.body];
    default: return [];
  }
}

/** Problems a document would raise when rendered, all of them, with lines where known. */
export function checkDocument(doc: Document, links: LinkList): { line?: number; column?: number; reason: string }[] {
  const problems: { line?: number; column?: number; reason: string }[] = [];
  const walk = (node: RichNode | Document) => {
    const data = node.data as { target?: { sys?: { id?: string } }; line?: number; column?: number; uri?: string };
    const id = data.target?.sys?.id;
    const at = data.line === undefined ? {} : { line: data.line, ...(data.column === undefined ? {} : { column: data.column }) };
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
      else for (const inner of innerDocuments(target)) walk(inner);
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
  // So do headings with an id of their own (`## Title {#id}`).
  for (const node of doc.content as Block[]) {
    const own = (node.data as { id?: unknown }).id;
    if (headingLevel(node) >= 2 && typeof own === 'string') slugger.slug(own);
  }
  const ids = new Map<Block, string>();
  // A tab group's labels take ids in the same sequence, so `#linux` opens the Linux tab.
  const tabIds = new Map<Block, string[]>();
  const toc: { id: string; text: string; level: 2 | 3 }[] = [];
  for (const node of doc.content as Block[]) {
    const target = node.nodeType === BLOCKS.EMBEDDED_ENTRY ? links[(node.data as { target?: { sys?: { id?: string } } }).target?.sys?.id ?? ''] : undefined;
    if (target?.type === 'tabs') tabIds.set(node, target.tabs.map((tab, i) => slugger.slug(tab.label) || slugger.slug(`tab-${i + 1}`)));
    const level = headingLevel(node);
    if (level < 2) continue;
    const title = textOf(node).trim();
    const own = (node.data as { id?: unknown }).id;
    const id = typeof own === 'string' ? own : slugger.slug(title) || `section-${ids.size + 1}`;
    ids.set(node, id);
    if (level <= 3) toc.push({ id, text: title, level: level as 2 | 3 });
  }
  return { ids, toc, tabIds };
}

/** `level`: the heading level the document sits under (a tab's label), so groups inside it head their parts one below. */
export function RichText({ document, links, depth = 0, inline = false, level: under = 1 }: { document: Document; links: LinkList; depth?: number; inline?: boolean; level?: number }): ReactNode {
  if (depth > 4) throw new RichTextError('text fragments nest more than 4 deep (a fragment includes itself?)');
  const { ids, tabIds } = headingAnchors(document, links);
  // Tab labels are headings one level below the heading before them.
  const levels = new Map<Block, number>();
  let last = under;
  for (const node of document.content as Block[]) {
    const level = headingLevel(node);
    if (level > 0) last = level;
    else if (node.nodeType === BLOCKS.EMBEDDED_ENTRY) levels.set(node, Math.min(last + 1, 6));
  }
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
      [BLOCKS.TABLE_HEADER_CELL]: (node, children) => <th scope="col" className={alignClass(node)}>{children}</th>,
      [BLOCKS.TABLE_CELL]: (node, children) => <td className={alignClass(node)}>{children}</td>,
      [BLOCKS.LIST_ITEM]: (node, children) => {
        const checked = (node.data as { checked?: unknown }).checked;
        return typeof checked === 'boolean' ? <TaskItem checked={checked}>{children}</TaskItem> : <li>{children}</li>;
      },
      [BLOCKS.OL_LIST]: (node, children) => {
        const start = (node.data as { start?: unknown }).start;
        return <ol start={typeof start === 'number' ? start : undefined}>{children}</ol>;
      },
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
      [BLOCKS.EMBEDDED_ENTRY]: (node) => <EmbeddedBlock entry={lookup(node)} links={links} depth={depth} level={levels.get(node as Block) ?? 3} tabIds={tabIds.get(node as Block)} />,
      [INLINES.EMBEDDED_ENTRY]: (node) => <EmbeddedInline entry={lookup(node)} links={links} depth={depth} />,
    },
  };
  return <>{documentToReactComponents(document, options)}</>;
}

function alignClass(node: Block | Inline): string | undefined {
  const align = (node.data as { align?: unknown }).align;
  return align === 'left' || align === 'center' || align === 'right' ? `align-${align}` : undefined;
}

/** A task-list item: a read-only checkbox (its state is announced), named by the item's text. */
function TaskItem({ checked, children }: { checked: boolean; children: ReactNode }): ReactNode {
  const id = useId();
  return (
    <li className="task-item">
      <input type="checkbox" defaultChecked={checked} disabled aria-labelledby={id} />
      <div id={id} className="task-text">{children}</div>
    </li>
  );
}

function EmbeddedBlock({ entry, links, depth, level, tabIds }: { entry: LinkedEntry; links: LinkList; depth: number; level: number; tabIds?: string[] | undefined }): ReactNode {
  switch (entry.type) {
    case 'callout': {
      const className = `callout callout-${entry.appearance}${entry.inline ? ` callout-inline callout-inline-${entry.inline}` : ''}`;
      const label = entry.heading ?? calloutLabel(entry.appearance);
      // Collapsible: a <details>, which opens and closes without JavaScript; its summary names it.
      if (entry.collapsible) {
        return (
          <details className={`${className} callout-collapsible`} open={entry.open}>
            <summary className="callout-heading">{label}</summary>
            <RichText document={entry.body} links={links} depth={depth} />
          </details>
        );
      }
      return (
        <div className={className} role="note" aria-label={label}>
          {entry.heading ? <p className="callout-heading">{entry.heading}</p> : null}
          <RichText document={entry.body} links={links} depth={depth} />
        </div>
      );
    }
    case 'codeBlock':
      return (
        <figure className="code-block">
          {entry.title ? <figcaption>{entry.title}</figcaption> : null}
          {entry.code === ''
            ? <pre><code /></pre>
            // A long line scrolls: the scrolling region is focusable and named for keyboard and screen-reader users
            // (a <pre> itself may not carry a name).
            : <div className="code-scroll" role="region" tabIndex={0}
                aria-label={`${entry.title ? `Code: ${entry.title}` : 'Code'}${entry.highlight ? `, ${highlightLabel(entry.highlight)}` : ''}`}>
                <pre><code className={entry.language ? `language-${entry.language}` : undefined}>
                  {entry.highlight ? <CodeLines code={entry.code} highlight={entry.highlight} /> : entry.code}
                </code></pre>
              </div>}
        </figure>
      );
    case 'kbImage':
      return <ContentImage src={entry.image.url} alt={entry.altText} title={entry.title} width={entry.image.width} height={entry.image.height} />;
    case 'html':
      return <SanitisedHtml tree={entry.tree} slot={(i) => <RichText document={entry.slots[i] ?? EMPTY} links={links} depth={depth} />} />;
    case 'tabs':
      return <Tabs tabs={entry.tabs} links={links} depth={depth} level={level} ids={tabIds} />;
    case 'footnotes':
      return <Footnotes items={entry.items} links={links} depth={depth} />;
    case 'video':
      return <VideoPlayer url={entry.url} title={entry.title} />;
    case 'embed':
      // Another site's page, sandboxed: its scripts run in its own origin, it cannot navigate this page.
      return (
        <figure className="embed-frame">
          <div className="embed-frame-box">
            <iframe src={entry.url} title={entry.title} loading="lazy" referrerPolicy="strict-origin-when-cross-origin"
              sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox" />
          </div>
          <figcaption><a href={entry.url} rel="noopener">{entry.title}</a></figcaption>
        </figure>
      );
    case 'cards':
      return <Cards cards={entry.cards} single={entry.single} level={level} render={(body) => <RichText document={body} links={links} depth={depth} level={level} />} />;
    case 'steps':
      return <div className="steps"><RichText document={entry.body} links={links} depth={depth} /></div>;
    case 'fileTree':
      return <FileTree items={entry.items} />;
    case 'details':
      return (
        <details className="details" open={entry.open}>
          <summary>{entry.summary}</summary>
          <RichText document={entry.body} links={links} depth={depth} />
        </details>
      );
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

const EMPTY: Document = { nodeType: BLOCKS.DOCUMENT, data: {}, content: [] };

/**
 * A tab group: the body-tabs island (views/islands/body-tabs.tsx), plain sections headed by their labels
 * without JavaScript, tabs with it. Its props are the labels and ids; the panels are rendered here only.
 * Ids come from the body's heading slugs (stable across imports, so links to a tab keep working); a
 * group nested in another block, which has no place in that sequence, takes generated ones.
 */
function Tabs({ tabs, links, depth, level, ids }: { tabs: { label: string; body: Document }[]; links: LinkList; depth: number; level: number; ids?: string[] | undefined }): ReactNode {
  const base = useId();
  const props: BodyTabsProps = { tabs: tabs.map((tab, i) => ({ id: ids?.[i] ?? `${base}-${i}`, label: tab.label })), level };
  return (
    <>
      <JsonScript json={islandJson(props)} data-island-props="body-tabs" />
      <div className="island" data-island="body-tabs" data-hydrate="visible">
        <BodyTabs {...props} panels={tabs.map((tab, i) => <RichText key={i} document={tab.body} links={links} depth={depth} level={level} />)} />
      </div>
    </>
  );
}

/** A body's footnotes, labelled in the page's language (the strings in context; renderRichText's language). */
function Footnotes({ items, links, depth }: { items: { n: number; refs: number; body: Document }[]; links: LinkList; depth: number }): ReactNode {
  const strings = useStrings().footnotes;
  return (
    <section className="footnotes" aria-label={strings.heading}>
      <ol>
        {items.map((item) => (
          <li key={item.n} id={`fn-${item.n}`}>
            <RichText document={item.body} links={links} depth={depth} />
            {' '}{Array.from({ length: item.refs }, (_, k) => (
              <a key={k} href={`#fnref-${item.n}${k === 0 ? '' : `-${k + 1}`}`} className="footnote-back" aria-label={strings.backTo(`${item.n}${k === 0 ? '' : `-${k + 1}`}`)}>↩</a>
            ))}
          </li>
        ))}
      </ol>
    </section>
  );
}

function EmbeddedInline({ entry, links, depth }: { entry: LinkedEntry; links: LinkList; depth: number }): ReactNode {
  switch (entry.type) {
    case 'icon':
      return entry.nodes ? <ContentIcon nodes={entry.nodes} label={entry.iconKey} filled={entry.set === 'mdi'} /> : <IconGlyph name={entry.iconKey} label={entry.iconKey} />;
    case 'html':
      return <SanitisedHtml tree={entry.tree} slot={(i) => <RichText document={entry.slots[i] ?? EMPTY} links={links} depth={depth} inline />} />;
    case 'footnoteRef': {
      const suffix = entry.ref === 1 ? '' : `-${entry.ref}`;
      return <sup className="footnote-ref"><a href={`#fn-${entry.n}`} id={`fnref-${entry.n}${suffix}`}>{entry.n}</a></sup>;
    }
    case 'kbImage': {
      const safe = safeHref(entry.image.url, { images: true });
      return safe === undefined ? null : <img className="inline-image" src={safe} alt={entry.altText} title={entry.title} loading="lazy" />;
    }
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

/** A block image; its intrinsic size (from the import) reserves its box, so the text below it does not move as it loads. */
function ContentImage({ src, alt, title, width, height }: { src: string; alt: string; title?: string | undefined; width?: number | undefined; height?: number | undefined }): ReactNode {
  const safe = safeHref(src, { images: true });
  if (safe === undefined) return null;
  return <figure className="content-image"><img src={safe} alt={alt} width={width} height={height} loading="lazy" />{title ? <figcaption>{title}</figcaption> : null}</figure>;
}

/** '3 highlighted lines: 1, 3 to 4', said with the code's name. */
function highlightLabel(lines: number[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let j = i;
    while (j + 1 < lines.length && (lines[j + 1] as number) === (lines[j] as number) + 1) j++;
    ranges.push(j === i ? String(lines[i]) : `${lines[i]} to ${lines[j]}`);
    i = j;
  }
  return `highlighted line${lines.length === 1 ? '' : 's'} ${ranges.join(', ')}`;
}

function calloutLabel(appearance: string): string {
  return { info: 'Note', tip: 'Tip', warning: 'Warning', error: 'Important', success: 'Success' }[appearance] ?? 'Note';
}

let rendered = 0;

/**
 * Renders a document to stored HTML, its fixed words (footnotes) in the page's language (a BCP 47 tag,
 * e.g. `ja-JP`; English without one); generated ids (task items, tabs) differ between the bodies of a page.
 */
export function renderRichText(document: Document, links: LinkList, language?: string): SafeHtml {
  rendered = (rendered + 1) % 1e9;
  const lang = (language ?? 'en').split('-')[0] ?? 'en';
  return trustRenderedMarkup(renderToStaticMarkup(
    <StringsProvider lang={lang}><RichText document={document} links={links} /></StringsProvider>,
    { identifierPrefix: `b${rendered.toString(36)}-` },
  ));
}
