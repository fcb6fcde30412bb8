const formats = new Map<string, Intl.DateTimeFormat>();

/** The date in the page's language, in UTC: 'Month D, YYYY' in English (spec §2 KB article), 'YYYY年M月D日' in Japanese. */
export function formatUpdated(iso: string, locale = 'en-US'): string {
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
    formats.set(locale, format);
  }
  return format.format(new Date(iso));
}
