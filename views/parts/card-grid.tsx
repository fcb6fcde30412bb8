import type { CardLink } from '../view-model.ts';
import { linkTarget } from './links.tsx';
import { useStrings } from '../i18n/catalogue.tsx';
import { CardGridMarkup, type CardItem } from '../islands/cards.tsx';

/** Cards as the grid shows them: each link classified by the one URL classifier, unsafe ones left out. */
export function cardItems(cards: CardLink[]): CardItem[] {
  return cards.flatMap((card) => {
    const target = linkTarget(card.href, card.external);
    if (!target) return [];
    return [{ title: card.title, href: target.href, external: target.external, description: card.description, iconUrl: card.iconUrl, buttonText: card.buttonText }];
  });
}

/**
 * A grid of link cards: a list whose items each carry a heading (of the level the page needs) holding the
 * link (markup in views/islands/cards.tsx, shared with the home page's platform tabs).
 */
export function CardGrid({ cards, headingLevel, iconSize }: { cards: CardLink[]; headingLevel: 2 | 3; iconSize?: number }) {
  const t = useStrings();
  return <CardGridMarkup cards={cardItems(cards)} headingLevel={headingLevel} opensInNewTab={t.opensInNewTab} iconSize={iconSize} />;
}
