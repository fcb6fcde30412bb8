import type { ReactNode } from 'react';

/** A product page's hero: icon, title, tagline, then what the page puts under them. */
export function ProductHero({ title, tagline, iconUrl, children }: {
  title: string;
  tagline?: string | undefined;
  iconUrl?: string | undefined;
  children?: ReactNode;
}) {
  return (
    <div className="hero product-hero">
      {iconUrl ? <img className="product-icon" src={iconUrl} alt="" width="75" height="75" /> : null}
      <div>
        <h1>{title}</h1>
        {tagline ? <p className="tagline">{tagline}</p> : null}
        {children}
      </div>
    </div>
  );
}
