// Shared plumbing of the end-to-end tests: where the served pages are, and
// the browser they run in. `AFTERGLOW_ENGINE` picks it: `chromium`
// (headless Chromium with the WebGPU flags of webdriver.json, over CDP) or
// `firefox` (Firefox ESR with the prefs of webdriver.json that turn WebGPU
// on, over WebDriver BiDi). `cargo xtask test e2e` runs every file in both.
import { readFileSync } from 'node:fs';
import { chromium, firefox } from 'playwright-core';

/** The served `www/` (set by `cargo xtask test e2e`). */
export const url = process.env.AFTERGLOW_URL ?? 'http://127.0.0.1:8000/';

/** The engine the tests run in: 'chromium' or 'firefox'. */
export const engine = process.env.AFTERGLOW_ENGINE ?? 'chromium';
if (!['chromium', 'firefox'].includes(engine)) {
  throw new Error(`AFTERGLOW_ENGINE must be 'chromium' or 'firefox', not '${engine}'`);
}

/** Whether the tests run in Firefox. */
export const inFirefox = engine === 'firefox';

const config = JSON.parse(readFileSync(new URL('../../webdriver.json', import.meta.url)));

/** Headless Chromium or Firefox, as `AFTERGLOW_ENGINE` says. */
function start() {
  if (inFirefox) {
    const options = config['moz:firefoxOptions'];
    return firefox.launch({
      channel: 'moz-firefox',
      executablePath: process.env.FIREFOX ?? options.binary,
      firefoxUserPrefs: options.prefs,
      headless: true,
    });
  }
  const args = config['goog:chromeOptions'].args.filter((a) => !a.startsWith('--headless'));
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args, headless: true });
}

/**
 * The browser a test file runs in: `newPage`, `newContext` and `close`.
 * Headless Firefox ESR on a software rasterizer has been seen to crash as
 * a whole between two pages (a minidump, then "Target page, context or
 * browser has been closed" at the next page). A browser found gone when a
 * page or context is asked for is started again once per file, and the
 * run says so on stderr; a second loss fails. A crash while a page is
 * open still fails the test that had it.
 */
export async function launch() {
  let browser = await start();
  let restarted = false;
  const live = async () => {
    if (!browser.isConnected() && !restarted) {
      restarted = true;
      process.stderr.write(`e2e: the ${engine} browser was gone before a new page; started again (once per file)\n`);
      browser = await start();
    }
    return browser;
  };
  return {
    newPage: async (options) => (await live()).newPage(options),
    newContext: async (options) => (await live()).newContext(options),
    close: () => browser.close(),
  };
}

/** Collects a page's console messages and uncaught errors into `list`. */
export function record(page, list) {
  page.on('console', (m) => list.push({ type: m.type(), text: m.text() }));
  page.on('pageerror', (e) => list.push({ type: 'pageerror', text: String(e) }));
}

/**
 * The console's errors and warnings and the page's uncaught errors in
 * `list` (from `record`). Firefox also logs, as errors, the compile
 * messages of a shader module that fails to compile: those of the modules
 * labelled in `brokenShaders`, which a test broke on purpose, are left
 * out there.
 */
export function problems(list, brokenShaders = []) {
  const engineReport = (text) => inFirefox
    && brokenShaders.some((label) => text.includes(`"${label}"`) || text.includes(`'${label}'`));
  return list.filter((m) => ['error', 'warning', 'pageerror'].includes(m.type) && !engineReport(m.text));
}

/**
 * What a click on `selector` downloads through a link (the demo's
 * screenshot and the panel's options file): its file name and its bytes.
 * The page's links are watched instead of the browser's downloads, which
 * Firefox over WebDriver BiDi does not report.
 */
export async function download(page, selector) {
  await page.evaluate(() => {
    window.__download = null;
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function () {
      HTMLAnchorElement.prototype.click = click;
      const name = this.download;
      // As a data URL: a long array of numbers is slow to pass back.
      fetch(this.href)
        .then((r) => r.blob())
        .then((blob) => {
          const reader = new FileReader();
          reader.onload = () => { window.__download = { name, url: reader.result }; };
          reader.readAsDataURL(blob);
        });
    };
  });
  await page.click(selector);
  await page.waitForFunction(() => window.__download !== null, null, { timeout: 30000 });
  const { name, url } = await page.evaluate(() => window.__download);
  return { name, bytes: Buffer.from(url.slice(url.indexOf(',') + 1), 'base64') };
}

/** Serves a page written outside the project at `url` + `folder`: each
 * of `files` ({ name: [contentType, body] }) as given, and the built
 * package under `afterglow-hdr/` as a page without a bundler would copy
 * it. Returns the folder's address. */
export async function serveOutsidePage(page, folder, files) {
  const base = new URL(`${folder}/`, url).href;
  for (const [name, [contentType, body]] of Object.entries(files)) {
    await page.route(`${base}${name}`, (route) => route.fulfill({ contentType, body }));
  }
  await page.route(`${base}afterglow-hdr/**`, async (route) => {
    const file = route.request().url().slice(`${base}afterglow-hdr/`.length);
    route.fulfill({ response: await page.request.fetch(new URL(`pkg/${file}`, url).href) });
  });
  return base;
}
