import type { SiblingItem, SiblingsModel } from '../view-model.ts';
import { useStrings } from '../i18n/catalogue.tsx';

/** Items the sibling window shows (spec §9). */
export const SIBLING_WINDOW_SIZE = 5;
const REACH = 2;

/**
 * The window of sibling pages around the current one (spec §4): the current index ±2, the first five
 * when the index is 2 or less, the last five near the end; all of them when there are five or fewer.
 * `end` is exclusive. An index outside the list counts as the nearest end.
 */
export function siblingWindow(count: number, index: number): { start: number; end: number } {
  if (count <= SIBLING_WINDOW_SIZE) return { start: 0, end: Math.max(count, 0) };
  const at = Math.min(Math.max(index, 0), count - 1);
  const start = Math.min(Math.max(at - REACH, 0), count - SIBLING_WINDOW_SIZE);
  return { start, end: start + SIBLING_WINDOW_SIZE };
}

/**
 * Sibling pages in the sidebar. Window mode shows five around the current page and keeps the rest
 * in 'Show N more' disclosures, so every sibling is reachable without JavaScript; a script may later
 * turn them into expand-up/expand-down buttons (data-island="siblings"). Progress mode (guides)
 * lists every sibling marked visited, current or upcoming.
 */
export function Siblings({ model }: { model: SiblingsModel }) {
  const t = useStrings();
  if (model.items.length === 0) return null;
  const currentIndex = model.items.findIndex((i) => i.current);
  if (model.mode === 'progress') {
    return (
      <div className="siblings siblings-progress">
        <h2>{model.heading}</h2>
        <ol className="siblings-list">
          {model.items.map((item, i) => {
            const state = item.progress ?? progressByPosition(i, currentIndex);
            return (
              <li key={`${i}-${item.href}`} className={`progress-${state}`}>
                <SiblingLink item={item} />
                <span className="visually-hidden">{` (${t.siblings[state]})`}</span>
              </li>
            );
          })}
        </ol>
      </div>
    );
  }
  const { start, end } = siblingWindow(model.items.length, currentIndex);
  const before = model.items.slice(0, start);
  const shown = model.items.slice(start, end);
  const after = model.items.slice(end);
  return (
    <div className="siblings siblings-window" data-island="siblings">
      <h2>{model.heading}</h2>
      {before.length > 0 ? <More items={before} offset={0} where="above" /> : null}
      <SiblingList items={shown} offset={start} />
      {after.length > 0 ? <More items={after} offset={end} where="below" /> : null}
      {model.more ? <p className="siblings-all"><a href={model.more.href}>{t.tree.allPages(model.more.count, model.more.title)}</a></p> : null}
    </div>
  );
}

/** Without a stored mark, pages before the current one count as visited. */
function progressByPosition(index: number, current: number): 'visited' | 'current' | 'upcoming' {
  if (index === current) return 'current';
  return current >= 0 && index < current ? 'visited' : 'upcoming';
}

function More({ items, offset, where }: { items: SiblingItem[]; offset: number; where: 'above' | 'below' }) {
  const t = useStrings();
  return (
    <details className={`siblings-more siblings-more-${where}`}>
      <summary>{t.showCountMore(items.length)}<span className="visually-hidden">{where === 'above' ? t.siblings.pagesAbove : t.siblings.pagesBelow}</span></summary>
      <SiblingList items={items} offset={offset} />
    </details>
  );
}

function SiblingList({ items, offset }: { items: SiblingItem[]; offset: number }) {
  return (
    <ul className="siblings-list">
      {items.map((item, i) => <li key={`${offset + i}-${item.href}`} className={item.current ? 'is-current' : undefined}><SiblingLink item={item} /></li>)}
    </ul>
  );
}

function SiblingLink({ item }: { item: SiblingItem }) {
  return <a href={item.href} aria-current={item.current ? 'page' : undefined}>{item.title}</a>;
}
