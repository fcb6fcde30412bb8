import { useEffect, useRef, useState } from 'react';
import { useHydrated } from './use-hydrated.ts';
import { focusFirstLink } from './nav-lists.tsx';

export interface SiblingLinkProps {
  title: string;
  href: string;
  current: boolean;
}

export interface SiblingsWindowProps {
  heading: string;
  items: SiblingLinkProps[];
  /** The window (spec §4: the current index ±2), `end` exclusive; computed by the server. */
  start: number;
  end: number;
  /** The controls' text: 'Show N more' and what it is for screen readers (' pages above'). */
  moreAbove: { label: string; hint: string };
  moreBelow: { label: string; hint: string };
  /** The page listing the whole section, when `items` is itself a part of it. */
  all?: { href: string; label: string } | undefined;
}

const LIST_ID = 'siblings-list';

/**
 * The sibling window (spec §4, §9): five pages around the current one. Without JavaScript the others
 * are in 'Show N more' disclosures above and below the window. Hydrated, those are buttons that widen
 * the window in place to the start or the end of the list; focus moves to the first page shown.
 */
export function SiblingsWindow({ heading, items, start, end, moreAbove, moreBelow, all }: SiblingsWindowProps) {
  const hydrated = useHydrated();
  const [from, setFrom] = useState(start);
  const [to, setTo] = useState(end);
  const focusAt = useRef(-1);
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (focusAt.current < 0) return;
    focusFirstLink(listRef.current?.children[focusAt.current - from]);
    focusAt.current = -1;
  }, [from, to]);

  const list = (a: number, b: number, id?: string) => (
    <ul className="siblings-list" id={id} ref={id ? listRef : undefined}>
      {items.slice(a, b).map((item, i) => (
        <li key={`${a + i}-${item.href}`} className={item.current ? 'is-current' : undefined}>
          <a href={item.href} aria-current={item.current ? 'page' : undefined}>{item.title}</a>
        </li>
      ))}
    </ul>
  );
  const text = (more: { label: string; hint: string }) => <>{more.label}<span className="visually-hidden">{more.hint}</span></>;
  const allLink = all ? <p className="siblings-all"><a href={all.href}>{all.label}</a></p> : null;

  if (!hydrated) {
    return (
      <div className="siblings siblings-window">
        <h2>{heading}</h2>
        {start > 0 ? (
          <details className="siblings-more siblings-more-above">
            <summary>{text(moreAbove)}</summary>
            {list(0, start)}
          </details>
        ) : null}
        {list(start, end)}
        {end < items.length ? (
          <details className="siblings-more siblings-more-below">
            <summary>{text(moreBelow)}</summary>
            {list(end, items.length)}
          </details>
        ) : null}
        {allLink}
      </div>
    );
  }
  return (
    <div className="siblings siblings-window">
      <h2>{heading}</h2>
      {from > 0 ? (
        <button type="button" className="siblings-expand siblings-expand-up" aria-controls={LIST_ID} onClick={() => {
          focusAt.current = 0;
          setFrom(0);
        }}>{text(moreAbove)}</button>
      ) : null}
      {list(from, to, LIST_ID)}
      {to < items.length ? (
        <button type="button" className="siblings-expand siblings-expand-down" aria-controls={LIST_ID} onClick={() => {
          focusAt.current = to;
          setTo(items.length);
        }}>{text(moreBelow)}</button>
      ) : null}
      {allLink}
    </div>
  );
}
