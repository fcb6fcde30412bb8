import type { Crumb } from '../view-model.ts';
import { useStrings } from '../i18n/catalogue.tsx';

export function Breadcrumbs({ items }: { items: Crumb[] }) {
  const t = useStrings();
  if (items.length === 0) return null;
  return (
    <nav aria-label={t.breadcrumbs} className="breadcrumbs">
      <ol>
        {/* Each crumb is cut at 150px (spec §9); the title keeps the full text. */}
        {items.map((c) => <li key={c.href}><a href={c.href} title={c.label}>{c.label}</a></li>)}
      </ol>
    </nav>
  );
}
