/**
 * What each gated feature of the spec decides from its flags: one place per rule, so pages, the
 * assistant and tests agree.
 */
import type { Visitor } from '../../views/view-model.ts';
import type { RequestFlags } from './plugin.ts';

/** Spec §4 new-filter experiment: the gate says who may enter, the experiment who gets it. */
export async function newFiltersOn(flags: RequestFlags): Promise<boolean> {
  return await flags.boolean('sac-new-content-ux-experiment-gate') && await flags.boolean('sac_new_sources_updated_ux_experiment');
}

/** Spec §6 portal flag: the upgrade variant of the requests page for this account. */
export async function requestsPortalUpgrade(flags: RequestFlags): Promise<boolean> {
  return flags.boolean('csp_ui_deployment_upgrade_switch');
}

/** Spec §2 topic page: the featured video shows when its flag is on. */
export async function featuredVideo(flags: RequestFlags): Promise<boolean> {
  return flags.boolean('sac-featured-video');
}

/**
 * Spec §4 AI summary dialog: only for a signed-in account with `sac-search-ai-experiment` on (evaluated
 * with the account's compliance entitlement and vendor-staff flag in its context, spec §6).
 */
export async function aiSummaryDialog(flags: RequestFlags, visitor: Visitor): Promise<boolean> {
  return visitor.signedIn && flags.boolean('sac-search-ai-experiment');
}
