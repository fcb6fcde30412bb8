import type { DeploymentSelectorModel } from '../view-model.ts';
import { useStrings } from '../i18n/catalogue.tsx';

/** Spec §5: buttons only when a cloud URL exists and either a Data Center URL or versions exist. */
export function showsDeploymentSelector(model: DeploymentSelectorModel): boolean {
  return Boolean(model.cloudHref) && (Boolean(model.dataCenterHref) || model.versions.length > 0);
}

/**
 * Cloud / Data Center switch and, for Data Center, the version chooser: a GET form, so it works
 * without JavaScript; a script may later open the version modal instead (data-island="version-selector").
 */
export function DeploymentSelector({ model }: { model: DeploymentSelectorModel }) {
  const t = useStrings();
  if (!showsDeploymentSelector(model)) return null;
  const selected = model.versions.find((v) => v.selected)?.number ?? model.versions[0]?.number;
  return (
    <nav aria-label={t.deployment.label} className="deployment-selector" data-island="version-selector">
      <ul className="deployment-options">
        <li><DeploymentLink label={t.deployment.cloud} href={model.cloudHref} current={model.current === 'cloud'} /></li>
        <li><DeploymentLink label={t.deployment.dataCenter} href={model.dataCenterHref} current={model.current === 'data-center'} /></li>
      </ul>
      {model.versions.length > 0 ? (
        <form className="version-form" method="get" action={model.versionAction}>
          {Object.entries(model.versionFields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
          <label htmlFor="version-select">{t.deployment.version}</label>
          <select id="version-select" name="version" defaultValue={selected}>
            {model.versions.map((v) => <option key={v.number} value={v.number}>{v.number}</option>)}
          </select>
          <button type="submit">{t.deployment.go}</button>
        </form>
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
