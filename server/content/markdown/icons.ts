/**
 * Body icons come from Lucide (ISC), the whole set: an author names any of its icons in kebab case
 * (`:icon{key="calendar-check"}`). The drawing is looked up at import and stored with the body, so a
 * page pays nothing for it. The ten names bodies used before Lucide keep working as aliases.
 */
import { createRequire } from 'node:module';
import type { IconNodes } from '../rich-text.ts';
import { nearestNames } from '../suggest.ts';

const ALIASES: Record<string, string> = { add: 'plus', more: 'ellipsis', warning: 'triangle-alert' };

let table: Map<string, { name: string; nodes: IconNodes }> | undefined;

/** `calendar-check`, `CalendarCheck`, `calendar_check` all name one icon. */
function keyOf(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

function kebab(pascal: string): string {
  return pascal.replace(/([a-z])([A-Z0-9])/g, '$1-$2').replace(/([0-9])([A-Za-z])/g, '$1-$2').replace(/([A-Z])([A-Z][a-z])/g, '$1-$2').toLowerCase();
}

function icons() {
  if (!table) {
    // Loaded on first use: one CommonJS file with every icon.
    const { icons: all } = createRequire(import.meta.url)('lucide') as { icons: Record<string, IconNodes> };
    table = new Map();
    for (const [name, nodes] of Object.entries(all)) {
      const key = keyOf(name);
      if (!table.has(key)) table.set(key, { name: kebab(name), nodes });
    }
  }
  return table;
}

export function lookupIcon(name: string): { name: string; nodes: IconNodes } | undefined {
  const alias = ALIASES[name];
  return icons().get(keyOf(alias ?? name));
}

/** The names nearest to a misspelt one (edit distance, then shared prefix), at most `count`. */
export function nearestIcons(name: string, count = 3): string[] {
  return nearestNames(name, [...icons().values()].map((icon) => icon.name), count, keyOf);
}

/**
 * Material Design Icons (Apache 2.0, `@iconify-json/mdi`): `:icon{set="mdi" key="github"}`, the set
 * MkDocs Material's `:material-…:` shortcodes name. Filled 24x24 paths rather than Lucide's strokes.
 */
interface IconifySet { icons: Record<string, { body: string }>; aliases?: Record<string, { parent: string }> }
let mdi: IconifySet | undefined;

function mdiSet(): IconifySet {
  // Loaded on first use: one JSON file of every icon (a few MB), only when a body names one.
  mdi ??= createRequire(import.meta.url)('@iconify-json/mdi/icons.json') as IconifySet;
  return mdi;
}

/** SVG elements of an Iconify body (`<path d="…"/>`), as the stored drawing. */
function nodesOf(body: string): IconNodes {
  const nodes: IconNodes = [];
  for (const element of body.matchAll(/<([a-z]+)((?:\s+[\w-]+="[^"]*")*)\s*\/?>/g)) {
    const attrs: Record<string, string> = {};
    for (const a of (element[2] ?? '').matchAll(/([\w-]+)="([^"]*)"/g)) attrs[a[1] as string] = a[2] as string;
    nodes.push([element[1] as string, attrs]);
  }
  return nodes;
}

export function lookupMdiIcon(name: string): { name: string; nodes: IconNodes } | undefined {
  const set = mdiSet();
  const key = name.toLowerCase().replace(/[_\s]/g, '-');
  const own = Object.hasOwn(set.icons, key) ? key : set.aliases && Object.hasOwn(set.aliases, key) ? set.aliases[key]?.parent : undefined;
  const icon = own !== undefined && Object.hasOwn(set.icons, own) ? set.icons[own] : undefined;
  return icon ? { name: own as string, nodes: nodesOf(icon.body) } : undefined;
}

export function nearestMdiIcons(name: string, count = 3): string[] {
  return nearestNames(name, Object.keys(mdiSet().icons), count, keyOf);
}
