/**
 * Browser entry: finds server-rendered elements marked data-island="name" and enhances each once.
 * One broken island never breaks the others or the page, which works without any of this.
 * An island may be asynchronous (it may load its own chunk); data-island-ready says 'pending' until it
 * has finished, then 'true', or 'failed'.
 */
import { enhanceSearch } from './search.ts';
import { enhanceSupportForm } from './support-form.ts';

type Enhancer = (element: HTMLElement) => void | Promise<void>;

const islands: Record<string, Enhancer> = {
  search: enhanceSearch,
  'support-form': enhanceSupportForm,
};

export function enhanceAll(root: ParentNode = document): void {
  document.documentElement.classList.add('js-enabled');
  for (const element of root.querySelectorAll<HTMLElement>('[data-island]')) {
    const name = element.dataset.island ?? '';
    const enhance = islands[name];
    if (!enhance || element.dataset.islandReady) continue;
    element.dataset.islandReady = 'pending';
    // Through a promise, so a throw and a rejection are caught alike.
    Promise.resolve().then(() => enhance(element)).then(
      () => { element.dataset.islandReady = 'true'; },
      (error: unknown) => {
        element.dataset.islandReady = 'failed';
        console.error(`island ${name} failed`, error);
      },
    );
  }
}

enhanceAll();
