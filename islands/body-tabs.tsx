import { hydrateIsland } from './hydrate.tsx';
import { BodyTabs } from '../views/islands/body-tabs.tsx';

export default (element: HTMLElement) => hydrateIsland(element, BodyTabs);
