import { hydrateIsland } from './hydrate.tsx';
import { SiteHeader } from '../views/islands/site-header.tsx';

export default (element: HTMLElement) => hydrateIsland(element, SiteHeader);
