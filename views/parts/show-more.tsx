import type { CardLink, Link } from '../view-model.ts';
import { useStrings } from '../i18n/catalogue.tsx';
import { Island } from '../island.tsx';
import { linkTarget } from './links.tsx';
import { CardGrid } from './card-grid.tsx';
import { LinkList } from './links.tsx';
import { ShowMore as ShowMoreIsland, type ShowMoreList } from '../islands/show-more.tsx';
import type { NavCard, NavLink } from '../islands/nav-lists.tsx';

export type ShowMoreItems =
  | { kind: 'cards'; cards: CardLink[]; headingLevel: 2 | 3 }
  | { kind: 'links'; links: (Link & { external?: boolean | undefined })[] };

/**
 * A list of cards or links showing its `first` items, then the rest behind 'Show more' (spec §4, §9):
 * the show-more island (views/islands/show-more.tsx). A list no longer than `first` is the plain list.
 * `id` names the list in the page (unique); `summary` is the control's text, 'Show more' by default.
 */
export function ShowMore({ items, first, id, summary }: { items: ShowMoreItems; first: number; id: string; summary?: string | ((hidden: number) => string) }) {
  const t = useStrings();
  const list = islandList(items);
  if (list.items.length <= first) {
    return items.kind === 'cards' ? <CardGrid cards={items.cards} headingLevel={items.headingLevel} /> : <LinkList links={items.links} />;
  }
  const hidden = list.items.length - first;
  return (
    <Island
      name="show-more"
      hydrate="interaction"
      component={ShowMoreIsland}
      props={{
        list, first, id,
        summary: typeof summary === 'function' ? summary(hidden) : summary ?? t.showMore,
        showFewer: t.showFewer,
        opensInNewTab: t.opensInNewTab,
      }}
    />
  );
}

/** The list as plain data, its links classified here (the island has no URL classifier); unsafe cards are dropped as CardGrid drops them. */
function islandList(items: ShowMoreItems): ShowMoreList {
  if (items.kind === 'links') {
    return {
      kind: 'links',
      items: items.links.map((l): NavLink => {
        const target = linkTarget(l.href, l.external);
        return target ? { label: l.label, href: target.href, external: target.external } : { label: l.label, external: false };
      }),
    };
  }
  return {
    kind: 'cards',
    headingLevel: items.headingLevel,
    items: items.cards.flatMap((card): NavCard[] => {
      const target = linkTarget(card.href, card.external);
      if (!target) return [];
      return [{
        title: card.title, href: target.href, external: target.external,
        ...(card.description ? { description: card.description } : {}),
        ...(card.iconUrl ? { iconUrl: card.iconUrl } : {}),
        ...(card.buttonText ? { buttonText: card.buttonText } : {}),
      }];
    }),
  };
}
