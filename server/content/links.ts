import { LinkOptionsError } from './problems.ts';

/** The link shapes of spec §2. */
export type LinkShape = 'docs' | 'kb' | 'kbHome' | 'resources' | 'base';

/**
 * Builds a site path. basePath (and slug, for docs and kb links) must be strings (spec §5);
 * anything else is an options error rather than a broken link.
 */
export function buildLink(shape: LinkShape, options: { basePath?: unknown; slug?: unknown }): string {
  const { basePath, slug } = options;
  if (typeof basePath !== 'string') {
    throw new LinkOptionsError(`link options: basePath must be a string, got ${describe(basePath)}`);
  }
  const base = basePath.replace(/\/+$/, '');
  switch (shape) {
    case 'docs':
    case 'kb':
      if (typeof slug !== 'string' || slug === '') {
        throw new LinkOptionsError(`link options: slug must be a non-empty string, got ${describe(slug)}`);
      }
      return `${base}/${shape}/${encodeURIComponent(slug)}`;
    case 'kbHome':
      return `${base}/kb`;
    case 'resources':
      return `${base}/resources`;
    case 'base':
      return base === '' ? '/' : base;
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  return `${typeof value} ${JSON.stringify(value)}`;
}
