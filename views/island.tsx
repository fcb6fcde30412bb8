import type { ComponentType } from 'react';
import { JsonScript, islandJson } from './rich-text/safe-html.tsx';
import type { IslandName } from './islands/names.ts';

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
 * client render equals the server's.
 */
export function Island<P extends object>({ name, component: Component, props }: {
  name: IslandName;
  component: ComponentType<P>;
  props: P;
}) {
  return (
    <>
      <JsonScript json={islandJson(props)} data-island-props={name} />
      <div className="island" data-island={name}>
        <Component {...props} />
      </div>
    </>
  );
}
