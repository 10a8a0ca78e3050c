// End-to-end: www/with-three.html, a three.js WebGPURenderer scene rendered
// into a two-attachment half-float RenderTarget (scene, emissive) on the
// page's device and handed to afterglow on the same device. Checks real
// pixels: frames animate, the emissive objects get a halo that only bloom
// explains, a white box above the bloom threshold stays crisp under
// selective bloom, and the console stays clean.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { url, launch, record } from './harness.mjs';
import { bloomPictures, checkAnimated, checkConsole, mean, release, square } from './integration.mjs';

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

// The square of half-side `k × r` around a projected object.
const near = ({ x, y, r }, k) => square(x, y, k * r);

test('frames are drawn, not blank, and animated', () => checkAnimated(page, 5000));

test('emissive objects glow, a bright lit box does not', async (t) => {
  const { selective, off, everything } = await bloomPictures(page, 'withThree', 20000);
  const at = await page.evaluate(() => ({
    orb: window.withThree.project('orb', 0.35),
    ring: window.withThree.project('ring', 0.5),
    white: window.withThree.project('white', 1.2),
  }));
  const halos = {};
  for (const name of ['orb', 'ring']) {
    halos[name] = mean(selective, near(at[name], 2.5)) - mean(off, near(at[name], 2.5));
  }
  const whiteSelective = mean(selective, near(at.white, 1.2)) - mean(off, near(at.white, 1.2));
  const whiteAll = mean(everything, near(at.white, 1.2)) - mean(off, near(at.white, 1.2));
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
  await release(page, 'withThree');
});

test('the console has no errors or warnings', () => checkConsole(page, 'withThree', messages));
