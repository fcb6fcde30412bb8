import type { SiblingItem, SiblingsModel } from '../view-model.ts';
import { useStrings } from '../i18n/catalogue.tsx';
import { Island } from '../island.tsx';
import { SiblingsWindow, type SiblingsWindowProps } from '../islands/siblings.tsx';

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
 * Sibling pages in the sidebar. Window mode is the siblings island (views/islands/siblings.tsx): five
 * around the current page, the rest in 'Show N more' disclosures without JavaScript (every sibling is
 * reachable), expand-up and expand-down buttons with it. Progress mode (guides) lists every sibling
 * marked visited, current or upcoming.
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
  const props: SiblingsWindowProps = {
    heading: model.heading,
    items: model.items.map(({ title, href, current }) => ({ title, href, current })),
    start, end,
    moreAbove: { label: t.showCountMore(start), hint: t.siblings.pagesAbove },
    moreBelow: { label: t.showCountMore(model.items.length - end), hint: t.siblings.pagesBelow },
    ...(model.more ? { all: { href: model.more.href, label: t.tree.allPages(model.more.count, model.more.title) } } : {}),
  };
  // A list that fits the window has nothing to widen: the same markup, without a script.
  if (end - start === model.items.length) return <SiblingsWindow {...props} />;
  return <Island name="siblings" hydrate="interaction" component={SiblingsWindow} props={props} />;
}

/** Without a stored mark, pages before the current one count as visited. */
function progressByPosition(index: number, current: number): 'visited' | 'current' | 'upcoming' {
  if (index === current) return 'current';
  return current >= 0 && index < current ? 'visited' : 'upcoming';
}

function SiblingLink({ item }: { item: SiblingItem }) {
  return <a href={item.href} aria-current={item.current ? 'page' : undefined}>{item.title}</a>;
}
