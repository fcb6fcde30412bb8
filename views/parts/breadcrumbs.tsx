import type { Crumb } from '../view-model.ts';

export function Breadcrumbs({ items }: { items: Crumb[] }) {
  if (items.length === 0) return null;
  return (
    <nav aria-label="Breadcrumbs" className="breadcrumbs">
      <ol>
        {/* Each crumb is cut at 150px (spec §9); the title keeps the full text. */}
        {items.map((c) => <li key={c.href}><a href={c.href} title={c.label}>{c.label}</a></li>)}
      </ol>
    </nav>
  );
}
