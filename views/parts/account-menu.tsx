import type { HeaderModel, Link, Visitor } from '../view-model.ts';
import { IconGlyph } from './icon.tsx';

/** The signed-in visitor's avatar menu (spec §2 account menu links, §6 partner user). */
export function AccountMenu({ visitor, header }: { visitor: Visitor; header: HeaderModel }) {
  const who = visitor.displayName || visitor.email;
  const base = header.supportBase.replace(/\/+$/, '');
  const links: Link[] = visitor.partner
    ? [
        { label: 'View Support Requests', href: `${base}/requests` },
        { label: 'Named contacts', href: `${base}/named-contact` },
      ]
    : [{ label: 'View requests', href: `${base}/requests` }];
  links.push(
    { label: 'Manage profile', href: header.manageProfileHref },
    { label: 'Switch account', href: header.switchAccountHref },
    { label: 'Log out', href: header.logoutHref },
  );
  return (
    <details className="header-menu account-menu" data-island="header-menu" data-menu="account">
      <summary>
        {visitor.avatarUrl ? (
          <img className="avatar" src={visitor.avatarUrl} alt="" width="32" height="32" />
        ) : (
          <span className="avatar" aria-hidden="true">{initials(who) || <IconGlyph name="user" />}</span>
        )}
        <span className="visually-hidden">{who ? `Account menu for ${who}` : 'Account menu'}</span>
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
        </ul>
      </div>
    </details>
  );
}

function initials(name: string | undefined): string {
  if (!name) return '';
  const words = name.replace(/@.*$/, '').split(/[\s._-]+/).filter(Boolean);
  return words.slice(0, 2).map((w) => w[0]?.toUpperCase() ?? '').join('');
}
