import { Fragment, type ChangeEvent } from 'react';
import { useHydrated } from './use-hydrated.ts';

export interface AutoSubmitField {
  id: string;
  name: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
}

export interface AutoSubmitProps {
  fields: AutoSubmitField[];
  /** Each field in a <p> of this class, else label and select side by side in the parent. */
  fieldClassName?: string | undefined;
  button: { label: string; className?: string | undefined; inParagraph?: boolean | undefined };
}

/**
 * Selects that act when changed (spec §4): without scripts, the selects and the form's submit button;
 * hydrated, changing a select submits its form as the button would (requestSubmit, so the form's own
 * submit handling, such as the search enhancement's htmx swap, runs as for a press of the button), and
 * the button keeps its place but is neither shown nor reachable.
 */
export function AutoSubmit({ fields, fieldClassName, button }: AutoSubmitProps) {
  const hydrated = useHydrated();
  const change = hydrated ? (event: ChangeEvent<HTMLSelectElement>) => event.currentTarget.form?.requestSubmit() : undefined;
  const className = [button.className, 'auto-submit-button', hydrated ? 'is-auto' : undefined].filter(Boolean).join(' ');
  const submit = <button type="submit" className={className}>{button.label}</button>;
  return (
    <>
      {fields.map((field) => {
        const control = (
          <>
            <label htmlFor={field.id}>{field.label}</label>
            <select id={field.id} name={field.name} defaultValue={field.value} onChange={change}>
              {field.options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
            </select>
          </>
        );
        return fieldClassName ? <p key={field.id} className={fieldClassName}>{control}</p> : <Fragment key={field.id}>{control}</Fragment>;
      })}
      {button.inParagraph ? <p>{submit}</p> : submit}
    </>
  );
}
