import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useHydrated } from './use-hydrated.ts';

export interface VersionSelectorProps {
  action: string;
  /** Hidden fields of the form (the entry, the version shown). */
  fields: Record<string, string>;
  /** The version shown now, selected in the select. */
  current: string;
  /** Newest first; `href` is this page in that version, else the modal offers search and browse. */
  versions: { number: string; href?: string | undefined; searchHref?: string | undefined; browseHref?: string | undefined }[];
  text: {
    label: string;
    go: string;
    /** Spec §8 version modal, in the page's language; `body` has `{version}` for the version chosen. */
    title: string;
    body: string;
    search: string;
    browse: string;
    cancel: string;
  };
}

/**
 * The Data Center version chooser (spec §4 Version modal). Without scripts: a GET form, select and 'Go',
 * to /version-switch. Hydrated: choosing a version goes straight to this page in it when it exists;
 * otherwise the version modal opens (a modal <dialog>: focus moves in and stays, Escape or Cancel close
 * it, focus goes back to the select, which shows the current version again).
 */
export function VersionSelector({ action, fields, current, versions, text }: VersionSelectorProps) {
  const hydrated = useHydrated();
  const [missing, setMissing] = useState<VersionSelectorProps['versions'][number] | null>(null);
  const select = useRef<HTMLSelectElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const d = dialog.current;
    if (!missing || !d) return;
    if (!d.open) d.showModal();
    d.querySelector<HTMLElement>('a, button')?.focus();
  }, [missing]);

  const choose = (number: string) => {
    const version = versions.find((v) => v.number === number);
    if (!version || number === current) return;
    if (version.href) location.assign(version.href);
    else setMissing(version);
  };
  const closed = () => {
    setMissing(null);
    if (select.current) {
      select.current.value = current;
      select.current.focus();
    }
  };
  // Focus stays in the dialog: Tab from the last action goes to the first, Shift+Tab the other way.
  const trap = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab') return;
    const items = [...event.currentTarget.querySelectorAll<HTMLElement>('a, button')];
    const first = items[0];
    const last = items.at(-1);
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  };

  return (
    <form className="version-form" method="get" action={action}>
      {Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
      <label htmlFor="version-select">{text.label}</label>
      <select id="version-select" name="version" defaultValue={current} ref={select}
        onChange={hydrated ? (event) => choose(event.currentTarget.value) : undefined}>
        {versions.map((v) => <option key={v.number} value={v.number}>{v.number}</option>)}
      </select>
      {/* Once the select acts on its own, 'Go' keeps its place but is neither shown nor reachable. */}
      <button type="submit" className={hydrated ? 'auto-submit-button is-auto' : 'auto-submit-button'}>{text.go}</button>
      {missing ? (
        <dialog ref={dialog} className="version-modal" aria-labelledby="version-modal-title" aria-describedby="version-modal-text"
          onClose={closed} onKeyDown={trap}>
          <h2 id="version-modal-title">{text.title}</h2>
          <p id="version-modal-text">{text.body.replace('{version}', missing.number)}</p>
          <div className="version-modal-actions">
            <a className="button-link" href={missing.searchHref}>{text.search}</a>
            <a className="button-link" href={missing.browseHref}>{text.browse}</a>
            <button type="button" className="secondary-button" onClick={() => dialog.current?.close()}>{text.cancel}</button>
          </div>
        </dialog>
      ) : null}
    </form>
  );
}
