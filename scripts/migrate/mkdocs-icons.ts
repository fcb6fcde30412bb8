/**
 * MkDocs Material's icon shortcodes (`:material-github:`, `:octicons-heart-fill-24:`,
 * `:fontawesome-brands-github:`, `:simple-python:`) as Signpost icons: Material Design Icons by the
 * same name (`:icon{set="mdi" key="…"}`), else the nearest Lucide icon (`:icon{key="…"}`).
 */
import { lookupIcon, lookupMdiIcon } from '../../server/content/markdown/icons.ts';

export const ICON_SHORTCODE = /:(material|octicons|fontawesome|simple)-([a-z0-9][a-z0-9-]*):/g;

/** Octicons and Font Awesome names whose Material Design twin is named differently. */
const RENAMED: Record<string, string> = {
  'mark-github': 'github', 'heart-fill': 'heart', 'star-fill': 'star', 'repo': 'source-repository', 'repo-forked': 'source-fork',
  'git-branch': 'source-branch', 'git-commit': 'source-commit', 'git-merge': 'source-merge', 'git-pull-request': 'source-pull',
  'issue-opened': 'alert-circle-outline', 'issue-closed': 'check-circle-outline', 'link-external': 'open-in-new', 'gear': 'cog',
  'people': 'account-group', 'person': 'account', 'info': 'information-outline', 'alert': 'alert-outline', 'x': 'close',
  'file-code': 'file-code-outline', 'tag': 'tag-outline', 'book': 'book-open-variant', 'rocket': 'rocket-launch', 'download': 'download',
  'circle-info': 'information', 'circle-check': 'check-circle', 'circle-xmark': 'close-circle', 'xmark': 'close', 'gears': 'cog',
  'magnifying-glass': 'magnify', 'house': 'home', 'arrow-up-right-from-square': 'open-in-new', 'envelope': 'email', 'x-twitter': 'twitter',
  'square-github': 'github', 'heart': 'heart', 'code': 'code-tags', 'copy': 'content-copy', 'trash': 'delete', 'pen': 'pencil',
};

export type IconMapping = { directive: string } | { missing: string };

/** The Signpost icon for one shortcode, or why there is none. */
export function mapIcon(set: string, name: string): IconMapping {
  const candidates: string[] = [];
  if (set === 'material') candidates.push(name);
  else if (set === 'octicons') {
    const base = name.replace(/-(12|16|24|32|48|96)$/, '');
    candidates.push(RENAMED[base] ?? base, base);
  } else if (set === 'fontawesome') {
    const base = name.replace(/^(brands|solid|regular)-/, '');
    candidates.push(RENAMED[base] ?? base, base);
  } else candidates.push(name);
  for (const candidate of candidates) {
    const mdi = lookupMdiIcon(candidate);
    if (mdi) return { directive: `:icon{set="mdi" key="${mdi.name}"}` };
  }
  // Lucide draws many everyday symbols MDI names otherwise (`arrow-right` is in both).
  for (const candidate of candidates) {
    const lucide = lookupIcon(candidate);
    if (lucide) return { directive: `:icon{key="${lucide.name}"}` };
  }
  return { missing: `:${set}-${name}:` };
}
