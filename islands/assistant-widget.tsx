/** The assistant widget island (views/islands/names.ts): loaded only on pages that show the widget. */
import { hydrateIsland } from './hydrate.tsx';
import { AssistantWidget } from '../views/islands/assistant-widget.tsx';

export default (element: HTMLElement) => hydrateIsland(element, AssistantWidget);
