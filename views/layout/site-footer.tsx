import type { Chrome } from '../view-model.ts';

/** Spec §2: legal links, each under /ja on Japanese pages, and the copyright with the UTC year. */
export const FOOTER_LINKS = [
  { label: 'Accessibility', href: '/legal/accessibility' },
  { label: 'Privacy choices', href: '/legal/privacy-choices' },
  { label: 'Privacy policy', href: '/legal/privacy-policy' },
  { label: 'Terms of service', href: '/legal/cloud-terms-of-service' },
  { label: 'Impressum', href: '/legal/impressum' },
  { label: 'Security and data protection', href: '/trust/security' },
] as const;

export function SiteFooter({ chrome }: { chrome: Chrome }) {
  return (
    <footer className="site-footer">
      <nav aria-label="Legal">
        <ul>
          {FOOTER_LINKS.map(({ label, href }) => <li key={href}><a href={`${chrome.localePrefix}${href}`}>{label}</a></li>)}
        </ul>
      </nav>
      <p className="copyright">{`© ${chrome.year} ${chrome.siteName}`}</p>
    </footer>
  );
}
