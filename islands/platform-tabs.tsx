import { hydrateIsland } from './hydrate.tsx';
import { PlatformTabs } from '../views/islands/platform-tabs.tsx';

export default (element: HTMLElement) => hydrateIsland(element, PlatformTabs);
