/**
 * Browser entry: finds server-rendered elements marked data-island="name" and enhances each once.
 * One broken island never breaks the others or the page, which works without any of this.
 */
type Enhancer = (element: HTMLElement) => void;

const islands: Record<string, Enhancer> = {};

export function enhanceAll(root: ParentNode = document): void {
  document.documentElement.classList.add('js-enabled');
  for (const element of root.querySelectorAll<HTMLElement>('[data-island]')) {
    const name = element.dataset.island ?? '';
    const enhance = islands[name];
    if (!enhance || element.dataset.islandReady === 'true') continue;
    try {
      enhance(element);
      element.dataset.islandReady = 'true';
    } catch (error) {
      console.error(`island ${name} failed`, error);
    }
  }
}

enhanceAll();
