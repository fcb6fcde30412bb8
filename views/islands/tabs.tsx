import type { KeyboardEvent } from 'react';

/**
 * WAI-ARIA tabs (spec §4 Platform tabs), shared by the products menu and the home page: a tablist of
 * buttons with a roving tabindex (only the selected tab is in the Tab order); Left and Right move and
 * select with wrap-around, Home and End go to the first and the last. The caller renders the panels,
 * each `role="tabpanel"` with the id `tabPanelId(idBase, tab.id)`, labelled by its tab.
 */
export interface TabItem {
  id: string;
  label: string;
}

export const tabId = (idBase: string, id: string) => `${idBase}-tab-${id}`;
export const tabPanelId = (idBase: string, id: string) => `${idBase}-panel-${id}`;

/** The tab a key moves to from `index` of `count`, or null for a key tabs do not handle. */
export function tabKeyTarget(key: string, index: number, count: number): number | null {
  if (key === 'ArrowRight') return (index + 1) % count;
  if (key === 'ArrowLeft') return (index - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

export function TabList({ idBase, label, tabs, selected, onSelect, className }: {
  idBase: string;
  label: string;
  tabs: TabItem[];
  selected: string;
  onSelect: (id: string) => void;
  className?: string;
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const next = tabKeyTarget(event.key, index, tabs.length);
    const tab = next === null ? undefined : tabs[next];
    if (!tab) return;
    event.preventDefault();
    onSelect(tab.id);
    document.getElementById(tabId(idBase, tab.id))?.focus();
  };
  return (
    <div role="tablist" aria-label={label || undefined} className={className ? `tablist ${className}` : 'tablist'}>
      {tabs.map((tab, i) => {
        const isSelected = tab.id === selected;
        return (
          <button key={tab.id} type="button" role="tab" id={tabId(idBase, tab.id)} aria-selected={isSelected}
            aria-controls={tabPanelId(idBase, tab.id)} tabIndex={isSelected ? 0 : -1} className="tab" data-platform={tab.id}
            onClick={() => onSelect(tab.id)} onKeyDown={(e) => onKeyDown(e, i)}>
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
