import type { DeploymentSelectorModel } from '../view-model.ts';
import { useStrings } from '../i18n/catalogue.tsx';
import { Island } from '../island.tsx';
import { VersionSelector } from '../islands/version-selector.tsx';

/** Spec §5: buttons only when a cloud URL exists and either a Data Center URL or versions exist. */
export function showsDeploymentSelector(model: DeploymentSelectorModel): boolean {
  return Boolean(model.cloudHref) && (Boolean(model.dataCenterHref) || model.versions.length > 0);
}

/**
 * Cloud / Data Center switch and, for Data Center, the version chooser: a GET form, so it works
 * without JavaScript; the version-selector island goes straight to the page in the version chosen, or
 * opens the version modal (views/islands/version-selector.tsx).
 */
export function DeploymentSelector({ model }: { model: DeploymentSelectorModel }) {
  const t = useStrings();
  if (!showsDeploymentSelector(model)) return null;
  const selected = model.versions.find((v) => v.selected)?.number ?? model.versions[0]?.number ?? '';
  return (
    <nav aria-label={t.deployment.label} className="deployment-selector">
      <ul className="deployment-options">
        <li><DeploymentLink label={t.deployment.cloud} href={model.cloudHref} current={model.current === 'cloud'} /></li>
        <li><DeploymentLink label={t.deployment.dataCenter} href={model.dataCenterHref} current={model.current === 'data-center'} /></li>
      </ul>
      {model.versions.length > 0 ? (
        <Island name="version-selector" hydrate="interaction" component={VersionSelector} props={{
          action: model.versionAction,
          fields: model.versionFields,
          current: selected,
          versions: model.versions.map(({ number, href, searchHref, browseHref }) => ({ number, href, searchHref, browseHref })),
          text: {
            label: t.deployment.version,
            go: t.deployment.go,
            title: t.versionNotFound.heading,
            body: t.versionNotFound.text('{version}'),
            search: t.versionNotFound.search,
            browse: t.versionNotFound.browse,
            cancel: t.versionNotFound.cancel,
          },
        }} />
      ) : null}
    </nav>
  );
}

function DeploymentLink({ label, href, current }: { label: string; href: string | undefined; current: boolean }) {
  const className = current ? 'deployment-option is-current' : 'deployment-option';
  // Data Center may have versions but no page URL: then it is reached through the version form.
  if (!href) return <span className={className} aria-current={current ? 'page' : undefined}>{label}</span>;
  return <a className={className} href={href} aria-current={current ? 'page' : undefined}>{label}</a>;
}
