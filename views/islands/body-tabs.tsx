import { useEffect, useState, type ReactNode } from 'react';
import { useHydrated } from './use-hydrated.ts';
import { TabList, tabId, tabPanelId } from './tabs.tsx';

export interface BodyTabsProps {
  /**
   * Each tab's label and id: the id is its label heading's (a slug unique in the body, so `#id` links to
   * the tab), the panel is `tabPanelId('tabs', id)`.
   */
  tabs: { id: string; label: string }[];
  /** The labels' heading level while the group shows as sections. */
  level: number;
}

const BASE = 'tabs';
const SYNC_EVENT = 'signpost:tabs';
const storageKey = (key: string) => `signpost.tabs:${key}`;

/** Groups with the same labels, in any order, share a choice (Docusaurus' groupId, without naming one). */
export function tabGroupKey(tabs: BodyTabsProps['tabs']): string {
  return tabs.map((t) => t.label).sort().join('\u0000');
}

/** The tab of a group holding the element the address's #fragment names, if any. */
function tabOfHash(tabs: BodyTabsProps['tabs']): string | undefined {
  const id = decodeURIComponent(window.location.hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  if (!target) return undefined;
  return tabs.find((t) => document.getElementById(tabPanelId(BASE, t.id))?.contains(target))?.id;
}

function remembered(tabs: BodyTabsProps['tabs']): string | undefined {
  let label: string | null = null;
  try {
    label = window.localStorage.getItem(storageKey(tabGroupKey(tabs)));
  } catch {
    // Storage may be refused (private modes, policies): the choice is then not remembered.
  }
  return tabs.find((t) => t.label === label)?.id;
}

/**
 * Tabs in a body (`::::tabs`, docs/ 'Authoring content'). The server renders them as sections, each
 * headed by its label, and they stay so without JavaScript. Once hydrated they are WAI-ARIA tabs
 * (views/islands/tabs.tsx): the panel opened is the one holding the address's #fragment, else the
 * label last chosen in a group with the same labels (localStorage), else the first. Choosing a tab
 * puts its id in the address (a shared link opens it), remembers its label, and switches the page's
 * other groups with the same labels.
 *
 * The panels' content is the body's own server HTML: it is rendered on the server only (`panels`, never
 * in the props) and left in place by the browser, which hydrates an empty innerHTML it never changes.
 */
export function BodyTabs({ tabs, level, panels }: BodyTabsProps & { panels?: ReactNode[] }) {
  const hydrated = useHydrated();
  // Only the enhanced form shows a choice, so the first client render may read the address and storage.
  const [selected, setSelected] = useState(() => (typeof window === 'undefined' ? undefined : tabOfHash(tabs) ?? remembered(tabs)) ?? tabs[0]?.id ?? '');
  const key = tabGroupKey(tabs);

  useEffect(() => {
    const onHash = () => {
      const id = tabOfHash(tabs);
      if (id) setSelected(id);
    };
    const onSync = (event: Event) => {
      const detail = (event as CustomEvent<{ key: string; label: string }>).detail;
      const tab = detail.key === key ? tabs.find((t) => t.label === detail.label) : undefined;
      if (tab) setSelected(tab.id);
    };
    window.addEventListener('hashchange', onHash);
    window.addEventListener(SYNC_EVENT, onSync);
    return () => {
      window.removeEventListener('hashchange', onHash);
      window.removeEventListener(SYNC_EVENT, onSync);
    };
  }, [tabs, key]);

  const select = (id: string) => {
    const tab = tabs.find((t) => t.id === id);
    if (!tab) return;
    setSelected(id);
    const url = new URL(window.location.href);
    url.hash = id;
    window.history.replaceState(window.history.state, '', url);
    try {
      window.localStorage.setItem(storageKey(key), tab.label);
    } catch {
      // Not remembered; the address still holds the choice.
    }
    window.dispatchEvent(new CustomEvent(SYNC_EVENT, { detail: { key, label: tab.label } }));
  };

  const Heading = `h${Math.min(Math.max(level, 2), 6)}` as 'h2';
  return (
    <div className={hydrated ? 'tabs tabs-enhanced' : 'tabs'} data-tabs="">
      {hydrated ? <TabList idBase={BASE} label="" tabs={tabs} selected={selected} onSelect={select} className="body-tablist" /> : null}
      {tabs.map((tab, i) => (
        <section key={tab.id} className="tab-panel" id={tabPanelId(BASE, tab.id)}
          {...(hydrated
            ? { role: 'tabpanel', 'aria-labelledby': tabId(BASE, tab.id), tabIndex: 0, hidden: tab.id !== selected }
            : { 'aria-labelledby': tab.id })}>
          <Heading id={tab.id} className={hydrated ? 'tab-label visually-hidden' : 'tab-label'}>{tab.label}</Heading>
          {panels
            ? <div className="tab-body">{panels[i]}</div>
            : <div className="tab-body" dangerouslySetInnerHTML={{ __html: '' }} suppressHydrationWarning />}
        </section>
      ))}
    </div>
  );
}
