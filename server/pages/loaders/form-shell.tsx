import type { Page } from '../../content/schemas.ts';
import type { FormShellModel } from '../../../views/view-model.ts';
import { FormShellPage } from '../../../views/pages/form-shell-page.tsx';
import type { Loader, LoaderContext } from './shared.ts';
import { SupportFormPage } from '../../../views/pages/support/support-form-page.tsx';
import { aboutOf, formPageModel, prepare, targetOf } from '../../support/forms/page.tsx';

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
  // A page naming a built-in form shows it (server/support/forms/): rendered per visitor, since each
  // render carries its own submission key, so never kept in a shared cache.
  const target = targetOf(entry);
  const prepared = target ? await prepare(ctx.app, request, target, ctx.config) : undefined;
  if (target && prepared) {
    const query = request.query as { page?: unknown; reason?: unknown; search?: unknown };
    const about = await aboutOf(ctx.app, query.page, query.reason, query.search);
    const model = await formPageModel(ctx.app, request, c, target, prepared, about, {}, ctx.config, {
      partnerPortalHref: shell === 'partnerContact' ? c.siteLinks.partnerPortal : undefined, otherContacts: others,
    });
    // Hot contact's sign-in prompt has no form: the same for every anonymous visitor, so shared.
    return { view: <SupportFormPage {...model} />, ...(model.form ? { cache: 'private' as const } : {}) };
  }
  return {
    view: <FormShellPage chrome={c} kind={shell} title={entry.title ?? ''} tagline={page.tagline}
      formUrl={form ? (c.visitor.signedIn ? form.authenticated : form.unauthenticated) : undefined}
      partnerPortalHref={shell === 'partnerContact' ? c.siteLinks.partnerPortal : undefined} otherContacts={others} />,
  };
};
