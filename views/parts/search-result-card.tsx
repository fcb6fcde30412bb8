import type { SearchResultCard as SearchResultCardModel } from '../view-model.ts';
import { Html } from '../rich-text/safe-html.tsx';
import { formatUpdated } from './dates.ts';
import { useStrings } from '../i18n/catalogue.tsx';

type Platform = SearchResultCardModel['products'][number]['platform'];
const PLATFORM_LABELS: Record<Platform, string> = {
  cloud: 'Cloud',
  data_center: 'Data Center',
};

/** '1 view', '12 views'. */
export function countLabel(n: number, singular: string, plural: string): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** 'Jira Cloud; Confluence Data Center 9.1, 9.2'. */
export function productsLine(products: SearchResultCardModel['products'], labels: Record<Platform, string> = PLATFORM_LABELS): string {
  return products
    .map((p) => `${p.name} ${labels[p.platform]}${p.versions.length > 0 ? ` ${p.versions.join(', ')}` : ''}`)
    .join('; ');
}

/**
 * One search result (spec §2 Search results page): its location as plain text, the title link, the engine's
 * highlighted description (escaped text with <mark>, the only injected HTML) and the facts line.
 */
export function SearchResultCard({ result }: { result: SearchResultCardModel }) {
  const t = useStrings();
  const products = productsLine(result.products, { cloud: t.deployment.cloud, data_center: t.deployment.dataCenter });
  return (
    <li className="search-result">
      {result.breadcrumbs.length > 0 ? (
        <ul className="search-result-path">
          {result.breadcrumbs.map((crumb, i) => <li key={`${i}-${crumb}`}>{crumb}</li>)}
        </ul>
      ) : null}
      <h3 className="search-result-title">
        <a href={result.href} data-position={result.position}>{result.title}</a>
      </h3>
      {result.section ? <p className="search-result-section">{`Section: ${result.section}`}</p> : null}
      <Html className="search-result-description" html={result.descriptionHtml} />
      <ul className="search-result-meta">
        {result.dateModified ? <li>{`Updated ${formatUpdated(result.dateModified)}`}</li> : null}
        {products ? <li>{products}</li> : null}
        {/* No count until views are counted: '0 views' on every card says nothing true. */}
        {result.views > 0 ? <li>{countLabel(result.views, 'view', 'views')}</li> : null}
        {result.contentTypeLabel ? <li className="search-result-type">{result.contentTypeLabel}</li> : null}
      </ul>
    </li>
  );
}
