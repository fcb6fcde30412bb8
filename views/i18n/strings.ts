import { en } from './en.ts';

/**
 * The shape every language's catalogue has: the English catalogue's, so a catalogue missing a key
 * (or with a function where a text belongs) does not compile.
 */
export type Strings = typeof en;
