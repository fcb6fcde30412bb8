/**
 * The one place markup is injected into a view. It accepts only SafeHtml, which only the rich-text
 * renderer produces (React-rendered, escaped by construction), and IslandJson, which only islandJson
 * produces (JSON with every character that could end or change a <script> data block escaped).
 */
declare const safeHtmlBrand: unique symbol;
export type SafeHtml = string & { readonly [safeHtmlBrand]: true };
declare const islandJsonBrand: unique symbol;
export type IslandJson = string & { readonly [islandJsonBrand]: true };

/** Only for markup React itself rendered. */
export function trustRenderedMarkup(markup: string): SafeHtml {
  return markup as SafeHtml;
}

export function Html({ html, className }: { html: SafeHtml; className?: string }) {
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * A value as JSON that is safe inside a <script type="application/json"> element: `<` is written
 * \u003c, so neither `</script>` nor `<!--` can appear in it, and U+2028 and U+2029 are escaped too
 * (DESIGN.md Safety by construction). JSON.parse reads it back unchanged.
 */
export function islandJson(value: unknown): IslandJson {
  return (JSON.stringify(value) ?? 'null')
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029') as IslandJson;
}

/** A JSON data block (JSON, or schema.org JSON-LD): not executed, so the page's script-src needs no exception for it. */
export function JsonScript({ json, type = 'application/json', ...data }: {
  json: IslandJson; type?: 'application/json' | 'application/ld+json';
} & Record<`data-${string}`, string>) {
  return <script type={type} {...data} dangerouslySetInnerHTML={{ __html: json }} />;
}
