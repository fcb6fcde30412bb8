import { useEffect, useState } from 'react';
import { useHydrated } from './use-hydrated.ts';

export interface NavTreeNode {
  title: string;
  href: string;
  current: boolean;
  /** The current item and its parents start open (spec §4). */
  open: boolean;
  /** The branch toggle's name for screen readers ('Pages in {title}'). */
  toggleLabel: string;
  children: NavTreeNode[];
  /** The page listing all of `children`, when they are a window of a longer list. */
  all?: { href: string; label: string } | undefined;
}

export interface PageTreeNavProps {
  /** 'Documentation': the navigation's name and the sidebar toggle's text. */
  label: string;
  title: string;
  href: string;
  /** The documentation's icon beside its title, 40x40 (spec §9); decorative, the title names it. */
  iconUrl?: string | undefined;
  nodes: NavTreeNode[];
  all?: { href: string; label: string } | undefined;
}

/** Session storage key of the sidebar state, 'true' or 'false' (spec §9). */
export const SIDEBAR_KEY = 'sac.sidebar.expanded';
/** Below the 768 px breakpoint (spec §9) the sidebar is a disclosure above the content. */
export const PHONE_QUERY = '(max-width: 767.98px)';
const NAV_ID = 'page-tree';

function storedExpanded(): boolean | null {
  try {
    const value = sessionStorage.getItem(SIDEBAR_KEY);
    return value === 'true' ? true : value === 'false' ? false : null;
  } catch {
    return null; // storage refused: the default applies
  }
}

function storeExpanded(expanded: boolean): void {
  try {
    sessionStorage.setItem(SIDEBAR_KEY, String(expanded));
  } catch {
    // storage refused: the choice lasts for this page
  }
}

/**
 * The documentation sidebar (spec §4 Page tree sidebar). Without JavaScript the whole tree is a
 * 'Documentation' <details>, which CSS shows open from 768 px and leaves as a collapsed disclosure above
 * the content on phones, and every branch is a <details>, the current page's branch open.
 *
 * Hydrated, a 'Documentation' button (aria-expanded) collapses or expands the whole sidebar; the choice
 * is kept for the session in sessionStorage (SIDEBAR_KEY) and applied on every page from 768 px; on a
 * phone each page starts collapsed, so its first screen shows the page title. Each change is announced
 * as a `signpost:track` event on document. Branches open and close with buttons (aria-expanded).
 */
export function PageTreeNav({ label, title, href, iconUrl, nodes, all }: PageTreeNavProps) {
  const hydrated = useHydrated();
  const [expanded, setExpanded] = useState(true);
  useEffect(() => {
    const phone = matchMedia(PHONE_QUERY);
    const apply = () => setExpanded(!phone.matches && storedExpanded() !== false);
    apply();
    phone.addEventListener('change', apply);
    return () => phone.removeEventListener('change', apply);
  }, []);

  const tree = (
    <>
      <p className="page-tree-title">
        <a href={href}>
          {/* loading before src: an element React creates starts its fetch when src is set */}
          {iconUrl ? <img className="page-tree-icon" loading="lazy" src={iconUrl} alt="" width="40" height="40" /> : null}
          {title}
        </a>
      </p>
      {nodes.length > 0 ? <TreeList nodes={nodes} all={all} level={1} path="" hydrated={hydrated} /> : null}
    </>
  );
  if (!hydrated) {
    return (
      <details className="page-tree-disclosure">
        <summary className="page-tree-toggle">{label}</summary>
        <nav aria-label={label} className="page-tree">{tree}</nav>
      </details>
    );
  }
  const toggle = () => {
    const next = !expanded;
    setExpanded(next);
    storeExpanded(next);
    document.dispatchEvent(new CustomEvent('signpost:track', { detail: { event: next ? 'sidebar-expanded' : 'sidebar-collapsed' } }));
  };
  return (
    <div className={expanded ? 'page-tree-disclosure is-expanded' : 'page-tree-disclosure is-collapsed'}>
      <button type="button" className="page-tree-toggle" aria-expanded={expanded} aria-controls={NAV_ID} onClick={toggle}>{label}</button>
      <nav id={NAV_ID} aria-label={label} className="page-tree" hidden={!expanded}>{tree}</nav>
    </div>
  );
}

function TreeList({ nodes, all, level, path, hydrated, id, hidden }: {
  nodes: NavTreeNode[]; all?: NavTreeNode['all']; level: number; path: string; hydrated: boolean; id?: string; hidden?: boolean;
}) {
  return (
    <ul className={`page-tree-list page-tree-level-${level}`} id={id} hidden={hidden}>
      {nodes.map((node, i) => <TreeItem key={`${i}-${node.href}`} node={node} level={level} path={`${path}-${i + 1}`} hydrated={hydrated} />)}
      {all ? <li className="page-tree-item page-tree-all"><a href={all.href}>{all.label}</a></li> : null}
    </ul>
  );
}

function TreeItem({ node, level, path, hydrated }: { node: NavTreeNode; level: number; path: string; hydrated: boolean }) {
  const [open, setOpen] = useState(node.open);
  const className = node.current ? 'page-tree-item is-current' : 'page-tree-item';
  const link = <a href={node.href} aria-current={node.current ? 'page' : undefined}>{node.title}</a>;
  if (node.children.length === 0) return <li className={className}>{link}</li>;
  const name = <span className="visually-hidden">{node.toggleLabel}</span>;
  const id = `page-tree${path}`;
  // The link sits before the toggle, never inside it: a link nested in a button is unreachable.
  return (
    <li className={`${className} has-children`}>
      {link}
      {hydrated ? (
        <>
          <button type="button" className="page-tree-item-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)}>{name}</button>
          <TreeList nodes={node.children} all={node.all} level={level + 1} path={path} hydrated id={id} hidden={!open} />
        </>
      ) : (
        <details open={node.open}>
          <summary>{name}</summary>
          <TreeList nodes={node.children} all={node.all} level={level + 1} path={path} hydrated={false} />
        </details>
      )}
    </li>
  );
}
