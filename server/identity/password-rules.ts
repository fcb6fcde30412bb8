/**
 * What a new password must be, wherever one is chosen (sign-up, reset, change, `npm run accounts`):
 * long enough, not too long to hash, and not one of the passwords breaches show people use most.
 */
import { COMMON_PASSWORDS } from './common-passwords.ts';

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024;

/** Why a password cannot be used (a sentence fragment: 'must be …'), or undefined when it can. */
export function passwordProblem(password: string, email?: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  const folded = password.normalize('NFKC').toLowerCase();
  if (COMMON_PASSWORDS.has(folded)) return 'is one of the most common passwords, found in breached-password lists: choose another';
  if (/^(.)\1*$/u.test(folded)) return 'must not be one character repeated';
  if (email && folded === email.trim().toLowerCase()) return 'must not be your e-mail address';
  return undefined;
}
