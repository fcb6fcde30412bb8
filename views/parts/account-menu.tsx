import type { HeaderModel, Link, Visitor } from '../view-model.ts';
import { IconGlyph } from './icon.tsx';
import { useStrings } from '../i18n/catalogue.tsx';

/** The signed-in visitor's avatar menu (spec §2 account menu links, §6 partner user); log out is a POST form. */
export function AccountMenu({ visitor, header }: { visitor: Visitor; header: HeaderModel }) {
  const t = useStrings();
  const who = visitor.displayName || visitor.email;
  const base = header.supportBase.replace(/\/+$/, '');
  const links: Link[] = visitor.partner
    ? [
        { label: t.account.viewSupportRequests, href: `${base}/requests` },
        { label: t.account.namedContacts, href: `${base}/named-contact` },
      ]
    : [{ label: t.account.viewRequests, href: `${base}/requests` }];
  links.push(
    { label: t.account.manageProfile, href: header.manageProfileHref },
    { label: t.account.switchAccount, href: header.switchAccountHref },
  );
  return (
    <details className="header-menu account-menu" data-island="header-menu" data-menu="account">
      <summary>
        {visitor.avatarUrl ? (
          <img className="avatar" src={visitor.avatarUrl} alt="" width="32" height="32" />
        ) : (
          <span className="avatar" aria-hidden="true">{(visitor.initials ?? initials(who)) || <IconGlyph name="user" />}</span>
        )}
        <span className="visually-hidden">{who ? t.account.menuFor(who) : t.account.menu}</span>
      </summary>
      <div className="menu-panel">
        {who ? (
          <p className="account-who">
            <span className="account-name">{who}</span>
            {visitor.displayName && visitor.email ? <span className="account-email">{visitor.email}</span> : null}
          </p>
        ) : null}
        <ul className="account-links">
          {links.map((link) => <li key={link.label}><a href={link.href}>{link.label}</a></li>)}
          <li>
            {/* Log out changes state, so it is a POST (refused from other sites); a form works without JavaScript. */}
            <form method="post" action={header.logoutHref} className="account-logout">
              <button type="submit" className="link-button">{t.account.logOut}</button>
            </form>
          </li>
        </ul>
      </div>
    </details>
  );
}

export function initials(name: string | undefined): string {
  if (!name) return '';
  const words = name.replace(/@.*$/, '').split(/[\s._-]+/).filter(Boolean);
  return words.slice(0, 2).map((w) => w[0]?.toUpperCase() ?? '').join('');
}
