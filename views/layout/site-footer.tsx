import type { Chrome } from '../view-model.ts';
import { useStrings } from '../i18n/catalogue.tsx';

/** Spec §2: legal links from the site metadata (under /ja on Japanese pages), and the copyright with the UTC year. */
export function SiteFooter({ chrome }: { chrome: Chrome }) {
  const t = useStrings();
  return (
    <footer className="site-footer">
      {chrome.footerLinks.length > 0 ? (
        <nav aria-label={t.footer.legal} data-analytics="footer_click">
          <ul>
            {chrome.footerLinks.map(({ label, href }) => <li key={href}><a href={href}>{label}</a></li>)}
          </ul>
        </nav>
      ) : null}
      <p className="copyright">{`© ${chrome.year} ${chrome.siteName}`}</p>
    </footer>
  );
}
