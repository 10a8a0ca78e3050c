// End-to-end: the demo's option panel never breaks. Every control is driven
// to each of its extremes (every choice of a select, both states of a
// checkbox, min and max of a slider) at 1280×800; after each, the control
// must still be on screen and usable, its readout the same width, and the
// page free of errors. Each control's label, tooltip and screen-reader
// description are the option table's (option-table.js, which
// src/tests/schema.rs holds to src/options/table.rs), followed for the
// selects whose choices the panel explains by a line per choice; the sections come in
// their order; "Library defaults" gives exactly what Renderer.create
// gives, "Demo preset" what the page started with; the panel works from
// the keyboard. Then: errors show next to the control that caused them
// and clear on the next success, dependent choices are disabled with a
// reason, a failed drop is reported in the page, slow work shows a status
// line, and at 390×844 (a phone) the panel starts folded, the stats are
// one line until tapped, every target is at least 44×44 CSS px and less
// than half the canvas is covered with the panel open. In an engine
// without an rgba16float canvas (Firefox) that format is refused next to
// its control.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { url, launch, record, problems, download, inFirefox } from './harness.mjs';
import { OPTION_TABLE } from '../../www/option-table.js';


let browser;
let page;
let startOptions;
const consoleMessages = [];

before(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  record(page, consoleMessages);
  await page.goto(url);
  await page.waitForFunction(() => window.afterglow !== undefined, null, { timeout: 30000 });
  startOptions = await page.evaluate(() => window.afterglow.options());
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
  await page.click('#demo-preset');
  await page.fill('[data-option="renderScale"]', '0.25');
  await page.selectOption('[data-option="canvas.dynamicRange"]', 'standard');
}

// What Firefox's canvas cannot hold: no rgba16float canvas, and a
// configuration that keeps no colorSpace.
const FIREFOX_REFUSES = {
  'canvas.format = rgba16float': { error: /canvas\.format 'rgba16float': this browser has no 'rgba16float' canvas/, kept: 'preferred' },
  'canvas.colorSpace = display-p3': { error: /canvas\.colorSpace 'display-p3': this browser's canvas configuration keeps no colorSpace/, kept: 'srgb' },
};

test(inFirefox ? 'every control, at each of its extremes, stays visible and usable; what Firefox\'s canvas cannot hold is refused next to its control'
  : 'every control, at each of its extremes, stays visible and usable', async () => {
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
      const refusal = inFirefox && FIREFOX_REFUSES[where];
      if (refusal) {
        // Refused, next to the control, which shows the value the canvas
        // kept.
        const shown = await page.textContent(`[data-error-for="${c.name}"]`);
        assert.match(shown, refusal.error, where);
        assert.deepEqual(await pageErrors(), [shown], where);
        assert.equal(await page.inputValue(input), refusal.kept, where);
        continue;
      }
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
  await page.click('#demo-preset');
  await page.uncheck('#pause');
  // The renderer is still drawing.
  const frames = await page.evaluate(() => window.afterglow.stats().frames);
  await page.waitForFunction((n) => window.afterglow.stats().frames > n + 2, frames, { timeout: 10000 });
});

test(inFirefox ? "dependent choices are disabled with a one-line reason; without an rgba16float canvas, 'extended' stays disabled"
  : 'dependent choices are disabled with a one-line reason', async () => {
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
  // Firefox refuses the format, so the canvas stays 8-bit.
  assert.equal(s.extended, inFirefox);
  assert.equal(s.note, inFirefox ? "'extended' needs format rgba16float" : '');
  assert.equal(s.iterations, false);
  assert.equal(s.tonemapped, true);
  await page.click('#demo-preset');
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
  const next = await page.locator('[data-option="canvas.colorSpace"]').boundingBox();
  assert.ok(box && box.y >= control.y + control.height && box.y + box.height <= next.y,
    `the error (${JSON.stringify(box)}) is under its control, before the next`);
  assert.equal(await page.inputValue('[data-option="canvas.toneMapping"]'), 'standard');
  await page.fill('[data-option="exposure"]', '2');
  assert.deepEqual(await pageErrors(), []);
  await page.click('#demo-preset');
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
  assert.equal((await download(page, '#screenshot')).name, 'afterglow.png');
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
  await page.setChecked('[data-option="autoExposure.enabled"]', false);
  await page.waitForFunction(() => !/EV/.test(document.getElementById('stats-toggle').textContent), null, { timeout: 5000 });
  await page.click('#changing-light');
  await page.waitForFunction(() => document.getElementById('status').textContent === '');
  assert.equal(await page.isChecked('[data-option="autoExposure.enabled"]'), true, 'the panel follows');
  await page.waitForFunction(() => typeof window.afterglow.stats().exposureEv === 'number', null, { timeout: 20000 });
  // The folded stats line shows it, and so does the open overlay.
  await page.waitForFunction(() => /[+−]\d+\.\d EV/.test(document.getElementById('stats-toggle').textContent), null, { timeout: 5000 });
  await page.click('#stats-toggle');
  await page.waitForFunction(() => /EV \(auto\)/.test(document.getElementById('stats').textContent), null, { timeout: 5000 });
  await page.click('#stats-toggle');
  assert.deepEqual(await pageErrors(), []);
  await page.click('#demo-preset');
  await page.click('#demo');
});

/** The AX node (name, description) Chromium gives a screen reader for an element. */
async function accessible(cdp, selector) {
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
  const node = nodes[0];
  return { role: node.role?.value, name: node.name?.value ?? '', description: node.description?.value ?? '' };
}

// The accessibility tree is read over the DevTools protocol, which only
// Chromium speaks; in Firefox the labels, tooltips and descriptions are
// checked in the document alone.
test(inFirefox ? "every control's label, tooltip and description are the option table's (the accessibility tree is read in Chromium)"
  : "every control's label, tooltip and screen-reader text are the option table's", async () => {
  await page.click('#demo-preset');
  const rows = await page.evaluate(() => [...document.querySelectorAll('[data-option]')].map((input) => {
    const path = input.dataset.option;
    const label = input.labels[0];
    return {
      path,
      labels: input.labels.length,
      plain: label?.querySelector('.label')?.textContent ?? '',
      name: label?.querySelector('.name')?.textContent ?? '',
      title: input.closest('.row').title,
      describedBy: input.getAttribute('aria-describedby')?.split(' ') ?? [],
      docText: document.getElementById(`doc-${path}`)?.textContent ?? null,
      // What each choice does, for the selects that say (one item each).
      choices: [...document.querySelectorAll(`[data-choices-for="${path}"] li`)].map((li) => li.textContent),
      note: document.querySelector(`[data-note-for="${path}"]`).textContent,
    };
  }));
  assert.deepEqual(rows.map((r) => r.path).sort(), Object.keys(OPTION_TABLE).sort(), 'one control per option of the table');
  const cdp = inFirefox ? null : await page.context().newCDPSession(page);
  await cdp?.send('Accessibility.enable');
  for (const r of rows) {
    const doc = OPTION_TABLE[r.path].doc.replaceAll('`', '');
    assert.equal(r.labels, 1, `${r.path}: one <label>`);
    assert.ok(r.plain.length > 0 && r.plain !== r.path, `${r.path}: a plain label, not the name alone (${r.plain})`);
    assert.equal(r.name, r.path, `${r.path}: its name beside the label`);
    assert.equal(r.title, doc, `${r.path}: the tooltip is the table's line`);
    assert.equal(r.describedBy[0], `doc-${r.path}`, `${r.path}: described by the table's line`);
    assert.equal(r.docText, doc, `${r.path}: the description`);
    if (r.choices.length > 0) {
      assert.equal(r.describedBy[1], `choices-${r.path}`, `${r.path}: then by what each choice does`);
    }
    if (!cdp) continue;
    const ax = await accessible(cdp, `[data-option="${r.path}"]`);
    assert.equal(ax.name, `${r.plain} ${r.path}`, `${r.path}: the name a screen reader reads`);
    assert.equal(ax.description, [doc, ...r.choices, r.note].filter((t) => t).join(' '), `${r.path}: the description a screen reader reads`);
  }
  // The panel's other inputs (the image's gain, pause, the before/after
  // split) carry their explanation the same way: the row's tooltip, a
  // line under them that the ? button shows, and their description.
  const others = await page.evaluate(() => [...document.querySelectorAll('#panel-body input, #panel-body select')]
    .filter((e) => !e.dataset.option && e.type !== 'file').map((input) => ({
      id: input.id,
      title: input.closest('.row')?.title ?? '',
      describedBy: input.getAttribute('aria-describedby')?.split(' ') ?? [],
      docText: document.querySelector(`[data-doc-for="${input.id}"]`)?.textContent ?? null,
    })));
  assert.deepEqual(others.map((o) => o.id).sort(), ['compare', 'gain', 'pause']);
  for (const o of others) {
    assert.ok(o.title.length > 20, `${o.id}: a tooltip`);
    assert.equal(o.docText, o.title, `${o.id}: the line under it is its tooltip`);
    assert.equal(o.describedBy[0], `doc-${o.id}`, `${o.id}: described by that line`);
    if (!cdp) continue;
    const ax = await accessible(cdp, `#${o.id}`);
    assert.equal(ax.description, o.title, `${o.id}: the description a screen reader reads`);
  }
  // Every other control of the page has a name too.
  const named = await page.evaluate(() => [...document.querySelectorAll('button, input, select, a, textarea')]
    .filter((e) => !e.dataset.option && e.checkVisibility()).map((e, i) => {
      e.dataset.axProbe = String(i);
      return i;
    }));
  for (const i of cdp ? named : []) {
    const ax = await accessible(cdp, `[data-ax-probe="${i}"]`);
    assert.ok(ax.name.trim().length > 0, `a ${ax.role} without a name: ${await page.evaluate((i) => document.querySelector(`[data-ax-probe="${i}"]`).outerHTML, i)}`);
  }
  await cdp?.detach();
  // The ? button shows the lines on screen (touch screens have no hover).
  const hidden = await page.locator('[data-doc-for="bloom.intensity"]').boundingBox();
  assert.ok(hidden.width <= 1 && hidden.height <= 1, 'the lines are off screen at first');
  await page.click('#explain');
  const shown = page.locator('[data-doc-for="bloom.intensity"]');
  const box = await shown.boundingBox();
  assert.ok(box.width > 100 && box.height > 10, `the shown line is ${box.width}×${box.height}`);
  assert.equal(await page.getAttribute('#explain', 'aria-pressed'), 'true');
  await page.click('#explain');
});

test('the sections come in the order a user reaches for them, bloom first', async () => {
  const titles = await page.evaluate(() => [...document.querySelectorAll('#panel-body section > h2')].map((h) => h.textContent));
  assert.deepEqual(titles.slice(0, 7), ['Content', 'Bloom', 'Exposure and curve', 'Look', 'Canvas', 'Resolution', 'Frame']);
  // The bloom's strength is on the first screen at 1280×800.
  await page.evaluate(() => { document.getElementById('panel').scrollTop = 0; });
  const strength = await page.locator('[data-option="bloom.intensity"]').boundingBox();
  assert.ok(strength.y + strength.height <= 800, `bloom.intensity at y ${strength.y}`);
});

test('the Resolution section sets render scale, upscaler and sharpening, with the frame time beside them', async () => {
  // Scaling up is off while nothing is scaled up.
  await page.fill('[data-option="renderScale"]', '1');
  assert.equal(await page.isDisabled('[data-option="upscale"]'), true, 'upscale at renderScale 1');
  await page.fill('[data-option="renderScale"]', '0.5');
  assert.equal(await page.isDisabled('[data-option="upscale"]'), false, 'upscale at renderScale 0.5');
  await page.selectOption('[data-option="upscale"]', 'edge');
  await page.fill('[data-option="sharpen.amount"]', '0.3');
  const o = await page.evaluate(() => window.afterglow.options());
  assert.deepEqual([o.renderScale, o.upscale, o.sharpen.amount], [0.5, 'edge', 0.3]);
  await page.waitForFunction(() => /^frame \d+\.\d\d ms/.test(document.getElementById('resolution-frame').textContent), null, { timeout: 10000 });
  await page.fill('[data-option="renderScale"]', '1');
  await page.fill('[data-option="sharpen.amount"]', '0');
  assert.deepEqual(await pageErrors(), []);
});

test('"Library defaults" gives what Renderer.create gives, "Demo preset" what the page started with', async () => {
  await page.fill('[data-option="bloom.intensity"]', '2');
  await page.selectOption('[data-option="tonemapper"]', 'aces');
  await page.click('#library-defaults');
  const after = await page.evaluate(() => window.afterglow.options());
  const fresh = await page.evaluate(async () => {
    const { Renderer } = await import('./pkg/index.js');
    const renderer = await Renderer.create(document.createElement('canvas'));
    const options = renderer.options();
    renderer.destroy();
    return options;
  });
  assert.deepEqual(after, fresh);
  assert.notDeepEqual(after, startOptions, 'the demo starts from other options than the library');
  assert.equal(await page.inputValue('[data-option="bloom.intensity"]'), String(fresh.bloom.intensity), 'the panel follows');
  assert.equal(await page.isDisabled('#screenshot'), true, 'screenshots are off by default');
  assert.deepEqual(await pageErrors(), []);
  await page.click('#demo-preset');
  assert.deepEqual(await page.evaluate(() => window.afterglow.options()), startOptions);
  assert.equal(await page.isDisabled('#screenshot'), false);
});

test('the panel works from the keyboard', async () => {
  await page.click('#demo-preset');
  // Tab from the panel's first button reaches the bloom's strength.
  await page.focus('#explain');
  let focused = '';
  for (let i = 0; i < 40 && focused !== 'bloom.intensity'; i++) {
    await page.keyboard.press('Tab');
    focused = await page.evaluate(() => document.activeElement?.dataset.option ?? document.activeElement?.id);
  }
  assert.equal(focused, 'bloom.intensity', 'Tab reaches the bloom strength');
  const before = await page.evaluate(() => window.afterglow.options().bloom.intensity);
  await page.keyboard.press('ArrowRight');
  const after = await page.evaluate(() => window.afterglow.options().bloom.intensity);
  assert.ok(Math.abs(after - before - 0.01) < 1e-9, `ArrowRight moved bloom.intensity ${before} → ${after}`);
  // A switch toggles with Space, a select moves with the arrows.
  await page.focus('[data-option="bloom.enabled"]');
  await page.keyboard.press('Space');
  assert.equal(await page.evaluate(() => window.afterglow.options().bloom.enabled), false);
  await page.keyboard.press('Space');
  assert.equal(await page.evaluate(() => window.afterglow.options().bloom.enabled), true);
  await page.focus('[data-option="tonemapper"]');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => window.afterglow.options().tonemapper), 'aces');
  // The preset buttons and the stats open with Enter.
  await page.focus('#library-defaults');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => window.afterglow.options().autoResize), false);
  await page.focus('#demo-preset');
  await page.keyboard.press('Enter');
  assert.deepEqual(await page.evaluate(() => window.afterglow.options()), startOptions);
  await page.focus('#stats-toggle');
  await page.keyboard.press('Enter');
  assert.equal(await page.isVisible('#stats'), true);
  await page.keyboard.press('Enter');
  assert.equal(await page.isVisible('#stats'), false);
  assert.deepEqual(await pageErrors(), []);
});

// Firefox over WebDriver BiDi emulates no touch screen (no touch events,
// maxTouchPoints 0): there a click stands for each tap.
test(`at 390×844 the panel starts folded, the stats are one line, targets are 44 px and the canvas stays in view${inFirefox ? ' (clicks for taps)' : ''}`, async () => {
  // The 1280×800 page, paused, leaves the software rasterizer to this one.
  await page.check('#pause');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const narrow = await context.newPage();
  const tap = (selector) => (inFirefox ? narrow.click(selector) : narrow.tap(selector));
  const errors = [];
  record(narrow, errors);
  await narrow.goto(url);
  await narrow.waitForFunction(() => window.afterglow !== undefined, null, { timeout: 30000 });
  assert.equal(await narrow.isVisible('#panel-body'), false, 'folded at first');
  // The stats: one line with the frame rate, the rest on a tap.
  await narrow.waitForFunction(() => /^\d+ fps/.test(document.getElementById('stats-toggle').textContent), null, { timeout: 30000 });
  assert.equal(await narrow.isVisible('#stats'), false, 'the stats start folded');
  const line = await narrow.locator('#stats-toggle').boundingBox();
  assert.ok(line.height <= 48 && line.width <= 200, `the folded stats are ${line.width}×${line.height}`);
  await tap('#stats-toggle');
  assert.equal(await narrow.isVisible('#stats'), true, 'a tap opens them');
  await narrow.waitForFunction(() => /frame .* ms/.test(document.getElementById('stats').textContent), null, { timeout: 5000 });
  await tap('#stats-toggle');
  assert.equal(await narrow.isVisible('#stats'), false, 'a second tap folds them');

  await tap('#toggle-panel');
  assert.equal(await narrow.isVisible('#panel-body'), true);
  const panel = await narrow.locator('#panel').boundingBox();
  assert.ok(panel.width <= 390 && panel.height <= 844 / 2, `panel ${panel.width}×${panel.height}`);
  // Every target in view, in the open panel, at least 44×44 CSS px.
  const small = await narrow.evaluate(() => [...document.querySelectorAll('button, input, select, a, summary')]
    .filter((e) => e.checkVisibility() && !e.closest('dialog'))
    .map((e) => ({ what: e.dataset.option ?? e.id ?? e.textContent, ...e.getBoundingClientRect().toJSON() }))
    .filter((r) => r.width < 44 || r.height < 44));
  assert.deepEqual(small, [], 'targets under 44×44 px');
  const count = await narrow.evaluate(() => document.querySelectorAll('#panel-body [data-option]').length);
  assert.equal(count, Object.keys(OPTION_TABLE).length);
  // What covers the canvas: sampled every 10 px.
  const covered = await narrow.evaluate(() => {
    const canvas = document.getElementById('view');
    let hidden = 0;
    let all = 0;
    for (let y = 5; y < innerHeight; y += 10) {
      for (let x = 5; x < innerWidth; x += 10) {
        all++;
        if (document.elementFromPoint(x, y) !== canvas) hidden++;
      }
    }
    return hidden / all;
  });
  assert.ok(covered <= 0.5, `the open panel and the stats cover ${(covered * 100).toFixed(1)} % of the canvas`);
  // Usable: a slider can be moved, and its row fits the width.
  await narrow.locator('[data-option="exposure"]').scrollIntoViewIfNeeded();
  await narrow.fill('[data-option="exposure"]', '0.05');
  assert.equal(await narrow.evaluate(() => window.afterglow.options().exposure.toFixed(2)), '0.05');
  const slider = await narrow.locator('[data-option="exposure"]').boundingBox();
  assert.ok(slider.width >= 60 && slider.x + slider.width <= 390, `slider ${JSON.stringify(slider)}`);
  // A switch toggles on a tap.
  await narrow.locator('[data-option="bloom.enabled"]').scrollIntoViewIfNeeded();
  await tap('[data-option="bloom.enabled"]');
  assert.equal(await narrow.evaluate(() => window.afterglow.options().bloom.enabled), false);
  assert.deepEqual(problems(errors), []);
  await context.close();
  await page.uncheck('#pause');
});

test('the console has no errors or warnings', async () => {
  assert.deepEqual(problems(consoleMessages), []);
});
