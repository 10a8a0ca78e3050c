// Shared plumbing of the end-to-end tests: where the served pages are, and
// headless Chromium with the WebGPU flags of webdriver.json.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

/** The served `www/` (set by `cargo xtask test e2e`). */
export const url = process.env.AFTERGLOW_URL ?? 'http://127.0.0.1:8000/';

const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const flags = JSON.parse(readFileSync(new URL('../../webdriver.json', import.meta.url)))
  ['goog:chromeOptions'].args.filter((a) => !a.startsWith('--headless'));

/** Headless Chromium with the project's WebGPU flags. */
export function launch() {
  return chromium.launch({ executablePath, args: flags, headless: true });
}

/** Collects a page's console messages and uncaught errors into `list`. */
export function record(page, list) {
  page.on('console', (m) => list.push({ type: m.type(), text: m.text() }));
  page.on('pageerror', (e) => list.push({ type: 'pageerror', text: String(e) }));
}
