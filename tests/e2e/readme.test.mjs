// The README's embedding example, verbatim, in a page of its own next to
// the built package: it must start, draw non-blank frames and keep the
// console clean.
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
const example = readme.match(/```html\n([\s\S]*?)```/)[1];

let browser;
before(async () => {
  browser = await chromium.launch({ executablePath, args: flags, headless: true });
});
after(async () => {
  await browser?.close();
});

test("the README's embedding example runs as written", async () => {
  const page = await browser.newPage({ viewport: { width: 640, height: 480 } });
  const messages = [];
  page.on('console', (m) => messages.push({ type: m.type(), text: m.text() }));
  page.on('pageerror', (e) => messages.push({ type: 'pageerror', text: String(e) }));
  // Served from the same folder as the demo, so './pkg/afterglow.js' resolves.
  const pageUrl = new URL('readme-example.html', url).href;
  await page.route(pageUrl, (route) => route.fulfill({
    contentType: 'text/html',
    body: `<!doctype html><html><head><link rel="icon" href="data:,"></head><body style="margin:0;background:#000">${example}</body></html>`,
  }));
  await page.goto(pageUrl);
  await page.waitForFunction(() => {
    const c = document.querySelector('canvas');
    return c.width === Math.round(c.clientWidth * devicePixelRatio) && c.width > 300;
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
