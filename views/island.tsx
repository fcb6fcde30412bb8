import type { ComponentType } from 'react';
import { JsonScript, islandJson } from './rich-text/safe-html.tsx';
import type { IslandName } from './islands/names.ts';

/**
 * When the browser hydrates an island (islands/main.ts), as Astro's client directives: 'load' at once
 * (its module is preloaded with the page), only where a state must be live before the first
 * interaction; 'visible' when it comes near the viewport; 'idle' when the browser has nothing else to
 * do; 'interaction' on the first click or change of one of its controls, which is replayed on the
 * hydrated island (the native control works until then).
 */
export type HydrateWhen = 'load' | 'visible' | 'idle' | 'interaction';

/**
 * An island (DESIGN.md Islands): a React component the server renders in the page as usual, with its
 * props written beside it as escaped JSON, so the browser hydrates the same component with the same
 * props (islands/hydrate.tsx). One component, one markup.
 *
 * The markup is a JSON data block, then `<div class="island" data-island="name">` holding exactly what
 * the component renders (the wrapper is `display: contents`, so it adds no box). Put an island where a
 * <div> may go (not directly in a <ul> or a <p>).
 *
 * The component must be a pure function of its props, which must be plain JSON (strings, numbers,
 * booleans, arrays, objects; no functions, no dates, no React nodes): text it shows comes in its props,
 * already in the page's language. Its module (under views/islands/) imports nothing from the server, the
 * strings catalogue or Node. Before hydration, and without JavaScript, what it renders must work on
 * its own (links, forms, <details>, a <select> with its submit button); the enhanced form appears after
 * hydration (useHydrated in views/islands/use-hydrated.ts), never in the first render, so the first
 * client render equals the server's. Every island says when it hydrates (HydrateWhen): the latest moment
 * that keeps its behaviour.
 */
export function Island<P extends object>({ name, component: Component, props, hydrate }: {
  name: IslandName;
  component: ComponentType<P>;
  props: P;
  hydrate: HydrateWhen;
}) {
  return (
    <>
      <JsonScript json={islandJson(props)} data-island-props={name} />
      <div className="island" data-island={name} data-hydrate={hydrate}>
        <Component {...props} />
      </div>
    </>
  );
}
