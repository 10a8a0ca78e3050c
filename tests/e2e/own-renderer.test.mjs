// End-to-end: www/own-renderer.html, a plain WebGPU app that renders lit
// and emissive cubes into its own rgba16float scene and emissive targets
// and hands them to afterglow on its own device. Checks real pixels: frames
// animate, the emissive cubes get a halo that only bloom explains, a white
// cube brighter than the bloom threshold stays crisp because only the
// emissive target feeds the bloom, a click focuses depth of field on the
// cube it hits (which stays sharp while a farther one blurs), and the
// console stays clean.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { url, launch, record } from './harness.mjs';
import { bloomPictures, checkAnimated, checkConsole, detail, focusPictures, mean, release } from './integration.mjs';

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

test('frames are drawn, not blank, and animated', () => checkAnimated(page, 20000));

test('emissive cubes glow, a bright lit cube does not', async (t) => {
  const { selective, off, everything } = await bloomPictures(page, 'ownRenderer', 10000);
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
  await release(page, 'ownRenderer');
});

test('a click focuses on the cube it hits; a farther one blurs', async (t) => {
  // The blue cube (about 7 m along the view at time 2) in focus, the
  // white one (about 10 m) behind it.
  const blue = [0.9, 0.35, 2.2];
  const locate = `(o) => o.project([${blue}])`;
  const { off, on, focus, text, stats } = await focusPictures(page, 'ownRenderer', locate, 10000);
  const boxes = await page.evaluate((blue) => {
    const o = window.ownRenderer;
    o.setTime(2);
    const around = (center, reach) => {
      const c = o.project(center);
      const top = o.project([center[0], center[1] + reach, center[2]]);
      const r = Math.hypot(top.x - c.x, top.y - c.y);
      return { x0: c.x - r, y0: c.y - r, x1: c.x + r, y1: c.y + r };
    };
    const boxes = { blue: around(blue, 0.45), white: around(o.white.center, 0.8) };
    o.setTime(null);
    return boxes;
  }, blue);
  const kept = (box) => detail(on, box) / detail(off, box);
  t.diagnostic(`focused at ${focus.toFixed(2)} (${text}); detail kept: blue ${kept(boxes.blue).toFixed(2)}, `
    + `white ${kept(boxes.white).toFixed(2)}`);
  assert.equal(stats, 'on');
  // Its centre is 7.1 m along the view; the click meets its near face.
  assert.ok(focus > 6.3 && focus < 7.3, `focused at ${focus}`);
  assert.ok(kept(boxes.blue) > 0.8, `the cube in focus keeps ${kept(boxes.blue)}`);
  assert.ok(kept(boxes.white) < 0.75, `the cube behind keeps ${kept(boxes.white)}`);
});

test('the console has no errors or warnings', () => checkConsole(page, 'ownRenderer', messages));
