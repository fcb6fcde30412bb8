/**
 * Site paths that routes serve at run time, with no content entry behind them: a body or a structural
 * field may link to these. The one list (test/content/links.test.ts asks the app for each).
 */

/** Exact paths. */
export const RUNTIME_PATHS: readonly string[] = [
  '/search-results', '/requests', '/named-contact', '/sitemap.xml', '/robots.txt',
];

/** Paths under these prefixes (sign-in and account pages under the default IDENTITY_URL). */
export const RUNTIME_PREFIXES: readonly string[] = ['/auth/'];

export function isRuntimePath(path: string): boolean {
  return RUNTIME_PATHS.includes(path) || RUNTIME_PREFIXES.some((prefix) => path.startsWith(prefix));
}
