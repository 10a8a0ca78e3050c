// The demo's first screen, the night street with auto exposure, running
// live at whatever rate the browser draws it, for one 12 s cycle of the
// scene (the floodlight comes on at 5 s and goes off at 9 s): a frame every
// 1.5 s, the frame rate the demo's own counter shows, and the mean level
// of each frame. On an emulator the demo draws 1–7 frames a second, so
// auto exposure adapts in a few large steps; this shows it at a GPU's rate.
//
//   node bench/street.mjs OUT [--gpu]   (AFTERGLOW_URL: www/ served)
//
// Writes OUT/street.png (the frames in two rows, 640×400 each) and
// OUT/street.json (per frame: seconds since the first, the counter's text,
// the mean sRGB level 0–255 and the share of pixels at 250 or more; and
// every requestAdapter() and requestDevice() the page made, with its
// options, its answer and when it came: written even where the demo never
// starts, with the page's message).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { adapterOf, canvasPng, launch, presents, software } from './browser.mjs';

const [out, flag] = process.argv.slice(2);
if (!out) throw new Error('usage: node bench/street.mjs OUT [--gpu]');
const url = process.env.AFTERGLOW_URL ?? 'http://127.0.0.1:8000/';
const browser = await launch([], { gpu: flag === '--gpu' });
const [width, height, shots, every] = [640, 400, 9, 1500];
try {
  const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
  const problems = [];
  page.on('pageerror', (e) => problems.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  await page.addInitScript(logWebGpuCalls);
  await page.goto(url);
  // Once the night street shows: the counter has a rate only after the
  // scene is compiled and the clock started (www/main.js).
  try {
    await page.waitForFunction(() => window.afterglow !== undefined && / fps/.test(document.getElementById('stats-toggle')?.textContent ?? ''),
      null, { timeout: 120_000 });
  } catch (e) {
    const calls = await page.evaluate(() => window.webgpuCalls).catch(() => null);
    const message = await page.textContent('#message').catch(() => null);
    writeFileSync(join(out, 'street.json'), JSON.stringify({ started: false, message, webgpuCalls: calls, problems }, null, 1));
    throw e;
  }
  const webgpuCalls = await page.evaluate(() => window.webgpuCalls);
  await page.addStyleTag({ content: '#panel { display: none !important; }' });
  const adapter = await adapterOf(page);
  if (flag === '--gpu' && software(adapter)) throw new Error(`not on a GPU: the demo's browser offers ${adapter.name || 'no adapter'}`);
  const frames = [];
  const start = Date.now();
  for (let i = 0; i < shots; i++) {
    await page.waitForTimeout(Math.max(0, start + i * every - Date.now()));
    // Where WebGPU canvases never reach the page, the demo's own frame
    // read back from its canvas (without the page's overlays).
    const shot = PNG.sync.read(presents() ? await page.locator('#view').screenshot()
      : await canvasPng(page, () => window.afterglow.render(performance.now() / 1000)));
    const counter = await page.evaluate(() => document.getElementById('stats-toggle')?.textContent ?? '');
    let sum = 0;
    let clipped = 0;
    for (let p = 0; p < shot.data.length; p += 4) {
      const level = (shot.data[p] + shot.data[p + 1] + shot.data[p + 2]) / 3;
      sum += level;
      if (level >= 250) clipped += 1;
    }
    const n = shot.width * shot.height;
    frames.push({ png: shot, seconds: (Date.now() - start) / 1000, counter, mean: +(sum / n).toFixed(1), clipped: +(clipped / n).toFixed(4) });
    process.stderr.write(`street: ${frames.at(-1).seconds.toFixed(1)} s, ${counter}, mean ${frames.at(-1).mean}\n`);
  }
  if (problems.length) throw new Error(`the demo reported:\n  ${problems.join('\n  ')}`);
  const columns = Math.ceil(shots / 2);
  const strip = new PNG({ width: columns * width, height: 2 * height });
  for (let p = 0; p < strip.data.length; p += 4) strip.data.set([8, 8, 12, 255], p);
  frames.forEach((f, i) => PNG.bitblt(f.png, strip, 0, 0, Math.min(width, f.png.width), Math.min(height, f.png.height),
    (i % columns) * width, Math.floor(i / columns) * height));
  writeFileSync(join(out, 'street.png'), PNG.sync.write(strip));
  writeFileSync(join(out, 'street.json'), JSON.stringify({ started: true, adapter, webgpuCalls, frames: frames.map(({ png, ...f }) => f) }, null, 1));
} finally {
  await browser.close();
}

// An init script: every requestAdapter() and requestDevice() of the page,
// with its options, what it answered (an adapter's description, null, or
// the error) and after how many ms, in window.webgpuCalls.
function logWebGpuCalls() {
  window.webgpuCalls = [];
  const wrap = (proto, name, describe) => {
    const original = proto[name];
    proto[name] = function (options) {
      const call = { call: name, options: options ?? null, at: Math.round(performance.now()), answer: 'pending' };
      window.webgpuCalls.push(call);
      const answer = original.call(this, options);
      answer.then((value) => { call.answer = describe(value); call.ms = Math.round(performance.now()) - call.at; },
        (error) => { call.answer = `rejected: ${error}`; call.ms = Math.round(performance.now()) - call.at; });
      return answer;
    };
  };
  if (!navigator.gpu) return;
  wrap(Object.getPrototypeOf(navigator.gpu), 'requestAdapter',
    (a) => (a ? `adapter: ${a.info?.vendor ?? ''} ${a.info?.description ?? ''}`.trim() : 'null'));
  wrap(GPUAdapter.prototype, 'requestDevice', (d) => (d ? 'device' : 'null'));
}
