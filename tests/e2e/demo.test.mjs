// End-to-end: the demo page as `cargo xtask serve` serves it, in headless
// Chromium with the WebGPU flags from webdriver.json. Checks that frames
// are drawn, are not blank, animate, and that the console stays clean.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { PNG } from 'pngjs';

const url = process.env.AFTERGLOW_URL ?? 'http://127.0.0.1:8000/';
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const flags = JSON.parse(readFileSync(new URL('../../webdriver.json', import.meta.url)))
  ['goog:chromeOptions'].args.filter((a) => !a.startsWith('--headless'));

let browser;
let page;
const consoleMessages = [];

before(async () => {
  browser = await chromium.launch({ executablePath, args: flags, headless: true });
  page = await browser.newPage({ viewport: { width: 640, height: 400 } });
  page.on('console', (m) => consoleMessages.push({ type: m.type(), text: m.text() }));
  page.on('pageerror', (e) => consoleMessages.push({ type: 'pageerror', text: String(e) }));
  await page.goto(url);
  await page.waitForFunction(() => window.afterglow !== undefined, null, { timeout: 30000 });
});

after(async () => {
  await browser?.close();
});

async function canvasPixels() {
  const png = PNG.sync.read(await page.locator('canvas').screenshot());
  return png;
}

function stats(png) {
  let lit = 0;
  let sum = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    const m = Math.max(png.data[i], png.data[i + 1], png.data[i + 2]);
    sum += m;
    if (m > 128) lit++;
  }
  return { lit, mean: sum / (png.data.length / 4) };
}

test('the canvas is sized to its CSS box in device pixels', async () => {
  const size = await page.evaluate(() => {
    const c = document.querySelector('canvas');
    return { w: c.width, h: c.height, cssW: c.clientWidth, cssH: c.clientHeight, dpr: devicePixelRatio };
  });
  assert.equal(size.w, Math.round(size.cssW * size.dpr));
  assert.equal(size.h, Math.round(size.cssH * size.dpr));
});

test('frames are drawn, not blank, and animated', async () => {
  await page.waitForTimeout(300);
  const a = await canvasPixels();
  await page.waitForTimeout(700);
  const b = await canvasPixels();
  const sa = stats(a);
  assert.ok(sa.lit > 500, `bright pixels in the first screenshot: ${sa.lit}`);
  assert.ok(sa.mean > 5, `mean brightness: ${sa.mean}`);
  let changed = 0;
  for (let i = 0; i < a.data.length; i++) if (a.data[i] !== b.data[i]) changed++;
  assert.ok(changed > 1000, `bytes changed between screenshots: ${changed}`);
});

test('the configuration reaches the canvas', async () => {
  const cfg = await page.evaluate(() => {
    const c = window.afterglow.configuration();
    return { format: c.format, viewFormats: [...c.viewFormats], usage: c.usage, alphaMode: c.alphaMode };
  });
  const preferred = await page.evaluate(() => navigator.gpu.getPreferredCanvasFormat());
  assert.equal(cfg.format, preferred);
  assert.deepEqual(cfg.viewFormats, [`${preferred}-srgb`]);
  assert.equal(cfg.usage, 0x10);
  assert.equal(cfg.alphaMode, 'opaque');
});

test('the console has no errors or warnings', async () => {
  const bad = consoleMessages.filter((m) => ['error', 'warning', 'pageerror'].includes(m.type));
  assert.deepEqual(bad, []);
});
