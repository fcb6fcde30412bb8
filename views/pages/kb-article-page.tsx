import type { KbArticleModel } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { Breadcrumbs } from '../parts/breadcrumbs.tsx';
import { Body } from '../parts/body.tsx';
import { formatUpdated } from '../parts/dates.ts';
import { PlatformNotice } from '../parts/platform-notice.tsx';
import { FeedbackForm } from '../parts/feedback-form.tsx';
import { ReportProblemLink } from '../parts/report-problem-link.tsx';
import { ContactBlock } from '../parts/contact-block.tsx';
import { stringsOf } from '../i18n/catalogue.tsx';

/**
 * Knowledge-base article (spec §2): breadcrumb, title, platform notice, body, date, feedback,
 * related products and help box; the sidebar shows the platform (spec §5) and, for staff, the edit hint.
 */
export function KbArticlePage({
  chrome, breadcrumbs, title, notice, body, lastPublished, products, sidebarPlatform, feedback, contact, staffEditHint,
}: KbArticleModel) {
  const t = stringsOf(chrome);
  // Spec §1: staff may edit KB articles, so the hint is a link to the editor; with no editor configured
  // there is nothing to act on, and no hint.
  const editHref = chrome.visitor.staff && staffEditHint ? chrome.staffEditHref : undefined;
  return (
    <Document chrome={chrome} linkedData={{ breadcrumbs, article: { headline: title, dateModified: lastPublished } }}>
      <div className="page-with-sidebar reading-page">
        <article className="kb-article">
          <div className="reading-subheader"><Breadcrumbs items={breadcrumbs} /></div>
          <h1>{title}</h1>
          {notice ? <PlatformNotice {...notice} /> : null}
          <Body body={body} />
          {lastPublished ? <p className="updated">{t.topic.updatedOn(formatUpdated(lastPublished, t.locale))}</p> : null}
          <FeedbackForm feedback={feedback} />
          <ReportProblemLink path={feedback.returnTo} />
          {products.length > 0 ? (
            <section aria-labelledby="related-products" className="related-products">
              <h2 id="related-products">Related products</h2>
              <ul>{products.map((p, i) => <li key={`${i}-${p.name}-${p.platform}-${p.version}`}>{[p.name, p.platform, p.version].filter(Boolean).join(' ')}</li>)}</ul>
            </section>
          ) : null}
          <ContactBlock contact={contact} />
        </article>
        {sidebarPlatform !== null || editHref ? (
          <aside aria-label="About this article" className="reading-sidebar kb-sidebar">
            {sidebarPlatform !== null ? <p className="kb-platform">{`Platform: ${sidebarPlatform}`}</p> : null}
            {editHref ? (
              <p className="staff-edit-hint">
                <a href={editHref} target="_blank" rel="noopener">
                  {t.editThis.kbArticle}<span className="visually-hidden">{t.opensInNewTab}</span>
                </a>
              </p>
            ) : null}
          </aside>
        ) : null}
      </div>
    </Document>
  );
}
