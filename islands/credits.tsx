/**
 * The hidden credits overlay (spec §2): loaded by window.signpostCredits() (islands/main.ts) on its first
 * call only. The server wrote the credits as a props block (views/parts/credits.tsx) and nothing else;
 * this renders the overlay at the end of <body> and removes it when it is done. A call while it shows
 * does nothing; a page without credits shows nothing.
 */
import { createRoot, type Root } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { Credits, type CreditsProps } from '../views/islands/credits.tsx';

let shown: { root: Root; container: HTMLElement } | undefined;

export default function showCredits(): void {
  const block = document.querySelector<HTMLScriptElement>('script[type="application/json"][data-island-props="credits"]');
  if (shown || !block) return;
  const props = JSON.parse(block.textContent ?? '') as CreditsProps;
  if (!Array.isArray(props.people) || props.people.length === 0) return;
  const container = document.createElement('div');
  container.className = 'credits-root';
  document.body.append(container);
  const root = createRoot(container);
  const current = { root, container };
  shown = current;
  const done = () => {
    if (shown !== current) return;
    shown = undefined;
    // Unmounting from one of the overlay's own timers or listeners: after it has returned.
    queueMicrotask(() => {
      root.unmount();
      container.remove();
    });
  };
  flushSync(() => root.render(<Credits heading={props.heading} people={props.people} onDone={done} />));
}
