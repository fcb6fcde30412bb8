/**
 * The site's own pages: routes of Signpost that no content entry answers (the results page, the
 * assistant, support requests, insights). A page view or search of one of them is of a live page, so the
 * insights name it rather than calling its path a page that no longer exists. Paths as the analytics
 * store them: without query, a trailing slash or not.
 */
import { ASSISTANT_PATH } from '../assistant/routes.tsx';
import { REPORT_PROBLEM_PATH } from '../support/forms/page.tsx';
import { SENT_PATH } from '../support/form-routes.tsx';
import { LIST_PATH as REQUESTS_PATH } from '../support/request-routes.tsx';
import { PATH as STAFF_REQUESTS_PATH } from '../support/requests/staff-routes.tsx';
import { PATH as NAMED_CONTACT_PATH } from '../support/requests/named-contact-routes.tsx';

export const INSIGHTS_PATH = '/insights';
export const SEARCH_RESULTS_PATH = '/search-results';

export interface SitePage {
  name: string;
  /** Whether staff may follow it: a person's own request is not a page for anybody else. */
  linked: boolean;
}

const escape = (path: string) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The path itself, or one segment under it (`:reference`), with or without a trailing slash. */
const at = (path: string, child?: 'child') => new RegExp(`^${escape(path)}${child ? '/[^/]+' : ''}/?$`);

const SITE_PAGES: [RegExp, (m: string) => SitePage][] = [
  [at(SEARCH_RESULTS_PATH), () => ({ name: 'Search results', linked: true })],
  [at(ASSISTANT_PATH), () => ({ name: 'Assistant', linked: true })],
  [at(INSIGHTS_PATH), () => ({ name: 'Insights', linked: true })],
  [at(INSIGHTS_PATH, 'child'), () => ({ name: 'Insights', linked: true })],
  [at(REQUESTS_PATH), () => ({ name: 'Support requests', linked: true })],
  [at(REQUESTS_PATH, 'child'), (path) => ({ name: `Support request ${path.split('/').filter(Boolean).pop() ?? ''}`, linked: false })],
  [at(STAFF_REQUESTS_PATH), () => ({ name: 'Support requests (staff)', linked: true })],
  [at(STAFF_REQUESTS_PATH, 'child'), (path) => ({ name: `Support request ${path.split('/').filter(Boolean).pop() ?? ''} (staff)`, linked: false })],
  [at(SENT_PATH, 'child'), () => ({ name: 'Request sent', linked: false })],
  [at(REPORT_PROBLEM_PATH), () => ({ name: 'Report a problem', linked: true })],
  [at(NAMED_CONTACT_PATH), () => ({ name: 'Named contacts', linked: true })],
];

/** The site's own page on this path, if it is one. */
export function sitePage(path: string): SitePage | undefined {
  for (const [pattern, page] of SITE_PAGES) if (pattern.test(path)) return page(path);
  return undefined;
}
