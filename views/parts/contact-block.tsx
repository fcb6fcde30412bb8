import type { ContactBlockModel } from '../view-model.ts';

/** Spec §2 contact block; anonymous visitors are asked to log in first (spec §6). */
export function ContactBlock({ contact }: { contact: ContactBlockModel }) {
  return (
    <section className="contact-block">
      <h2>Not finding the help you need?</h2>
      <ul className="contact-links">
        <li>
          {contact.signedIn
            ? <a className="contact-primary" href={contact.contactHref}>Contact support</a>
            : <a className="contact-primary" href={contact.loginHref}>Log in to contact support</a>}
        </li>
        <li><a href={contact.communityHref}>Ask the community</a></li>
      </ul>
    </section>
  );
}
