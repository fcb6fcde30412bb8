import type { Page } from '../../content/schemas.ts';
import type { FormShellModel } from '../../../views/view-model.ts';
import { FormShellPage } from '../../../views/pages/form-shell-page.tsx';
import type { Loader, LoaderContext } from './shared.ts';

const OTHER_CONTACTS = ['hotContact', 'statusPageContact', 'partnerContact'] as const;

/** Page types that are a shell for the external form app. */
export const SHELL_KINDS: Partial<Record<Page['pageType'], FormShellModel['kind']>> = {
  contact: 'contact', hotContact: 'hotContact', partnerContact: 'partnerContact', statusPageContact: 'statusPageContact',
  myRequests: 'myRequests', fileDownload: 'fileDownload',
};

export const formShellLoader = (ctx: LoaderContext): Loader => async (request, entry, preview) => {
  const page = entry.fields as unknown as Page;
  const shell = SHELL_KINDS[page.pageType] ?? 'contact';
  const c = await ctx.chromeOf(request, entry, preview);
  const form = page.supportForm;
  // The general contact page leads on to the other contact pages of its language.
  const others = shell === 'contact'
    ? (await ctx.pagesOfTypes(OTHER_CONTACTS)).filter((p) => p.language === entry.language && p.path)
      .map((p) => ({ label: p.title ?? p.id, href: p.path as string }))
    : undefined;
  return {
    view: <FormShellPage chrome={c} kind={shell} title={entry.title ?? ''} tagline={page.tagline}
      formUrl={form ? (c.visitor.signedIn ? form.authenticated : form.unauthenticated) : undefined}
      partnerPortalHref={shell === 'partnerContact' ? c.siteLinks.partnerPortal : undefined} otherContacts={others} />,
  };
};
