const MONTH_D_YYYY = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** 'Month D, YYYY' in UTC (spec §2 KB article). */
export function formatUpdated(iso: string): string {
  return MONTH_D_YYYY.format(new Date(iso));
}
