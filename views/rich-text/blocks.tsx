/**
 * Body blocks of the documentation tools' components: card grids, file trees and code with highlighted
 * lines. Each is plain HTML that reads in order without JavaScript or CSS (a grid is a list, a tree a
 * nested list whose items say whether they are a folder or a file).
 */
import { Fragment, type ReactNode } from 'react';
import type { Card, Document, FileTreeItem } from '../../server/content/rich-text.ts';
import { classifyUrl } from '../../server/content/urls.ts';
import { lookupIcon } from '../../server/content/markdown/icons.ts';
import { ContentIcon } from '../parts/icon.tsx';

export function Cards({ cards, single, level, render }: { cards: Card[]; single?: boolean | undefined; level: number; render: (body: Document) => ReactNode }): ReactNode {
  const items = cards.map((card, i) => <CardItem key={i} card={card} level={level} render={render} as={single ? 'div' : 'li'} />);
  return single ? <>{items}</> : <ul className="cards">{items}</ul>;
}

function CardItem({ card, level, render, as: Tag }: { card: Card; level: number; render: (body: Document) => ReactNode; as: 'div' | 'li' }): ReactNode {
  const Heading = `h${Math.min(Math.max(level, 2), 6)}` as 'h3';
  const link = card.link ? classifyUrl((card.link.data as { uri?: unknown }).uri) : undefined;
  const href = link && link.kind !== 'unsafe' ? link.href : undefined;
  const title = href ? <a href={href} {...(link?.kind === 'external' ? { rel: 'noopener' } : {})}>{card.title}</a> : card.title;
  return (
    <Tag className={`card${card.body ? '' : ' link-card'}${href ? ' card-linked' : ''}`}>
      <Heading className="card-title">
        {card.icon ? <span className="card-icon" aria-hidden="true"><ContentIcon nodes={card.icon.nodes} label={card.icon.key} size={20} /></span> : null}
        {title}
      </Heading>
      {card.description ? <p className="card-description">{card.description}</p> : null}
      {card.body ? render(card.body) : null}
    </Tag>
  );
}

const FOLDER = lookupIcon('folder')?.nodes ?? [];
const FILE = lookupIcon('file')?.nodes ?? [];

/** A file tree: each item's icon is named Folder or File, so the kind is heard as well as seen. */
export function FileTree({ items }: { items: FileTreeItem[] }): ReactNode {
  return <div className="file-tree"><FileList items={items} /></div>;
}

function FileList({ items }: { items: FileTreeItem[] }): ReactNode {
  return (
    <ul>
      {items.map((item, i) => (
        <li key={i} className={item.folder ? 'file-tree-folder' : 'file-tree-file'}>
          <span className="file-tree-entry">
            <ContentIcon nodes={item.folder ? FOLDER : FILE} label={item.folder ? 'Folder' : 'File'} />
            {' '}{item.highlight ? <strong className="file-tree-name">{item.name}</strong> : <span className="file-tree-name">{item.name}</span>}
            {item.comment ? <span className="file-tree-comment"> {item.comment}</span> : null}
          </span>
          {item.children.length > 0 ? <FileList items={item.children} /> : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * Code whose highlighted lines are <mark>s with a bar at their start: seen without colour, and the code
 * region's name lists them for screen readers (text added inside the code would be copied with it).
 */
export function CodeLines({ code, highlight }: { code: string; highlight: number[] }): ReactNode {
  const marked = new Set(highlight);
  const lines = code.split('\n');
  return (
    <>
      {lines.map((line, i) => (
        <Fragment key={i}>
          {marked.has(i + 1) ? <mark className="code-line-highlight">{line}</mark> : line}
          {i < lines.length - 1 ? '\n' : ''}
        </Fragment>
      ))}
    </>
  );
}

/**
 * A video player: the host's embedded player in a 16:9 frame, loaded when it nears the viewport. Body
 * videos (`::video`) and a topic's featured video (spec §2) are this same player; `title` names the frame.
 */
export function VideoPlayer({ url, title }: { url: string; title: string }) {
  return (
    <div className="video-frame">
      <iframe src={url} title={title} loading="lazy" allowFullScreen
        allow="accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture" referrerPolicy="strict-origin-when-cross-origin" />
    </div>
  );
}
