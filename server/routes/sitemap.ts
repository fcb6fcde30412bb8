import type { FastifyInstance } from 'fastify';
import { resourcesHref } from '../pages/chrome.ts';

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c);

export default async function sitemap(app: FastifyInstance, opts: { publicUrl: string }) {
  // Built once per content version: it lists every page, so it grows with the site.
  const build = async () => {
    const pages = [...await app.content.publishedPaths()];
    // Each product's related-resources page is derived from the product, not stored as a page.
    for (const product of await app.content.ofType('product', { preview: false })) {
      pages.push({ path: resourcesHref(product), lastPublished: null });
    }
    pages.sort((a, b) => a.path.localeCompare(b.path));
    const urls = pages.map((p) => {
      const lastmod = p.lastPublished ? `<lastmod>${new Date(p.lastPublished).toISOString().slice(0, 10)}</lastmod>` : '';
      return `<url><loc>${escapeXml(opts.publicUrl + p.path)}</loc>${lastmod}</url>`;
    });
    return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  };
  // Nothing stored yet: an empty sitemap, kept by a crawler for minutes, would say the site has no pages.
  app.get('/sitemap.xml', { schema: { tags: ['operations'], summary: 'The sitemap', description: 'Every published page, with its last publication date (XML, cached 5 minutes); 503 with `Retry-After` until the first import is stored.' } }, async (_request, reply) => app.contentStarting() ? reply.siteStarting() : reply
    .type('application/xml; charset=utf-8')
    .header('cache-control', 'public, max-age=300')
    .send(await app.content.memo('sitemap', build)));

  app.get('/robots.txt', { schema: { tags: ['operations'], summary: "Crawlers' rules", description: 'Keeps crawlers out of the results pages and names the sitemap.' } }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600')
      .send(`User-agent: *\nDisallow: /search-results\nSitemap: ${opts.publicUrl}/sitemap.xml\n`));
}
