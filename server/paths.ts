import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root, both from source (server/) and from the build (dist/server/). */
const here = dirname(fileURLToPath(import.meta.url));
export const projectRoot = join(here, here.endsWith(join('dist', 'server')) ? '../..' : '..');
