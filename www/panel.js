// A control for every renderer option, built from one table. A change
// calls setOptions with just that field; a refused value shows the error
// and the control goes back to the renderer's effective value.

const SCHEMA = [
  ['Canvas', [
    ['canvas.format', 'select', ['preferred', 'rgba16float']],
    ['canvas.alphaMode', 'select', ['opaque', 'premultiplied']],
    ['canvas.colorSpace', 'select', ['srgb', 'display-p3']],
    ['canvas.toneMapping', 'select', ['standard', 'extended']],
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
  ]],
  ['Bloom', [
    ['bloom.enabled', 'bool'],
    ['bloom.threshold', 'range', [0, 4, 0.05]],
    ['bloom.knee', 'range', [0, 1, 0.05]],
    ['bloom.intensity', 'range', [0, 3, 0.05]],
    ['bloom.radius', 'range', [0.1, 4, 0.1]],
    ['bloom.levels', 'range', [1, 12, 1]],
    ['bloom.blur', 'select', ['mip', 'gaussian']],
    ['bloom.iterations', 'range', [1, 16, 1]],
  ]],
];

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

/** Builds the controls into `root`; returns `{ reset, sync }`. */
export function buildOptionsPanel(root, renderer, showError) {
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
      }
      input.name = path;
      input.dataset.option = path;
      row.append(input);
      if (output) row.append(output);
      section.append(row);
      const value = () => {
        if (kind === 'bool') return input.checked;
        if (kind === 'range') return Number(input.value);
        return typeof spec[0] === 'number' ? Number(input.value) : input.value;
      };
      const show = (v) => {
        if (kind === 'bool') input.checked = v;
        else input.value = String(v);
        if (output) output.value = String(v);
      };
      input.addEventListener(kind === 'range' ? 'input' : 'change', () => {
        try {
          renderer.setOptions(partial(path, value()));
          showError();
        } catch (e) {
          showError(e.message);
        }
        sync();
      });
      controls.set(path, show);
    }
    root.append(section);
  }

  function sync() {
    const options = renderer.options();
    for (const [path, show] of controls) show(read(options, path));
  }

  function reset() {
    try {
      renderer.setOptions(defaults);
      showError();
    } catch (e) {
      showError(e.message);
    }
    sync();
  }

  sync();
  return { reset, sync };
}
