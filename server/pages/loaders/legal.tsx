import { LegalPage } from '../../../views/pages/legal-page.tsx';
import { bodyOf } from '../context.ts';
import { isoDate, type Loader, type LoaderContext } from './shared.ts';

/** A legal or trust page from content (the footer links to them). */
export const legalLoader = (ctx: LoaderContext): Loader => async (request, entry, preview) => {
  const c = await ctx.chromeOf(request, entry, preview);
  return { view: <LegalPage chrome={c} title={entry.title ?? ''} body={bodyOf(entry, preview)} lastPublished={isoDate(entry.lastPublished)} /> };
};
