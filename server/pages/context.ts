import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StoredEntry } from '../content/store.ts';
import type { BodyProps } from '../../views/parts/body.tsx';
import type { SafeHtml } from '../../views/rich-text/safe-html.tsx';
import { FEEDBACK_REASONS, type ContactBlockModel, type FeedbackModel, type Chrome } from '../../views/view-model.ts';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Preview mode: a secret token, compared in constant time; never guessable, never on by default.
 * The digests are compared, not the strings: they always have the same length in bytes (a string's
 * UTF-16 length says nothing of its UTF-8 length), and the token's length does not leak either.
 */
export function isPreview(request: FastifyRequest, token: string | undefined): boolean {
  if (!token) return false;
  const given = (request.query as { preview?: unknown }).preview ?? request.headers['x-preview-token'];
  if (typeof given !== 'string') return false;
  return timingSafeEqual(digest(given), digest(token));
}

/** Stored HTML, or in preview mode the rich-text document rendered now (spec §4). */
export function bodyOf(entry: StoredEntry, preview: boolean): BodyProps | null {
  if (preview && entry.document) return { document: entry.document.document, links: entry.document.links };
  return entry.html === null ? null : { html: entry.html as SafeHtml };
}

export function feedbackModel(app: FastifyInstance, request: FastifyRequest, entry: StoredEntry, path: string): FeedbackModel {
  const { feedback: state, reason } = request.query as { feedback?: unknown; reason?: unknown };
  // 'No' with a reason offers the contact form about this page (its product is found from the page there).
  const known = FEEDBACK_REASONS.find((r) => r.value === reason);
  const contact = entry.language === 'ja-JP' ? '/ja/contact' : '/contact';
  return {
    action: '/feedback',
    entryId: entry.id,
    returnTo: path,
    csrfToken: app.formTokens.issue(`feedback:${entry.id}`),
    state: state === 'reasons' || state === 'thanks' ? state : 'ask',
    contactHref: state === 'thanks' && known
      ? `${contact}?${new URLSearchParams({ page: path, reason: known.value }).toString()}` : undefined,
    contactBase: contact,
  };
}

/** 'Ask the community': the community site, on the product's tag when there is a product (spec §7). */
export function communityHref(chrome: Chrome, productName?: string): string {
  const base = chrome.siteLinks.community ?? '';
  return base && productName ? `${base}/tags/${encodeURIComponent(productName.toLowerCase())}` : base;
}

export function contactModel(chrome: Chrome): ContactBlockModel {
  return {
    contactHref: chrome.header.contactHref,
    communityHref: chrome.siteLinks.community ?? '',
    signedIn: chrome.visitor.signedIn,
    loginHref: chrome.header.loginHref,
  };
}
