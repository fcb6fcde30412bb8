// Stops the test run early, with instructions, when there is no Chromium for the browser tests.
import { findChromiumOrPlaywright } from './find-chromium.mjs';

const path = await findChromiumOrPlaywright();
if (!path) {
  console.error(`No Chromium found for the browser tests.
Install one of:
  - Debian/Ubuntu:  sudo apt-get install chromium        (provides /usr/bin/chromium)
  - any system:     npx playwright install chromium     (Playwright's own build)
or point CHROMIUM_PATH at a Chromium or Chrome executable.`);
  process.exit(1);
}
console.error(`browser tests use ${path}`);
