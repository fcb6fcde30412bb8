import type { Chrome } from '../view-model.ts';

const LINKS = [
  ['Accessibility', '/legal/accessibility'],
  ['Privacy choices', '/legal/privacy-choices'],
  ['Privacy policy', '/legal/privacy-policy'],
  ['Terms of service', '/legal/cloud-terms-of-service'],
  ['Impressum', '/legal/impressum'],
  ['Security and data protection', '/trust/security'],
] as const;

export function SiteFooter({ chrome }: { chrome: Chrome }) {
  return (
    <footer className="site-footer">
      <nav aria-label="Legal">
        <ul>
          {LINKS.map(([label, href]) => <li key={href}><a href={`${chrome.localePrefix}${href}`}>{label}</a></li>)}
        </ul>
      </nav>
      <p>{`© ${chrome.year} ${chrome.siteName}`}</p>
    </footer>
  );
}
