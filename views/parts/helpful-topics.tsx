import type { CardLink, HelpfulTopicsModel } from '../view-model.ts';
import { LinkList, SiteLink } from './links.tsx';
import { useStrings } from '../i18n/catalogue.tsx';

/** Spec §9: at most this many topics render as cards; more become a plain link list. */
export const HELPFUL_CARDS_MAX = 5;

/** Spec §2 helpful topics: cards or links, then the three external links, always. */
export function HelpfulTopics({ model }: { model: HelpfulTopicsModel }) {
  const t = useStrings();
  const { cards, external } = model;
  return (
    <section className="helpful-topics">
      <h2>{t.product.helpfulTopics}</h2>
      {cards.length === 0 ? null : cards.length <= HELPFUL_CARDS_MAX ? (
        <ul className="helpful-cards">
          {cards.map((card) => (
            <li key={card.href}>
              {card.iconUrl ? <img src={card.iconUrl} alt="" width="80" height="80" /> : null}
              <h3><TopicLink card={card} /></h3>
              {card.description ? <p>{card.description}</p> : null}
            </li>
          ))}
        </ul>
      ) : (
        <ul className="helpful-links">
          {cards.map((card) => <li key={card.href}><TopicLink card={card} /></li>)}
        </ul>
      )}
      {external.length > 0 ? <LinkList links={external} className="helpful-external" /> : null}
    </section>
  );
}

function TopicLink({ card }: { card: CardLink }) {
  return <SiteLink href={card.href} external={card.external}>{card.title}</SiteLink>;
}
