import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { NewRequest } from '../../server/support/store.ts';
import type { SessionUser } from '../../server/identity/types.ts';
import { ADA } from '../identity/helpers.ts';

export const HELPDESK_TOKEN = 'helpdesk-token-for-tests-0123456789abcdef';

export const BEA: SessionUser = { ...ADA, sub: 'acct-bea', email: 'bea@customer.example', name: 'Bea Brown' };
export const STAFF: SessionUser = { ...ADA, sub: 'acct-sam', email: 'sam@fernhollow.example', name: 'Sam Staff' };
export const PARKER: SessionUser = { ...ADA, sub: 'acct-parker', email: 'parker@partner.example', name: 'Parker Partner', partner: true };

/** A request as the forms store it, from this account (or anonymous), with what the test cares about. */
export async function sendRequest(app: FastifyInstance, from: SessionUser | { email: string } | undefined, extra: Partial<NewRequest> = {}): Promise<string> {
  const signedIn = from && 'sub' in from ? from : undefined;
  const { reference } = await app.supportRequests.create({
    formId: 'contact', kind: 'contact', submissionKey: randomUUID(), accountId: signedIn?.sub,
    email: from?.email ?? 'someone@example.com', name: signedIn?.name ?? '', partner: false,
    subject: 'Something is wrong', fields: { description: 'It broke.' }, context: {}, language: 'en-US', attachments: [],
    ...extra,
  });
  return reference;
}

/** The references a page lists, in order. */
export const referencesIn = (html: string) => [...html.matchAll(/<th scope="row"><a href="\/requests\/([A-Z0-9-]+)">/g)].map((m) => m[1]);
