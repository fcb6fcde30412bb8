/** Props shared by every page view: plain, serialisable data prepared by the route. */
export interface Chrome {
  siteName: string;
  logoUrl: string;
  lang: string;
  /** /ja when the page is Japanese (spec §9 locale prefix). */
  localePrefix: '' | '/ja';
  preview: boolean;
  assets: { css: string; js: string };
  nonce: string;
  canonicalUrl: string;
  title: string;
  description?: string | undefined;
  year: number;
}

export interface Crumb {
  label: string;
  href: string;
}
