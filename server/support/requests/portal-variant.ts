/**
 * Spec §4/§6 'Customer support portal requests page renders after the feature-flag check': the flag
 * `csp_ui_deployment_upgrade_switch`, looked up by account id, decides which portal the account gets
 * (upgrade allowed or not). A failed lookup is the standard portal (spec §8 'Portal flag fetch failure':
 * flag false); a visitor who is not signed in has no account to look up.
 */
import type { Visitor } from '../../../views/view-model.ts';
import type { RequestFlags } from '../../flags/plugin.ts';
import { requestsPortalUpgrade } from '../../flags/features.ts';

export type PortalVariant = 'standard' | 'upgrade';

export interface PortalFeatures {
  variant: PortalVariant;
  /** The upgrade portal also shows when each request last changed, and says it is the new portal. */
  showUpdated: boolean;
}

export async function requestsPortal(flags: RequestFlags, visitor: Visitor): Promise<PortalFeatures> {
  const variant: PortalVariant = visitor.signedIn && await requestsPortalUpgrade(flags) ? 'upgrade' : 'standard';
  return { variant, showUpdated: variant === 'upgrade' };
}
