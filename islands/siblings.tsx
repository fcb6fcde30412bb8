/** The siblings island (views/islands/names.ts): the sibling window, hydrated. */
import { hydrateIsland } from './hydrate.tsx';
import { SiblingsWindow } from '../views/islands/siblings.tsx';

export default (element: HTMLElement) => hydrateIsland(element, SiblingsWindow);
