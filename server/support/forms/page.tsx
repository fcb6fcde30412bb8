/**
 * The model of a support form page, for the page route (GET: an empty form, prefilled from the query)
 * and the form's POST (the form again with what was sent, its errors or why it was refused).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import type { Page, Product } from '../../content/schemas.ts';
import type { StoredEntry } from '../../content/store.ts';
import type { Chrome } from '../../../views/view-model.ts';
import { FEEDBACK_REASONS } from '../../../views/view-model.ts';
import { stringsFor } from '../../../views/i18n/catalogue.tsx';
import type { SupportFormKind, SupportFormModel } from '../../../views/pages/support/support-form-page.tsx';
import type { RequestContext } from '../store.ts';
import { formsById, productChoices, showForm, type Lang, type ProductChoice, type ShownForm } from './definition.ts';
import { sizeText } from './attachments.ts';
import { maskEmails } from '../../search/highlight.ts';

/** The page types that carry a built-in form, and the request kind each stores. */
export const FORM_KINDS: Partial<Record<Page['pageType'], SupportFormKind>> = {
  contact: 'contact', hotContact: 'hotContact', partnerContact: 'partnerContact', statusPageContact: 'statusPageContact',
  fileDownload: 'fileDownload',
};

/** The report-a-problem form (spec §7 issue collector): its own page, its form from content. */
export const REPORT_PROBLEM_PATH = '/report-problem';
export const REPORT_PROBLEM_FORM = 'report-problem-form';

export type FormsConfig = Pick<Config, 'attachmentMaxFiles' | 'attachmentMaxBytes' | 'attachmentTypes' | 'staffDomain' | 'partnerHosts'>;

/** A page that shows a form: a contact page from content, or the report-a-problem page. */
export interface FormTarget {
  kind: SupportFormKind;
  formId: string;
  /** Where the form posts, and where the page lives. */
  path: string;
  title: string;
  tagline?: string | undefined;
  language: string;
  /** The content page, when there is one. */
  entry?: StoredEntry | undefined;
}

/** Where a request came from, checked against the stored content (never taken on the visitor's word). */
export interface About {
  context: RequestContext;
  /** The product of the page asked about, preselected. */
  productId?: string | undefined;
  /** The hidden fields that carry it back on POST. */
  hidden: Record<string, string>;
  /** The search whose results page led here (its contact link), masked: counted with the request. */
  search?: string | undefined;
}

export function targetOf(entry: StoredEntry): FormTarget | undefined {
  const page = entry.fields as unknown as Page;
  const kind = FORM_KINDS[page.pageType];
  if (!kind || !page.form) return undefined;
  return { kind, formId: page.form, path: entry.path ?? '/', title: entry.title ?? '', tagline: page.tagline, language: entry.language, entry };
}

export const langOf = (language: string): Lang => (language === 'ja-JP' ? 'ja' : 'en');

/** A same-site path, as a page link is: one slash, no scheme, bounded. */
const SITE_PATH = /^\/(?![/\\])[^\s]{0,500}$/;

/**
 * The page a request is about (report a problem, 'contact support about this page'): a published page of
 * this site, its id and product; and the feedback reason that led here, when it is one of the reasons.
 */
export async function aboutOf(app: FastifyInstance, page: unknown, reason: unknown, search?: unknown): Promise<About> {
  const about: About = { context: {}, hidden: {} };
  if (typeof search === 'string' && search.trim() && search.length <= 200) {
    const masked = maskEmails(search.trim());
    about.search = masked;
    about.hidden.search = masked;
  }
  if (typeof page === 'string' && SITE_PATH.test(page)) {
    const path = page.split(/[?#]/)[0] as string;
    const entry = await app.content.byPath(path.length > 1 ? path.replace(/\/+$/, '') : path, { preview: false });
    if (entry) {
      about.context.pageUrl = path;
      about.context.pageId = entry.id;
      about.hidden.page = path;
      const product = entry.productId ? (await productChoices(app)).find((p) => p.id === entry.productId) : undefined;
      if (product) {
        about.context.productName = product.label;
        about.productId = product.id;
      } else if (entry.contextId) {
        // A knowledge-base article names its product family through its context.
        const name = (await app.content.byId(entry.contextId, { preview: false }))?.fields.productName;
        if (typeof name === 'string') about.context.productName = name;
      }
    }
  }
  if (typeof reason === 'string' && FEEDBACK_REASONS.some((r) => r.value === reason)) {
    about.context.feedbackReason = reason;
    about.hidden.reason = reason;
  }
  return about;
}

export interface FormState {
  values?: Record<string, string | boolean> | undefined;
  errors?: { field: string; message: string }[] | undefined;
  notice?: string | undefined;
  chooseFilesAgain?: boolean | undefined;
}

export interface Prepared {
  shown: ShownForm;
  products: ProductChoice[];
  signedIn: boolean;
  multipart: boolean;
}

/** The form as this visitor sees it in the page's language; undefined when the content has no such form. */
export async function prepare(app: FastifyInstance, request: FastifyRequest, target: FormTarget, config: FormsConfig): Promise<Prepared | undefined> {
  const [forms, products] = await Promise.all([formsById(app), productChoices(app)]);
  const form = forms.get(target.formId);
  if (!form) return undefined;
  const lang = langOf(target.language);
  const t = stringsFor(lang).supportForm;
  const signedIn = Boolean(request.user?.sub && request.user.email);
  const shown = showForm(form, lang, signedIn, products, (s) => t.severity[s]);
  if (config.attachmentMaxFiles === 0) shown.fields = shown.fields.filter((f) => f.type !== 'file');
  return { shown, products, signedIn, multipart: shown.fields.some((f) => f.type === 'file') };
}

/** The page's model: the form with a fresh submission key, or the sign-in prompt of hot contact. */
export async function formPageModel(app: FastifyInstance, request: FastifyRequest, chrome: Chrome, target: FormTarget,
  prepared: Prepared, about: About, state: FormState, config: FormsConfig, extra: Partial<SupportFormModel> = {}): Promise<SupportFormModel> {
  const { shown, products, signedIn } = prepared;
  const strings = stringsFor(chrome.lang);
  const t = strings.supportForm;
  const base: SupportFormModel = { chrome, kind: target.kind, title: target.title, tagline: target.tagline, notice: state.notice, ...extra };
  if (target.kind === 'hotContact' && !signedIn) return { ...base, signInHref: chrome.header.loginHref };
  const values: Record<string, string | boolean> = { ...state.values };
  const productField = shown.fields.find((f) => f.type === 'product');
  if (!state.values && productField) {
    const wanted = typeof (request.query as { product?: unknown }).product === 'string' ? (request.query as { product: string }).product : about.productId;
    if (wanted && products.some((p) => p.id === wanted)) values[productField.name] = wanted;
  }
  // The assistant's 'ask support' link fills the subject with the visitor's question (?subject=…).
  const asked = (request.query as { subject?: unknown }).subject;
  if (!state.values && shown.subjectField && typeof asked === 'string') values[shown.subjectField] = asked.slice(0, 200);
  const chosen = productField && typeof values[productField.name] === 'string' ? products.find((p) => p.id === values[productField.name]) : undefined;
  const ownForm = await ownFormOf(app, chosen, signedIn, target);
  const reasonLabel = about.context.feedbackReason ? strings.feedback.reasons[about.context.feedbackReason as keyof typeof strings.feedback.reasons] : undefined;
  const types = config.attachmentTypes.join(', ');
  return {
    ...base,
    ownForm,
    signedInAs: signedIn && request.user ? { name: request.user.name || request.user.email, email: request.user.email } : undefined,
    about: { page: about.context.pageUrl, product: about.context.productName, reason: reasonLabel },
    form: {
      title: shown.title,
      intro: shown.intro,
      submitLabel: shown.submitLabel,
      action: target.path,
      csrf: app.formTokens.issue(`support:${shown.id}`),
      submission: randomUUID(),
      fields: shown.fields,
      values,
      errors: state.errors ?? [],
      hidden: about.hidden,
      multipart: prepared.multipart,
      files: prepared.multipart
        ? { help: t.filesHelp(config.attachmentMaxFiles, sizeText(config.attachmentMaxBytes), types), chooseAgain: state.chooseFilesAgain ?? false }
        : undefined,
    },
  };
}

/**
 * The external form a product names (customSupportFormAuthenticated / …Unauthenticated), or the page's
 * own supportForm: still linked, as before the built-in forms (issue 'Forms that work without JavaScript').
 */
async function ownFormOf(app: FastifyInstance, chosen: ProductChoice | undefined, signedIn: boolean, target: FormTarget) {
  const page = target.entry?.fields as Page | undefined;
  if (page?.supportForm) return { product: target.title, href: signedIn ? page.supportForm.authenticated : page.supportForm.unauthenticated };
  if (!chosen) return undefined;
  const product = (await app.content.byId(chosen.id, { preview: false }))?.fields as Product | undefined;
  const href = signedIn ? product?.customSupportFormAuthenticated : product?.customSupportFormUnauthenticated;
  return href ? { product: chosen.label, href } : undefined;
}
