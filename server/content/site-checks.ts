/**
 * Checks of what site.yaml says about the whole tree: its deployment labels (used by products and KB
 * articles), its end-of-support notices' products, its brand colours and its ask-the-community template.
 */
import type { LoadedEntry } from './load.ts';
import { deploymentsOf, deploymentValue, type DeploymentLabel } from './deployments.ts';
import { colourProblem } from './theme.ts';
import { nearestNames, quotedList } from './suggest.ts';

type Fail = (entry: LoadedEntry, path: (string | number)[], reason: string, line?: number, hint?: string) => void;

export function checkSite(loaded: LoadedEntry[], fail: Fail): readonly DeploymentLabel[] {
  const site = loaded.find((e) => e.kind === 'metadata');
  const f = site?.fields ?? {};
  const deployments = deploymentsOf(f);

  if (site && Array.isArray(f.deployments)) {
    const seen = new Map<string, string>();
    (f.deployments as DeploymentLabel[]).forEach((d, i) => {
      if (!d || typeof d !== 'object') return;
      const names: [string, (string | number)[]][] = [[d.label, ['deployments', i, 'label']],
        ...(d.aliases ?? []).map((a, j): [string, (string | number)[]] => [a, ['deployments', i, 'aliases', j]])];
      for (const [name, path] of names) {
        if (typeof name !== 'string') continue;
        const before = seen.get(name);
        if (before !== undefined) fail(site, path, `"${name}" already names the ${before} deployment`);
        else seen.set(name, d.value);
      }
    });
  }

  const labels = deployments.map((d) => d.label).join(', ');
  const names = deployments.flatMap((d) => [d.label, ...(d.aliases ?? [])]);
  const checkName = (entry: LoadedEntry, path: (string | number)[], name: unknown) => {
    if (typeof name === 'string' && !deploymentValue(deployments, name)) {
      fail(entry, path, `"${name}" is not one of the site's deployments (${labels})`, undefined, hintFor(name, names, 'site.yaml deployments lists them'));
    }
  };
  const families = new Set<string>();
  for (const entry of loaded) {
    const e = entry.fields;
    if (entry.kind === 'product') {
      checkName(entry, ['deployment'], e.deployment);
      if (typeof e.productNameId === 'string') families.add(e.productNameId);
    }
    if (entry.kind === 'kbArticle') {
      for (const key of ['productVersions', 'appVersions']) {
        const list = e[key];
        if (Array.isArray(list)) list.forEach((v, i) => checkName(entry, [key, i, 'platform'], (v as { platform?: unknown } | null)?.platform));
      }
    }
  }

  if (site) {
    (f.endOfSupport as { products?: unknown }[] | undefined)?.forEach((n, i) => {
      if (!Array.isArray(n?.products)) return;
      n.products.forEach((p, j) => {
        if (typeof p === 'string' && !families.has(p)) {
          fail(site, ['endOfSupport', i, 'products', j], `no product has productNameId "${p}"`, undefined, hintFor(p, families, `known: ${[...families].sort().join(', ')}`));
        }
      });
    });
    const theme = f.theme;
    if (theme && typeof theme === 'object') {
      for (const [key, value] of Object.entries(theme)) {
        const problem = colourProblem(value);
        if (problem) fail(site, ['theme', key], problem);
      }
    }
    const ask = f.askCommunityUrl;
    if (typeof ask === 'string' && !(/^https?:\/\/[^\s/]+\S*$/i.test(ask) && ask.includes('{tags}'))) {
      fail(site, ['askCommunityUrl'], 'must be an http(s):// address with {tags}, where the page\'s products and deployments go ' +
        '(e.g. https://community.example.com/posts/new?add-tags={tags})');
    }
  }
  return deployments;
}

/** `did you mean "x"? (rest)`, or the rest alone when nothing is near. */
function hintFor(name: string, known: Iterable<string>, rest: string): string {
  const near = nearestNames(name, known);
  return near.length > 0 ? `did you mean ${quotedList(near)}? (${rest})` : rest;
}
