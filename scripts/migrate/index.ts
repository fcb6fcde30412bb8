/** `npm run migrate`: reads a site of another documentation tool and writes it as a Signpost tree. */
import { readdir } from 'node:fs/promises';
import { readDocusaurus } from './docusaurus.ts';
import { readMkDocs } from './mkdocs.ts';
import { readStarlight } from './starlight.ts';
import { writeTree, type MigrateResult } from './tree.ts';
import { writeChrome } from './chrome.ts';
import type { SourceSite } from './model.ts';

export const TOOLS = ['docusaurus', 'mkdocs', 'starlight'] as const;
export type Tool = (typeof TOOLS)[number];

export async function migrate(tool: Tool, src: string, out: string): Promise<MigrateResult> {
  const existing = await readdir(out).catch(() => []);
  if (existing.length > 0) throw new Error(`${out} is not empty: choose a new folder for the Signpost tree`);
  const site: SourceSite = tool === 'docusaurus' ? await readDocusaurus(src) : tool === 'mkdocs' ? await readMkDocs(src) : await readStarlight(src);
  const result = await writeTree(site, out);
  // The home, logo, header and support forms every page links to.
  await writeChrome(site, src, out, result);
  return result;
}
