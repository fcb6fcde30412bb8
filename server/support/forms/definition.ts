/**
 * A support form as a page shows it: the content's form (content/forms/*.yaml) in the page's language,
 * for this visitor (anonymous visitors are asked their e-mail, signed-in visitors are not), with the
 * product and version pickers filled from the stored products.
 */
import type { FastifyInstance } from 'fastify';
import type { Form, Product } from '../../content/schemas.ts';
import { isCloud, productLabel } from '../../content/deployments.ts';
import { withoutNeedMarker } from '../../content/forms.ts';
import type { SupportField } from '../../../views/parts/support-form-fields.tsx';

export type Lang = 'en' | 'ja';

/** The severities a severity field offers, most urgent first; their words are in the catalogue. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface ProductChoice {
  id: string;
  label: string;
  versions: string[];
}

/** A field as shown: its words in the page language and, for pickers, the values it allows. */
export type ShownField = SupportField;

export interface ShownForm {
  id: string;
  title: string;
  intro?: string | undefined;
  submitLabel?: string | undefined;
  subjectField?: string | undefined;
  fields: ShownField[];
}

const inLang = (lang: Lang, english: string, translations?: { 'ja-JP'?: string | undefined }) =>
  lang === 'ja' ? translations?.['ja-JP'] ?? english : english;

/** The published forms by id, read once per content version. */
export async function formsById(app: FastifyInstance): Promise<Map<string, Form>> {
  return app.content.memo('support-forms', async () =>
    new Map((await app.content.ofType('form', { preview: false })).map((e) => [e.id, e.fields as unknown as Form])));
}

/** The published products, in a stable order, read once per content version. */
export async function productChoices(app: FastifyInstance): Promise<ProductChoice[]> {
  return app.content.memo('support-form-products', async () =>
    (await app.content.ofType('product', { preview: false }))
      .map((e) => e.fields as unknown as Product)
      .map((p) => ({
        id: p.id,
        label: productLabel(p),
        versions: isCloud(p) ? [] : (p.versions ?? []).map((v) => v.number),
      }))
      .sort((a, b) => a.label.localeCompare(b.label)));
}

export function showForm(form: Form, lang: Lang, signedIn: boolean, products: ProductChoice[],
  severityLabel: (s: Severity) => string): ShownForm {
  const asked = form.fields.filter((f) => (f.audience ?? 'everyone') === 'everyone' || (f.audience === 'anonymous') !== signedIn);
  return {
    id: form.id,
    title: inLang(lang, form.title, form.titles),
    intro: form.intro ? inLang(lang, form.intro, form.intros) : undefined,
    submitLabel: form.submitLabel ? inLang(lang, form.submitLabel, form.submitLabels) : undefined,
    subjectField: form.subjectField,
    fields: asked.map((f): ShownField => ({
      name: f.name,
      type: f.type,
      label: withoutNeedMarker(inLang(lang, f.label, f.labels)),
      help: f.help ? inLang(lang, f.help, f.helps) : undefined,
      required: f.required ?? false,
      minLength: f.minLength,
      maxLength: f.maxLength,
      pattern: f.pattern,
      options: f.type === 'select' ? (f.options ?? []).map((o) => ({ value: o.value, label: inLang(lang, o.label, o.labels) }))
        : f.type === 'product' ? products.map((p) => ({ value: p.id, label: p.label }))
        : f.type === 'severity' ? SEVERITIES.map((s) => ({ value: s, label: severityLabel(s) }))
        : undefined,
      groups: f.type === 'version'
        ? products.filter((p) => p.versions.length > 0).map((p) => ({ label: p.label, productId: p.id, options: p.versions }))
        : undefined,
    })),
  };
}
