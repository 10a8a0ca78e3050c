// End-to-end: the demo page as `cargo xtask serve` serves it, in the
// engine harness.mjs launches. Checks that frames
// are drawn, are not blank, animate, that the first screen is the night
// street with auto exposure following its floodlight, the hard-edged
// scene's pixel view and the edge smoothing it is for, that the frame-rate
// counter never shows a rate it does not have, and that the console stays
// clean. The panel's own behaviour is in panel.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { url, launch, record, problems, download } from './harness.mjs';
import { NIGHT_STREET, HARD_EDGES } from '../../www/scenes.js';
import { PNG } from 'pngjs';


let browser;
let page;
const consoleMessages = [];

before(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 640, height: 400 } });
  record(page, consoleMessages);
  // Every text the frame-rate counter shows, from before the first frame.
  // The page's first animation frame is held back a second, as a slow
  // first compile holds it on a phone: the counter runs meanwhile.
  await page.addInitScript(() => {
    const raf = window.requestAnimationFrame.bind(window);
    let first = true;
    window.requestAnimationFrame = (callback) => {
      if (!first) return raf(callback);
      first = false;
      return setTimeout(() => raf(callback), 1000);
    };
    window.counterTexts = [];
    document.addEventListener('DOMContentLoaded', () => {
      const counter = document.getElementById('stats-toggle');
      window.counterTexts.push(counter.textContent);
      new MutationObserver(() => window.counterTexts.push(counter.textContent))
        .observe(counter, { childList: true, characterData: true, subtree: true });
    });
  });
  await page.setViewportSize({ width: 960, height: 540 });
  await page.goto(url);
  await page.waitForFunction(() => window.afterglow !== undefined, null, { timeout: 30000 });
});

after(async () => {
  await browser?.close();
});

// The middle of the canvas, clear of the stats line and the panel.
const CLEAR = { x: 200, y: 60, width: 400, height: 440 };

async function canvasPixels(clip) {
  const shot = clip ? await page.screenshot({ clip }) : await page.locator('canvas').screenshot();
  return PNG.sync.read(shot);
}

function differingBytes(a, b) {
  let changed = 0;
  for (let i = 0; i < a.data.length; i++) if (a.data[i] !== b.data[i]) changed++;
  return changed;
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

test('the canvas follows its CSS box in device pixels (autoResize)', async () => {
  const sized = () => {
    const c = document.querySelector('canvas');
    return c.width === Math.round(c.clientWidth * devicePixelRatio)
      && c.height === Math.round(c.clientHeight * devicePixelRatio);
  };
  await page.waitForFunction(sized, null, { timeout: 10000 });
  await page.setViewportSize({ width: 800, height: 500 });
  await page.waitForFunction(sized, null, { timeout: 10000 });
  assert.equal(await page.evaluate(() => document.querySelector('canvas').width), 800);
  await page.setViewportSize({ width: 960, height: 540 });
  await page.waitForFunction(sized, null, { timeout: 10000 });
});

test('frames are drawn, not blank, and animated', async () => {
  await page.waitForTimeout(300);
  const a = await canvasPixels();
  const sa = stats(a);
  assert.ok(sa.lit > 500, `bright pixels in the first screenshot: ${sa.lit}`);
  assert.ok(sa.mean > 5, `mean brightness: ${sa.mean}`);
  // The street holds still between its floodlights, which come on and go
  // off once in every 12 s: within 13 s the picture must change.
  let changed = 0;
  for (const start = Date.now(); changed <= 1000 && Date.now() - start < 13000;) {
    await page.waitForTimeout(500);
    changed = differingBytes(a, await canvasPixels());
  }
  assert.ok(changed > 1000, `bytes changed between screenshots: ${changed}`);
});

test('the first screen is the night street, and auto exposure follows its floodlight', async () => {
  assert.equal(await page.inputValue('#wgsl'), NIGHT_STREET, 'the editor holds the scene shown');
  const o = await page.evaluate(() => window.afterglow.options());
  assert.equal(o.autoExposure.enabled, true);
  assert.equal(o.canvas.dynamicRange, 'auto', 'HDR where the display has it');
  // The exposure the meter settles on at a time of the scene: the page's
  // clock is paused and frames are drawn at that time.
  await page.check('#pause');
  const settled = (t) => page.evaluate(async (t) => {
    const r = window.afterglow;
    r.resetExposure();
    for (let i = 0; i < 8; i++) {
      r.render(t);
      await new Promise((done) => requestAnimationFrame(done));
    }
    return r.stats().exposureEv;
  }, t);
  const night = await settled(2);
  const flood = await settled(7);
  assert.ok(night - flood > 2, `exposure ${night.toFixed(2)} EV by night, ${flood.toFixed(2)} EV with the floodlight on`);
  await page.uncheck('#pause');
});

test('the configuration reaches the canvas', async () => {
  const cfg = await page.evaluate(() => {
    const c = window.afterglow.configuration();
    return { format: c.format, viewFormats: [...c.viewFormats], usage: c.usage, alphaMode: c.alphaMode };
  });
  const preferred = await page.evaluate(() => navigator.gpu.getPreferredCanvasFormat());
  assert.equal(cfg.format, preferred);
  // RENDER_ATTACHMENT, plus COPY_SRC because the demo enables screenshots.
  // On a GPU an rgba8unorm canvas is written as compute (STORAGE_BINDING),
  // encoded by the shader, so without an -srgb view; an emulation draws it.
  const storage = (cfg.usage & 0x08) !== 0;
  if (storage) assert.equal(preferred, 'rgba8unorm');
  assert.deepEqual(cfg.viewFormats, storage ? [] : [`${preferred}-srgb`]);
  assert.equal(cfg.usage, 0x10 | 0x01 | (storage ? 0x08 : 0));
  assert.equal(cfg.alphaMode, 'opaque');
});

test('paused frames are stable and a control changes the pixels', async () => {
  await page.check('#pause');
  await page.waitForTimeout(300);
  const a = await canvasPixels(CLEAR);
  await page.waitForTimeout(300);
  const still = await canvasPixels(CLEAR);
  assert.equal(differingBytes(a, still), 0, 'a paused frame changed');
  await page.selectOption('select[name="tonemapper"]', 'none');
  await page.waitForTimeout(300);
  const b = await canvasPixels(CLEAR);
  assert.ok(differingBytes(a, b) > 5000, `tonemapper change moved ${differingBytes(a, b)} bytes`);
  const tonemapper = await page.evaluate(() => window.afterglow.options().tonemapper);
  assert.equal(tonemapper, 'none');
  await page.fill('input[name="bloom.intensity"]', '0');
  await page.waitForTimeout(300);
  const c = await canvasPixels(CLEAR);
  assert.ok(differingBytes(b, c) > 5000, 'bloom intensity change did not show');
  assert.equal(await page.evaluate(() => window.afterglow.options().bloom.intensity), 0);
  await page.click('#demo-preset');
  await page.uncheck('#pause');
});

/** The picture once it stops changing: a paused demo draws a frame only
 * after a change, and a new shader variant may take a while to compile on
 * a software rasterizer, so wait (at most 10 s) for two equal captures. */
async function settledPixels(clip) {
  let last = await canvasPixels(clip);
  for (let i = 0; i < 40; i++) {
    await page.waitForTimeout(250);
    const next = await canvasPixels(clip);
    if (differingBytes(last, next) === 0) return next;
    last = next;
  }
  return last;
}

// Red over blue, summed over the picture.
function balance({ data }) {
  let r = 0;
  let b = 0;
  for (let i = 0; i < data.length; i += 4) { r += data[i]; b += data[i + 2]; }
  return r / Math.max(b, 1);
}

test('a look warms the picture, the split shows it without, and Neutral takes it back', async () => {
  // Warmer: summed over the frame, red gains on blue.
  // Auto exposure moves on with every frame drawn, even paused; the exact
  // comparison below needs it off.
  await page.setChecked('[data-option="autoExposure.enabled"]', false);
  await page.check('#pause');
  const before = await settledPixels(CLEAR);
  await page.click('[data-look="warm"]');
  await page.waitForTimeout(300);
  const warm = await settledPixels(CLEAR);
  const o = await page.evaluate(() => window.afterglow.options());
  assert.equal(o.grading.temperature, 0.35);
  assert.equal(o.vignette.intensity, 0.3);
  assert.equal(await page.inputValue('input[name="grading.temperature"]'), '0.35', 'the panel follows');
  assert.ok(balance(warm) > balance(before) * 1.03, `red/blue ${balance(before).toFixed(3)} → ${balance(warm).toFixed(3)}`);
  // The split: left of the divider, a second renderer draws the same
  // frame without the look; at either end it is one picture or the other.
  await page.check('#compare');
  await page.waitForFunction(() => window.afterglowSplit.on, null, { timeout: 30000 });
  const splitAt = async (at) => {
    await page.evaluate((at) => window.afterglowSplit.move(at), at);
    await page.evaluate(() => document.getElementById('pause').dispatchEvent(new Event('change')));
    return settledPixels(CLEAR);
  };
  assert.equal(differingBytes(await splitAt(1), before), 0, 'all "before": the picture without the look');
  assert.equal(differingBytes(await splitAt(0), warm), 0, 'all "after": the warm picture');
  const half = await splitAt(0.5);
  // CLEAR spans x 200–600 of 960: the line at 480 falls 280 px in.
  const columns = (png, from, to) => {
    const out = new PNG({ width: to - from, height: png.height });
    PNG.bitblt(png, out, from, 0, to - from, png.height, 0, 0);
    return out;
  };
  assert.ok(balance(columns(half, 0, 250)) < balance(columns(warm, 0, 250)) / 1.02, 'left of the line is not warmed');
  assert.ok(balance(columns(half, 310, 400)) > balance(columns(before, 310, 400)) * 1.02, 'right of the line is warmed');
  const divider = await page.locator('#split').boundingBox();
  assert.ok(divider.width >= 44 && Math.abs(divider.x + divider.width / 2 - 480) <= 1, JSON.stringify(divider));
  await page.focus('#split');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.getAttribute('#split', 'aria-valuenow'), '45', 'the arrow keys move it');
  // Toggled faster than a renderer starts, the split ends as the box says,
  // with one renderer: those overtaken undo themselves.
  await page.evaluate(() => {
    const box = document.getElementById('compare');
    for (const on of [false, true, false, true]) {
      box.checked = on;
      box.dispatchEvent(new Event('change'));
    }
  });
  await page.waitForFunction(() => window.afterglowSplit.on, null, { timeout: 30000 });
  await page.waitForTimeout(3000);
  assert.equal(await page.locator('canvas').count(), 2, 'the page\'s canvas and one split canvas');
  assert.equal(await page.locator('#split').count(), 1, 'one divider');
  await page.uncheck('#compare');
  assert.equal(await page.locator('canvas').count(), 1, 'the split\'s canvas is gone');

  // The film table and the dirty lens change the picture; Neutral takes
  // every part of a look back.
  await page.click('[data-look="film"]');
  await page.waitForFunction(() => window.afterglow.options().vignette.intensity === 0.25);
  const film = await settledPixels(CLEAR);
  assert.ok(differingBytes(before, film) > film.data.length / 20, 'the film look changed little');
  await page.click('[data-look="dirty"]');
  await page.waitForFunction(() => window.afterglow.options().bloom.dirtIntensity === 6);
  const dirty = await settledPixels(CLEAR);
  assert.ok(differingBytes(before, dirty) > 0, 'the lens dirt changed nothing');
  assert.ok(stats(dirty).mean >= stats(before).mean, 'lens dirt only adds light');
  await page.click('[data-look="neutral"]');
  await page.waitForFunction(() => window.afterglow.options().vignette.intensity === 0);
  const back = await settledPixels(CLEAR);
  assert.equal(differingBytes(before, back), 0, 'Neutral did not restore the picture');
  await page.uncheck('#pause');
  await page.click('#demo-preset');
});

test('the scene shader editor reports errors with their line', async () => {
  await page.click('#edit-shader');
  await page.fill('#wgsl', 'fn scene(uv: vec2f, time: f32) -> vec4f {\n  return vec4f(nope, 0.0, 0.0, 1.0);\n}\n');
  await page.click('#apply-shader');
  await page.waitForFunction(() => document.getElementById('wgsl-error').textContent.length > 0);
  assert.match(await page.textContent('#wgsl-error'), /line 2/);
  await page.fill('#wgsl', 'fn scene(uv: vec2f, time: f32) -> vec4f {\n  return vec4f(20.0 * uv.x, 0.2, 0.1, 1.0);\n}\n');
  await page.click('#apply-shader');
  await page.waitForFunction(() => document.getElementById('wgsl-error').textContent === '');
  await page.keyboard.press('Escape');
  await page.click('#demo');
});

test('the effect editor adds its example, reports errors with their line, keeps the last good one and removes it', async () => {
  await page.click('#edit-effect');
  await page.click('#apply-effect');
  await page.waitForFunction(() => window.afterglow.effects().length === 1);
  const first = await page.evaluate(() => window.afterglow.effects()[0]);
  await page.fill('#effect-wgsl', 'fn effect(color: vec4f, uv: vec2f) -> vec4f {\n  return colour;\n}\n');
  await page.click('#apply-effect');
  await page.waitForFunction(() => document.getElementById('effect-error').textContent.length > 0);
  assert.match(await page.textContent('#effect-error'), /line 2/);
  // The example still runs.
  assert.deepEqual(await page.evaluate(() => window.afterglow.effects()), [first]);
  await page.fill('#effect-strength', '0.8');
  await page.click('#remove-effect');
  assert.deepEqual(await page.evaluate(() => window.afterglow.effects()), []);
  await page.keyboard.press('Escape');
});

test('the stats overlay is one line until opened, then lists GPU time per pass', async () => {
  assert.equal(await page.isVisible('#stats'), false);
  assert.match(await page.textContent('#stats-toggle'), /^\d+ fps( · [+−]\d+\.\d EV)? ▸$/);
  await page.click('#stats-toggle');
  assert.equal(await page.getAttribute('#stats-toggle', 'aria-expanded'), 'true');
  await page.waitForFunction(() => /composite/.test(document.getElementById('stats').textContent), null, { timeout: 10000 });
  const text = await page.textContent('#stats');
  assert.match(text, /frame .* ms/);
  assert.match(text, /gpu memory/);
  await page.click('#stats-toggle');
  assert.equal(await page.isVisible('#stats'), false);
});

test('the hard-edged scene draws one canvas pixel per CSS pixel, without auto exposure, until other content', async () => {
  await page.click('#hard-edges');
  await page.waitForFunction(() => document.getElementById('view').classList.contains('pixelated'), null, { timeout: 30000 });
  assert.equal(await page.inputValue('#wgsl'), HARD_EDGES, 'the editor holds the scene shown');
  const view = () => page.evaluate(() => {
    const c = document.getElementById('view');
    const o = window.afterglow.options();
    return { width: c.width, height: c.height, css: [c.clientWidth, c.clientHeight], pinned: c.style.width,
      rendering: getComputedStyle(c).imageRendering, autoResize: o.autoResize, autoExposure: o.autoExposure.enabled,
      hint: document.getElementById('hard-edges-hint').checkVisibility() };
  });
  let v = await view();
  assert.deepEqual([v.width, v.height], v.css, 'one canvas pixel per CSS pixel');
  assert.equal(v.rendering, 'pixelated');
  assert.equal(v.autoResize, false, 'the demo sizes the canvas itself');
  assert.equal(v.autoExposure, false, 'the exposure holds still');
  assert.equal(v.hint, true, 'the line that points to the edge smoothing control shows');
  assert.equal(await page.isChecked('[data-option="autoResize"]'), false, 'the panel follows');
  // The window's size is followed in CSS pixels.
  await page.setViewportSize({ width: 800, height: 500 });
  await page.waitForFunction(() => document.getElementById('view').width === 800, null, { timeout: 10000 });
  await page.setViewportSize({ width: 960, height: 540 });
  await page.waitForFunction(() => document.getElementById('view').width === 960, null, { timeout: 10000 });
  // Hairlines and the bar: bright pixels on a dark ground.
  await page.check('#pause');
  const shot = await settledPixels(CLEAR);
  await page.uncheck('#pause');
  const s = stats(shot);
  assert.ok(s.lit > 500 && s.mean < 80, `lit ${s.lit}, mean ${s.mean.toFixed(1)}`);
  await page.click('#street');
  await page.waitForFunction(() => !document.getElementById('view').classList.contains('pixelated'));
  v = await view();
  assert.equal(v.autoResize, true, 'autoResize is back');
  assert.equal(v.autoExposure, true, 'auto exposure is back');
  assert.equal(v.hint, false);
  assert.equal(v.pinned, '', 'the canvas keeps its CSS size from the style sheet');
  assert.equal(v.rendering, 'auto');
  await page.waitForFunction(() => document.getElementById('status').textContent === '', null, { timeout: 30000 });
});

test('the Frame section has the edge smoothing control, with a line for each choice, and each choice draws', async () => {
  const control = await page.evaluate(() => {
    const select = document.querySelector('section[data-section="Frame"] select[data-option="antialias"]');
    const list = document.querySelector('[data-choices-for="antialias"]');
    return select && {
      choices: [...select.options].map((o) => o.value),
      label: select.labels[0]?.querySelector('.label')?.textContent,
      lines: [...(list?.children ?? [])].map((li) => li.textContent),
      describedBy: select.getAttribute('aria-describedby'),
    };
  });
  assert.ok(control, 'no antialias select in the Frame section');
  assert.deepEqual(control.choices, ['none', 'fxaa', 'smaa']);
  assert.equal(control.label, 'Edge smoothing');
  assert.deepEqual(control.lines.map((l) => l.split(':')[0]), ['none', 'fxaa', 'smaa']);
  assert.ok(control.lines.every((l) => l.length > 60), 'a sentence or two for each choice');
  assert.match(control.describedBy, /choices-antialias/);
  // On the hard edges, each filter draws a picture of its own.
  await page.click('#hard-edges');
  await page.waitForFunction(() => document.getElementById('view').classList.contains('pixelated'), null, { timeout: 30000 });
  await page.check('#pause');
  const pictures = {};
  for (const value of ['none', 'fxaa', 'smaa']) {
    await page.selectOption('[data-option="antialias"]', value);
    // The control's own error line and the page's, not another panel's.
    assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('[data-error-for="antialias"], #error')]
      .map((e) => e.textContent).filter((t) => t)), [], `antialias ${value}`);
    assert.equal(await page.evaluate(() => window.afterglow.options().antialias), value);
    pictures[value] = await settledPixels(CLEAR);
  }
  assert.ok(differingBytes(pictures.none, pictures.fxaa) > 1000, 'fxaa changed little');
  assert.ok(differingBytes(pictures.none, pictures.smaa) > 1000, 'smaa changed little');
  assert.ok(differingBytes(pictures.fxaa, pictures.smaa) > 0, 'fxaa and smaa drew the same');
  await page.selectOption('[data-option="antialias"]', 'none');
  await page.uncheck('#pause');
  await page.click('#street');
  await page.waitForFunction(() => document.getElementById('status').textContent === '', null, { timeout: 30000 });
});

test('the frame-rate counter says it is starting until it has a rate, and never shows Infinity or NaN', async () => {
  await page.waitForFunction(() => /^\d+ fps/.test(document.getElementById('stats-toggle').textContent), null, { timeout: 30000 });
  const seen = await page.evaluate(() => window.counterTexts);
  assert.ok(seen.length > 2, `counter texts: ${seen}`);
  assert.deepEqual(seen.filter((t) => /Infinity|NaN/.test(t)), [], 'a rate the counter did not have');
  // Before the first two frames (the first scene compiles meanwhile), it
  // says so; every other text is a whole number of frames per second.
  assert.match(seen[0], /^starting…/);
  assert.deepEqual(seen.filter((t) => !/^(starting…|\d+ fps)( · [+−]\d+\.\d EV)? [▸▾]$/.test(t) && t !== seen[0]), []);
  assert.ok(seen.some((t) => /^\d+ fps/.test(t)), 'a rate once frames are drawn');
});

// A page of its own whose browser answers requestAdapter() as `answers`
// says, call by call (the last answer for every later call).
async function pageWithAdapterAnswers(answers) {
  const other = await browser.newPage({ viewport: { width: 640, height: 400 } });
  await other.addInitScript((answers) => {
    const gpu = navigator.gpu;
    const original = gpu.requestAdapter.bind(gpu);
    let n = 0;
    gpu.requestAdapter = (options) => {
      const answer = answers[Math.min(n++, answers.length - 1)];
      if (answer === 'null') return Promise.resolve(null);
      if (answer === 'silent') return new Promise(() => {});
      return original(options);
    };
  }, answers);
  await other.goto(url);
  return other;
}

test('the demo starts where the first adapter request answers null, as a fresh Chromium does on some GPUs', async () => {
  const other = await pageWithAdapterAnswers(['null', 'ask']);
  await other.waitForFunction(() => /^\d+ fps/.test(document.getElementById('stats-toggle').textContent), null, { timeout: 60000 });
  assert.doesNotMatch(await other.textContent('body'), /could not start/);
  await other.close();
});

test('where the browser never gives an adapter, the demo says why within seconds and its counter stops', async () => {
  const other = await pageWithAdapterAnswers(['silent']);
  await other.waitForFunction(() => /could not start/.test(document.body.textContent), null, { timeout: 30000 });
  assert.match(await other.textContent('body'), /requestAdapter\(\) did not answer within 10 s/);
  assert.equal(await other.textContent('#stats-toggle'), 'not running');
  await other.close();
});

test('the screenshot button produces a PNG of the canvas', async () => {
  const file = await download(page, '#screenshot');
  assert.equal(file.name, 'afterglow.png');
  const png = PNG.sync.read(file.bytes);
  assert.deepEqual([png.width, png.height], await page.evaluate(() => {
    const c = document.querySelector('canvas');
    return [c.width, c.height];
  }));
});

test('the console has no errors or warnings', async () => {
  // The two editors' tests compile broken shaders on purpose (an effect is
  // checked alone and fused, two modules that Firefox reports each).
  assert.deepEqual(problems(consoleMessages, ['scene: user shader', 'effect check', 'effect fused check']), []);
});
