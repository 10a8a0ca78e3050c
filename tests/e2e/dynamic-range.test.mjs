// End-to-end: `canvas: { dynamicRange: 'auto' }` on the demo page. On an
// HDR display the canvas is configured rgba16float with extended tone
// mapping, on a standard one with the preferred 8-bit format; a change of
// the media query moves it at the next frames; destroy() removes the
// listener. The display is emulated in the page: Chromium 156 ignores the
// `dynamic-range` feature of the DevTools protocol's
// `Emulation.setEmulatedMedia` (it applies `color-gamut`), so an init
// script answers `matchMedia('(dynamic-range: high)')` with a real
// EventTarget whose `matches` the test sets and whose `change` it fires,
// counting the listeners on it. An engine without an rgba16float canvas
// (Firefox) stays on the 8-bit path on an HDR display and says why.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { url, launch, inFirefox } from './harness.mjs';


let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A demo page whose display reports `range` ('high' or 'standard'). */
async function open(range) {
  const page = await browser.newPage({ viewport: { width: 640, height: 400 } });
  const messages = [];
  page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => messages.push(`pageerror: ${e}`));
  await page.addInitScript((range) => {
    const query = new EventTarget();
    query.media = '(dynamic-range: high)';
    query.matches = range === 'high';
    window.rangeListeners = 0;
    const add = query.addEventListener.bind(query);
    const remove = query.removeEventListener.bind(query);
    query.addEventListener = (type, f) => { window.rangeListeners += 1; add(type, f); };
    query.removeEventListener = (type, f) => { window.rangeListeners -= 1; remove(type, f); };
    window.emulateRange = (value) => {
      query.matches = value === 'high';
      const event = new Event('change');
      event.matches = query.matches;
      event.media = query.media;
      query.dispatchEvent(event);
    };
    const matchMedia = window.matchMedia.bind(window);
    window.matchMedia = (q) => (q.replace(/\s/g, '') === '(dynamic-range:high)' ? query : matchMedia(q));
  }, range);
  const emulate = (value) => page.evaluate((value) => window.emulateRange(value), value);
  await page.goto(url);
  await page.waitForFunction(() => window.afterglow !== undefined, null, { timeout: 30000 });
  return { page, emulate, messages };
}

/** What the canvas holds, once a few frames have passed. */
async function canvasState(page, format) {
  await page.waitForFunction((format) => window.afterglow.configuration().format === format,
    format, { timeout: 10000 });
  return page.evaluate(() => {
    const c = window.afterglow.configuration();
    const o = window.afterglow.options().canvas;
    return { format: c.format, toneMapping: c.toneMapping?.mode ?? 'standard', viewFormats: c.viewFormats, usage: c.usage,
      option: [o.dynamicRange, o.format, o.toneMapping], hdr: matchMedia('(dynamic-range: high)').matches };
  });
}

// The view formats of an 8-bit canvas: its -srgb twin, except where the
// composite writes it as compute (an rgba8unorm canvas on a GPU; an
// emulation draws it) and encodes itself.
const srgbViews = (format, usage) => ((usage & 0x08) !== 0 && format === 'rgba8unorm' ? [] : [`${format}-srgb`]);

test(inFirefox ? 'Firefox has no rgba16float canvas: an HDR display stays on the 8-bit path, and configuration() and the overlay say why'
  : 'an HDR display gets rgba16float with extended tone mapping, and follows the media query', async () => {
  if (inFirefox) return hdrWithoutFloatCanvas();
  const { page, emulate, messages } = await open('high');
  let s = await canvasState(page, 'rgba16float');
  assert.equal(s.hdr, true, 'the emulated display is HDR');
  assert.equal(s.toneMapping, 'extended');
  assert.deepEqual(s.viewFormats, []);
  // options() reports what was set; the display chose the rest.
  assert.deepEqual(s.option, ['auto', 'preferred', 'standard']);
  const frames = await page.evaluate(() => window.afterglow.stats().frames);

  await emulate('standard');
  s = await canvasState(page, await page.evaluate(() => navigator.gpu.getPreferredCanvasFormat()));
  assert.equal(s.hdr, false);
  assert.equal(s.toneMapping, 'standard');
  assert.deepEqual(s.viewFormats, srgbViews(s.format, s.usage));

  // The stats overlay, opened, says what the display gets (it refreshes
  // every 250 ms).
  await page.click('#stats-toggle');
  const overlaySays = (pattern) => page.waitForFunction((p) => new RegExp(p).test(document.getElementById('stats').textContent),
    pattern, { timeout: 5000 });
  await overlaySays('SDR display, standard: SDR white is the peak');

  await emulate('high');
  s = await canvasState(page, 'rgba16float');
  assert.equal(s.toneMapping, 'extended');
  await overlaySays('HDR display, extended: highlights up to 2× SDR white');
  await page.evaluate(() => window.afterglow.setOptions({ canvas: { headroom: 4 } }));
  await overlaySays('highlights up to 4× SDR white');
  // Still rendering after the changes.
  await page.waitForFunction((n) => window.afterglow.stats().frames > n + 3, frames, { timeout: 10000 });

  // Setting the format by hand under 'auto' is refused, naming it.
  const refused = await page.evaluate(() => {
    try { window.afterglow.setOptions({ canvas: { format: 'rgba16float' } }); return null; }
    catch (e) { return { name: e.name, option: e.option, allowed: e.allowed }; }
  });
  assert.deepEqual(refused, { name: 'OptionError', option: 'canvas.format', allowed: ['preferred'] });

  // Back to 'standard': the options as set, whatever the display.
  await page.evaluate(() => window.afterglow.setOptions({ canvas: { dynamicRange: 'standard' } }));
  s = await canvasState(page, await page.evaluate(() => navigator.gpu.getPreferredCanvasFormat()));
  assert.equal(await page.evaluate(() => window.rangeListeners), 0, 'the listener went with auto');
  await page.evaluate(() => window.afterglow.setOptions({ canvas: { dynamicRange: 'auto' } }));
  s = await canvasState(page, 'rgba16float');
  assert.equal(await page.evaluate(() => window.rangeListeners), 1);

  assert.deepEqual(messages.filter((m) => /^(error|warning|pageerror)/.test(m)), []);
  // The page's own frame loop stops being useful after this; only the listener count matters.
  await page.evaluate(() => window.afterglow.destroy());
  assert.equal(await page.evaluate(() => window.rangeListeners), 0, 'destroy() removes the listener');
  await page.close();
});

async function hdrWithoutFloatCanvas() {
  const { page, emulate, messages } = await open('high');
  const preferred = await page.evaluate(() => navigator.gpu.getPreferredCanvasFormat());
  const s = await canvasState(page, preferred);
  assert.equal(s.hdr, true, 'the emulated display is HDR');
  assert.equal(s.toneMapping, 'standard');
  assert.deepEqual(s.viewFormats, srgbViews(preferred, s.usage));
  const range = await page.evaluate(() => window.afterglow.configuration().dynamicRange);
  assert.deepEqual(range, { hdr: false, why: "this browser has no 'rgba16float' canvas (configure() refuses the format)" });
  await page.click('#stats-toggle');
  await page.waitForFunction(() => /HDR display, standard: SDR white is the peak \(this browser has no 'rgba16float' canvas/
    .test(document.getElementById('stats').textContent), null, { timeout: 5000 });
  // Still listening, and still drawing, as the display changes.
  assert.equal(await page.evaluate(() => window.rangeListeners), 1);
  const frames = await page.evaluate(() => window.afterglow.stats().frames);
  await emulate('standard');
  await emulate('high');
  await page.waitForFunction((n) => window.afterglow.stats().frames > n + 3, frames, { timeout: 10000 });
  assert.equal((await canvasState(page, preferred)).format, preferred);
  assert.deepEqual(messages.filter((m) => /^(error|warning|pageerror)/.test(m)), []);
  await page.evaluate(() => window.afterglow.destroy());
  assert.equal(await page.evaluate(() => window.rangeListeners), 0, 'destroy() removes the listener');
  await page.close();
}

test('a standard display gets the preferred 8-bit format', async () => {
  const { page, messages } = await open('standard');
  const preferred = await page.evaluate(() => navigator.gpu.getPreferredCanvasFormat());
  const s = await canvasState(page, preferred);
  assert.equal(s.hdr, false);
  assert.equal(s.toneMapping, 'standard');
  assert.deepEqual(s.option, ['auto', 'preferred', 'standard']);
  assert.deepEqual(messages.filter((m) => /^(error|warning|pageerror)/.test(m)), []);
  await page.close();
});
