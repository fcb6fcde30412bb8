/**
 * Spec §4/§6 'Customer support portal requests page renders after the feature-flag check': a flag decides
 * which portal the account gets (upgrade allowed or not). Until feature flags arrive, REQUESTS_PORTAL_VARIANT
 * decides, here and nowhere else; a flag evaluation for the account replaces this function's body.
 */
import type { Config } from '../../config.ts';
import type { Visitor } from '../../../views/view-model.ts';

export type PortalVariant = 'standard' | 'upgrade';

export interface PortalFeatures {
  variant: PortalVariant;
  /** The upgrade portal also shows when each request last changed, and says it is the new portal. */
  showUpdated: boolean;
}

export function requestsPortal(config: Pick<Config, 'requestsPortalVariant'>, _visitor: Visitor): PortalFeatures {
  const variant: PortalVariant = config.requestsPortalVariant === 'upgrade' ? 'upgrade' : 'standard';
  return { variant, showUpdated: variant === 'upgrade' };
}
