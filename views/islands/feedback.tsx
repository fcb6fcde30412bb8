import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useHydrated } from './use-hydrated.ts';

type Reason = 'not-accurate' | 'not-clear' | 'not-relevant';
type State = 'ask' | 'reasons' | 'thanks';

export interface FeedbackProps {
  action: string;
  entryId: string;
  returnTo: string;
  csrfToken: string;
  state: State;
  /** The contact form about this page, in the thanks state after a reason (as the server rendered it). */
  contactHref?: string | undefined;
  /** The contact form about this page for each reason, for the thanks reached in place. */
  contactHrefs?: Partial<Record<Reason, string>> | undefined;
  /** The reasons offered after 'No' (spec §8), in order, with their words. */
  reasons: { value: Reason; label: string }[];
  text: { heading: string; thanks: string; yes: string; no: string; whatWentWrong: string; send: string; contact: string; failed: string };
}

/**
 * Was this helpful? (spec §4 Feedback). Without scripts: POST forms with post/redirect/get, the answer,
 * then for 'No' the reasons, then thanks. Hydrated: the same forms are posted with fetch (same endpoint,
 * same token) asking for JSON, and the next state shows in place: 'No' opens the three reasons as
 * buttons, choosing one closes them and the thanks is announced. A failed post says so, and the forms
 * then post the page as they do without scripts.
 */
export function Feedback(props: FeedbackProps) {
  const { text } = props;
  const hydrated = useHydrated();
  const [state, setState] = useState<State>(props.state);
  const [reason, setReason] = useState<Reason | undefined>();
  const [inPlace, setInPlace] = useState(false);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const section = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!inPlace) return;
    section.current?.querySelector<HTMLElement>(state === 'reasons' ? '.feedback-reasons button' : '.feedback-thanks')?.focus();
  }, [inPlace, state]);

  const send = (event: FormEvent<HTMLFormElement>) => {
    if (!hydrated || failed) return; // the browser posts the form
    event.preventDefault();
    if (busy) return;
    const data = new FormData(event.currentTarget);
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter instanceof HTMLButtonElement && submitter.name) data.append(submitter.name, submitter.value);
    setBusy(true);
    fetch(props.action, {
      method: 'POST',
      body: new URLSearchParams(data as unknown as Record<string, string>),
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
    })
      .then(async (response) => {
        if (!response.ok) throw new Error(`feedback: ${response.status}`);
        const answer = (await response.json()) as { state: State; reason?: Reason };
        setReason(answer.reason);
        setState(answer.state);
        setInPlace(true);
      })
      .catch(() => setFailed(true))
      .finally(() => setBusy(false));
  };

  const contactHref = inPlace ? (reason ? props.contactHrefs?.[reason] : undefined) : props.contactHref;
  const hidden = (
    <>
      <input type="hidden" name="_csrf" value={props.csrfToken} />
      <input type="hidden" name="entryId" value={props.entryId} />
      <input type="hidden" name="returnTo" value={props.returnTo} />
    </>
  );
  return (
    <section id="feedback" className="feedback" aria-labelledby="feedback-heading" ref={section}>
      <h2 id="feedback-heading">{text.heading}</h2>
      <div role="status" className="feedback-status">
        {state === 'thanks' ? <p className="feedback-thanks" tabIndex={inPlace ? -1 : undefined}>{text.thanks}</p> : null}
      </div>
      {state === 'thanks' && contactHref ? <p className="feedback-contact"><a href={contactHref}>{text.contact}</a></p> : null}
      {failed ? <p role="alert" className="feedback-error">{text.failed}</p> : null}
      {state === 'ask' ? (
        <form method="post" action={props.action} className="feedback-ask" onSubmit={send}>
          {hidden}
          <button type="submit" name="helpful" value="yes">{text.yes}</button>
          <button type="submit" name="helpful" value="no">{text.no}</button>
        </form>
      ) : null}
      {state === 'reasons' ? (
        <form method="post" action={props.action} className="feedback-reasons" onSubmit={send}>
          {hidden}
          <input type="hidden" name="helpful" value="no" />
          <fieldset>
            <legend>{text.whatWentWrong}</legend>
            {inPlace ? (
              // Reached in place: one button per reason, and choosing one sends it.
              <div className="feedback-reason-buttons">
                {props.reasons.map((r) => <button key={r.value} type="submit" name="reason" value={r.value}>{r.label}</button>)}
              </div>
            ) : props.reasons.map((r, i) => (
              <div key={r.value} className="feedback-reason">
                <input type="radio" id={`feedback-reason-${r.value}`} name="reason" value={r.value} required={i === 0} />
                <label htmlFor={`feedback-reason-${r.value}`}>{r.label}</label>
              </div>
            ))}
          </fieldset>
          {inPlace ? null : <button type="submit">{text.send}</button>}
        </form>
      ) : null}
    </section>
  );
}
