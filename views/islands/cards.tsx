/**
 * The markup of a grid of link cards (views/parts/card-grid.tsx is its server wrapper, which classifies
 * the links): client-safe, so an island (the home page's platform tabs) renders the very same cards.
 * Each item carries a heading of the level the page needs holding the link; the button text, when
 * present, is the visible end of the link's text, so every link's accessible name includes the title.
 */
import { CardItem as CardListItem, type NavCard } from './nav-lists.tsx';

export type CardItem = NavCard;

export function CardGridMarkup({ cards, headingLevel, opensInNewTab, iconSize }: {
  cards: CardItem[]; headingLevel: 2 | 3; opensInNewTab: string; iconSize?: number | undefined;
}) {
  if (cards.length === 0) return null;
  return (
    <ul className={iconSize ? `card-grid card-icons-${iconSize}` : 'card-grid'}>
      {cards.map((card, i) => <CardListItem key={`${i}-${card.href}`} card={card} headingLevel={headingLevel} opensInNewTab={opensInNewTab} iconSize={iconSize} />)}
    </ul>
  );
}
