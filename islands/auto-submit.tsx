import { hydrateIsland } from './hydrate.tsx';
import { AutoSubmit } from '../views/islands/auto-submit.tsx';

export default (element: HTMLElement) => hydrateIsland(element, AutoSubmit);
