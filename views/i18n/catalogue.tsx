import { createContext, useContext, type ReactNode } from 'react';
import { en } from './en.ts';
import { ja } from './ja.ts';
import type { Strings } from './strings.ts';
import type { DeploymentNames } from '../view-model.ts';

export type { Strings } from './strings.ts';

/** One catalogue per page language (the chrome's `lang`: 'en' or 'ja'). */
const CATALOGUES: Record<string, Strings> = { en, ja };
const CATALOGUE_KEYS = new Map<Strings, string>(Object.entries(CATALOGUES).map(([k, v]) => [v, k]));

/** The catalogue for a page language; English for any language without one. */
export function stringsFor(lang: string): Strings {
  return CATALOGUES[lang] ?? en;
}

const StringsContext = createContext<Strings>(en);

/**
 * The Document provides the page language's strings to every part below it, so parts that never see the
 * chrome (feedback, contact block, tree, …) still speak the page's language. A part rendered on its own
 * gets English.
 */
export function StringsProvider({ lang, deployments, children }: { lang: string; deployments?: DeploymentNames | undefined; children: ReactNode }) {
  return <StringsContext.Provider value={withDeploymentNames(stringsFor(lang), deployments)}>{children}</StringsContext.Provider>;
}

const DEFAULT_NAMES: DeploymentNames = { cloud: 'Cloud', dataCenter: 'Data Center' };
const named = new Map<string, Strings>();

/**
 * The catalogue with the site's deployment labels (site.yaml deployments) in place of 'Cloud' and
 * 'Data Center', in its texts and in what its functions return.
 */
export function withDeploymentNames(strings: Strings, names: DeploymentNames | undefined): Strings {
  if (!names || (names.cloud === DEFAULT_NAMES.cloud && names.dataCenter === DEFAULT_NAMES.dataCenter)) return strings;
  const key = `${CATALOGUE_KEYS.get(strings) ?? ''}\u0000${names.cloud}\u0000${names.dataCenter}`;
  const known = named.get(key);
  if (known) return known;
  const swap = (text: string) => text.replace(/\bData Center\b/g, '\u0000').replace(/\bCloud\b/g, names.cloud).replaceAll('\u0000', names.dataCenter);
  const map = (value: unknown): unknown => {
    if (typeof value === 'string') return swap(value);
    if (typeof value === 'function') return (...args: unknown[]) => map((value as (...a: unknown[]) => unknown)(...args));
    if (value && typeof value === 'object' && !Array.isArray(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, map(v)]));
    if (Array.isArray(value)) return value.map(map);
    return value;
  };
  const result = map(strings) as Strings;
  if (named.size > 16) named.clear();
  named.set(key, result);
  return result;
}

export function useStrings(): Strings {
  return useContext(StringsContext);
}

/** The catalogue of a page: its language's, with the site's deployment labels. */
export function stringsOf(chrome: { lang: string; deployments?: DeploymentNames | undefined }): Strings {
  return withDeploymentNames(stringsFor(chrome.lang), chrome.deployments);
}
