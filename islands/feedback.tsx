import { hydrateIsland } from './hydrate.tsx';
import { Feedback } from '../views/islands/feedback.tsx';

export default (element: HTMLElement) => hydrateIsland(element, Feedback);
