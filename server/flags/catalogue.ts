/**
 * Every flag the site evaluates (spec §7 'Feature-flag service', §2 featured video, §6 entitlements), with
 * its default: the value a page gets when the flag is missing from the definitions, the provider is not
 * configured, or its evaluation fails (spec §8). Experiments default to off, so a failure hides them.
 */
export interface FlagSpec {
  /** 'gate' and 'experiment' follow spec §7's names; an experiment's failure hides its feature (spec §8). */
  kind: 'gate' | 'experiment' | 'switch' | 'entitlement';
  default: boolean;
  /** The experiment parameter spec §7 names for the value. */
  parameter?: string;
  /** What the flag steers. */
  steers: string;
  /** Other flags whose values go into this one's evaluation context, under these attribute names (spec §6). */
  sendsWith?: Readonly<Record<string, string>>;
}

export const FLAGS = {
  'csm-ai-agent-on-sac': { kind: 'gate', default: false, parameter: 'agent_enabled', steers: 'the AI assistant widget for signed-in customers (spec §4)' },
  'sac-search-ai-experiment': {
    kind: 'experiment', default: false, parameter: 'ai_dialog_enabled', steers: 'the AI summary dialog on the results page (spec §4)',
    // Spec §6: the AI summary experiment also receives the health-data compliance entitlement.
    sendsWith: { healthDataCompliance: 'sac-health-data-compliance-entitlement' },
  },
  'sac-search-ai-dialog-experiment': { kind: 'experiment', default: false, parameter: 'ai_dialog_enabled', steers: 'the variant of the AI summary dialog (spec §7 AI dialog experiment)' },
  'sac-new-content-ux-experiment-gate': { kind: 'gate', default: false, parameter: 'new_ux_enabled', steers: 'who may enter the new-filter experiment (spec §4)' },
  'sac_new_sources_updated_ux_experiment': { kind: 'experiment', default: false, parameter: 'new_ux_enabled', steers: 'the new-filter experience on the results page (spec §4)' },
  'csp_ui_deployment_upgrade_switch': { kind: 'switch', default: false, steers: 'the upgrade variant of the requests page, by account (spec §6)' },
  'sac-featured-video': { kind: 'switch', default: true, steers: 'a topic\'s featured video (spec §2 topic page)' },
  'sac-health-data-compliance-entitlement': { kind: 'entitlement', default: false, steers: 'the compliance entitlement sent with the AI summary experiment (spec §6)' },
} as const satisfies Record<string, FlagSpec>;

export type FlagName = keyof typeof FLAGS;

export const FLAG_NAMES = Object.keys(FLAGS) as FlagName[];

export function isFlagName(name: string): name is FlagName {
  return Object.hasOwn(FLAGS, name);
}
