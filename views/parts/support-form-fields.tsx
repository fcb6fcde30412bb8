import { stringsFor } from '../i18n/catalogue.tsx';

/** A field as a support form shows it: its words in the page language and the values it allows. */
export interface SupportField {
  name: string;
  type: 'text' | 'longText' | 'email' | 'select' | 'product' | 'version' | 'severity' | 'checkbox' | 'file';
  label: string;
  help?: string | undefined;
  required: boolean;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  pattern?: string | undefined;
  /** Select, product and severity fields: the allowed values and their words. */
  options?: { value: string; label: string }[] | undefined;
  /** Version fields: each product's versions. */
  groups?: { label: string; productId: string; options: string[] }[] | undefined;
}

const fieldId = (name: string) => `field-${name}`;

/**
 * The fields of a support form, each with its label, help and error tied to it by aria-describedby,
 * and aria-invalid when it has an error. Native controls only: it all works without JavaScript.
 */
export function SupportFormFields({ fields, values, errors, files, lang }: {
  fields: SupportField[];
  values: Record<string, string | boolean>;
  errors: { field: string; message: string }[];
  files?: { help: string; chooseAgain: boolean } | undefined;
  lang: string;
}) {
  const t = stringsFor(lang).supportForm;
  return (
    <>
      {fields.map((f) => {
        const id = fieldId(f.name);
        const error = errors.find((e) => e.field === f.name)?.message;
        const helpText = f.type === 'file' && files ? [f.help, files.help].filter(Boolean).join(' ') : f.help;
        const describedBy = [helpText ? `${id}-help` : '', error ? `${id}-error` : '', f.type === 'file' && files?.chooseAgain ? `${id}-again` : '']
          .filter(Boolean).join(' ');
        const aria = {
          ...(describedBy ? { 'aria-describedby': describedBy } : {}),
          ...(error ? { 'aria-invalid': true as const } : {}),
          ...(f.required ? { required: true } : {}),
        };
        const value = values[f.name];
        const text = typeof value === 'string' ? value : '';
        const label = (
          <label htmlFor={id}>
            {f.label}
            {f.type !== 'checkbox' ? <span className="field-need"> ({f.required ? t.required : t.optional})</span> : null}
          </label>
        );
        const help = helpText ? <p className="field-help" id={`${id}-help`}>{helpText}</p> : null;
        const message = error ? <p className="field-error" id={`${id}-error`}>{error}</p> : null;
        let control;
        switch (f.type) {
          case 'longText':
            control = <textarea id={id} name={f.name} rows={8} defaultValue={text} {...aria} />;
            break;
          case 'select': case 'product': case 'severity':
            control = (
              <select id={id} name={f.name} defaultValue={text} {...aria}>
                <option value="">{t.chooseOne}</option>
                {(f.options ?? []).map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
              </select>
            );
            break;
          case 'version':
            control = (
              <select id={id} name={f.name} defaultValue={text} {...aria}>
                <option value="">{t.noVersion}</option>
                {(f.groups ?? []).map((g) => (
                  <optgroup key={g.productId} label={g.label}>
                    {g.options.map((v) => <option key={v} value={v}>{v}</option>)}
                  </optgroup>
                ))}
              </select>
            );
            break;
          case 'checkbox':
            return (
              <div key={f.name} className={`field field-checkbox${error ? ' field-invalid' : ''}`}>
                {message}
                <input type="checkbox" id={id} name={f.name} value="yes" defaultChecked={value === true} {...aria} />
                {label}
                {help}
              </div>
            );
          case 'file':
            return (
              <div key={f.name} className={`field field-file${error ? ' field-invalid' : ''}`}>
                {label}
                {help}
                {files?.chooseAgain ? <p className="field-help" id={`${id}-again`}>{t.chooseFilesAgain}</p> : null}
                {message}
                <input type="file" id={id} name={f.name} multiple {...aria} />
              </div>
            );
          default:
            control = (
              <input type={f.type === 'email' ? 'email' : 'text'} id={id} name={f.name} defaultValue={text}
                {...(f.type === 'email' ? { autoComplete: 'email' } : f.name === 'name' ? { autoComplete: 'name' } : {})}
                {...(f.maxLength ? { maxLength: f.maxLength } : {})} {...aria} />
            );
        }
        return (
          <div key={f.name} className={`field${error ? ' field-invalid' : ''}`}>
            {label}
            {help}
            {message}
            {control}
          </div>
        );
      })}
    </>
  );
}
