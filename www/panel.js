// A control for every renderer option, built from one table. Each row has
// a plain label with the option's name beside it; the option table's line
// of documentation (option-table.js, generated from src/options/table.rs)
// is its tooltip and its description for screen readers, and shows under
// it when the panel is asked to explain. A change calls setOptions with
// just that field. A refused value shows the error under the control that
// caused it (cleared by the next accepted change) and the control goes
// back to the renderer's effective value. Choices that another option
// rules out are disabled, with the reason on a line under the control.
import { OPTION_TABLE } from './option-table.js';

// Sections in the order a user reaches for them; each row is
// [option, plain label, 'bool' | 'select' | 'range', choices | [min, max, step]].
// A section's rows go into the page's <section data-section="title">
// (made at the end of the panel if the page has none).
const SCHEMA = [
  ['Bloom', [
    ['bloom.enabled', 'Bloom', 'bool'],
    ['bloom.intensity', 'Strength', 'range', [0, 3, 0.01]],
    ['bloom.radius', 'Spread', 'range', [0.1, 4, 0.1]],
    ['bloom.threshold', 'Glows above', 'range', [0, 4, 0.05]],
    ['bloom.knee', 'Soft threshold', 'range', [0, 1, 0.05]],
    ['bloom.mode', 'Blend', 'select', ['additive', 'energy-conserving']],
    ['bloom.blur', 'Blur kind', 'select', ['mip', 'gaussian']],
    ['bloom.levels', 'Blur levels', 'range', [1, 12, 1]],
    ['bloom.iterations', 'Gaussian passes', 'range', [1, 16, 1]],
    ['bloom.dirtIntensity', 'Lens dirt', 'range', [0, 16, 0.25]],
  ]],
  ['Exposure and curve', [
    ['exposure', 'Exposure', 'range', [0.05, 8, 0.05]],
    ['tonemapper', 'Tone curve', 'select', ['agx', 'aces', 'khronos-neutral', 'reinhard', 'none']],
    ['autoExposure.enabled', 'Auto exposure', 'bool'],
    ['autoExposure.compensation', 'Brighter or darker', 'range', [-4, 4, 0.25]],
    ['autoExposure.minEv', 'Lowest exposure', 'range', [-20, 0, 0.5]],
    ['autoExposure.maxEv', 'Highest exposure', 'range', [0, 20, 0.5]],
    ['autoExposure.speedBrighten', 'Brightening speed', 'range', [0.25, 10, 0.25]],
    ['autoExposure.speedDarken', 'Darkening speed', 'range', [0.25, 10, 0.25]],
    ['autoExposure.lowPercentile', 'Average from', 'range', [0, 0.45, 0.05]],
    ['autoExposure.highPercentile', 'Average up to', 'range', [0.55, 1, 0.05]],
    ['autoExposure.metering', 'Metering', 'select', ['average', 'center']],
  ]],
  ['Look', [
    ['grading.temperature', 'Warmth', 'range', [-1, 1, 0.05]],
    ['grading.tint', 'Green or magenta', 'range', [-1, 1, 0.05]],
    ['grading.saturation', 'Colourfulness', 'range', [0, 2, 0.05]],
    ['grading.contrast', 'Punch', 'range', [0, 2, 0.05]],
    ['grading.lutIntensity', 'Lookup table strength', 'range', [0, 1, 0.05]],
    ['vignette.intensity', 'Dark corners', 'range', [0, 1, 0.05]],
    ['vignette.radius', 'Corners start at', 'range', [0, 1, 0.05]],
    ['vignette.smoothness', 'Corner softness', 'range', [0, 1, 0.05]],
    ['lens.chromaticAberration', 'Colour fringes', 'range', [0, 16, 0.5]],
    ['grain.intensity', 'Film grain', 'range', [0, 1, 0.05]],
    ['grain.size', 'Grain size', 'range', [1, 8, 0.5]],
  ]],
  ['Canvas', [
    ['canvas.dynamicRange', 'HDR display', 'select', ['auto', 'standard']],
    ['canvas.headroom', 'Highlight headroom', 'range', [1, 16, 0.5]],
    ['canvas.format', 'Pixel format', 'select', ['preferred', 'rgba16float']],
    ['canvas.toneMapping', 'Output range', 'select', ['standard', 'extended']],
    ['canvas.colorSpace', 'Colour space', 'select', ['srgb', 'display-p3']],
    ['canvas.alphaMode', 'Transparency', 'select', ['opaque', 'premultiplied']],
    ['canvas.screenshots', 'Allow screenshots', 'bool'],
  ]],
  ['Resolution', [
    ['renderScale', 'Resolution scale', 'range', [0.25, 2, 0.05]],
    ['upscale', 'Scaling up', 'select', ['bilinear', 'edge']],
    ['sharpen.amount', 'Sharpening', 'range', [0, 1, 0.05]],
  ]],
  ['Frame', [
    ['msaa', 'Antialiasing samples', 'select', [4, 1]],
    ['antialias', 'Edge smoothing', 'select', ['none', 'fxaa', 'smaa']],
    ['resolve', 'Sample averaging', 'select', ['hardware', 'tonemapped']],
    ['dither', 'Anti-banding noise', 'bool'],
    ['autoResize', 'Follow the canvas size', 'bool'],
    ['debug', 'Debug view', 'select', ['none', 'bloom', 'exposure', 'coc']],
  ]],
  ['Depth of field', [
    ['depthOfField.enabled', 'Depth of field', 'bool'],
    ['depthOfField.focusDistance', 'Focus at', 'range', [0.1, 100, 0.1]],
    ['depthOfField.fStop', 'Aperture (f-number)', 'range', [0.5, 22, 0.1]],
    ['depthOfField.focalLength', 'Lens length', 'range', [0.01, 0.3, 0.005]],
    ['depthOfField.sensorHeight', 'Film height', 'range', [0.005, 0.05, 0.001]],
    ['depthOfField.maxBlur', 'Largest blur', 'range', [0, 64, 1]],
  ]],
];

// What each choice of a select does, where the option table's one line
// cannot say when to pick which: shown under the table's line when the
// panel explains, read after it by screen readers, and each choice's
// tooltip.
const CHOICES = {
  antialias: {
    none: 'The picture as the scene draws it, at no cost. With msaa 4 the edges of geometry '
      + 'afterglow draws (the cubes) are already smooth; the edges a scene shader or an image '
      + 'draws itself are not.',
    fxaa: 'One pass that finds edges by contrast and blends across them: the cheapest smoothing, '
      + 'but it also softens fine texture and small text a little.',
    smaa: 'Three passes that find edges, work out their shape and blend along it: costs more than '
      + 'fxaa, and keeps text and texture crisper.',
  },
};

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
for (const path of ['threshold', 'knee', 'intensity', 'radius', 'levels', 'blur', 'mode', 'dirtIntensity']) {
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
// The demo scene hands afterglow no depth: depth of field would do
// nothing here (stats().depthOfField says 'no-depth'); the own-renderer and
// three.js pages have it.
for (const path of ['enabled', 'focusDistance', 'fStop', 'focalLength', 'sensorHeight', 'maxBlur']) {
  RULES[`depthOfField.${path}`] = () => ({
    off: true, why: 'the demo scene gives no depth: see the own-renderer and three.js pages',
  });
}
RULES.upscale = (o) => o.renderScale >= 1
  && { off: true, why: 'nothing is scaled up at a resolution scale of 1 or more' };
RULES['grain.size'] = (o) => o.grain.intensity === 0
  && { off: true, why: 'there is no grain (intensity 0)' };
const iterations = RULES['bloom.iterations'];
RULES['bloom.iterations'] = (o) => (!o.bloom.enabled && { off: true, why: 'bloom is off' }) || iterations(o);

function read(options, path) {
  return path.split('.').reduce((o, k) => o?.[k], options);
}

function partial(path, value, into = {}) {
  const keys = path.split('.');
  let o = into;
  keys.slice(0, -1).forEach((k) => { o = o[k] ??= {}; });
  o[keys.at(-1)] = value;
  return into;
}

/** The options `Renderer.create` starts from when given none. */
export function libraryDefaults() {
  const out = {};
  for (const [path, { default: value }] of Object.entries(OPTION_TABLE)) partial(path, value, out);
  return out;
}

/** `over` laid on `base`, field by field (plain objects only). */
export function merged(base, over) {
  const out = { ...base };
  for (const [k, v] of Object.entries(over)) {
    out[k] = v && typeof v === 'object' && typeof base[k] === 'object' ? merged(base[k], v) : v;
  }
  return out;
}

/** A documentation line as plain text: the table's `code` marks dropped. */
export function plainDoc(doc) {
  return doc.replaceAll('`', '');
}

/** The documentation line as nodes, its `code` spans as <code>. */
function docNodes(doc) {
  return doc.split('`').map((part, i) => {
    if (i % 2 === 0) return document.createTextNode(part);
    const code = document.createElement('code');
    code.textContent = part;
    return code;
  });
}

/** The option's name, breakable after each dot. */
function nameNodes(path) {
  const code = document.createElement('code');
  code.className = 'name';
  path.split('.').forEach((part, i, parts) => {
    code.append(part + (i < parts.length - 1 ? '.' : ''));
    if (i < parts.length - 1) {
      // A place to wrap, which screen readers would otherwise read as a space.
      const wbr = document.createElement('wbr');
      wbr.setAttribute('aria-hidden', 'true');
      code.append(wbr);
    }
  });
  return code;
}

/** Decimals of a slider's step: the readout shows the value as set. */
function decimals(step) {
  const s = String(step);
  return s.includes('.') ? s.length - s.indexOf('.') - 1 : 0;
}

/**
 * The list of what each choice does (CHOICES), or null: one item per
 * choice, its name as code. A choice the list names that the control does
 * not offer, or one it leaves out, is a mistake of this file.
 */
function choiceList(path, spec) {
  const lines = CHOICES[path];
  if (!lines) return null;
  const offered = spec.map(String);
  const named = Object.keys(lines);
  if (named.length !== offered.length || named.some((v) => !offered.includes(v))) {
    throw new Error(`panel: CHOICES['${path}'] names ${named}, the control offers ${offered}`);
  }
  const list = document.createElement('ul');
  list.className = 'doc choices';
  list.id = `choices-${path}`;
  list.dataset.choicesFor = path;
  for (const value of offered) {
    const item = document.createElement('li');
    const name = document.createElement('code');
    name.textContent = value;
    item.append(name, `: ${lines[value]}`);
    list.append(item);
  }
  return list;
}

/**
 * A control's elements, appended to `section`: the row with its label (the
 * plain words and the option's name) and its input (and a readout for a
 * slider), then the option table's line, what each choice does (for the
 * selects CHOICES explains), the note for a choice ruled out and the line
 * for a refused value, all of them the input's description.
 */
function controlElements(section, path, text, kind, spec) {
  const entry = OPTION_TABLE[path];
  const id = path;
  const row = document.createElement('div');
  row.className = 'row';
  row.title = plainDoc(entry.doc);
  const label = document.createElement('label');
  label.htmlFor = id;
  const plain = document.createElement('span');
  plain.className = 'label';
  plain.textContent = text;
  label.append(plain, ' ', nameNodes(path));
  row.append(label);
  let input;
  let output;
  if (kind === 'select') {
    input = document.createElement('select');
    for (const v of spec) {
      const option = new Option(String(v), String(v));
      const line = CHOICES[path]?.[String(v)];
      if (line) option.title = line;
      input.add(option);
    }
  } else if (kind === 'bool') {
    input = document.createElement('input');
    input.type = 'checkbox';
  } else {
    input = document.createElement('input');
    input.type = 'range';
    [input.min, input.max, input.step] = spec.map(String);
    output = document.createElement('output');
    output.htmlFor = id;
  }
  input.name = path;
  input.id = id;
  input.dataset.option = path;
  row.append(input);
  if (output) row.append(output);
  const doc = document.createElement('p');
  doc.className = 'doc';
  doc.id = `doc-${path}`;
  doc.dataset.docFor = path;
  doc.append(...docNodes(entry.doc));
  const note = document.createElement('p');
  note.className = 'note';
  note.id = `note-${path}`;
  note.dataset.noteFor = path;
  const error = document.createElement('p');
  error.className = 'field-error';
  error.id = `error-${path}`;
  error.setAttribute('role', 'alert');
  error.dataset.errorFor = path;
  const choices = choiceList(path, spec);
  const described = [doc, choices, note, error].filter((e) => e).map((e) => e.id);
  input.setAttribute('aria-describedby', described.join(' '));
  section.append(...[row, doc, choices, note, error].filter((e) => e));
  return { row, input, output, note, error };
}

/**
 * Builds the controls into `root`; returns `{ apply, sync }`. `onChange` is
 * called after every accepted change; `apply(options)` sets options from
 * outside (a preset) the same way and throws what `setOptions` throws.
 */
export function buildOptionsPanel(root, renderer, onChange = () => {}) {
  const controls = new Map();

  for (const [title, fields] of SCHEMA) {
    let section = root.querySelector(`section[data-section="${title}"]`);
    if (!section) {
      section = document.createElement('section');
      section.dataset.section = title;
      root.append(section);
    }
    const heading = document.createElement('h2');
    heading.textContent = title;
    section.prepend(heading);
    for (const [path, text, kind, spec] of fields) {
      if (!OPTION_TABLE[path]) throw new Error(`panel: '${path}' is not in the option table (option-table.js)`);
      if (!['bool', 'select', 'range'].includes(kind)) {
        throw new Error(`panel: '${path}' has the kind '${kind}'; a row is [option, label, kind, spec]`);
      }
      const { row, input, output, note, error } = controlElements(section, path, text, kind, spec);

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
  }

  function clearErrors() {
    for (const { error } of controls.values()) error.textContent = '';
  }

  function sync() {
    const options = renderer.options();
    for (const [path, { show }] of controls) show(read(options, path), options);
  }

  function apply(options) {
    try {
      renderer.setOptions(options);
    } finally {
      sync();
    }
    clearErrors();
    onChange();
  }

  sync();
  return { apply, sync };
}
