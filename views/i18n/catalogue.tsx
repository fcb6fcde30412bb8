import { createContext, useContext, type ReactNode } from 'react';
import { en } from './en.ts';
import { ja } from './ja.ts';
import type { Strings } from './strings.ts';

export type { Strings } from './strings.ts';

/** One catalogue per page language (the chrome's `lang`: 'en' or 'ja'). */
const CATALOGUES: Record<string, Strings> = { en, ja };

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
export function StringsProvider({ lang, children }: { lang: string; children: ReactNode }) {
  return <StringsContext.Provider value={stringsFor(lang)}>{children}</StringsContext.Provider>;
}

export function useStrings(): Strings {
  return useContext(StringsContext);
}
