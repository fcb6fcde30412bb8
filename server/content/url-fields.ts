/**
 * Import check of every URL field of the content model (spec §3: "an absolute URL or a site path"):
 * the schemas mark those fields with `x-url`, and each value found there goes through the one
 * classifier (urls.ts), so a field is refused for what a browser would make of it.
 */
import type { TSchema } from 'typebox';
import { browserReading, classifyUrl, quoteUrl } from './urls.ts';
import type { FieldError } from './schema-errors.ts';

/** `link`: an href (header links, cards, support forms); `image`: an img src (icons, logos, media). */
export type UrlFieldKind = 'link' | 'image';

type SchemaNode = { 'x-url'?: UrlFieldKind; properties?: Record<string, SchemaNode>; items?: SchemaNode; anyOf?: SchemaNode[] };

export function urlFieldErrors(schema: TSchema, value: unknown): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  const walk = (node: SchemaNode | undefined, v: unknown, path: (string | number)[]) => {
    if (!node) return;
    if (node['x-url'] && typeof v === 'string') {
      const key = path.join('.');
      if (seen.has(key)) return;
      seen.add(key);
      const reason = urlFieldProblem(v, node['x-url']);
      if (reason) out.push({ path, reason });
      return;
    }
    for (const variant of node.anyOf ?? []) walk(variant, v, path);
    if (node.properties && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      for (const [k, child] of Object.entries(v)) walk(node.properties[k], child, [...path, k]);
    }
    if (node.items && Array.isArray(v)) v.forEach((child, i) => walk(node.items, child, [...path, i]));
  };
  walk(schema as SchemaNode, value, []);
  return out;
}

/** Why a value cannot stand in a URL field, or undefined when it can. */
export function urlFieldProblem(value: string, kind: UrlFieldKind): string | undefined {
  const c = classifyUrl(value, { images: kind === 'image' });
  if (c.kind === 'unsafe') return `unsafe link ${quoteUrl(value)}: ${c.reason}`;
  if (c.kind === 'contact') return `${quoteUrl(value)} must be an absolute URL (https://…) or a site path (/…)`;
  if (c.kind === 'external') {
    const read = browserReading(value);
    if (/^https?:\/\//i.test(read)) return undefined;
    // Written like a site path (it starts with a slash), but a browser leaves the site.
    if (/^[/\\]/.test(read)) {
      return `${quoteUrl(value)} is not a site path: a browser opens another site (${new URL(c.href).host}); write the full https:// address if that is meant`;
    }
    return `${quoteUrl(value)} must be an absolute URL (https://…) or a site path (/…)`;
  }
  if (c.kind === 'site' && !c.href.startsWith('/')) return `${quoteUrl(value)} must be an absolute URL (https://…) or a site path (/…)`;
  return undefined;
}
