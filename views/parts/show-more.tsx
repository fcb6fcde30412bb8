import type { ReactNode } from 'react';
import { useStrings } from '../i18n/catalogue.tsx';

/** The first items, then the rest behind a 'Show more' disclosure (enhanced by the show-more island). */
export function ShowMore<T>({ items, first, summary, render }: {
  items: T[];
  first: number;
  summary?: string | ((hidden: number) => string);
  render: (items: T[]) => ReactNode;
}) {
  const t = useStrings();
  const shown = items.slice(0, first);
  const rest = items.slice(first);
  return (
    <>
      {shown.length > 0 ? render(shown) : null}
      {rest.length > 0 ? (
        <details className="show-more" data-island="show-more">
          <summary>{typeof summary === 'function' ? summary(rest.length) : summary ?? t.showMore}</summary>
          {render(rest)}
        </details>
      ) : null}
    </>
  );
}
