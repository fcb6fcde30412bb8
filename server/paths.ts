import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root, from source (server/) and from the build (dist/server/, dist/scripts/). */
const here = dirname(fileURLToPath(import.meta.url));
const distAt = here.lastIndexOf(`${sep}dist${sep}`);
export const projectRoot = distAt >= 0 ? here.slice(0, distAt) : join(here, '..');
