// End-to-end: www/own-renderer.html, a plain WebGPU app that renders lit
// and emissive cubes into its own rgba16float scene and emissive targets
// and hands them to afterglow on its own device. Checks real pixels: frames
// animate, the emissive cubes get a halo that only bloom explains, a white
// cube brighter than the bloom threshold stays crisp because only the
// emissive target feeds the bloom, and the console stays clean.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { url, launch, record } from './harness.mjs';
import { PNG } from 'pngjs';


let browser;
let page;
const messages = [];

before(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 640, height: 360 } });
  record(page, messages);
  await page.goto(new URL('own-renderer.html', url).href);
  await page.waitForFunction(() => window.ownRenderer?.frames > 3, null, { timeout: 30000 });
});

after(async () => {
  await browser?.close();
});

async function shot() {
  return PNG.sync.read(await page.screenshot());
}

// Lets a few more frames reach the canvas.
async function settle() {
  const n = await page.evaluate(() => window.ownRenderer.frames);
  await page.waitForFunction((n) => window.ownRenderer.frames > n + 3, n, { timeout: 10000 });
}

// Mean of max(r, g, b) over a box, in 8-bit steps.
function mean(png, { x0, y0, x1, y1 }) {
  let sum = 0;
  let n = 0;
  for (let y = Math.max(0, Math.round(y0)); y < Math.min(png.height, Math.round(y1)); y++) {
    for (let x = Math.max(0, Math.round(x0)); x < Math.min(png.width, Math.round(x1)); x++) {
      const i = (y * png.width + x) * 4;
      sum += Math.max(png.data[i], png.data[i + 1], png.data[i + 2]);
      n++;
    }
  }
  return sum / n;
}

test('frames are drawn, not blank, and animated', async () => {
  const a = await shot();
  await page.waitForTimeout(700);
  const b = await shot();
  let lit = 0;
  let changed = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.max(a.data[i], a.data[i + 1], a.data[i + 2]) > 100) lit++;
    if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1]) changed++;
  }
  assert.ok(lit > 20000, `lit pixels: ${lit}`);
  assert.ok(changed > 5000, `pixels changed between frames: ${changed}`);
});

test('emissive cubes glow, a bright lit cube does not', async (t) => {
  // A still frame, without the text panel over the canvas.
  await page.evaluate(() => {
    window.ownRenderer.setTime(2);
    document.getElementById('panel').style.display = 'none';
  });
  const setBloom = (enabled, selective) => page.evaluate(([enabled, selective]) => {
    document.getElementById('selective').checked = selective;
    window.ownRenderer.renderer.setOptions({ bloom: { enabled } });
  }, [enabled, selective]);
  await setBloom(true, true);
  await settle();
  const selective = await shot();
  await setBloom(false, true);
  await settle();
  const off = await shot();
  await setBloom(true, false);
  await settle();
  const everything = await shot();
  await setBloom(true, true);

  const boxes = await page.evaluate(() => {
    const o = window.ownRenderer;
    // A box around a cube's projected centre, `k` times the projected
    // length of `reach` world units.
    const around = (center, reach, k) => {
      const c = o.project(center);
      const top = o.project([center[0], center[1] + reach, center[2]]);
      const r = k * Math.hypot(top.x - c.x, top.y - c.y);
      return { x0: c.x - r, y0: c.y - r, x1: c.x + r, y1: c.y + r };
    };
    return {
      cyanRing: around(o.emitters.cyan, 0.35, 3),
      cyanCore: around(o.emitters.cyan, 0.35, 0.6),
      lamp: around(o.emitters.lamp, 0.5, 2.5),
      white: around(o.white.center, o.white.size, 1.2),
    };
  });
  // The ring around the cyan emitter (its core excluded) brightens by the
  // halo alone: the sky behind it is black.
  const ring = (png) => {
    const b = boxes.cyanRing;
    const c = boxes.cyanCore;
    const area = (q) => (q.x1 - q.x0) * (q.y1 - q.y0);
    return (mean(png, b) * area(b) - mean(png, c) * area(c)) / (area(b) - area(c));
  };
  const halo = ring(selective) - ring(off);
  assert.ok(halo > 4, `halo around the cyan emitter: ${halo.toFixed(2)} steps`);
  const lampHalo = mean(selective, boxes.lamp) - mean(off, boxes.lamp);
  assert.ok(lampHalo > 4, `halo around the lamp: ${lampHalo.toFixed(2)} steps`);
  // The white cube (brighter than the threshold) glows only when the whole
  // scene feeds the bloom.
  const whiteSelective = mean(selective, boxes.white) - mean(off, boxes.white);
  const whiteAll = mean(everything, boxes.white) - mean(off, boxes.white);
  t.diagnostic(`halo (steps): cyan ring ${halo.toFixed(1)}, lamp ${lampHalo.toFixed(1)}; `
    + `white cube ${whiteSelective.toFixed(1)} selective vs ${whiteAll.toFixed(1)} from the scene`);
  if (process.env.AFTERGLOW_SHOTS) {
    writeFileSync(`${process.env.AFTERGLOW_SHOTS}/own-renderer.png`, PNG.sync.write(selective));
  }
  assert.ok(whiteAll > 6, `the white cube's glow from the scene: ${whiteAll.toFixed(2)} steps`);
  assert.ok(whiteSelective < 0.35 * whiteAll,
    `the white cube glows with selective bloom: ${whiteSelective.toFixed(2)} vs ${whiteAll.toFixed(2)}`);
  await page.evaluate(() => {
    window.ownRenderer.setTime(null);
    document.getElementById('panel').style.display = '';
  });
});

test('the console has no errors or warnings', async () => {
  assert.equal(await page.evaluate(() => window.ownRenderer.failed), false);
  assert.equal(await page.textContent('#error'), '');
  const bad = messages.filter((m) => ['error', 'warning', 'pageerror'].includes(m.type));
  assert.deepEqual(bad, []);
});
