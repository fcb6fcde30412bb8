/**
 * Where the AI assistant widget may appear (spec §1, §4 'AI widget', §2 'Paths with no AI widget'):
 * for a signed-in customer whose `csm-ai-agent-on-sac` is on, never on the contact and request paths,
 * never on a partner host.
 */
import type { Visitor } from '../../views/view-model.ts';
import type { RequestFlags } from './plugin.ts';

export const NO_AI_WIDGET_PATHS = ['/contact', '/hot-contact', '/partnercontact', '/requests', '/named-contact'] as const;

/** A path the widget never shows on: one of the prefixes, as a whole segment (`/contact`, `/contact/x`, not `/contacts`). */
export function isNoWidgetPath(path: string): boolean {
  const bare = path.split(/[?#]/)[0] ?? '';
  // A Japanese page's contact path (/ja/contact) is the same page (spec §2 shared chrome).
  const unprefixed = bare.replace(/^\/ja(?=\/)/, '');
  return NO_AI_WIDGET_PATHS.some((prefix) => unprefixed === prefix || unprefixed.startsWith(`${prefix}/`));
}

export interface WidgetPlace {
  visitor: Visitor;
  path: string;
  /** The request's host is a partner host (PARTNER_HOSTS). */
  partnerHost: boolean;
}

/** The rule without the flag: where the widget may appear at all (no evaluation is spent elsewhere). */
export function widgetAllowedAt(place: WidgetPlace): boolean {
  return place.visitor.signedIn && !place.partnerHost && !isNoWidgetPath(place.path);
}

/** The whole rule: allowed here, and the agent flag on for this account. */
export async function aiWidgetShown(place: WidgetPlace, flags: RequestFlags): Promise<boolean> {
  if (!widgetAllowedAt(place)) return false;
  return flags.boolean('csm-ai-agent-on-sac');
}
