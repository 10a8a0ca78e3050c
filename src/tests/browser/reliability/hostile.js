// A table of bad inputs for every method and option, run by the browser
// tests (src/tests/browser/reliability/mod.rs). Each case must throw (or reject with)
// a real Error that has a name and a message naming the field; afterwards
// options() must be unchanged and the next frame must render.

const NAMES = new Set([
  'OptionError', 'ArgumentError', 'ShaderError', 'DeviceError', 'StateError',
  'CanvasError', 'ReadbackError',
]);

const MEGABYTE = 'x'.repeat(1 << 20);

function deep(levels) {
  let o = { exposure: 1 };
  for (let i = 0; i < levels; i++) o = { bloom: o };
  return o;
}

function throwingGetter(key) {
  return { get [key]() { throw new Error(`getter of ${key} threw`); } };
}

function throwingProxy(trap) {
  return new Proxy({ exposure: 2 }, { [trap]() { throw new Error(`${trap} trap threw`); } });
}

// Values that no option accepts, whatever its kind.
function badForEveryKind() {
  const frozen = Object.freeze({ nope: 1 });
  return [
    ['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity],
    ['1e308', 1e308], ['-1e308', -1e308], ['a Symbol', Symbol('s')],
    ['a BigInt', 10n], ['null', null], ['an array', [1]], ['a function', () => 1],
    ['a frozen object', frozen], ['a 1 MB string', MEGABYTE], ['an empty string', ''],
    ['a Date', new Date(0)], ['a boxed number', Object(1)],
  ];
}

// The numeric options whose range reaches below zero (EV, white balance).
const SIGNED = new Set(['autoExposure.minEv', 'autoExposure.compensation', 'grading.temperature', 'grading.tint']);

// Values refused for one kind of option only.
function badFor(value, path) {
  switch (typeof value) {
    case 'number':
      return [['a numeric string', String(value)], ['true', true],
        SIGNED.has(path) ? ['-1e6', -1e6] : ['-5e-324', -5e-324]];
    case 'boolean':
      return [['the string "true"', 'true'], ['1', 1], ['0', 0]];
    case 'string':
      return [['the upper case spelling', value.toUpperCase() + '!'], ['1', 1], ['true', true]];
    default:
      return [];
  }
}

function at(path, value) {
  const keys = path.split('.');
  let o = value;
  for (let i = keys.length - 1; i >= 0; i--) o = { [keys[i]]: o };
  return o;
}

function optionPaths(options, prefix = '') {
  const out = [];
  for (const [k, v] of Object.entries(options)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') out.push(...optionPaths(v, path));
    else out.push([path, v]);
  }
  return out;
}

// Every case: [label, field the message must name, call(renderer) -> maybe a promise].
export function hostileCases(defaults, foreign) {
  const cases = [];
  for (const [path, value] of optionPaths(defaults)) {
    for (const [label, bad] of [...badForEveryKind(), ...badFor(value, path)]) {
      cases.push([`setOptions ${path} = ${label}`, path, (r) => r.setOptions(at(path, bad))]);
    }
    const [group, key] = path.includes('.') ? path.split('.') : [null, path];
    cases.push([`setOptions ${path} getter throws`, path,
      (r) => r.setOptions(group ? { [group]: throwingGetter(key) } : throwingGetter(key))]);
    cases.push([`setOptions unknown key next to ${path}`, `${path}x`,
      (r) => r.setOptions(at(`${path}x`, value))]);
  }
  for (const group of ['bloom', 'canvas']) {
    for (const [label, bad] of badForEveryKind()) {
      if (label === 'null' || label === 'a frozen object') continue;
      cases.push([`setOptions ${group} = ${label}`, group, (r) => r.setOptions({ [group]: bad })]);
    }
  }
  for (const trap of ['ownKeys', 'get', 'getOwnPropertyDescriptor']) {
    cases.push([`setOptions Proxy whose ${trap} trap throws`, 'options',
      (r) => r.setOptions(throwingProxy(trap))]);
  }
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  cases.push(['setOptions revoked Proxy', 'options', (r) => r.setOptions(revocable.proxy)]);
  cases.push(['setOptions 1000 levels deep', 'bloom', (r) => r.setOptions(deep(1000))]);
  cases.push(['setOptions options from another realm, bad value', 'exposure',
    (r) => r.setOptions(Object.assign(new foreign.Object(), { exposure: -1 }))]);
  for (const [label, bad] of [...badForEveryKind(), ['a string', 'x'], ['true', true]]) {
    if (label === 'null' || label === 'a frozen object') continue;
    cases.push([`setOptions(${label})`, 'options', (r) => r.setOptions(bad)]);
  }
  // render(timeSeconds)
  for (const [label, bad] of [['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity],
    ['a string', '1'], ['a Symbol', Symbol('t')], ['a BigInt', 1n], ['an object', {}],
    ['true', true], ['an array', [1]], ['a throwing Proxy', throwingProxy('get')]]) {
    cases.push([`render(${label})`, 'timeSeconds', (r) => r.render(bad)]);
  }
  // resize(width, height)
  for (const [label, bad] of [['-1', -1], ['1.5', 1.5], ['NaN', NaN], ['Infinity', Infinity],
    ['1e9', 1e9], ['2 ** 32', 2 ** 32], ['a string', '8'], ['a Symbol', Symbol('w')],
    ['a BigInt', 8n], ['null', null], ['undefined', undefined], ['an object', {}],
    ['-0.5', -0.5], ['a Proxy', throwingProxy('ownKeys')]]) {
    cases.push([`resize(${label}, 8)`, 'width', (r) => r.resize(bad, 8)]);
    cases.push([`resize(8, ${label})`, 'height', (r) => r.resize(8, bad)]);
  }
  // setSceneShader(wgsl)
  for (const [label, bad] of [['a number', 1], ['null', null], ['undefined', undefined],
    ['a Symbol', Symbol('w')], ['an object', {}], ['a String object', new String('fn')]]) {
    cases.push([`setSceneShader(${label})`, 'wgsl', (r) => r.setSceneShader(bad)]);
  }
  // Shader errors carry line and column instead of naming a field.
  cases.push(['setSceneShader(no fn scene)', null, (r) => r.setSceneShader('fn other() {}')]);
  cases.push(['setSceneShader(1 MB of garbage)', null, (r) => r.setSceneShader(MEGABYTE)]);
  cases.push(['setSceneShader(a syntax error)', null, (r) => r.setSceneShader('fn scene(')]);
  // setImage(source, { gain })
  const fakeImage = { width: 2, height: 2, data: new Uint8ClampedArray(16) };
  for (const [label, bad] of [['a number', 1], ['null', null], ['undefined', undefined],
    ['a plain object shaped like ImageData', fakeImage], ['a string', 'cat.png'],
    ['an unloaded image', new Image()], ['a 0×0 canvas', Object.assign(document.createElement('canvas'), { width: 0 })],
    ['a Proxy of an ImageData', new Proxy(new ImageData(1, 1), {})], ['a Symbol', Symbol('i')]]) {
    cases.push([`setImage(${label})`, 'source', (r) => r.setImage(bad)]);
  }
  const image = new ImageData(1, 1);
  for (const [label, bad] of [['-1', -1], ['NaN', NaN], ['Infinity', Infinity], ['1e5', 1e5],
    ['a string', '2'], ['null', null], ['a Symbol', Symbol('g')]]) {
    cases.push([`setImage gain = ${label}`, 'gain', (r) => r.setImage(image, { gain: bad })]);
  }
  cases.push(['setImage unknown key', 'gian', (r) => r.setImage(image, { gian: 2 })]);
  cases.push(['setImage gain getter throws', 'gain', (r) => r.setImage(image, throwingGetter('gain'))]);
  cases.push(['setImage options = 3', 'options', (r) => r.setImage(image, 3)]);
  // stats({ gpu })
  for (const [label, bad] of [['a string', 'yes'], ['1', 1], ['null', null], ['an object', {}]]) {
    cases.push([`stats gpu = ${label}`, 'gpu', (r) => r.stats({ gpu: bad })]);
  }
  cases.push(['stats unknown key', 'gpus', (r) => r.stats({ gpus: true })]);
  cases.push(['stats(7)', 'options', (r) => r.stats(7)]);
  // screenshot() without canvas.screenshots
  cases.push(['screenshot() without screenshots', 'screenshots', (r) => r.screenshot()]);
  return cases;
}

// Cases for Renderer.create: each must reject; nothing is left behind.
export function createCases(Renderer, foreign) {
  const canvas = () => {
    const c = document.createElement('canvas');
    c.width = 8;
    c.height = 8;
    return c;
  };
  const fakeContext = { configure() {}, getCurrentTexture() { return {}; }, unconfigure() {} };
  const cases = [];
  for (const [label, bad] of [['undefined', undefined], ['null', null], ['a number', 1],
    ['a string', '#view'], ['a div', document.createElement('div')], ['a Symbol', Symbol('c')],
    ['a plain object with getContext', { width: 8, height: 8, getContext: () => fakeContext }],
    ['a Proxy of a canvas', new Proxy(canvas(), {})],
    ['an object inheriting from HTMLCanvasElement', Object.create(HTMLCanvasElement.prototype)],
    ['an image', new Image()]]) {
    cases.push([`create(${label})`, 'canvas', () => Renderer.create(bad)]);
  }
  const twoD = canvas();
  twoD.getContext('2d');
  cases.push(['create(a canvas with a 2d context)', 'getContext', () => Renderer.create(twoD)]);
  const lying = canvas();
  lying.getContext = () => fakeContext;
  cases.push(['create(a canvas whose getContext returns an imitation)', 'GPUCanvasContext',
    () => Renderer.create(lying)]);
  for (const [label, bad] of [['a number', 3], ['a string', 'x'], ['an array', []],
    ['bad msaa', { msaa: 2 }], ['a throwing getter', throwingGetter('msaa')],
    ['a throwing Proxy', throwingProxy('ownKeys')], ['extended on 8 bits', { canvas: { toneMapping: 'extended' } }],
    ['tonemapped without msaa', { msaa: 1, resolve: 'tonemapped' }], ['a foreign bad object',
      Object.assign(new foreign.Object(), { bloom: { levels: 0 } })]]) {
    const field = label === 'bad msaa' || label === 'a throwing getter' ? 'msaa'
      : label.startsWith('extended') ? 'toneMapping' : label.startsWith('tonemapped') ? 'resolve'
        : label === 'a foreign bad object' ? 'bloom.levels' : 'options';
    cases.push([`create(canvas, ${label})`, field, () => Renderer.create(canvas(), bad)]);
  }
  return cases;
}

function check(label, field, e) {
  if (!(e instanceof Error)) return `${label}: threw a non-Error ${String(e)}`;
  if (!NAMES.has(e.name)) return `${label}: name ${e.name}: ${e.message}`;
  if (/unreachable|RuntimeError|null pointer|moved value|panicked/i.test(e.message)) {
    return `${label}: a trap or glue message: ${e.message}`;
  }
  if (e.message.length > 2000) return `${label}: a message of ${e.message.length} characters`;
  if (field === null) {
    if (e.name !== 'ShaderError' || typeof e.line !== 'number') return `${label}: ${e.name}: ${e.message}`;
  } else if (!e.message.includes(field)) {
    return `${label}: message does not name '${field}': ${e.message}`;
  }
  return null;
}

async function outcome(call) {
  try {
    const result = call();
    if (result && typeof result.then === 'function') await result;
    return { ok: true };
  } catch (e) {
    return { ok: false, e };
  }
}

// Watches for what must never happen: an uncaptured GPU error on any
// device (the renderer's or a replacement) or a panic in the console.
function watch() {
  const seen = [];
  const request = GPUAdapter.prototype.requestDevice;
  GPUAdapter.prototype.requestDevice = async function (descriptor) {
    const device = await request.call(this, descriptor);
    device.addEventListener('uncapturederror', (e) => seen.push(`GPU error: ${e.error.message}`));
    return device;
  };
  const error = console.error;
  console.error = (...args) => {
    const text = args.map(String).join(' ');
    if (/panicked|unreachable/i.test(text)) seen.push(`console: ${text}`);
    return error.apply(console, args);
  };
  return {
    seen,
    stop() {
      GPUAdapter.prototype.requestDevice = request;
      console.error = error;
    },
  };
}

// Calls on a renderer after destroy(), after free(), and calls that
// overlap: each an Error naming the method.
async function lifecycleCases(Renderer, canvas) {
  const failures = [];
  let tried = 0;
  const expect = async (label, field, call) => {
    tried++;
    const result = await outcome(call);
    if (result.ok) failures.push(`${label}: accepted`);
    else {
      const problem = check(label, field, result.e);
      if (problem) failures.push(problem);
    }
  };
  const methods = [
    ['render', (r) => r.render(1)], ['resize', (r) => r.resize(8, 8)],
    ['setOptions', (r) => r.setOptions({ exposure: 2 })], ['options', (r) => r.options()],
    ['configuration', (r) => r.configuration()], ['setSceneShader', (r) => r.setSceneShader('fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(1.0); }')],
    ['setImage', (r) => r.setImage(new ImageData(1, 1))], ['useDemoScene', (r) => r.useDemoScene()],
    ['screenshot', (r) => r.screenshot()], ['stats', (r) => r.stats()], ['destroy', (r) => r.destroy()],
  ];
  const destroyed = await Renderer.create(canvas());
  destroyed.destroy();
  for (const [name, call] of methods) {
    await expect(`${name}() after destroy()`, `${name}()`, () => call(destroyed));
  }
  // After free() the generated glue answers before afterglow's code runs
  // ('Attempt to use a moved value', 'null pointer passed to rust'): an
  // Error, never a trap, but without afterglow's name and fields.
  const freed = await Renderer.create(canvas());
  freed.free();
  const glue = async (label, call) => {
    tried++;
    const result = await outcome(call);
    if (result.ok) failures.push(`${label}: accepted`);
    else if (!(result.e instanceof Error) || /unreachable|RuntimeError/.test(String(result.e))) {
      failures.push(`${label}: ${String(result.e)}`);
    }
  };
  for (const [name, call] of methods) await glue(`${name}() after free()`, () => call(freed));
  await glue('free() twice', () => freed.free());
  // Overlapping content calls: the later one wins, the earlier one says so.
  const r = await Renderer.create(canvas(), { canvas: { screenshots: true } });
  const first = r.setSceneShader('fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(1.0); }');
  r.useDemoScene();
  await expect('setSceneShader overtaken by useDemoScene', 'setSceneShader', () => first);
  const second = r.setSceneShader('fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(1.0); }');
  const third = r.setSceneShader('fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(0.0); }');
  await expect('setSceneShader overtaken by setSceneShader', 'setSceneShader', () => second);
  await third;
  r.destroy();
  return { tried, failures };
}

// Runs every case; returns { tried, failures }.
export async function runHostile(Renderer) {
  const watcher = watch();
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  const foreign = frame.contentWindow;
  const canvas = () => {
    const c = document.createElement('canvas');
    c.width = 24;
    c.height = 24;
    document.body.appendChild(c);
    return c;
  };
  const renderer = await Renderer.create(canvas());
  const before = JSON.stringify(renderer.options());
  const failures = [];
  const cases = hostileCases(renderer.options(), foreign);
  for (const [label, field, call] of cases) {
    const result = await outcome(() => call(renderer));
    if (result.ok) {
      failures.push(`${label}: accepted`);
      continue;
    }
    const problem = check(label, field, result.e);
    if (problem) failures.push(problem);
    const now = JSON.stringify(renderer.options());
    if (now !== before) failures.push(`${label}: options changed to ${now}`);
    try {
      renderer.render(1);
    } catch (e) {
      failures.push(`${label}: the next frame threw ${e && e.message}`);
    }
  }
  const creates = createCases(Renderer, foreign);
  for (const [label, field, call] of creates) {
    const result = await outcome(call);
    if (result.ok) {
      failures.push(`${label}: accepted`);
      continue;
    }
    const problem = check(label, field, result.e);
    if (problem) failures.push(problem);
  }
  const lifecycle = await lifecycleCases(Renderer, canvas);
  failures.push(...lifecycle.failures);
  // The renderer still renders after all of it.
  renderer.render(2);
  await new Promise((resolve) => setTimeout(resolve, 50));
  renderer.destroy();
  frame.remove();
  watcher.stop();
  failures.push(...watcher.seen);
  return { tried: cases.length + creates.length + lifecycle.tried, failures };
}
