/**
 * schema.org linked data (spec §3 Metadata): who publishes the site (Organization, with its legal name,
 * brand and the products it owns), the site and its search (WebSite with a SearchAction), where the page
 * sits (BreadcrumbList) and, on documentation and knowledge-base articles, the article (TechArticle).
 * Every value comes from the site metadata in content, the configured public URL and the page itself.
 *
 * It is a JSON data block (`application/ld+json`): never executed, so the page's `script-src 'self'`
 * needs no exception, and written by islandJson, so no value can end the element.
 */
import type { Chrome, Crumb } from '../view-model.ts';
import { JsonScript, islandJson } from '../rich-text/safe-html.tsx';

/** What a page adds to the site's linked data. */
export interface PageLinkedData {
  /** The page's breadcrumbs (the page itself is added as the last item). */
  breadcrumbs?: Crumb[] | undefined;
  /** A documentation topic, topic set or knowledge-base article. */
  article?: { headline: string; dateModified?: string | null | undefined } | undefined;
}

type Json = Record<string, unknown>;

/** The site's linked data graph for one page; none when there is nothing to say. */
export function linkedDataGraph(chrome: Chrome, page: PageLinkedData = {}): Json | null {
  const site = chrome.identity;
  // A page's crumbs and links are site paths; schema.org wants absolute URLs under the public URL.
  const base = site?.url ?? new URL(chrome.canonicalUrl).origin;
  const absolute = (href: string) => (/^https?:\/\//i.test(href) ? href : `${base}${href.startsWith('/') ? '' : '/'}${href}`);
  const graph: Json[] = [];
  const organizationId = `${base}/#organization`;
  const websiteId = `${base}/#website`;
  const license = site?.license ? (/^https?:\/\//i.test(site.license) ? site.license : { '@type': 'CreativeWork', name: site.license }) : undefined;
  if (site) {
    graph.push(strip({
      '@type': 'Organization', '@id': organizationId, name: site.publisher, legalName: site.legalName, url: `${base}/`,
      logo: site.logoUrl ? { '@type': 'ImageObject', url: absolute(site.logoUrl) } : undefined,
      brand: site.brand ? { '@type': 'Brand', name: site.brand } : undefined,
      owns: site.owns.length > 0 ? site.owns.map((name) => ({ '@type': 'Product', name })) : undefined,
    }));
    graph.push(strip({
      '@type': 'WebSite', '@id': websiteId, url: `${base}/`, name: chrome.siteName, inLanguage: site.language,
      publisher: { '@id': organizationId }, license,
      potentialAction: {
        '@type': 'SearchAction',
        target: { '@type': 'EntryPoint', urlTemplate: `${base}/search-results/?searchTerm={search_term_string}` },
        'query-input': 'required name=search_term_string',
      },
    }));
  }
  if (page.breadcrumbs && page.breadcrumbs.length > 0) {
    const items = [...page.breadcrumbs.map((c) => ({ name: c.label, item: absolute(c.href) })), { name: chrome.title, item: chrome.canonicalUrl }];
    graph.push({
      '@type': 'BreadcrumbList',
      itemListElement: items.map((item, i) => ({ '@type': 'ListItem', position: i + 1, ...item })),
    });
  }
  if (page.article) {
    graph.push(strip({
      '@type': 'TechArticle', '@id': `${chrome.canonicalUrl}#article`, headline: page.article.headline,
      description: chrome.description, url: chrome.canonicalUrl, mainEntityOfPage: chrome.canonicalUrl,
      dateModified: page.article.dateModified ?? undefined, inLanguage: chrome.lang, license,
      ...(site ? { isPartOf: { '@id': websiteId }, publisher: { '@id': organizationId } } : {}),
    }));
  }
  return graph.length > 0 ? { '@context': 'https://schema.org', '@graph': graph } : null;
}

/** Leaves out the properties that have no value. */
function strip(value: Json): Json {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

export function LinkedData({ chrome, page }: { chrome: Chrome; page?: PageLinkedData | undefined }) {
  const graph = linkedDataGraph(chrome, page);
  return graph ? <JsonScript type="application/ld+json" json={islandJson(graph)} /> : null;
}
