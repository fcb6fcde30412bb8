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

/**
 * 'Ask the community' (spec §7): the community's create-post page tagged with the page's product names and
 * deployments (site.yaml askCommunityUrl). Without that template, or on a page about no product, the
 * community site, on the product's tag when there is one.
 */
export function communityHref(chrome: Chrome, tags: CommunityTags = { products: [], deployments: [] }): string {
  const list = [...new Set(tags.products), ...new Set(tags.deployments)];
  const template = chrome.siteLinks.askCommunity;
  if (template && list.length > 0) return template.replaceAll('{tags}', list.map(encodeURIComponent).join(','));
  const base = chrome.siteLinks.community ?? '';
  const product = tags.products[0];
  return base && product ? `${base}/tags/${encodeURIComponent(product.toLowerCase())}` : base;
}

/** What a page is about, for the community's tags: product names and deployment labels. */
export interface CommunityTags {
  products: string[];
  deployments: string[];
}

/** The community tags of a page about one product. */
export function productTags(product: StoredEntry | undefined): CommunityTags {
  const f = product?.fields;
  return typeof f?.productName === 'string'
    ? { products: [f.productName], deployments: typeof f.deployment === 'string' ? [f.deployment] : [] }
    : { products: [], deployments: [] };
}

export function contactModel(chrome: Chrome, tags?: CommunityTags): ContactBlockModel {
  return {
    contactHref: chrome.header.contactHref,
    communityHref: communityHref(chrome, tags),
    signedIn: chrome.visitor.signedIn,
    loginHref: chrome.header.loginHref,
  };
}
