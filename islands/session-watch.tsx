/** The session-watch island (views/islands/names.ts): the heartbeat of a signed-in page, hydrated. */
import { hydrateIsland } from './hydrate.tsx';
import { SessionWatch } from '../views/islands/session-watch.tsx';

export default (element: HTMLElement) => hydrateIsland(element, SessionWatch);
