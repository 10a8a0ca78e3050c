// End-to-end: www/with-three.html, a three.js WebGPURenderer scene rendered
// into a two-attachment half-float RenderTarget (scene, emissive) on the
// page's device and handed to afterglow on the same device. Checks real
// pixels: frames animate, the emissive objects get a halo that only bloom
// explains, a white box above the bloom threshold stays crisp under
// selective bloom, and the console stays clean.
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
  await page.goto(new URL('with-three.html', url).href);
  await page.waitForFunction(() => window.withThree?.frames > 3, null, { timeout: 60000 });
});

after(async () => {
  await browser?.close();
});

async function shot() {
  return PNG.sync.read(await page.screenshot());
}

async function settle() {
  const n = await page.evaluate(() => window.withThree.frames);
  await page.waitForFunction((n) => window.withThree.frames > n + 3, n, { timeout: 20000 });
}

// Mean of max(r, g, b) over the square of half-side `k × r` around a
// projected object, in 8-bit steps.
function mean(png, { x, y, r }, k) {
  let sum = 0;
  let n = 0;
  const [x0, x1] = [Math.max(0, Math.round(x - k * r)), Math.min(png.width, Math.round(x + k * r))];
  const [y0, y1] = [Math.max(0, Math.round(y - k * r)), Math.min(png.height, Math.round(y + k * r))];
  for (let py = y0; py < y1; py++) {
    for (let px = x0; px < x1; px++) {
      const i = (py * png.width + px) * 4;
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
  assert.ok(lit > 5000, `lit pixels: ${lit}`);
  assert.ok(changed > 5000, `pixels changed between frames: ${changed}`);
});

test('emissive objects glow, a bright lit box does not', async (t) => {
  await page.evaluate(() => {
    window.withThree.setTime(2);
    document.getElementById('panel').style.display = 'none';
  });
  const setBloom = (enabled, selective) => page.evaluate(([enabled, selective]) => {
    document.getElementById('selective').checked = selective;
    window.withThree.renderer.setOptions({ bloom: { enabled } });
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
  const at = await page.evaluate(() => ({
    orb: window.withThree.project('orb', 0.35),
    ring: window.withThree.project('ring', 0.5),
    white: window.withThree.project('white', 1.2),
  }));
  const halos = {};
  for (const name of ['orb', 'ring']) {
    halos[name] = mean(selective, at[name], 2.5) - mean(off, at[name], 2.5);
  }
  const whiteSelective = mean(selective, at.white, 1.2) - mean(off, at.white, 1.2);
  const whiteAll = mean(everything, at.white, 1.2) - mean(off, at.white, 1.2);
  t.diagnostic(`halo (steps): orb ${halos.orb.toFixed(1)}, ring ${halos.ring.toFixed(1)}; `
    + `white box ${whiteSelective.toFixed(1)} selective vs ${whiteAll.toFixed(1)} from the scene`);
  if (process.env.AFTERGLOW_SHOTS) {
    writeFileSync(`${process.env.AFTERGLOW_SHOTS}/with-three.png`, PNG.sync.write(selective));
  }
  for (const name of ['orb', 'ring']) {
    assert.ok(halos[name] > 4, `halo around the ${name}: ${halos[name].toFixed(2)} steps`);
  }
  assert.ok(whiteAll > 6, `the white box's glow from the scene: ${whiteAll.toFixed(2)} steps`);
  assert.ok(whiteSelective < 0.35 * whiteAll,
    `the white box glows with selective bloom: ${whiteSelective.toFixed(2)} vs ${whiteAll.toFixed(2)}`);
  await page.evaluate(() => {
    window.withThree.setTime(null);
    document.getElementById('panel').style.display = '';
  });
});

test('the console has no errors or warnings', async () => {
  assert.equal(await page.evaluate(() => window.withThree.failed), false);
  assert.equal(await page.textContent('#error'), '');
  const bad = messages.filter((m) => ['error', 'warning', 'pageerror'].includes(m.type));
  assert.deepEqual(bad, []);
});
