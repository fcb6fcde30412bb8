/**
 * Who may use the assistant (spec §1, §4 'AI widget'): a signed-in customer whose
 * `csm-ai-agent-on-sac` is on, never on a partner host; the same rule as the widget's.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { aiWidgetShown } from '../flags/ai-widget.ts';
import { aiSummaryDialog } from '../flags/features.ts';
import { isPartnerHost, requestVisitor } from '../identity/roles.ts';

export type AssistantAccess = 'allowed' | 'sign-in' | 'not-found';

export async function assistantAccess(app: FastifyInstance, request: FastifyRequest,
  config: Pick<Config, 'staffDomain' | 'partnerHosts'>, path = '/assistant'): Promise<AssistantAccess> {
  const visitor = await requestVisitor(app, request, config);
  const partnerHost = isPartnerHost(request, config.partnerHosts);
  if (!visitor.signedIn) return partnerHost ? 'not-found' : 'sign-in';
  return await aiWidgetShown({ visitor, path, partnerHost }, request.flags) ? 'allowed' : 'not-found';
}

/** Who may read the AI summary of results (spec §4 'AI summary dialog'): its experiment decides. */
export async function summaryAccess(app: FastifyInstance, request: FastifyRequest,
  config: Pick<Config, 'staffDomain' | 'partnerHosts'>): Promise<AssistantAccess> {
  const visitor = await requestVisitor(app, request, config);
  if (!visitor.signedIn) return isPartnerHost(request, config.partnerHosts) ? 'not-found' : 'sign-in';
  return await aiSummaryDialog(request.flags, visitor) ? 'allowed' : 'not-found';
}
