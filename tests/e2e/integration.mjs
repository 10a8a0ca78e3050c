// Shared checks of the integration pages (own-renderer.html,
// with-three.html). Each page exposes `window[global]` with `frames`,
// `failed`, `setTime(t | null)` and its `renderer`, and has a `#selective`
// checkbox, a `#panel` and an `#error` line.
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { problems } from './harness.mjs';

export async function shot(page) {
  return PNG.sync.read(await page.screenshot());
}

/** A box of half-side `r` around (`x`, `y`). */
export function square(x, y, r) {
  return { x0: x - r, y0: y - r, x1: x + r, y1: y + r };
}

/** Mean of max(r, g, b) over a box, in 8-bit steps. */
export function mean(png, { x0, y0, x1, y1 }) {
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

/** At least `minLit` pixels above 100, and over 5000 changed in 0.7 s. */
export async function checkAnimated(page, minLit) {
  const a = await shot(page);
  await page.waitForTimeout(700);
  const b = await shot(page);
  let lit = 0;
  let changed = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.max(a.data[i], a.data[i + 1], a.data[i + 2]) > 100) lit++;
    if (a.data[i] !== b.data[i] || a.data[i + 1] !== b.data[i + 1]) changed++;
  }
  assert.ok(lit > minLit, `lit pixels: ${lit}`);
  assert.ok(changed > 5000, `pixels changed between frames: ${changed}`);
}

/**
 * A still frame (time 2, panel hidden) three ways: selective bloom, bloom
 * off, and the whole scene feeding the bloom. Call `release` afterwards.
 */
export async function bloomPictures(page, global, settleTimeout) {
  await page.evaluate((g) => {
    window[g].setTime(2);
    document.getElementById('panel').style.display = 'none';
  }, global);
  const picture = async (enabled, selective) => {
    await page.evaluate(([g, enabled, selective]) => {
      document.getElementById('selective').checked = selective;
      window[g].renderer.setOptions({ bloom: { enabled } });
    }, [global, enabled, selective]);
    // Lets a few more frames reach the canvas.
    const n = await page.evaluate((g) => window[g].frames, global);
    await page.waitForFunction(([g, n]) => window[g].frames > n + 3, [global, n],
      { timeout: settleTimeout });
    return shot(page);
  };
  const selective = await picture(true, true);
  const off = await picture(false, true);
  const everything = await picture(true, false);
  await page.evaluate(([g]) => {
    document.getElementById('selective').checked = true;
    window[g].renderer.setOptions({ bloom: { enabled: true } });
  }, [global]);
  return { selective, off, everything };
}

/** Back to the animated page with its panel. */
export async function release(page, global) {
  await page.evaluate((g) => {
    window[g].setTime(null);
    document.getElementById('panel').style.display = '';
  }, global);
}

/** The page did not fail and logged no error or warning. */
export async function checkConsole(page, global, messages) {
  assert.equal(await page.evaluate((g) => window[g].failed, global), false);
  assert.equal(await page.textContent('#error'), '');
  assert.deepEqual(problems(messages), []);
}

/** How much detail a box holds: the mean square of the differences
 * between horizontal and vertical neighbours (max of r, g, b), in 8-bit
 * steps squared. A blur spreads an edge's step over more pixels, so the
 * sum of the squares falls with its width (the sum of |Δ| would not). */
export function detail(png, { x0, y0, x1, y1 }) {
  const at = (x, y) => {
    const i = (y * png.width + x) * 4;
    return Math.max(png.data[i], png.data[i + 1], png.data[i + 2]);
  };
  let sum = 0;
  let n = 0;
  for (let y = Math.max(0, Math.round(y0)); y < Math.min(png.height - 1, Math.round(y1)); y++) {
    for (let x = Math.max(0, Math.round(x0)); x < Math.min(png.width - 1, Math.round(x1)); x++) {
      sum += (at(x + 1, y) - at(x, y)) ** 2 + (at(x, y + 1) - at(x, y)) ** 2;
      n++;
    }
  }
  return sum / n;
}

/**
 * The page's focus control: a still frame (time 2, panel hidden) with
 * depth of field off, then one focused by a click at `point` (CSS pixels
 * from `locate(window[global])`, run in the page), with what the click
 * focused on and what `stats()` says. Depth of field is off again after.
 */
export async function focusPictures(page, global, locate, settleTimeout) {
  await page.evaluate((g) => {
    window[g].setTime(2);
    document.getElementById('panel').style.display = 'none';
  }, global);
  const settle = async () => {
    const n = await page.evaluate((g) => window[g].frames, global);
    await page.waitForFunction(([g, n]) => window[g].frames > n + 3, [global, n], { timeout: settleTimeout });
    return shot(page);
  };
  await page.evaluate((g) => window[g].renderer.setOptions({ depthOfField: { enabled: false } }), global);
  const off = await settle();
  const point = await page.evaluate(`(${locate})(window.${global})`);
  await page.mouse.click(point.x, point.y);
  const on = await settle();
  const state = await page.evaluate((g) => ({
    focus: window[g].renderer.options().depthOfField.focusDistance,
    text: document.getElementById('focus').textContent,
    stats: window[g].renderer.stats().depthOfField,
  }), global);
  await page.evaluate((g) => {
    window[g].renderer.setOptions({ depthOfField: { enabled: false } });
    document.getElementById('dof').checked = false;
  }, global);
  await release(page, global);
  return { off, on, ...state };
}
