/**
 * Every island by name. A name is the `data-island` value in the page and the module islands/<name>.tsx
 * (or .ts) that the browser loads for it, on its own, only where the page has one (islands/main.ts).
 */
export const ISLAND_NAMES = [
  // React islands: views/island.tsx renders them, islands/hydrate.tsx hydrates them.
  'site-header',
  'platform-tabs',
  'page-tree',
  'siblings',
  'show-more',
  'version-selector',
  'feedback',
  'credits',
  'auto-submit',
  'body-tabs',
  'assistant-widget',
  'assistant-summary',
  'session-watch',
  // Enhanced in place (htmx swaps and form comfort), not hydrated.
  'search',
  'support-form',
] as const;

export type IslandName = (typeof ISLAND_NAMES)[number];
