/**
 * The markup of a grid of link cards (views/parts/card-grid.tsx is its server wrapper, which classifies
 * the links): client-safe, so an island (the home page's platform tabs) renders the very same cards.
 * Each item carries a heading of the level the page needs holding the link; the button text, when
 * present, is the visible end of the link's text, so every link's accessible name includes the title.
 */
export interface CardItem {
  title: string;
  href: string;
  /** Another site: opens in a new tab and says so. */
  external: boolean;
  description?: string | undefined;
  iconUrl?: string | undefined;
  buttonText?: string | undefined;
}

export function CardGridMarkup({ cards, headingLevel, opensInNewTab }: { cards: CardItem[]; headingLevel: 2 | 3; opensInNewTab: string }) {
  if (cards.length === 0) return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ul className="card-grid">
      {cards.map((card, i) => (
        <li key={`${i}-${card.href}`} className={card.buttonText ? 'card has-button' : 'card'}>
          {card.iconUrl ? <img className="card-icon" src={card.iconUrl} alt="" width="80" height="80" loading="lazy" /> : null}
          <Heading className="card-title">
            <a {...(card.external ? { href: card.href, target: '_blank', rel: 'noopener' } : { href: card.href })}>
              <span className="card-name">{card.title}</span>
              {card.external ? <span className="visually-hidden">{opensInNewTab}</span> : null}
              {card.buttonText ? <>{' '}<span className="card-button">{card.buttonText}</span></> : null}
            </a>
          </Heading>
          {card.description ? <p className="card-description">{card.description}</p> : null}
        </li>
      ))}
    </ul>
  );
}
