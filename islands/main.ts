/**
 * Browser entry: finds the server-rendered islands (data-island="name") and loads each one's module,
 * only where the page has one: every island is its own chunk (esbuild splitting), React a chunk they
 * share. One broken island never breaks the others or the page, which works without any of this.
 * data-island-ready says 'pending' until an island is hydrated (or enhanced), then 'true', or 'failed'.
 *
 * An island module's default export takes the island's element: React islands hydrate the component
 * the server rendered there (islands/hydrate.tsx); search and support-form enhance the markup in place.
 */
import type { IslandName } from '../views/islands/names.ts';

type IslandModule = { default: (element: HTMLElement) => void | Promise<void> };

const islands: Record<IslandName, () => Promise<IslandModule>> = {
  'site-header': () => import('./site-header.tsx'),
  'platform-tabs': () => import('./platform-tabs.tsx'),
  'page-tree': () => import('./page-tree.tsx'),
  siblings: () => import('./siblings.tsx'),
  'show-more': () => import('./show-more.tsx'),
  'version-selector': () => import('./version-selector.tsx'),
  feedback: () => import('./feedback.tsx'),
  credits: () => import('./credits.tsx'),
  'auto-submit': () => import('./auto-submit.tsx'),
  'body-tabs': () => import('./body-tabs.tsx'),
  'assistant-widget': () => import('./assistant-widget.tsx'),
  'assistant-summary': () => import('./assistant-summary.tsx'),
  'session-watch': () => import('./session-watch.tsx'),
  search: () => import('./search.ts').then((m) => ({ default: m.enhanceSearch })),
  'support-form': () => import('./support-form.ts').then((m) => ({ default: m.enhanceSupportForm })),
};

const isIsland = (name: string): name is IslandName => Object.hasOwn(islands, name);

export function enhanceAll(root: ParentNode = document): void {
  document.documentElement.classList.add('js-enabled');
  for (const element of root.querySelectorAll<HTMLElement>('[data-island]')) {
    const name = element.dataset.island ?? '';
    if (!isIsland(name) || element.dataset.islandReady) continue;
    element.dataset.islandReady = 'pending';
    // Through a promise, so a throw, a failed chunk load and a rejection are caught alike.
    islands[name]().then((module) => module.default(element)).then(
      () => { element.dataset.islandReady = 'true'; },
      (error: unknown) => {
        element.dataset.islandReady = 'failed';
        console.error(`island ${name} failed`, error);
      },
    );
  }
}

enhanceAll();

// First-party analytics on every page, in a chunk of its own (islands/analytics.ts); a failure is silent.
import('./analytics.ts').then((m) => m.start(), () => undefined);

// The hidden credits overlay (spec §2): nothing of it loads until this is called.
(window as Window & { signpostCredits?: () => Promise<void> }).signpostCredits = () => import('./credits.tsx').then((m) => m.default());
