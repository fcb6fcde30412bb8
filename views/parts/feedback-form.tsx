import { FEEDBACK_REASONS, type FeedbackModel } from '../view-model.ts';
import { useStrings } from '../i18n/catalogue.tsx';

/**
 * Was this helpful? (spec §4 Feedback) as real POST forms with post/redirect/get: the answer,
 * then for 'No' the reasons, then thanks. The server redirects back to #feedback.
 */
export function FeedbackForm({ feedback }: { feedback: FeedbackModel }) {
  const t = useStrings();
  return (
    <section id="feedback" className="feedback" aria-labelledby="feedback-heading" data-island="feedback">
      <h2 id="feedback-heading">{t.feedback.heading}</h2>
      {feedback.state === 'thanks' ? <p role="status" className="feedback-thanks">{t.feedback.thanks}</p> : null}
      {feedback.state === 'thanks' && feedback.contactHref
        ? <p className="feedback-contact"><a href={feedback.contactHref}>{t.supportForm.contactAboutPage}</a></p>
        : null}
      {feedback.state === 'ask' ? (
        <form method="post" action={feedback.action} className="feedback-ask">
          <HiddenFields feedback={feedback} />
          <button type="submit" name="helpful" value="yes">{t.feedback.yes}</button>
          <button type="submit" name="helpful" value="no">{t.feedback.no}</button>
        </form>
      ) : null}
      {feedback.state === 'reasons' ? (
        <form method="post" action={feedback.action} className="feedback-reasons">
          <HiddenFields feedback={feedback} />
          <input type="hidden" name="helpful" value="no" />
          <fieldset>
            <legend>{t.feedback.whatWentWrong}</legend>
            {FEEDBACK_REASONS.map((r, i) => (
              <div key={r.value} className="feedback-reason">
                <input type="radio" id={`feedback-reason-${r.value}`} name="reason" value={r.value} required={i === 0} />
                <label htmlFor={`feedback-reason-${r.value}`}>{t.feedback.reasons[r.value]}</label>
              </div>
            ))}
          </fieldset>
          <button type="submit">{t.feedback.send}</button>
        </form>
      ) : null}
    </section>
  );
}

function HiddenFields({ feedback }: { feedback: FeedbackModel }) {
  return (
    <>
      <input type="hidden" name="_csrf" value={feedback.csrfToken} />
      <input type="hidden" name="entryId" value={feedback.entryId} />
      <input type="hidden" name="returnTo" value={feedback.returnTo} />
    </>
  );
}
