/**
 * Deployment labels come from content (site.yaml `deployments`): a vendor names its cloud and its
 * self-hosted edition as it likes ('Cloud', 'Self-hosted', 'On-premises', 'Server'); the code knows
 * only the two values of spec §9, `cloud` and `data_center`.
 */
import type { DeploymentValue, Metadata, Product } from './schemas.ts';

export interface DeploymentLabel {
  value: DeploymentValue;
  label: string;
  aliases?: string[] | undefined;
}

/** Without a `deployments` list in site.yaml. */
export const DEFAULT_DEPLOYMENTS: readonly DeploymentLabel[] = [
  { value: 'cloud', label: 'Cloud' },
  { value: 'data_center', label: 'Data Center', aliases: ['Server'] },
];

export function deploymentsOf(site: Partial<Metadata> | Record<string, unknown> | undefined): readonly DeploymentLabel[] {
  const list = (site as Partial<Metadata> | undefined)?.deployments;
  return Array.isArray(list) && list.length > 0 ? list : DEFAULT_DEPLOYMENTS;
}

/** The value a label (or alias, or value) names; undefined when the site has no such deployment. */
export function deploymentValue(list: readonly DeploymentLabel[], name: unknown): DeploymentValue | undefined {
  if (typeof name !== 'string') return undefined;
  const found = list.find((d) => d.label === name || d.value === name || (d.aliases ?? []).includes(name));
  return found?.value;
}

/** The label shown for a value. */
export function deploymentLabel(list: readonly DeploymentLabel[], value: DeploymentValue): string {
  return list.find((d) => d.value === value)?.label
    ?? DEFAULT_DEPLOYMENTS.find((d) => d.value === value)?.label ?? value;
}

/** A product's name with its deployment (a product 'X' on cloud is 'X Cloud'), as forms and product links show it. */
export function productLabel(product: Pick<Product, 'internalTitle' | 'productName' | 'deployment'>): string {
  return product.internalTitle ?? `${product.productName} ${product.deployment}`;
}

/** A product as stored: its fields and the deployment value the import derived from its label. */
export type StoredProduct = Product & { deploymentValue?: DeploymentValue };

/** Whether a stored product is the cloud edition. */
export function isCloud(product: StoredProduct): boolean {
  return (product.deploymentValue ?? deploymentValue(DEFAULT_DEPLOYMENTS, product.deployment)) === 'cloud';
}

/**
 * The `deployment` column of content_entries keeps its original spelling ('Cloud' for cloud, anything
 * else data center), which the search tables read.
 */
export function storedDeployment(value: DeploymentValue): string {
  return value === 'cloud' ? 'Cloud' : 'Data Center';
}

/** The labels of both values, as pages show them. */
export function deploymentNames(list: readonly DeploymentLabel[]): { cloud: string; dataCenter: string } {
  return { cloud: deploymentLabel(list, 'cloud'), dataCenter: deploymentLabel(list, 'data_center') };
}
