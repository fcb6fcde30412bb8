/**
 * The environment variables and node flags `npm run start:built` starts the server with (package.json,
 * `VAR=value … node flags… dist/server/main.js`): the memory settings of
 * docs/topics/operating/capacity.md. Whatever else starts the production server (npm run cluster's
 * instances, npm run bench:memory) starts it with these, so there is one place to change them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface StartSettings { env: Record<string, string>; flags: string[] }

/** The settings of a command line that starts dist/server/main.js; throws when it is not one. */
export function settingsOf(command: string): StartSettings {
  const words = command.trim().split(/\s+/);
  const node = words.findIndex((w) => w === 'node' || w.endsWith('/node'));
  const main = words.indexOf('dist/server/main.js');
  const assignments = words.slice(0, Math.max(node, 0));
  if (node < 0 || main < node || !assignments.every((w) => /^[A-Z_]+=\S*$/.test(w))) {
    throw new Error(`not "[VAR=value …] node … dist/server/main.js": ${command}`);
  }
  return {
    env: Object.fromEntries(assignments.map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)])),
    flags: words.slice(node + 1, main),
  };
}

/** The settings of package.json's start:built, in the project at root. */
export function startSettings(root: string): StartSettings {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  return settingsOf(scripts['start:built'] ?? '');
}
