/**
 * What the request pages share: their chrome, the sign-in link, product names, rows for the lists,
 * pagination links, the not-found answers, and the CSP nonce of the one page with an inline script.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { buildChrome } from '../../pages/chrome.ts';
import { loaderContext } from '../../pages/loaders/shared.ts';
import { notFoundPage } from '../../pages/loaders/not-found.tsx';
import { PAGE_CSP } from '../../plugins/render.ts';
import type { Chrome } from '../../../views/view-model.ts';
import type { StoredRequest } from '../store.ts';
import type { PaginationModel, RequestRow } from '../../../views/pages/support/requests-parts.tsx';
import { RequestNotFoundPage } from '../../../views/pages/support/requests-not-found-page.tsx';
import { stringsFor } from '../../../views/i18n/catalogue.tsx';
import type { Reader } from './access.ts';
import type { Product } from '../../content/schemas.ts';
import { productLabel } from '../../content/deployments.ts';

/** Requests per page of a list. */
export const PAGE_SIZE = 20;

const nonces = new WeakMap<FastifyRequest, string>();

export interface PageKit {
  chrome(request: FastifyRequest, input: { title: string; path: string; language?: string | undefined; description?: string | undefined }): Promise<Chrome>;
  /** The identity service's login, coming back to `path` (spec §7 login link). */
  signInHref(path: string): string;
  /** Product names by the value a request stores (a product entry's id), for the products named. */
  productNames(values: (string | null)[]): Promise<Map<string, string>>;
  row(stored: StoredRequest, names: Map<string, string>, staff?: boolean): RequestRow;
  pagination(page: number, total: number, hrefOf: (page: number) => string): PaginationModel;
  /** A request this visitor may not see, unknown or malformed: 404, the same page for all three. */
  requestNotFound(request: FastifyRequest, reply: FastifyReply, reader: Reader): Promise<FastifyReply>;
  /** The site's not-found page (staff pages to anybody else). */
  notFound(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
  /** A nonce for this response's inline script; the response's CSP names it (see the onSend hook). */
  nonceFor(request: FastifyRequest): string;
}

export function pageKit(app: FastifyInstance, config: Config): PageKit {
  const loaders = loaderContext(app, config);
  const kit: PageKit = {
    chrome: (request, input) => buildChrome(app, request, config, {
      title: input.title, path: input.path, language: input.language ?? 'en-US', metaDescription: input.description, preview: false,
    }),
    signInHref: (path) => `${config.identityUrl}/login?continue=${encodeURIComponent(path)}`,
    async productNames(values) {
      const ids = [...new Set(values.filter((v): v is string => !!v))];
      if (ids.length === 0) return new Map();
      const entries = await app.content.byIds(ids, { preview: false });
      // The name the forms offer it by, deployment included ('X Data Center', not 'X').
      return new Map(entries.map((e) => {
        const f = e.fields as Partial<Product>;
        return [e.id, f.productName && f.deployment ? productLabel({ ...f, productName: f.productName, deployment: f.deployment }) : String(e.title ?? e.id)];
      }));
    },
    row: (r, names, staff = false) => ({
      reference: r.reference, href: `/requests/${r.reference}`, subject: r.subject,
      product: r.product ? names.get(r.product) ?? r.product : undefined,
      status: r.status, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString(),
      ...(staff ? { from: r.name || r.email, formId: r.formId } : {}),
    }),
    pagination(page, total, hrefOf) {
      const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
      return {
        page, pages,
        previousHref: page > 1 ? hrefOf(page - 1) : undefined,
        nextHref: page < pages ? hrefOf(page + 1) : undefined,
      };
    },
    async requestNotFound(request, reply, reader) {
      const path = (request.url.split('?')[0] ?? '/requests');
      const view = (
        <RequestNotFoundPage chrome={await kit.chrome(request, { title: stringsFor('en').requests.notFoundTitle, path })} listHref="/requests"
          signInHref={reader.visitor.signedIn ? undefined : kit.signInHref(path)} />
      );
      return reply.page(view, { status: 404, cache: 'private' });
    },
    async notFound(request, reply) {
      const loaded = await notFoundPage(loaders, request);
      return reply.page(loaded.view, { status: 404, cache: 'private' });
    },
    nonceFor(request) {
      const nonce = randomBytes(16).toString('base64');
      nonces.set(request, nonce);
      return nonce;
    },
  };
  return kit;
}

/** The page CSP with this response's nonce added to script-src, when the page asked for one. */
export function cspWithNonce(request: FastifyRequest): string | undefined {
  const nonce = nonces.get(request);
  return nonce ? PAGE_CSP.replace("script-src 'self'", `script-src 'self' 'nonce-${nonce}'`) : undefined;
}
