import { useState } from 'react';
import { useHydrated } from './use-hydrated.ts';
import { TabList, tabId, tabPanelId } from './tabs.tsx';
import { CardGridMarkup, type CardItem } from './cards.tsx';

export type Platform = 'cloud' | 'data-center';

export interface PlatformTabsProps {
  /** The platform the server chose (?platform=). */
  platform: Platform;
  platforms: { id: Platform; label: string; cards: CardItem[]; empty: string }[];
  /** The tab list's name. */
  label: string;
  opensInNewTab: string;
}

/**
 * Browse by product (spec §2 Support home, §4 Platform tabs). Without JavaScript the tabs are links
 * (?platform=cloud|data-center) and the server renders the chosen platform's cards; once hydrated they
 * are WAI-ARIA tabs switching the panels in place (views/islands/tabs.tsx), and the address follows the
 * tab so a reload or a shared link opens the same one.
 */
export function PlatformTabs({ platform, platforms, label, opensInNewTab }: PlatformTabsProps) {
  const hydrated = useHydrated();
  const [selected, setSelected] = useState<Platform>(platform);
  const panel = (p: PlatformTabsProps['platforms'][number]) => (p.cards.length > 0
    ? <CardGridMarkup cards={p.cards} headingLevel={3} opensInNewTab={opensInNewTab} />
    : <p>{p.empty}</p>);

  if (!hydrated) {
    const shown = platforms.find((p) => p.id === platform);
    return (
      <>
        <ul className="platform-tabs" aria-label={label}>
          {platforms.map((p) => (
            <li key={p.id}>
              <a href={`?platform=${p.id}`} className="platform-tab" data-platform={p.id} data-replay={tabId('platform', p.id)}
                {...(p.id === platform ? { 'aria-current': 'page' as const } : {})}>
                {p.label}
              </a>
            </li>
          ))}
        </ul>
        <div className="platform-panel" id="platform-panel" data-platform={platform}>{shown ? panel(shown) : null}</div>
      </>
    );
  }

  const select = (id: string) => {
    const next = platforms.find((p) => p.id === id);
    if (!next) return;
    setSelected(next.id);
    const url = new URL(window.location.href);
    url.searchParams.set('platform', next.id);
    window.history.replaceState(window.history.state, '', url);
  };
  return (
    <>
      <TabList idBase="platform" label={label} className="platform-tabs" selected={selected} onSelect={select}
        tabs={platforms.map((p) => ({ id: p.id, label: p.label }))} />
      {platforms.map((p) => (
        <div key={p.id} className="platform-panel" role="tabpanel" id={tabPanelId('platform', p.id)} data-platform={p.id}
          aria-labelledby={tabId('platform', p.id)} hidden={p.id !== selected}>
          {/* Only the shown panel has cards: images React creates load even when hidden. */}
          {p.id === selected ? panel(p) : null}
        </div>
      ))}
    </>
  );
}
