/** The show-more island (views/islands/names.ts): the child or documentation list, hydrated. */
import { hydrateIsland } from './hydrate.tsx';
import { ShowMore } from '../views/islands/show-more.tsx';

export default (element: HTMLElement) => hydrateIsland(element, ShowMore);
