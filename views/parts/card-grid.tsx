import type { CardLink } from '../view-model.ts';
import { anchorProps, linkTarget } from './links.tsx';
import { useStrings } from '../i18n/catalogue.tsx';

/**
 * A grid of link cards: a list whose items each carry a heading (of the level the page needs) holding the
 * link. The button text, when present, is the visible end of the link's text (drawn as a button at the
 * foot of the card), so every link's accessible name includes the card title and stays unique.
 */
export function CardGrid({ cards, headingLevel }: { cards: CardLink[]; headingLevel: 2 | 3 }) {
  const t = useStrings();
  if (cards.length === 0) return null;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ul className="card-grid">
      {cards.map((card, i) => {
        const target = linkTarget(card.href, card.external);
        if (!target) return null;
        return (
        <li key={`${i}-${card.href}`} className={card.buttonText ? 'card has-button' : 'card'}>
          {card.iconUrl ? <img className="card-icon" src={card.iconUrl} alt="" width="80" height="80" loading="lazy" /> : null}
          <Heading className="card-title">
            <a {...anchorProps(target)}>
              <span className="card-name">{card.title}</span>
              {target.external ? <span className="visually-hidden">{t.opensInNewTab}</span> : null}
              {card.buttonText ? <>{' '}<span className="card-button">{card.buttonText}</span></> : null}
            </a>
          </Heading>
          {card.description ? <p className="card-description">{card.description}</p> : null}
        </li>
        );
      })}
    </ul>
  );
}
