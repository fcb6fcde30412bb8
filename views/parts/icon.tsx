/** Small inline icons (24x24 viewBox), drawn with currentColor. */
const PATHS: Record<string, string> = {
  settings: 'M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8Zm9 4-2.1-.7-.5-1.3 1-2-1.4-1.4-2 1-1.3-.5L14 3h-4l-.7 2.1-1.3.5-2-1L4.6 6l1 2-.5 1.3L3 10v4l2.1.7.5 1.3-1 2L6 19.4l2-1 1.3.5L10 21h4l.7-2.1 1.3-.5 2 1 1.4-1.4-1-2 .5-1.3L21 14Z',
  search: 'M10 4a6 6 0 1 0 3.5 10.9l4.8 4.8 1.4-1.4-4.8-4.8A6 6 0 0 0 10 4Zm0 2a4 4 0 1 1 0 8 4 4 0 0 1 0-8Z',
  add: 'M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z',
  more: 'M6 10a2 2 0 1 0 0 4 2 2 0 0 0 0-4Zm6 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4Zm6 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4Z',
  filter: 'M4 5h16l-6 7v6l-4 2v-8z',
  user: 'M12 4a4 4 0 1 0 0 8 4 4 0 0 0 0-8Zm-7 16a7 7 0 0 1 14 0z',
  lock: 'M7 10V8a5 5 0 0 1 10 0v2h1v10H6V10Zm2 0h6V8a3 3 0 0 0-6 0Z',
  info: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18Zm-1 7h2v7h-2Zm0-3h2v2h-2Z',
  warning: 'M12 3 2 20h20Zm-1 6h2v6h-2Zm0 7h2v2h-2Z',
  link: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1 1.4 1.4 1-1a2 2 0 1 1 2.9 2.9l-3 3a2 2 0 0 1-2.9 0Zm4-4a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1-1.4-1.4-1 1A2 2 0 1 1 6.7 15l3-3a2 2 0 0 1 2.9 0Z',
  chevron: 'M9 6l6 6-6 6-1.4-1.4 4.6-4.6-4.6-4.6z',
  edit: 'M4 17.2V20h2.8l8.3-8.3-2.8-2.8ZM19.7 7.1a1 1 0 0 0 0-1.4l-1.4-1.4a1 1 0 0 0-1.4 0l-1.3 1.3 2.8 2.8Z',
  document: 'M6 3h8l4 4v14H6Zm7 1.5V8h3.5ZM8 11h8v1.5H8Zm0 3h8v1.5H8Zm0 3h5v1.5H8Z',
};

export function IconGlyph({ name, label, size = 16 }: { name: string; label?: string; size?: number }) {
  const d = PATHS[name] ?? PATHS.info;
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true as const };
  return (
    <svg className={`icon icon-${name}`} viewBox="0 0 24 24" width={size} height={size} focusable="false" {...a11y}>
      <path fill="currentColor" d={d} />
    </svg>
  );
}

/**
 * An icon of a body's icon sets (24x24), drawn from the elements stored with the body: Lucide's are
 * stroked, Material Design Icons' (`filled`) are filled shapes.
 */
export function ContentIcon({ nodes, label, size = 16, filled = false }: { nodes: [string, Record<string, string>][]; label: string; size?: number; filled?: boolean }) {
  const paint = filled ? { fill: 'currentColor' } : { fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round' as const, strokeLinejoin: 'round' as const };
  return (
    <svg className="icon content-icon" viewBox="0 0 24 24" width={size} height={size} focusable="false" role="img" aria-label={label} {...paint}>
      {nodes.map(([tag, attrs], i) => {
        const Tag = (SVG_TAGS.has(tag) ? tag : 'path') as 'path';
        const props: Record<string, string> = {};
        for (const [name, value] of Object.entries(attrs)) if (SVG_ATTRIBUTES.has(name)) props[name] = value;
        return <Tag key={i} {...props} />;
      })}
    </svg>
  );
}

const SVG_TAGS = new Set(['path', 'circle', 'ellipse', 'line', 'polygon', 'polyline', 'rect']);
const SVG_ATTRIBUTES = new Set(['d', 'cx', 'cy', 'r', 'rx', 'ry', 'x', 'y', 'x1', 'x2', 'y1', 'y2', 'width', 'height', 'points']);
