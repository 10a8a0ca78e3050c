// A control for every renderer option, built from one table. A change
// calls setOptions with just that field. A refused value shows the error
// under the control that caused it (cleared by the next accepted change)
// and the control goes back to the renderer's effective value. Choices
// that another option rules out are disabled, with the reason on a line
// under the control.

const SCHEMA = [
  ['Canvas', [
    ['canvas.dynamicRange', 'select', ['auto', 'standard']],
    ['canvas.format', 'select', ['preferred', 'rgba16float']],
    ['canvas.alphaMode', 'select', ['opaque', 'premultiplied']],
    ['canvas.colorSpace', 'select', ['srgb', 'display-p3']],
    ['canvas.toneMapping', 'select', ['standard', 'extended']],
    ['canvas.headroom', 'range', [1, 16, 0.5]],
    ['canvas.screenshots', 'bool'],
  ]],
  ['Frame', [
    ['msaa', 'select', [4, 1]],
    ['resolve', 'select', ['hardware', 'tonemapped']],
    ['renderScale', 'range', [0.25, 2, 0.05]],
    ['autoResize', 'bool'],
    ['exposure', 'range', [0.05, 8, 0.05]],
    ['tonemapper', 'select', ['agx', 'aces', 'khronos-neutral', 'reinhard', 'none']],
    ['dither', 'bool'],
    ['debug', 'select', ['none', 'bloom', 'exposure']],
  ]],
  ['Exposure', [
    ['autoExposure.enabled', 'bool'],
    ['autoExposure.compensation', 'range', [-4, 4, 0.25]],
    ['autoExposure.minEv', 'range', [-20, 0, 0.5]],
    ['autoExposure.maxEv', 'range', [0, 20, 0.5]],
    ['autoExposure.speedBrighten', 'range', [0.25, 10, 0.25]],
    ['autoExposure.speedDarken', 'range', [0.25, 10, 0.25]],
    ['autoExposure.lowPercentile', 'range', [0, 0.45, 0.05]],
    ['autoExposure.highPercentile', 'range', [0, 0.45, 0.05]],
    ['autoExposure.metering', 'select', ['average', 'center']],
  ]],
  ['Bloom', [
    ['bloom.enabled', 'bool'],
    ['bloom.threshold', 'range', [0, 4, 0.05]],
    ['bloom.knee', 'range', [0, 1, 0.05]],
    ['bloom.intensity', 'range', [0, 3, 0.01]],
    ['bloom.radius', 'range', [0.1, 4, 0.1]],
    ['bloom.levels', 'range', [1, 12, 1]],
    ['bloom.blur', 'select', ['mip', 'gaussian']],
    ['bloom.iterations', 'range', [1, 16, 1]],
    ['bloom.mode', 'select', ['additive', 'energy-conserving']],
    ['bloom.dirtIntensity', 'range', [0, 16, 0.25]],
  ]],
  ['Look', [
    ['grading.temperature', 'range', [-1, 1, 0.05]],
    ['grading.tint', 'range', [-1, 1, 0.05]],
    ['grading.saturation', 'range', [0, 2, 0.05]],
    ['grading.contrast', 'range', [0, 2, 0.05]],
    ['grading.lutIntensity', 'range', [0, 1, 0.05]],
    ['vignette.intensity', 'range', [0, 1, 0.05]],
    ['vignette.radius', 'range', [0, 1, 0.05]],
    ['vignette.smoothness', 'range', [0, 1, 0.05]],
  ]],
];

// Rules between options: for a control, given the effective options, the
// choices ruled out (or `true` for the whole control) and why, in one line.
const byDisplay = (o) => o.canvas.dynamicRange === 'auto'
  && { off: true, why: "chosen by dynamicRange 'auto' from the display" };
const RULES = {
  'canvas.format': (o) => byDisplay(o) || (o.canvas.toneMapping === 'extended'
    && { off: ['preferred'], why: "toneMapping 'extended' needs rgba16float" }),
  'canvas.toneMapping': (o) => byDisplay(o) || (o.canvas.format !== 'rgba16float'
    && { off: ['extended'], why: "'extended' needs format rgba16float" }),
  'canvas.headroom': (o) => o.canvas.dynamicRange !== 'auto' && o.canvas.toneMapping !== 'extended'
    && { off: true, why: "only on an HDR canvas (toneMapping 'extended' or dynamicRange 'auto')" },
  msaa: (o) => o.resolve === 'tonemapped'
    && { off: ['1'], why: "resolve 'tonemapped' needs msaa 4" },
  resolve: (o) => o.msaa !== 4
    && { off: ['tonemapped'], why: "'tonemapped' needs msaa 4" },
  dither: (o) => o.canvas.format === 'rgba16float'
    && { off: true, why: 'only for 8-bit canvas formats' },
  'bloom.iterations': (o) => o.bloom.blur !== 'gaussian'
    && { off: true, why: "only with blur 'gaussian'" },
};
for (const path of ['threshold', 'knee', 'intensity', 'radius', 'levels', 'blur', 'mode']) {
  RULES[`bloom.${path}`] = (o) => !o.bloom.enabled && { off: true, why: 'bloom is off' };
}
for (const path of ['compensation', 'minEv', 'maxEv', 'speedBrighten', 'speedDarken',
  'lowPercentile', 'highPercentile', 'metering']) {
  RULES[`autoExposure.${path}`] = (o) => !o.autoExposure.enabled
    && { off: true, why: 'auto exposure is off' };
}
for (const path of ['radius', 'smoothness']) {
  RULES[`vignette.${path}`] = (o) => o.vignette.intensity === 0
    && { off: true, why: 'the vignette is off (intensity 0)' };
}
const iterations = RULES['bloom.iterations'];
RULES['bloom.iterations'] = (o) => (!o.bloom.enabled && { off: true, why: 'bloom is off' }) || iterations(o);

function read(options, path) {
  return path.split('.').reduce((o, k) => o?.[k], options);
}

function partial(path, value) {
  const keys = path.split('.');
  const out = {};
  let o = out;
  keys.slice(0, -1).forEach((k) => { o = o[k] = {}; });
  o[keys.at(-1)] = value;
  return out;
}

/** Decimals of a slider's step: the readout shows the value as set. */
function decimals(step) {
  const s = String(step);
  return s.includes('.') ? s.length - s.indexOf('.') - 1 : 0;
}

/**
 * Builds the controls into `root`; returns `{ reset, sync }`. `onChange`
 * is called after every accepted change.
 */
export function buildOptionsPanel(root, renderer, onChange = () => {}) {
  const defaults = renderer.options();
  const controls = new Map();

  for (const [title, fields] of SCHEMA) {
    const section = document.createElement('section');
    section.innerHTML = `<h2>${title}</h2>`;
    for (const [path, kind, spec] of fields) {
      const row = document.createElement('label');
      row.className = 'row';
      const name = document.createElement('span');
      name.textContent = path.replace(/^(canvas|bloom)\./, '');
      row.append(name);
      let input;
      let output;
      if (kind === 'select') {
        input = document.createElement('select');
        for (const v of spec) input.add(new Option(String(v), String(v)));
      } else if (kind === 'bool') {
        input = document.createElement('input');
        input.type = 'checkbox';
      } else {
        input = document.createElement('input');
        input.type = 'range';
        [input.min, input.max, input.step] = spec.map(String);
        output = document.createElement('output');
        output.htmlFor = path;
      }
      input.name = path;
      input.id = path;
      input.dataset.option = path;
      row.append(input);
      if (output) row.append(output);
      const note = document.createElement('p');
      note.className = 'note';
      note.dataset.noteFor = path;
      const error = document.createElement('p');
      error.className = 'field-error';
      error.setAttribute('role', 'alert');
      error.dataset.errorFor = path;
      section.append(row, note, error);

      const value = () => {
        if (kind === 'bool') return input.checked;
        if (kind === 'range') return Number(input.value);
        return typeof spec[0] === 'number' ? Number(input.value) : input.value;
      };
      const show = (v, options) => {
        if (kind === 'bool') input.checked = v;
        else input.value = String(v);
        // The slider's own value, at the step's precision: the number as
        // the user set it, not the f32 the renderer stores.
        if (output) output.value = Number(input.value).toFixed(decimals(spec[2]));
        const rule = RULES[path]?.(options) || null;
        if (kind === 'select') {
          for (const opt of input.options) opt.disabled = !!rule && rule.off !== true && rule.off.includes(opt.value);
        }
        input.disabled = !!rule && rule.off === true;
        row.classList.toggle('disabled', input.disabled);
        note.textContent = rule ? rule.why : '';
      };
      input.addEventListener(kind === 'range' ? 'input' : 'change', () => {
        try {
          renderer.setOptions(partial(path, value()));
          clearErrors();
          onChange();
        } catch (e) {
          error.textContent = e.message;
        }
        sync();
      });
      controls.set(path, { show, error });
    }
    root.append(section);
  }

  function clearErrors() {
    for (const { error } of controls.values()) error.textContent = '';
  }

  function sync() {
    const options = renderer.options();
    for (const [path, { show }] of controls) show(read(options, path), options);
  }

  function reset() {
    renderer.setOptions(defaults);
    clearErrors();
    sync();
    onChange();
  }

  sync();
  return { reset, sync };
}
