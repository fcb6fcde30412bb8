import type { CardLink, CollectionPageModel } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { Body } from '../parts/body.tsx';
import { ShowMore } from '../parts/show-more.tsx';
import { PageTree } from '../parts/page-tree.tsx';
import { ContactBlock } from '../parts/contact-block.tsx';
import { Subheader } from '../parts/subheader.tsx';
import { stringsOf } from '../i18n/catalogue.tsx';

/** Child topic lists collapse to this many cards when longer (spec §4, §9). */
export const CHILDREN_PREVIEW = 5;

/** Collection page (spec §2): context header line, tree, selector (not for hubs), notice, hero, child cards. */
export function CollectionPage({
  chrome, breadcrumbs, tree, deploymentSelector, notice, contextTitle, title, subhead, body, children, contact,
}: CollectionPageModel) {
  // The visible button text ends each card's link; the title before it keeps every link's name unique.
  const t = stringsOf(chrome);
  const cards: CardLink[] = children.map(({ kind, ...card }) => ({ ...card, buttonText: kind === 'topic' ? t.topic.viewTopic : t.topic.viewTopics }));
  return (
    <Document chrome={chrome} sidebar={tree ? <PageTree tree={tree} /> : undefined} linkedData={{ breadcrumbs }}>
      <div className="collection">
        <p className="context-title">{contextTitle}</p>
        <Subheader breadcrumbs={breadcrumbs} deploymentSelector={deploymentSelector} notice={notice} />
        <div className="hero">
          <h1>{title}</h1>
          {subhead ? <p className="tagline">{subhead}</p> : null}
        </div>
        <Body body={body} />
        {cards.length > 0 ? (
          <div className="collection-children">
            <ShowMore items={{ kind: 'cards', cards, headingLevel: 2 }} first={CHILDREN_PREVIEW} id="collection-children-list" />
          </div>
        ) : null}
        <ContactBlock contact={contact} />
      </div>
    </Document>
  );
}
