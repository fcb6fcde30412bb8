import type { Crumb, DeploymentSelectorModel, NoticeModel } from '../view-model.ts';
import { Breadcrumbs } from './breadcrumbs.tsx';
import { DeploymentSelector } from './deployment-selector.tsx';
import { NoticeBanner } from './notice-banner.tsx';

/** Breadcrumbs with the deployment selector beside them, then the context's notice, if any. */
export function Subheader({ breadcrumbs, deploymentSelector, notice }: {
  breadcrumbs: Crumb[];
  deploymentSelector: DeploymentSelectorModel | null;
  notice: NoticeModel | null;
}) {
  return (
    <>
      <div className="subheader">
        <Breadcrumbs items={breadcrumbs} />
        {deploymentSelector ? <DeploymentSelector model={deploymentSelector} /> : null}
      </div>
      {notice ? <NoticeBanner notice={notice} /> : null}
    </>
  );
}
