/** The AI summary dialog island (views/islands/names.ts): loaded only on results pages that show it. */
import { hydrateIsland } from './hydrate.tsx';
import { AssistantSummary } from '../views/islands/assistant-summary.tsx';

export default (element: HTMLElement) => hydrateIsland(element, AssistantSummary);
