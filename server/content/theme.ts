/**
 * Brand colours from site.yaml `theme`, as a small stylesheet of CSS custom properties that the base
 * stylesheet reads (assets/css/00-base.css keeps today's values as its defaults).
 */
import { createHash } from 'node:crypto';
import type { Metadata } from './schemas.ts';

/** Which custom properties each theme key sets. */
export const THEME_PROPERTIES: Record<keyof NonNullable<Metadata['theme']>, string[]> = {
  accent: ['--link', '--focus', '--accent'],
  accentText: ['--accent-text'],
  text: ['--text'],
  muted: ['--muted'],
  background: ['--bg'],
  subtle: ['--subtle'],
  border: ['--border'],
  info: ['--info'],
};

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
// Functional notations with numbers, percentages, angles and separators only: nothing that could end
// the declaration or open another.
const FUNCTION = /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(\s*[0-9.+\-eE%a-z\s,/]*\)$/i;

/** Why a value is not a colour this stylesheet takes, or null. */
export function colourProblem(value: unknown): string | null {
  if (typeof value !== 'string') return null; // the schema reports it
  const v = value.trim();
  if (HEX.test(v)) return null;
  if (FUNCTION.test(v) && !/[;{}<>"'\\]/.test(v)) return null;
  return `"${value}" is not a CSS colour (a hex colour such as #0c66e4, or rgb(), hsl(), oklch() …)`;
}

/** The theme stylesheet, or null when the site sets no colour. */
export function themeCss(theme: Metadata['theme'] | undefined): string | null {
  if (!theme) return null;
  const lines: string[] = [];
  for (const [key, props] of Object.entries(THEME_PROPERTIES)) {
    const value = theme[key as keyof typeof THEME_PROPERTIES];
    if (typeof value !== 'string' || colourProblem(value)) continue;
    for (const prop of props) lines.push(`  ${prop}: ${value.trim()};`);
  }
  return lines.length ? `:root {\n${lines.join('\n')}\n}\n` : null;
}

export function themeHash(css: string): string {
  return createHash('sha256').update(css).digest('base64url').slice(0, 16);
}
