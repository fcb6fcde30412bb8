import type { Crumb } from '../view-model.ts';

export function Breadcrumbs({ items }: { items: Crumb[] }) {
  if (items.length === 0) return null;
  return (
    <nav aria-label="Breadcrumbs" className="breadcrumbs">
      <ol>
        {items.map((c) => <li key={c.href}><a href={c.href}>{c.label}</a></li>)}
      </ol>
    </nav>
  );
}
