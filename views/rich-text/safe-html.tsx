/**
 * The one place HTML is injected into a view. It accepts only SafeHtml, which only the rich-text
 * renderer produces (React-rendered, escaped by construction).
 */
declare const safeHtmlBrand: unique symbol;
export type SafeHtml = string & { readonly [safeHtmlBrand]: true };

/** Only for markup React itself rendered. */
export function trustRenderedMarkup(markup: string): SafeHtml {
  return markup as SafeHtml;
}

export function Html({ html, className }: { html: SafeHtml; className?: string }) {
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
