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
      {/* Spec §9: the product icon's box is 75x110; a square icon sits in it whole (object-fit). */}
      {iconUrl ? <img className="product-icon" src={iconUrl} alt="" width="75" height="110" /> : null}
      <div>
        <h1>{title}</h1>
        {tagline ? <p className="tagline">{tagline}</p> : null}
        {children}
      </div>
    </div>
  );
}
