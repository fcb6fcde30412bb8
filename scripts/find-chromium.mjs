// Where the browser tests find a Chromium: $CHROMIUM_PATH, then Debian's or Ubuntu's package,
// then a browser Playwright downloaded itself.
import { existsSync } from 'node:fs';

export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
  for (const path of candidates) if (path && existsSync(path)) return path;
  return undefined;
}

export async function findChromiumOrPlaywright() {
  const found = findChromium();
  if (found) return found;
  try {
    const { chromium } = await import('playwright-core');
    const path = chromium.executablePath();
    if (path && existsSync(path)) return path;
  } catch {
    // playwright-core has no browser of its own installed
  }
  return undefined;
}

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
