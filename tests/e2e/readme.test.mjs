// The README's snippets, run as written. The embedding example (index.html
// and main.js) without a bundler, with the one change the README's
// "Without a bundler" section asks for, served next to the package folder;
// and the error-handling snippet of the API section, on a live renderer.
// (package.test.mjs builds the same example with Vite against the tarball.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';

const url = process.env.AFTERGLOW_URL ?? 'http://127.0.0.1:8000/';
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const flags = JSON.parse(readFileSync(new URL('../../webdriver.json', import.meta.url)))
  ['goog:chromeOptions'].args.filter((a) => !a.startsWith('--headless'));
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function snippet(heading, lang) {
  const from = readme.indexOf(heading);
  assert.ok(from >= 0, `no '${heading}' in the README`);
  return readme.slice(from).match(new RegExp('```' + lang + '\\n([\\s\\S]*?)```'))[1];
}

let browser;
before(async () => {
  browser = await chromium.launch({ executablePath, args: flags, headless: true });
});
after(async () => {
  await browser?.close();
});

test("the README's embedding example runs without a bundler", async () => {
  const page = await browser.newPage({ viewport: { width: 640, height: 480 } });
  const messages = [];
  page.on('console', (m) => messages.push({ type: m.type(), text: m.text() }));
  page.on('pageerror', (e) => messages.push({ type: 'pageerror', text: String(e) }));
  // The page and its main.js in a folder beside the package (www/pkg is
  // served as afterglow-hdr/), as the README says.
  const html = snippet('## Embedding', 'html');
  const without = readme.slice(readme.indexOf('### Without a bundler'));
  assert.match(without, /import `\.\/afterglow-hdr\/index\.js`\s+instead of `'afterglow-hdr'`/);
  const js = snippet('## Embedding', 'js').replace("from 'afterglow-hdr'", "from './afterglow-hdr/index.js'");
  const base = new URL('readme-example/', url).href;
  await page.route(`${base}index.html`, (route) => route.fulfill({
    contentType: 'text/html', body: `<!doctype html><link rel="icon" href="data:,">${html}` }));
  await page.route(`${base}main.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: js }));
  await page.route(`${base}afterglow-hdr/**`, async (route) => {
    const file = route.request().url().slice(`${base}afterglow-hdr/`.length);
    route.fulfill({ response: await page.request.fetch(new URL(`pkg/${file}`, url).href) });
  });
  await page.goto(`${base}index.html`);
  await page.waitForFunction(() => {
    const c = document.querySelector('canvas');
    return c && c.width === Math.round(c.clientWidth * devicePixelRatio) && c.width > 300;
  }, null, { timeout: 30000 });
  await page.waitForTimeout(500);
  const png = PNG.sync.read(await page.locator('canvas').screenshot());
  let lit = 0;
  for (let i = 0; i < png.data.length; i += 4) if (png.data[i] > 150) lit++;
  assert.ok(lit > 100, `bright pixels from the example's shader: ${lit}`);
  const bad = messages.filter((m) => ['error', 'warning', 'pageerror'].includes(m.type));
  assert.deepEqual(bad, []);
  await page.close();
});

test("the API section's error-handling snippet logs what it says", async () => {
  const page = await browser.newPage({ viewport: { width: 320, height: 200 } });
  await page.goto(url);
  await page.waitForFunction(() => window.afterglow !== undefined, null, { timeout: 30000 });
  const code = snippet('## API', 'js');
  const expected = code.match(/\/\/ (.*)$/m)[1].trim();
  const logged = await page.evaluate((code) => {
    const renderer = window.afterglow;
    const lines = [];
    const console = { log: (...a) => lines.push(a.map((v) => (Array.isArray(v)
      ? `[${v.map((s) => `'${s}'`).join(', ')}]` : String(v))).join(' ')) };
    new Function('renderer', 'console', code)(renderer, console);
    return lines;
  }, code);
  assert.deepEqual(logged, [expected]);
  await page.close();
});
