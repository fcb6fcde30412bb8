import type { HeaderModel, Link, Visitor } from '../view-model.ts';
import type { Strings } from '../i18n/strings.ts';
import type { AccountMenuProps } from '../islands/site-header.tsx';

/**
 * What the signed-in visitor's avatar menu shows (spec §2 account menu links, §6 partner user), in the
 * page's language, for the site-header island (views/islands/site-header.tsx); log out is a POST form.
 */
export function accountMenuProps(visitor: Visitor, header: HeaderModel, t: Strings): AccountMenuProps {
  const who = visitor.displayName || visitor.email || '';
  const base = header.supportBase.replace(/\/+$/, '');
  // Spec §2: both account links for everyone signed in (any account keeps named contacts); partner hosts
  // name the requests link differently because partner request items show there too (§6).
  const links: Link[] = [
    { label: visitor.partner ? t.account.viewSupportRequests : t.account.viewRequests, href: `${base}/requests` },
    { label: t.account.namedContacts, href: `${base}/named-contact` },
  ];
  if (visitor.staff) links.push({ label: t.account.insights, href: `${base}/insights` });
  links.push(
    { label: t.account.manageProfile, href: header.manageProfileHref },
    { label: t.account.switchAccount, href: header.switchAccountHref },
  );
  return {
    who,
    email: visitor.displayName && visitor.email ? visitor.email : undefined,
    avatarUrl: visitor.avatarUrl,
    initials: visitor.initials ?? initials(who),
    label: who ? t.account.menuFor(who) : t.account.menu,
    links,
    logoutHref: header.logoutHref,
    logOut: t.account.logOut,
  };
}

export function initials(name: string | undefined): string {
  if (!name) return '';
  const words = name.replace(/@.*$/, '').split(/[\s._-]+/).filter(Boolean);
  return words.slice(0, 2).map((w) => w[0]?.toUpperCase() ?? '').join('');
}
