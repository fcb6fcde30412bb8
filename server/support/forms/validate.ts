/**
 * Checks a posted support form against its fields' rules (issue 'Errors and safety': every field's bad
 * input has a clear message, nothing typed is lost). What comes back is both the values to show again
 * and, when there is no error, the values to store.
 */
import type { FieldValue } from '../store.ts';
import type { ProductChoice, ShownField, ShownForm } from './definition.ts';
import type { Strings } from '../../../views/i18n/catalogue.tsx';

export type Posted = Record<string, string | string[] | undefined>;

export interface FieldError {
  field: string;
  message: string;
}

export interface Checked {
  /** What the visitor sent, as it goes back into the form (text as typed, a checkbox ticked or not). */
  values: Record<string, string | boolean>;
  errors: FieldError[];
  /** The values to store, by field name: empty optional fields left out. */
  clean: Record<string, FieldValue>;
}

/**
 * A single posted value: the last one when a name came more than once. A body that is not a form's
 * (JSON) can carry numbers, objects or nulls: those are no answer, so the field is reported as missing.
 */
export function one(posted: Posted, name: string): string {
  const value: unknown = Object.hasOwn(posted, name) ? posted[name] : undefined;
  const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
  return typeof last === 'string' ? last : '';
}

// Anything a person types is fine, except control characters other than tab and line breaks (a NUL
// cannot be stored at all).
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// The e-mail shape browsers check for type=email (HTML 'valid e-mail address').
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Characters as people count them (a surrogate pair, such as an emoji, is one). */
const lengthOf = (text: string) => [...text].length;

export function checkForm(form: ShownForm, posted: Posted, products: ProductChoice[], t: Strings['supportForm']): Checked {
  const values: Checked['values'] = {};
  const errors: FieldError[] = [];
  const clean: Checked['clean'] = {};
  const productField = form.fields.find((f) => f.type === 'product');
  const chosenProduct = productField ? products.find((p) => p.id === one(posted, productField.name).trim()) : undefined;
  for (const field of form.fields) {
    if (field.type === 'file') continue;
    if (field.type === 'checkbox') {
      const ticked = one(posted, field.name) !== '';
      values[field.name] = ticked;
      if (field.required && !ticked) errors.push({ field: field.name, message: t.errors.tick(field.label) });
      else clean[field.name] = ticked;
      continue;
    }
    const raw = one(posted, field.name);
    // Line breaks as browsers send them (CRLF) are kept as one newline; single-line text is trimmed.
    const value = field.type === 'longText' ? raw.replace(/\r\n?/g, '\n').trim() : raw.trim();
    values[field.name] = raw;
    const message = fieldError(field, value, chosenProduct, t);
    if (message) errors.push({ field: field.name, message });
    else if (value !== '') clean[field.name] = value;
  }
  return { values, errors, clean };
}

function fieldError(field: ShownField, value: string, product: ProductChoice | undefined, t: Strings['supportForm']): string | undefined {
  const picked = field.type === 'select' || field.type === 'product' || field.type === 'severity' || field.type === 'version';
  if (value === '') {
    if (!field.required) return undefined;
    return picked ? t.errors.choose(field.label) : t.errors.required(field.label);
  }
  if (CONTROL.test(value)) return t.errors.control(field.label);
  if (field.options && !field.options.some((o) => o.value === value)) return t.errors.option(field.label);
  if (field.type === 'version') {
    // A version belongs to the product chosen; a product without versions (Cloud) takes none.
    if (!product || !product.versions.includes(value)) return product ? t.errors.version(product.label) : t.errors.option(field.label);
    return undefined;
  }
  if (field.minLength !== undefined && lengthOf(value) < field.minLength) return t.errors.tooShort(field.label, field.minLength);
  const max = field.maxLength ?? (field.type === 'longText' ? 20_000 : field.type === 'email' ? 254 : 500);
  if (lengthOf(value) > max) return t.errors.tooLong(field.label, max);
  if (field.type === 'email' && !EMAIL.test(value)) return t.errors.email;
  if (field.pattern !== undefined && !new RegExp(`^(?:${field.pattern})$`, 'u').test(value)) return t.errors.pattern(field.label);
  return undefined;
}
