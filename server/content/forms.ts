/**
 * Checks of a support form beyond its schema (issue 'Forms that work without JavaScript'): what the
 * request store and the form pages rely on. Each problem names the field path it is about.
 */
import type { Form } from './schemas.ts';
import { stringsFor } from '../../views/i18n/catalogue.tsx';

/** A warning is reported but does not stop an import. */
export type FormProblem = { path: (string | number)[]; reason: string; warning?: true };

/**
 * The form pages mark every field '(required)' or '(optional)' in the page's language themselves, so a
 * label that says it too would say it twice: such a marker, in any catalogue's words, is left off.
 */
const NEED_WORDS = ['en', 'ja'].flatMap((lang) => [stringsFor(lang).supportForm.required, stringsFor(lang).supportForm.optional]);
const NEED_MARKER = new RegExp(`\\s*[(（]\\s*(?:${NEED_WORDS.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\s*[)）]\\s*$`, 'iu');

/** A field label without a trailing '(optional)' or '(required)' of its own. */
export function withoutNeedMarker(label: string): string {
  const bare = label.replace(NEED_MARKER, '');
  return bare === '' ? label : bare;
}

/** Field names the form pages post themselves: a form field must not take one. */
export const RESERVED_FIELD_NAMES = new Set(['_csrf', 'submission', 'website', 'page', 'reason']);

export function formProblems(form: Form): FormProblem[] {
  const problems: FormProblem[] = [];
  const seen = new Map<string, number>();
  const count = (type: string) => form.fields.filter((f) => f.type === type).length;
  form.fields.forEach((field, i) => {
    const at = (key: string) => ['fields', i, key];
    const first = seen.get(field.name);
    if (first !== undefined) problems.push({ path: at('name'), reason: `duplicate field name "${field.name}", already used by field ${first + 1}` });
    else seen.set(field.name, i);
    if (RESERVED_FIELD_NAMES.has(field.name)) problems.push({ path: at('name'), reason: `"${field.name}" is reserved for the form itself` });
    const labels: [string, (string | number)[]][] = [[field.label, at('label')],
      ...Object.entries(field.labels ?? {}).map(([lang, l]): [string, (string | number)[]] => [String(l), ['fields', i, 'labels', lang]])];
    for (const [label, path] of labels) {
      if (withoutNeedMarker(label) !== label) {
        problems.push({ path, reason: `"${label}" says whether the field is required; the form adds that itself, so it is left off`, warning: true });
      }
    }
    const text = field.type === 'text' || field.type === 'longText' || field.type === 'email';
    if (!text && (field.minLength !== undefined || field.maxLength !== undefined || field.pattern !== undefined)) {
      const key = field.minLength !== undefined ? 'minLength' : field.maxLength !== undefined ? 'maxLength' : 'pattern';
      problems.push({ path: at(key), reason: `only text, longText and email fields have lengths and patterns, not ${field.type}` });
    }
    if (field.minLength !== undefined && field.maxLength !== undefined && field.minLength > field.maxLength) {
      problems.push({ path: at('minLength'), reason: `is more than maxLength (${field.maxLength})` });
    }
    if (field.pattern !== undefined) {
      try {
        new RegExp(`^(?:${field.pattern})$`, 'u');
      } catch (error) {
        problems.push({ path: at('pattern'), reason: `not a regular expression: ${(error as Error).message}` });
      }
    }
    if (field.type === 'select' && !field.options) problems.push({ path: at('options'), reason: 'is required for select fields' });
    if (field.type !== 'select' && field.options) problems.push({ path: at('options'), reason: `only select fields have options, not ${field.type}` });
    if (field.options) {
      const values = new Set<string>();
      field.options.forEach((o, j) => {
        if (values.has(o.value)) problems.push({ path: ['fields', i, 'options', j, 'value'], reason: `duplicate option "${o.value}"` });
        values.add(o.value);
      });
    }
    if (field.type === 'email' && field.audience !== 'anonymous') {
      problems.push({ path: at('audience'), reason: 'an email field is for anonymous visitors (signed-in visitors send their account\'s address): set audience: anonymous' });
    }
  });
  for (const type of ['product', 'version', 'severity', 'file', 'email'] as const) {
    if (count(type) > 1) problems.push({ path: ['fields'], reason: `has ${count(type)} ${type} fields; at most one` });
  }
  if (count('version') > 0 && count('product') === 0) problems.push({ path: ['fields'], reason: 'a version field needs a product field' });
  if (count('email') === 0) problems.push({ path: ['fields'], reason: 'needs an email field (audience: anonymous) so an anonymous visitor can be answered' });
  if (form.subjectField !== undefined) {
    const subject = form.fields.find((f) => f.name === form.subjectField);
    if (!subject) problems.push({ path: ['subjectField'], reason: `no field is named "${form.subjectField}"` });
    else if (subject.type !== 'text') problems.push({ path: ['subjectField'], reason: `"${form.subjectField}" is a ${subject.type} field; the subject is a text field` });
    else if (!subject.required || subject.audience) problems.push({ path: ['subjectField'], reason: `"${form.subjectField}" must be required and asked of everyone` });
  }
  return problems;
}
