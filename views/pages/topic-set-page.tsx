import type { CardLink, TopicSetPageModel } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { Breadcrumbs } from '../parts/breadcrumbs.tsx';
import { Body } from '../parts/body.tsx';
import { ShowMore } from '../parts/show-more.tsx';
import { PageTree } from '../parts/page-tree.tsx';
import { FeedbackForm } from '../parts/feedback-form.tsx';
import { ContactBlock } from '../parts/contact-block.tsx';
import { Siblings } from '../parts/siblings.tsx';
import { UpNext } from '../parts/up-next.tsx';
import { stringsOf } from '../i18n/catalogue.tsx';

/** Child topic lists collapse to this many cards when longer (spec §4, §9). */
export const TOPICS_PREVIEW = 5;

/** Topic set page (spec §2): overview, child topic cards ('View topic'), feedback, help box, sidebar. */
export function TopicSetPage({
  chrome, breadcrumbs, tree, title, overview, topics, feedback, contact, siblings, upNext,
}: TopicSetPageModel) {
  const t = stringsOf(chrome);
  const cards: CardLink[] = topics.map((topic) => ({ ...topic, buttonText: t.topic.viewTopic }));
  return (
    <Document chrome={chrome} sidebar={tree ? <PageTree tree={tree} /> : undefined} linkedData={{ breadcrumbs, article: { headline: title } }}>
      <div className="page-with-sidebar reading-page">
        <article className="topic-set">
          <div className="reading-subheader"><Breadcrumbs items={breadcrumbs} /></div>
          <h1>{title}</h1>
          <Body body={overview} />
          {cards.length > 0 ? (
            <div className="topic-set-topics">
              <ShowMore items={{ kind: 'cards', cards, headingLevel: 2 }} first={TOPICS_PREVIEW} id="topic-set-topics-list" summary={t.showCountMore} />
            </div>
          ) : null}
          {upNext ? <UpNext model={upNext} /> : null}
          <FeedbackForm feedback={feedback} />
          <ContactBlock contact={contact} />
        </article>
        {siblings && siblings.items.length > 0 ? (
          <aside aria-label={t.topic.moreInSection} className="reading-sidebar">
            <Siblings model={siblings} />
          </aside>
        ) : null}
      </div>
    </Document>
  );
}
