import type { ResourcesPageModel } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { Breadcrumbs } from '../parts/breadcrumbs.tsx';
import { CardGrid } from '../parts/card-grid.tsx';
import { HelpfulTopics } from '../parts/helpful-topics.tsx';
import { ContactBlock } from '../parts/contact-block.tsx';

export function ResourcesPage({ chrome, breadcrumbs, title, cards, helpful, contact }: ResourcesPageModel) {
  return (
    <Document chrome={chrome} linkedData={{ breadcrumbs }}>
      <Breadcrumbs items={breadcrumbs} />
      <h1>{title}</h1>
      <CardGrid cards={cards} headingLevel={2} />
      <HelpfulTopics model={helpful} />
      <ContactBlock contact={contact} />
    </Document>
  );
}
