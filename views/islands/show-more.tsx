import { useEffect, useRef, useState } from 'react';
import { useHydrated } from './use-hydrated.ts';
import { CardItem, LinkItem, focusFirstLink, type NavCard, type NavLink } from './nav-lists.tsx';

export type ShowMoreList =
  | { kind: 'cards'; headingLevel: 2 | 3; items: NavCard[] }
  | { kind: 'links'; items: NavLink[] };

export interface ShowMoreProps {
  list: ShowMoreList;
  /** How many items show before 'Show more' (spec §9: 5). */
  first: number;
  /** Id of the list once enhanced (the button's aria-controls): unique in the page. */
  id: string;
  /** The collapsed control's text: the disclosure's summary, then the button's. */
  summary: string;
  showFewer: string;
  opensInNewTab: string;
}

/**
 * A child or documentation list (spec §4): its first items, then the rest. Without JavaScript the rest
 * is in a 'Show more' <details> under the list. Hydrated, the rest joins the same list in place when
 * the button under it is pressed (focus moves to the first item revealed), and 'Show fewer' hides it
 * again, focus staying on the button.
 */
export function ShowMore({ list, first, id, summary, showFewer, opensInNewTab }: ShowMoreProps) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  const revealed = useRef(false);
  useEffect(() => {
    if (!open || !revealed.current) return;
    revealed.current = false;
    focusFirstLink(listRef.current?.children[first]);
  }, [open, first]);

  const render = (from: number, to: number, listId?: string) => {
    const className = list.kind === 'cards' ? 'card-grid' : 'link-list';
    const items = list.kind === 'cards'
      ? list.items.slice(from, to).map((card, i) => <CardItem key={`${from + i}-${card.href}`} card={card} headingLevel={list.headingLevel} opensInNewTab={opensInNewTab} />)
      : list.items.slice(from, to).map((link, i) => <LinkItem key={`${from + i}-${link.href ?? ''}`} link={link} opensInNewTab={opensInNewTab} />);
    return <ul className={className} id={listId} ref={listId ? listRef : undefined}>{items}</ul>;
  };
  const count = list.items.length;

  if (!hydrated || count <= first) {
    return (
      <>
        {render(0, first)}
        {count > first ? (
          <details className="show-more">
            <summary>{summary}</summary>
            {render(first, count)}
          </details>
        ) : null}
      </>
    );
  }
  return (
    <>
      {render(0, open ? count : first, id)}
      <button
        type="button"
        className="show-more-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => {
          revealed.current = !open;
          setOpen(!open);
        }}
      >
        {open ? showFewer : summary}
      </button>
    </>
  );
}
