import type { CardLink, TopicPageModel } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { SiteLink } from '../parts/links.tsx';
import { Breadcrumbs } from '../parts/breadcrumbs.tsx';
import { Body } from '../parts/body.tsx';
import { formatUpdated } from '../parts/dates.ts';
import { PageTree } from '../parts/page-tree.tsx';
import { DeploymentSelector } from '../parts/deployment-selector.tsx';
import { NoticeBanner } from '../parts/notice-banner.tsx';
import { FeedbackForm } from '../parts/feedback-form.tsx';
import { ReportProblemLink } from '../parts/report-problem-link.tsx';
import { ContactBlock } from '../parts/contact-block.tsx';
import { Siblings } from '../parts/siblings.tsx';
import { UpNext } from '../parts/up-next.tsx';
import { stringsOf } from '../i18n/catalogue.tsx';
import { VideoPlayer } from '../rich-text/blocks.tsx';

/** Spec §5: 'On this page' shows only with at least two links. */
export const TOC_MIN_ENTRIES = 2;

/**
 * Topic page (spec §2): tree, breadcrumbs, notice, selector, title, featured video, body, date,
 * up next for guide topics, feedback and contact; the right sidebar holds explore-more links,
 * sibling pages, 'On this page' and the community link.
 */
export function TopicPage({
  chrome, breadcrumbs, tree, deploymentSelector, notice, title, version, featuredVideo, body, toc,
  lastPublished, feedback, contact, exploreMore, siblings, communityHref, upNext,
}: TopicPageModel) {
  const t = stringsOf(chrome);
  return (
    <Document chrome={chrome} sidebar={tree ? <PageTree tree={tree} /> : undefined}
      linkedData={{ breadcrumbs, article: { headline: title, dateModified: lastPublished } }}>
      <div className="page-with-sidebar reading-page">
        <article className="topic">
          <div className="reading-subheader">
            <Breadcrumbs items={breadcrumbs} />
            {deploymentSelector ? <DeploymentSelector model={deploymentSelector} /> : null}
          </div>
          {notice ? <NoticeBanner notice={notice} /> : null}
          <h1>{title}</h1>
          {version ? <p className="version-note">{t.topic.dataCenterVersion(version)}</p> : null}
          {featuredVideo ? (
            <div className="featured-video"><VideoPlayer url={featuredVideo.videoUrl} title={t.topic.featuredVideo(title)} /></div>
          ) : null}
          <Body body={body} />
          {lastPublished ? <p className="updated">{t.topic.updatedOn(formatUpdated(lastPublished, t.locale))}</p> : null}
          {upNext ? <UpNext model={upNext} /> : null}
          <FeedbackForm feedback={feedback} />
          <ReportProblemLink path={feedback.returnTo} />
          <ContactBlock contact={contact} />
        </article>
        <aside aria-label={t.topic.moreOnTopic} className="reading-sidebar">
          {exploreMore.length > 0 ? <ExploreMore links={exploreMore} heading={t.topic.exploreMore} /> : null}
          {siblings ? <Siblings model={siblings} /> : null}
          {/* 'On this page' and the community link stick together, so the sticky box never covers the link. */}
          <div className="sidebar-sticky">
            {toc.length >= TOC_MIN_ENTRIES ? (
              <nav className="on-this-page" aria-labelledby="on-this-page-heading">
                <h2 id="on-this-page-heading">{t.topic.onThisPage}</h2>
                <ul>
                  {toc.map((item) => <li key={item.id} className={`toc-level-${item.level}`}><a href={`#${item.id}`}>{item.text}</a></li>)}
                </ul>
              </nav>
            ) : null}
            <p className="community-link"><a href={communityHref}>{t.topic.askCommunity}</a></p>
          </div>
        </aside>
      </div>
    </Document>
  );
}

function ExploreMore({ links, heading }: { links: CardLink[]; heading: string }) {
  return (
    <div className="explore-more">
      <h2>{heading}</h2>
      <ul>
        {links.map((l, i) => <li key={`${i}-${l.href}`}><SiteLink href={l.href} external={l.external}>{l.title}</SiteLink></li>)}
      </ul>
    </div>
  );
}
