import { FEEDBACK_REASONS, type FeedbackModel } from '../view-model.ts';

/**
 * Was this helpful? (spec §4 Feedback) as real POST forms with post/redirect/get: the answer,
 * then for 'No' the reasons, then thanks. The server redirects back to #feedback.
 */
export function FeedbackForm({ feedback }: { feedback: FeedbackModel }) {
  return (
    <section id="feedback" className="feedback" aria-labelledby="feedback-heading" data-island="feedback">
      <h2 id="feedback-heading">Was this helpful?</h2>
      {feedback.state === 'thanks' ? <p role="status" className="feedback-thanks">Thanks for your feedback.</p> : null}
      {feedback.state === 'ask' ? (
        <form method="post" action={feedback.action} className="feedback-ask">
          <HiddenFields feedback={feedback} />
          <button type="submit" name="helpful" value="yes">Yes</button>
          <button type="submit" name="helpful" value="no">No</button>
        </form>
      ) : null}
      {feedback.state === 'reasons' ? (
        <form method="post" action={feedback.action} className="feedback-reasons">
          <HiddenFields feedback={feedback} />
          <input type="hidden" name="helpful" value="no" />
          <fieldset>
            <legend>What went wrong?</legend>
            {FEEDBACK_REASONS.map((r, i) => (
              <div key={r.value} className="feedback-reason">
                <input type="radio" id={`feedback-reason-${r.value}`} name="reason" value={r.value} required={i === 0} />
                <label htmlFor={`feedback-reason-${r.value}`}>{r.label}</label>
              </div>
            ))}
          </fieldset>
          <button type="submit">Send</button>
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
