import type { ContactBlockModel } from '../view-model.ts';
import { useStrings } from '../i18n/catalogue.tsx';

/** Spec §2 contact block; anonymous visitors are asked to log in first (spec §6). */
export function ContactBlock({ contact }: { contact: ContactBlockModel }) {
  const t = useStrings();
  return (
    <section className="contact-block">
      <h2>{t.contact.heading}</h2>
      <ul className="contact-links">
        <li>
          {contact.signedIn
            ? <a className="contact-primary" href={contact.contactHref}>{t.contact.contactSupport}</a>
            : <a className="contact-primary" href={contact.loginHref}>{t.contact.logInToContact}</a>}
        </li>
        <li><a href={contact.communityHref}>{t.contact.askCommunity}</a></li>
      </ul>
    </section>
  );
}
