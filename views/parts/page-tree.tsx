import type { MoreLink, PageTreeModel, TreeNode } from '../view-model.ts';
import { useStrings } from '../i18n/catalogue.tsx';

/** Deepest level the tree shows (spec §3: up to three levels). */
const MAX_LEVEL = 3;

/**
 * The left documentation tree. Without JavaScript every branch is a native disclosure; the current
 * page and its parents arrive open (spec §4). A script may later add the session-persisted
 * collapse of the whole sidebar (data-island="page-tree").
 *
 * A branch's link sits just before its `<details>`, not inside the `<summary>`: a summary is a button,
 * and a link nested in a button is unreachable for assistive technology (axe nested-interactive).
 * The summary is the small toggle next to the link.
 *
 * The model carries only the current branch (server/pages/docs.ts treeModel): other branches are links
 * to pages that list their children, and a long list ends with a link to the page that has all of it.
 */
export function PageTree({ tree }: { tree: PageTreeModel }) {
  const t = useStrings();
  return (
    <nav aria-label={t.tree.label} className="page-tree" data-island="page-tree">
      <p className="page-tree-title"><a href={tree.href}>{tree.title}</a></p>
      {tree.nodes.length > 0 ? <TreeList nodes={tree.nodes} level={1} more={tree.more} /> : null}
    </nav>
  );
}

function TreeList({ nodes, level, more }: { nodes: TreeNode[]; level: number; more?: MoreLink | undefined }) {
  const t = useStrings();
  return (
    <ul className={`page-tree-list page-tree-level-${level}`}>
      {nodes.map((node) => <TreeItem key={node.id} node={node} level={level} />)}
      {more ? <li className="page-tree-item page-tree-all"><a href={more.href}>{t.tree.allPages(more.count, more.title)}</a></li> : null}
    </ul>
  );
}

function NodeLink({ node }: { node: TreeNode }) {
  return <a href={node.href} aria-current={node.current ? 'page' : undefined}>{node.title}</a>;
}

function TreeItem({ node, level }: { node: TreeNode; level: number }) {
  const t = useStrings();
  const children = level < MAX_LEVEL ? node.children : [];
  const className = node.current ? 'page-tree-item is-current' : 'page-tree-item';
  if (children.length === 0) return <li className={className}><NodeLink node={node} /></li>;
  return (
    <li className={`${className} has-children`}>
      <NodeLink node={node} />
      <details open={node.open}>
        <summary><span className="visually-hidden">{t.tree.pagesIn(node.title)}</span></summary>
        <TreeList nodes={children} level={level + 1} more={node.more} />
      </details>
    </li>
  );
}
