// Stops the test run early, with instructions, when there is no Chromium for the browser tests or no Java
// for the HTML checker (the Nu Html Checker is a Java program shipped in the vnu-jar package).
import { spawnSync } from 'node:child_process';
import { findChromiumOrPlaywright } from './find-chromium.mjs';

if (spawnSync('java', ['-version'], { stdio: 'ignore' }).status !== 0) {
  console.error(`No Java runtime found for the HTML validity test (Java 11 or later).
Install one of:
  - Debian/Ubuntu:  sudo apt-get install openjdk-17-jre-headless
  - any system:     a Java 11+ runtime on your PATH`);
  process.exit(1);
}

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
