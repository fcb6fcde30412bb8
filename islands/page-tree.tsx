/** The page-tree island (views/islands/names.ts): the documentation sidebar, hydrated. */
import { hydrateIsland } from './hydrate.tsx';
import { PageTreeNav } from '../views/islands/page-tree.tsx';

export default (element: HTMLElement) => hydrateIsland(element, PageTreeNav);
