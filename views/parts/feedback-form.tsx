import { FEEDBACK_REASONS, type FeedbackModel } from '../view-model.ts';
import { useStrings } from '../i18n/catalogue.tsx';
import { Island } from '../island.tsx';
import { Feedback } from '../islands/feedback.tsx';

/**
 * Was this helpful? (spec §4 Feedback) as real POST forms with post/redirect/get: the answer,
 * then for 'No' the reasons, then thanks. The server redirects back to #feedback. The feedback island
 * (views/islands/feedback.tsx) posts the same forms in place when scripts run.
 */
export function FeedbackForm({ feedback }: { feedback: FeedbackModel }) {
  const t = useStrings();
  const contactHrefs = feedback.contactBase === undefined ? undefined : Object.fromEntries(FEEDBACK_REASONS.map((r) =>
    [r.value, `${feedback.contactBase}?${new URLSearchParams({ page: feedback.returnTo, reason: r.value }).toString()}`]));
  return (
    <Island name="feedback" hydrate="interaction" component={Feedback} props={{
      action: feedback.action,
      entryId: feedback.entryId,
      returnTo: feedback.returnTo,
      csrfToken: feedback.csrfToken,
      state: feedback.state,
      contactHref: feedback.contactHref,
      contactHrefs,
      reasons: FEEDBACK_REASONS.map((r) => ({ value: r.value, label: t.feedback.reasons[r.value] })),
      text: {
        heading: t.feedback.heading,
        thanks: t.feedback.thanks,
        yes: t.feedback.yes,
        no: t.feedback.no,
        whatWentWrong: t.feedback.whatWentWrong,
        send: t.feedback.send,
        contact: t.supportForm.contactAboutPage,
        failed: t.feedback.failed,
      },
    }} />
  );
}
