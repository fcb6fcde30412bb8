import { hydrateIsland } from './hydrate.tsx';
import { VersionSelector } from '../views/islands/version-selector.tsx';

export default (element: HTMLElement) => hydrateIsland(element, VersionSelector);
