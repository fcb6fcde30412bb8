/**
 * Comfort for the support forms, which work without it: when the page comes back with errors, focus
 * moves to the error summary (its links then move focus to each field); and a form being sent cannot
 * be sent twice by a second click (the server stores one request either way: the submission key).
 */
export function enhanceSupportForm(element: HTMLElement): void {
  const summary = element.querySelector<HTMLElement>('#error-summary');
  if (summary) summary.focus();
  for (const form of element.querySelectorAll<HTMLFormElement>('form[data-support-form]')) {
    form.addEventListener('submit', () => {
      for (const button of form.querySelectorAll<HTMLButtonElement>('button[type="submit"]')) {
        // After this event, so the button's own value (if any) is still sent.
        setTimeout(() => { button.disabled = true; }, 0);
      }
    });
  }
}
