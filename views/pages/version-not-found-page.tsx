import type { VersionNotFoundModel } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { stringsOf } from '../i18n/catalogue.tsx';

/**
 * The version modal as a page (spec §8): reached without JavaScript when the chosen Data Center version
 * has no matching page. A script may show the same content as a dialog instead.
 */
export function VersionNotFoundPage({ chrome, version, searchHref, browseHref, cancelHref }: VersionNotFoundModel) {
  const t = stringsOf(chrome);
  return (
    <Document chrome={chrome}>
      <div className="version-not-found">
        <h1>{t.versionNotFound.heading}</h1>
        <p>{t.versionNotFound.text(version)}</p>
        <ul className="action-list">
          <li><a className="button-link" href={searchHref}>{t.versionNotFound.search}</a></li>
          <li><a className="button-link" href={browseHref}>{t.versionNotFound.browse}</a></li>
          <li><a className="button-link secondary" href={cancelHref}>{t.versionNotFound.cancel}</a></li>
        </ul>
      </div>
    </Document>
  );
}
