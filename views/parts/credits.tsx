import type { CreditsModel } from '../view-model.ts';
import { JsonScript, islandJson } from '../rich-text/safe-html.tsx';
import type { CreditsProps } from '../islands/credits.tsx';

/**
 * The hidden credits overlay's data (spec §2): only a props block, nothing shown and no island to load.
 * window.signpostCredits() loads the overlay (islands/credits.tsx), which reads it.
 */
export function CreditsData({ credits }: { credits: CreditsModel }) {
  const props: CreditsProps = { heading: credits.heading, people: credits.people.map(({ name, role }) => ({ name, role })) };
  return <JsonScript json={islandJson(props)} data-island-props="credits" />;
}
