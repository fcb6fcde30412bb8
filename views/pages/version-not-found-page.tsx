import type { VersionNotFoundModel } from '../view-model.ts';
import { Document } from '../layout/document.tsx';

/**
 * The version modal as a page (spec §8): reached without JavaScript when the chosen Data Center version
 * has no matching page. A script may show the same content as a dialog instead.
 */
export function VersionNotFoundPage({ chrome, version, searchHref, browseHref, cancelHref }: VersionNotFoundModel) {
  return (
    <Document chrome={chrome}>
      <div className="version-not-found">
        <h1>Unable to find page</h1>
        <p>{`This exact page does not exist in our Data Center ${version} documentation. Would you like to look for an alternative page?`}</p>
        <ul className="action-list">
          <li><a className="button-link" href={searchHref}>Search</a></li>
          <li><a className="button-link" href={browseHref}>Browse</a></li>
          <li><a className="button-link secondary" href={cancelHref}>Cancel</a></li>
        </ul>
      </div>
    </Document>
  );
}
