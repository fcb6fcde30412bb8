/**
 * Who may read a support request (issue "Errors and safety": all request data is private): the account
 * that sent it, the account whose verified address sent it while signed out, and vendor staff (spec §6).
 * Anybody else is told nothing, not even that the reference exists.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { requestVisitor } from '../../identity/roles.ts';
import type { Visitor } from '../../../views/view-model.ts';
import type { StoredRequest } from '../store.ts';

/** The visitor reading requests: their role, and the address the issuer verified (if it did). */
export interface Reader {
  visitor: Visitor;
  /** The account id (the issuer's subject) when signed in. */
  accountId: string | undefined;
  /** The session's e-mail when the issuer says it is verified: requests sent anonymously from it are theirs too. */
  verifiedEmail: string | undefined;
}

export async function readerOf(app: FastifyInstance, request: FastifyRequest, config: Config): Promise<Reader> {
  const visitor = await requestVisitor(app, request, config);
  const user = request.user;
  return {
    visitor,
    accountId: visitor.signedIn ? visitor.id : undefined,
    verifiedEmail: visitor.signedIn && user?.emailVerified && user.email ? user.email : undefined,
  };
}

/** A reference as this site writes them (REQUEST_REFERENCE_PREFIX, a dash, digits); anything else is no request. */
export function referencePattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}-[1-9][0-9]{0,14}$`);
}

/** The request's own account, or the account whose verified address sent it signed out. */
export function owns(reader: Reader, stored: StoredRequest): boolean {
  if (!reader.accountId) return false;
  if (stored.accountId !== null) return stored.accountId === reader.accountId;
  return reader.verifiedEmail !== undefined && stored.email.toLowerCase() === reader.verifiedEmail.toLowerCase();
}

export function canRead(reader: Reader, stored: StoredRequest): boolean {
  return reader.visitor.staff || owns(reader, stored);
}
