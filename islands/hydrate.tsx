/**
 * Hydrates one server-rendered island (views/island.tsx) with the props the server wrote beside it.
 * The promise settles once React has hydrated the island and run its effects (resolved), or when it
 * failed (rejected): unreadable props, a throw while hydrating or rendering. A failed island is put back
 * as the server rendered it, so its native controls (links, forms, <details>) keep working, and no other
 * island is touched: each has its own root.
 */
import { Component, useEffect, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { useHydrated } from '../views/islands/use-hydrated.ts';

export function readIslandProps<P>(element: HTMLElement): P {
  const name = element.dataset.island ?? '';
  const script = element.previousElementSibling;
  if (!(script instanceof HTMLScriptElement) || script.type !== 'application/json' || script.dataset.islandProps !== name) {
    throw new Error(`island ${name}: no props block before it`);
  }
  return JSON.parse(script.textContent ?? '') as P;
}

export function hydrateIsland<P extends object>(element: HTMLElement, Island: ComponentType<P>): Promise<void> {
  const props = readIslandProps<P>(element);
  const serverMarkup = element.innerHTML;
  return new Promise<void>((resolve, reject) => {
    let root: Root | undefined;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      // After React has finished with this commit: then the root can go and the server's markup return.
      // A throw after the island was ready (a later render, an effect) fails it the same way.
      setTimeout(() => {
        root?.unmount();
        element.innerHTML = serverMarkup;
        element.dataset.islandReady = 'failed';
        reject(error);
      }, 0);
    };
    root = hydrateRoot(
      element,
      <Guard onError={fail}>
        <Ready onReady={resolve}>
          <Island {...props} />
        </Ready>
      </Guard>,
      {
        // A mismatch React recovered from by rendering on the client: the island works, but it is a
        // defect (the server and the client rendered different markup), so it is said.
        onRecoverableError: (error) => console.error(`island ${element.dataset.island ?? ''}: hydration`, error),
      },
    );
  });
}

/**
 * Ready once the island is hydrated and has rendered its enhanced form: the render after hydration
 * (useHydrated) is one batch for the whole island, and this effect runs after the effects below it.
 */
function Ready({ onReady, children }: { onReady: () => void; children: ReactNode }) {
  const hydrated = useHydrated();
  useEffect(() => {
    if (hydrated) onReady();
  }, [hydrated, onReady]);
  return <>{children}</>;
}

/** Catches a throw anywhere in the island's render or effects. */
class Guard extends Component<{ onError: (error: unknown) => void; children: ReactNode }, { error: boolean }> {
  override state = { error: false };
  static getDerivedStateFromError() {
    return { error: true };
  }
  override componentDidCatch(error: unknown) {
    this.props.onError(error);
  }
  override render() {
    return this.state.error ? null : this.props.children;
  }
}
