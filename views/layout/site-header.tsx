import type { Chrome } from '../view-model.ts';
import { IconGlyph } from '../parts/icon.tsx';

export function SiteHeader({ chrome }: { chrome: Chrome }) {
  return (
    <header className="site-header">
      <a className="site-logo" href={chrome.localePrefix || '/'}>
        <img src={chrome.logoUrl} alt="" width="32" height="32" />
        <span>{chrome.siteName}</span>
      </a>
      <nav aria-label="Site">
        <ul className="site-nav">
          <li><a href={`${chrome.localePrefix}/contact`}>Contact support</a></li>
          <li>
            <a href="/search-results/" target="_blank" rel="noopener" className="search-link">
              <IconGlyph name="search" /> Search <span className="visually-hidden">(opens in a new tab)</span>
            </a>
          </li>
        </ul>
      </nav>
    </header>
  );
}
