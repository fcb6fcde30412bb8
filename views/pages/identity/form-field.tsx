/**
 * One labelled input of the identity screens' forms (profile, sign-up, reset): its hint and its error
 * (when the form came back) describe it, an error marks it aria-invalid, and the first field at fault
 * is focused. Class names start with the page's prefix (`profile-`, `identity-`).
 */
export interface FormFieldModel {
  prefix: string;
  name: string;
  label: string;
  type: 'email' | 'password' | 'text';
  autoComplete: string;
  hint?: string | undefined;
  error?: string | undefined;
  /** Kept when the form comes back with errors (never given for a password). */
  value?: string | undefined;
  required?: boolean | undefined;
  minLength?: number | undefined;
  maxLength: number;
  focus?: boolean | undefined;
}

export function FormField({ prefix, name, label, type, autoComplete, hint, error, value, required, minLength, maxLength, focus }: FormFieldModel) {
  const describedBy = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  return (
    <p className={`${prefix}-field`}>
      <label htmlFor={name}>{label}</label>
      {hint ? <span id={`${name}-hint`} className={`${prefix}-hint`}>{hint}</span> : null}
      {error ? <span id={`${name}-error`} className={`${prefix}-field-error`}>{error}</span> : null}
      <input id={name} name={name} type={type} autoComplete={autoComplete} required={required !== false}
        maxLength={maxLength} {...(minLength ? { minLength } : {})}
        {...(type !== 'password' ? { defaultValue: value ?? '' } : {})}
        {...(describedBy ? { 'aria-describedby': describedBy } : {})}
        {...(error ? { 'aria-invalid': true as const } : {})}
        {...(focus ? { autoFocus: true } : {})} />
    </p>
  );
}
