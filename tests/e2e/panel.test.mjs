// End-to-end: the demo's option panel never breaks. Every control is driven
// to each of its extremes (every choice of a select, both states of a
// checkbox, min and max of a slider) at 1280×800; after each, the control
// must still be on screen and usable, its readout the same width, and the
// page free of errors. Then: errors show next to the control that caused
// them and clear on the next success, dependent choices are disabled with
// a reason, a failed drop is reported in the page, slow work shows a status
// line, and at 390 px the panel starts folded and leaves the canvas visible.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { url, launch, record } from './harness.mjs';


let browser;
let page;
const consoleMessages = [];

before(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  record(page, consoleMessages);
  await page.goto(url);
  await page.waitForFunction(() => window.afterglow !== undefined, null, { timeout: 30000 });
});

after(async () => {
  await browser?.close();
});

/** Every error text the page shows. */
async function pageErrors() {
  return page.evaluate(() => [...document.querySelectorAll('.field-error, #error, #content-error')]
    .map((e) => e.textContent).filter((t) => t.length > 0));
}

/** The control's geometry, checked to be on screen and inside the panel. */
async function checkVisible(name) {
  const input = page.locator(`[data-option="${name}"]`);
  await input.scrollIntoViewIfNeeded();
  return page.evaluate((name) => {
    const input = document.querySelector(`[data-option="${name}"]`);
    const panel = document.getElementById('panel').getBoundingClientRect();
    const r = input.getBoundingClientRect();
    const out = input.parentElement.querySelector('output')?.getBoundingClientRect();
    const inside = r.left >= panel.left && r.right <= panel.right + 0.5
      && r.top >= panel.top && r.bottom <= panel.bottom + 0.5
      && r.bottom <= innerHeight && r.right <= innerWidth;
    return { width: r.width, height: r.height, inside, outWidth: out?.width ?? null,
      outRight: out?.right ?? null, panelRight: panel.right };
  }, name);
}

// Software WebGPU renders 1280×800 slowly; the other controls are driven
// at a quarter of the resolution (renderScale is driven itself in turn).
// The demo starts with dynamicRange 'auto', which leaves format and
// toneMapping disabled; the standard range frees them to be driven too.
async function defaultsAtLowScale() {
  await page.click('#reset');
  await page.fill('[data-option="renderScale"]', '0.25');
  await page.selectOption('[data-option="canvas.dynamicRange"]', 'standard');
}

test('every control, at each of its extremes, stays visible and usable', async () => {
  await page.check('#pause');
  await defaultsAtLowScale();
  const controls = await page.evaluate(() => [...document.querySelectorAll('[data-option]')]
    .map((e) => ({ name: e.dataset.option, tag: e.tagName, type: e.type, min: e.min, max: e.max,
      options: e.tagName === 'SELECT' ? [...e.options].map((o) => o.value) : [] })));
  const options = await page.evaluate(() => {
    const leaves = (o) => Object.values(o).reduce((n, v) => n + (v && typeof v === 'object' ? leaves(v) : 1), 0);
    return leaves(window.afterglow.options());
  });
  assert.equal(controls.length, options, 'one control per option');
  const outWidths = new Set();
  for (const c of controls) {
    const extremes = c.tag === 'SELECT' ? c.options : c.type === 'checkbox' ? [false, true] : [c.min, c.max];
    for (const value of extremes) {
      const where = `${c.name} = ${value}`;
      const enabled = await page.evaluate(([name, value]) => {
        const e = document.querySelector(`[data-option="${name}"]`);
        if (e.disabled) return false;
        if (e.tagName === 'SELECT') return ![...e.options].find((o) => o.value === value).disabled;
        return true;
      }, [c.name, String(value)]);
      if (!enabled) {
        // Ruled out by another option: the reason must be on screen.
        const note = await page.textContent(`[data-note-for="${c.name}"]`);
        assert.ok(note.length > 0, `${where} is disabled without a reason`);
        continue;
      }
      const input = `[data-option="${c.name}"]`;
      if (c.tag === 'SELECT') await page.selectOption(input, String(value));
      else if (c.type === 'checkbox') await page.setChecked(input, value);
      else await page.fill(input, String(value));
      await page.waitForTimeout(60); // a frame at the new value
      assert.deepEqual(await pageErrors(), [], where);
      const g = await checkVisible(c.name);
      assert.ok(g.inside, `${where}: the control left the panel or the window`);
      assert.ok(g.height > 8 && g.width >= (c.type === 'range' ? 60 : 12),
        `${where}: the control is ${g.width}×${g.height} px`);
      if (g.outWidth !== null) {
        outWidths.add(Math.round(g.outWidth));
        assert.ok(g.outRight <= g.panelRight, `${where}: the readout overflows`);
        const shown = await page.textContent(`${input} + output`);
        assert.equal(Number(shown), Number(value), `${where}: the readout shows ${shown}`);
      }
    }
    await defaultsAtLowScale();
  }
  assert.equal(outWidths.size, 1, `readout widths ${[...outWidths]}`);
  await page.click('#reset');
  await page.uncheck('#pause');
  // The renderer is still drawing.
  const frames = await page.evaluate(() => window.afterglow.stats().frames);
  await page.waitForFunction((n) => window.afterglow.stats().frames > n + 2, frames, { timeout: 10000 });
});

test('dependent choices are disabled with a one-line reason', async () => {
  const state = () => page.evaluate(() => ({
    extended: document.querySelector('[data-option="canvas.toneMapping"] option[value="extended"]').disabled,
    note: document.querySelector('[data-note-for="canvas.toneMapping"]').textContent,
    iterations: document.querySelector('[data-option="bloom.iterations"]').disabled,
    iterationsNote: document.querySelector('[data-note-for="bloom.iterations"]').textContent,
    tonemapped: document.querySelector('[data-option="resolve"] option[value="tonemapped"]').disabled,
  }));
  let s = await state();
  assert.equal(await page.isDisabled('[data-option="canvas.toneMapping"]'), true);
  assert.match(s.note, /dynamicRange 'auto'/);
  await page.selectOption('[data-option="canvas.dynamicRange"]', 'standard');
  s = await state();
  assert.equal(s.extended, true);
  assert.match(s.note, /rgba16float/);
  assert.equal(s.iterations, true);
  assert.match(s.iterationsNote, /gaussian/);
  await page.selectOption('[data-option="canvas.format"]', 'rgba16float');
  await page.selectOption('[data-option="bloom.blur"]', 'gaussian');
  await page.selectOption('[data-option="msaa"]', '1');
  s = await state();
  assert.equal(s.extended, false);
  assert.equal(s.note, '');
  assert.equal(s.iterations, false);
  assert.equal(s.tonemapped, true);
  await page.click('#reset');
});

test('a refused value shows its error next to the control, cleared by the next success', async () => {
  // Force a choice the panel rules out, as a stale page might.
  await page.selectOption('[data-option="canvas.dynamicRange"]', 'standard');
  await page.evaluate(() => {
    document.querySelector('[data-option="canvas.toneMapping"] option[value="extended"]').disabled = false;
  });
  await page.selectOption('[data-option="canvas.toneMapping"]', 'extended');
  const error = await page.textContent('[data-error-for="canvas.toneMapping"]');
  assert.match(error, /canvas\.toneMapping/);
  const box = await page.locator('[data-error-for="canvas.toneMapping"]').boundingBox();
  const control = await page.locator('[data-option="canvas.toneMapping"]').boundingBox();
  assert.ok(box && box.y >= control.y && box.y - control.y < 60, 'the error is under its control');
  assert.equal(await page.inputValue('[data-option="canvas.toneMapping"]'), 'standard');
  await page.fill('[data-option="exposure"]', '2');
  assert.deepEqual(await pageErrors(), []);
  await page.click('#reset');
});

test('a dropped file that is not an image is reported in the page', async () => {
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.items.add(new File(['not an image'], 'notes.txt', { type: 'text/plain' }));
    dispatchEvent(new DragEvent('drop', { dataTransfer: data, cancelable: true }));
  });
  await page.waitForFunction(() => document.getElementById('content-error').textContent.length > 0);
  assert.match(await page.textContent('#content-error'), /notes\.txt/);
  assert.ok(await page.isVisible('#content-error'));
  await page.click('#demo');
  assert.equal(await page.textContent('#content-error'), '');
});

test('shader compiles and screenshots show a status line while they run', async () => {
  await page.evaluate(() => {
    window.statusSeen = [];
    new MutationObserver(() => window.statusSeen.push(document.getElementById('status').textContent))
      .observe(document.getElementById('status'), { childList: true, characterData: true, subtree: true });
  });
  const download = page.waitForEvent('download');
  await page.click('#screenshot');
  await download;
  await page.click('#edit-shader');
  await page.fill('#wgsl', 'fn scene(uv: vec2f, time: f32) -> vec4f {\n  return vec4f(3.0 * uv.y, 0.5, 0.2, 1.0);\n}\n');
  await page.click('#apply-shader');
  await page.waitForFunction(() => document.getElementById('status').textContent === '');
  await page.keyboard.press('Escape');
  await page.click('#demo');
  const seen = await page.evaluate(() => window.statusSeen);
  assert.ok(seen.some((t) => /screenshot/i.test(t)), `status lines: ${seen}`);
  assert.ok(seen.some((t) => /shader/i.test(t)), `status lines: ${seen}`);
});

test('the changing-light scene turns auto exposure on and the stats show its EV', async () => {
  await page.click('#changing-light');
  await page.waitForFunction(() => document.getElementById('status').textContent === '');
  assert.equal(await page.isChecked('[data-option="autoExposure.enabled"]'), true, 'the panel follows');
  await page.waitForFunction(() => typeof window.afterglow.stats().exposureEv === 'number', null, { timeout: 20000 });
  await page.waitForFunction(() => /EV \(auto\)/.test(document.getElementById('stats').textContent), null, { timeout: 5000 });
  assert.deepEqual(await pageErrors(), []);
  await page.click('#reset');
  await page.click('#demo');
});

test('at 390 px the panel starts folded and, unfolded, leaves the canvas in view', async () => {
  const narrow = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const errors = [];
  narrow.on('pageerror', (e) => errors.push(String(e)));
  await narrow.goto(url);
  await narrow.waitForFunction(() => window.afterglow !== undefined, null, { timeout: 30000 });
  assert.equal(await narrow.isVisible('#panel-body'), false, 'folded at first');
  await narrow.click('#toggle-panel');
  assert.equal(await narrow.isVisible('#panel-body'), true);
  const panel = await narrow.locator('#panel').boundingBox();
  assert.ok(panel.width <= 390 && panel.height <= 844 / 2 + 1, `panel ${panel.width}×${panel.height}`);
  // Usable: a slider can be moved, and its row fits the width.
  await narrow.locator('[data-option="exposure"]').scrollIntoViewIfNeeded();
  await narrow.fill('[data-option="exposure"]', '0.05');
  assert.equal(await narrow.evaluate(() => window.afterglow.options().exposure.toFixed(2)), '0.05');
  const slider = await narrow.locator('[data-option="exposure"]').boundingBox();
  assert.ok(slider.width >= 60 && slider.x + slider.width <= 390, `slider ${JSON.stringify(slider)}`);
  assert.deepEqual(errors, []);
  await narrow.close();
});

test('the console has no errors or warnings', async () => {
  const bad = consoleMessages.filter((m) => ['error', 'warning', 'pageerror'].includes(m.type));
  assert.deepEqual(bad, []);
});
