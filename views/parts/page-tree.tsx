import type { MoreLink, PageTreeModel, TreeNode } from '../view-model.ts';
import { useStrings } from '../i18n/catalogue.tsx';
import type { Strings } from '../i18n/strings.ts';
import { Island } from '../island.tsx';
import { PageTreeNav, type NavTreeNode } from '../islands/page-tree.tsx';

/** Deepest level the tree shows (spec §3: up to three levels). */
const MAX_LEVEL = 3;

/**
 * The left documentation tree: the page-tree island (views/islands/page-tree.tsx). Without JavaScript
 * every branch is a native disclosure and the current page and its parents arrive open (spec §4); on a
 * phone the whole tree is a collapsed 'Documentation' disclosure above the content. With it, the whole
 * sidebar collapses and expands for the session, and branches open and close with buttons.
 *
 * A branch's link sits just before its toggle, not inside it: a summary or a button holding a link
 * makes the link unreachable for assistive technology (axe nested-interactive).
 *
 * The model carries only the current branch (server/pages/docs.ts treeModel): other branches are links
 * to pages that list their children, and a long list ends with a link to the page that has all of it.
 */
export function PageTree({ tree }: { tree: PageTreeModel }) {
  const t = useStrings();
  return (
    <Island
      name="page-tree"
      hydrate="interaction"
      component={PageTreeNav}
      props={{
        label: t.tree.label,
        title: tree.title,
        href: tree.href,
        ...(tree.iconUrl ? { iconUrl: tree.iconUrl } : {}),
        nodes: tree.nodes.map((node) => navNode(node, 1, t)),
        ...allLink(tree.more, t),
      }}
    />
  );
}

/** A node as the island's plain props, its texts in the page's language; nothing below MAX_LEVEL. */
function navNode(node: TreeNode, level: number, t: Strings): NavTreeNode {
  const children = level < MAX_LEVEL ? node.children : [];
  return {
    title: node.title,
    href: node.href,
    current: node.current,
    open: node.open,
    toggleLabel: t.tree.pagesIn(node.title),
    children: children.map((child) => navNode(child, level + 1, t)),
    ...(children.length > 0 ? allLink(node.more, t) : {}),
  };
}

function allLink(more: MoreLink | undefined, t: Strings): { all?: { href: string; label: string } } {
  return more ? { all: { href: more.href, label: t.tree.allPages(more.count, more.title) } } : {};
}
