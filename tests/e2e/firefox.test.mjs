// End-to-end in Firefox: the four pages (the demo, your own renderer,
// three.js, the worker) in Firefox ESR over WebDriver BiDi (puppeteer-core;
// Playwright's Firefox needs a patched build), with the prefs of
// webdriver.json that turn WebGPU on. Each page must draw frames that are
// not blank and move, say nothing in its error line, and log no error or
// warning. Firefox has no rgba16float canvas: the pages take the 8-bit
// path there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import puppeteer from 'puppeteer-core';
import { PNG } from 'pngjs';
import { url } from './harness.mjs';

const options = JSON.parse(readFileSync(new URL('../../webdriver.json', import.meta.url)))['moz:firefoxOptions'];

let browser;
before(async () => {
  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: process.env.FIREFOX ?? options.binary,
    headless: true,
    extraPrefsFirefox: options.prefs,
  });
});
after(async () => {
  await browser?.close();
});

/** Opens `path` at 640×400, recording its console; waits for `ready`. */
async function open(path, ready) {
  const page = await browser.newPage();
  const messages = [];
  page.on('console', (m) => messages.push({ type: m.type(), text: m.text() }));
  page.on('pageerror', (e) => messages.push({ type: 'pageerror', text: String(e) }));
  await page.setViewport({ width: 640, height: 400 });
  await page.goto(new URL(path, url).href);
  await page.waitForFunction(ready, { timeout: 60000, polling: 100 });
  return { page, messages };
}

/** Lit pixels (max channel above 60) of a screenshot, and the picture. */
async function shot(page) {
  const png = PNG.sync.read(Buffer.from(await page.screenshot()));
  let lit = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    if (Math.max(png.data[i], png.data[i + 1], png.data[i + 2]) > 60) lit++;
  }
  return { png, lit };
}

/**
 * Frames drawn and not blank, more than `minChanged` pixels changing
 * between two screenshots; no error shown or logged.
 */
async function checkPage(page, messages, frames, minLit, minChanged = 500) {
  const a = await shot(page);
  const n = await page.evaluate(frames);
  await page.waitForFunction(`(${frames})() > ${n + 3}`, { timeout: 30000, polling: 100 });
  const b = await shot(page);
  assert.ok(a.lit > minLit, `lit pixels: ${a.lit}`);
  let changed = 0;
  for (let i = 0; i < a.png.data.length; i += 4) {
    if (a.png.data[i] !== b.png.data[i] || a.png.data[i + 1] !== b.png.data[i + 1]) changed++;
  }
  assert.ok(changed >= minChanged, `pixels changed between frames: ${changed}`);
  const bad = messages.filter((m) => ['error', 'warn', 'warning', 'pageerror'].includes(m.type));
  assert.deepEqual(bad, []);
}

test('Firefox: the demo renders, on the 8-bit path', async () => {
  const { page, messages } = await open('./', () => window.afterglow !== undefined && window.afterglow.stats().frames > 2);
  const config = await page.evaluate(() => window.afterglow.configuration());
  assert.equal(config.dynamicRange.hdr, false, config.dynamicRange.why);
  assert.match(config.format, /^(bgra|rgba)8unorm$/);
  // The night street holds still between its floodlights.
  await checkPage(page, messages, () => window.afterglow.stats().frames, 2000, 0);
  await page.close();
});

test('Firefox: your own renderer', async () => {
  const { page, messages } = await open('own-renderer.html', () => window.ownRenderer?.frames > 3);
  assert.equal(await page.evaluate(() => window.ownRenderer.failed), false);
  assert.equal(await page.$eval('#error', (e) => e.textContent), '');
  await checkPage(page, messages, () => window.ownRenderer.frames, 2000);
  await page.close();
});

test('Firefox: three.js', async () => {
  const { page, messages } = await open('with-three.html',
    () => window.withThree?.frames > 3 || document.getElementById('error').textContent !== '');
  assert.equal(await page.$eval('#error', (e) => e.textContent), '');
  await checkPage(page, messages, () => window.withThree.frames, 2000);
  await page.close();
});

test('Firefox: the renderer in a worker', async () => {
  const { page, messages } = await open('worker.html', () => window.workerState?.frames > 1);
  assert.doesNotMatch(await page.$eval('#status', (e) => e.textContent), /fail|could not|Error/);
  await checkPage(page, messages, () => window.workerState.frames, 500);
  await page.close();
});
