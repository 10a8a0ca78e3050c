// Reference images in the browser: the same fixed set of frames as the
// native suite (src/tests/golden.rs), rendered through the public JavaScript
// API and read back with screenshot(), compared with the PNGs of the
// engine: tests/golden/browser/ for headless Chromium (SwiftShader),
// tests/golden/browser-firefox/ for Firefox (lavapipe). The two
// rasterisers cover edge pixels differently (up to 235/255 on 2 % of the
// channels of the same frame), so each engine has its own images.
//
// Tolerance: every channel, colour premultiplied by alpha, within 2/255 of
// the reference except at most 0.1 % of them, and none beyond 16/255.
// Each rasteriser is deterministic for one browser build and one CPU; the
// slack is for a browser update or another CPU that reorders
// arithmetic (an edge pixel of the MSAA coverage may flip), not for a
// change of the chain. Re-bless deliberately with
// AFTERGLOW_BLESS=1 cargo xtask test e2e (both engines).
//
// So that Firefox's images cannot drift from what the chain draws, each
// is also held to Chromium's: a mean difference of at most 1.5/255 per
// channel and at most 2 % of the channels beyond 8/255 (the two differ
// at edges only: 0.3-1.0/255 on average, 0.1-1.3 % beyond 8/255).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { url, launch, inFirefox } from './harness.mjs';
import { PNG } from 'pngjs';

const dir = new URL(inFirefox ? '../golden/browser-firefox/' : '../golden/browser/', import.meta.url);
const bless = !!process.env.AFTERGLOW_BLESS;

const size = [192, 108];
const CASES = [
  ['demo-agx', {}, 2],
  ['demo-aces', { tonemapper: 'aces' }, 2],
  ['demo-khronos-neutral', { tonemapper: 'khronos-neutral' }, 2],
  ['demo-reinhard', { tonemapper: 'reinhard' }, 2],
  ['demo-none', { tonemapper: 'none' }, 2],
  ['demo-agx-t5', {}, 5],
  ['msaa1', { msaa: 1 }, 2],
  ['msaa4-tonemapped-resolve', { resolve: 'tonemapped' }, 2],
  ['gaussian-bloom', { bloom: { blur: 'gaussian' } }, 2],
  ['bloom-off', { bloom: { enabled: false } }, 2],
  ['premultiplied', { canvas: { alphaMode: 'premultiplied' } }, 2],
  ['rgba16float-extended',
    { canvas: { format: 'rgba16float', toneMapping: 'extended' }, tonemapper: 'none' }, 2],
  ['odd-size', {}, 2, [97, 61]],
];

let browser;
let page;
const errors = [];

before(async () => {
  browser = await launch();
  page = await browser.newPage();
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  // The document has no icon; answer its request instead of a 404.
  await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  // Any same-origin document will do: the module is imported into it.
  await page.goto(new URL('style.css', url).href);
  await page.evaluate(async (base) => {
    const mod = await import(new URL('pkg/afterglow.js', base).href);
    await mod.default();
    window.afterglowModule = mod;
  }, url);
});

after(async () => {
  await browser?.close();
});

async function render(options, time, [w, h]) {
  const b64 = await page.evaluate(async ({ options, time, w, h }) => {
    const { Renderer } = window.afterglowModule;
    const canvas = document.createElement('canvas');
    canvas.width = w;
    canvas.height = h;
    document.body.append(canvas);
    const renderer = await Renderer.create(canvas, {
      ...options,
      canvas: { ...(options.canvas ?? {}), screenshots: true },
    });
    try {
      renderer.render(time);
      const blob = await renderer.screenshot();
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let s = '';
      for (const b of bytes) s += String.fromCharCode(b);
      return btoa(s);
    } finally {
      renderer.destroy();
      canvas.remove();
    }
  }, { options, time, w, h });
  return Buffer.from(b64, 'base64');
}

function compare(got, want, step = 2) {
  assert.deepEqual([got.width, got.height], [want.width, want.height], 'size');
  // Colour is compared as the canvas shows it, premultiplied by alpha: the
  // PNG stores straight colour, where a 1/255 step of a nearly transparent
  // pixel's premultiplied value becomes a step of up to 255 (the
  // premultiplied reference differed by 51/255 in 10 such channels on
  // another CPU, which SwiftShader's JIT rounds differently). For opaque
  // frames this is the plain per-channel difference.
  const shown = (data, i) => (i % 4 === 3 ? data[i] : (data[i] * data[i - (i % 4) + 3]) / 255);
  let max = 0;
  let over = 0;
  let sum = 0;
  for (let i = 0; i < got.data.length; i++) {
    const d = Math.round(Math.abs(shown(got.data, i) - shown(want.data, i)));
    max = Math.max(max, d);
    sum += d;
    if (d > step) over++;
  }
  return { max, over, fraction: over / got.data.length, mean: sum / got.data.length };
}

// Engines without an rgba16float canvas (Firefox) refuse it by name.
const FLOAT_CANVAS = 'rgba16float-extended';

if (inFirefox) {
  test(`reference image: ${FLOAT_CANVAS} is a CanvasError naming the format in Firefox, which has no rgba16float canvas`, async () => {
    const [, options, time] = CASES.find(([name]) => name === FLOAT_CANVAS);
    await assert.rejects(render(options, time, size), /CanvasError: .*canvas\.format 'rgba16float': this browser has no 'rgba16float' canvas/);
  });
}

for (const [name, options, time, dims] of CASES.filter(([name]) => !(inFirefox && name === FLOAT_CANVAS))) {
  test(`reference image: ${name}`, async () => {
    const png = await render(options, time, dims ?? size);
    const file = new URL(`${name}.png`, dir);
    if (bless) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, png);
      return;
    }
    assert.ok(existsSync(file),
      `${file.pathname} is missing; bless with AFTERGLOW_BLESS=1 cargo xtask test e2e`);
    const r = compare(PNG.sync.read(png), PNG.sync.read(readFileSync(file)));
    console.log(`${name}: largest difference ${r.max}/255, ${r.over} channels beyond 2/255`);
    assert.ok(r.max <= 16 && r.fraction <= 0.001,
      `${name}: largest difference ${r.max}/255, ${r.over} channels beyond 2/255 ` +
      `(${(100 * r.fraction).toFixed(3)} %)`);
    if (inFirefox) {
      const chromium = new URL(`../golden/browser/${name}.png`, import.meta.url);
      const c = compare(PNG.sync.read(png), PNG.sync.read(readFileSync(chromium)), 8);
      assert.ok(c.mean <= 1.5 && c.fraction <= 0.02,
        `${name}: against Chromium's image, mean difference ${c.mean.toFixed(2)}/255, ` +
        `${(100 * c.fraction).toFixed(2)} % of the channels beyond 8/255`);
    }
    assert.deepEqual(errors, [], 'no errors in the console');
  });
}
