import type { CardLink, UpNextModel } from '../view-model.ts';
import { useStrings } from '../i18n/catalogue.tsx';

/** Guide navigation (spec §2 Up next): previous and next cards, then the guide's other topic sets. */
export function UpNext({ model }: { model: UpNextModel }) {
  const t = useStrings();
  if (!model.previous && !model.next && model.otherSets.length === 0) return null;
  return (
    <section className="up-next" aria-labelledby="up-next-heading">
      <h2 id="up-next-heading">{t.upNext.heading}</h2>
      {model.previous || model.next ? (
        <ul className="up-next-cards">
          {model.previous ? <StepCard card={model.previous} direction="previous" /> : null}
          {model.next ? <StepCard card={model.next} direction="next" /> : null}
        </ul>
      ) : null}
      {model.otherSets.length > 0 ? (
        <>
          <h3>{t.upNext.moreInGuide}</h3>
          <ul className="up-next-sets">
            {model.otherSets.map((set, i) => (
              <li key={`${i}-${set.href}`}>
                <a href={set.href}>{set.title}</a>
                {set.description ? <p>{set.description}</p> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function StepCard({ card, direction }: { card: CardLink; direction: 'previous' | 'next' }) {
  const t = useStrings();
  const previous = direction === 'previous';
  return (
    <li className={`up-next-card up-next-${direction}`}>
      <a href={card.href} rel={previous ? 'prev' : 'next'}>
        {previous ? <span className="up-next-arrow" aria-hidden="true">←</span> : null}
        <span className="up-next-label">{previous ? t.upNext.previous : t.upNext.next}</span>{' '}
        <span className="up-next-title">{card.title}</span>
        {previous ? null : <span className="up-next-arrow" aria-hidden="true">→</span>}
      </a>
      {card.description ? <p>{card.description}</p> : null}
    </li>
  );
}
