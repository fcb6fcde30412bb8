/**
 * Raw HTML from a body, as React elements: the tree the allowlist sanitiser kept at import, sanitised
 * once more with the same allowlist before it is rendered. Nothing is injected as markup here; React
 * writes every element and escapes every text and attribute (Html in safe-html.tsx stays the one place
 * markup is injected).
 */
import type { ReactNode } from 'react';
import { Fragment, jsx, jsxs } from 'react/jsx-runtime';
import { toJsxRuntime, type Components } from 'hast-util-to-jsx-runtime';
import type { Root as HastRoot } from 'hast';
import { resanitise, SLOT_TAG } from '../../server/content/markdown/html.ts';

export function SanitisedHtml({ tree, slot }: { tree: HastRoot; slot: (index: number) => ReactNode }): ReactNode {
  const components = {
    [SLOT_TAG]: (props: Record<string, unknown>) => slot(Number(props['data-slot'])),
  } as unknown as Partial<Components>;
  return toJsxRuntime(resanitise(tree), { Fragment, jsx, jsxs, components, passKeys: true }) as ReactNode;
}
