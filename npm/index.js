// The package's entry point: the wasm-bindgen module, with init() tracked so
// that using the renderer before `await init()` has finished says so in
// plain words instead of failing inside the generated glue.
import initWasm, { initSync as initSyncWasm, Renderer } from './afterglow.js';

export * from './afterglow.js';

let state = 'not-started'; // 'pending' while init() runs, then 'ready'

/** Loads and instantiates the WebAssembly module; await it once before `Renderer.create`. */
export default async function init(moduleOrPath) {
  if (state !== 'ready') state = 'pending';
  try {
    const exports = await initWasm(moduleOrPath);
    state = 'ready';
    return exports;
  } catch (e) {
    if (state !== 'ready') state = 'not-started';
    throw e;
  }
}

/** Instantiates the module synchronously from its bytes or a compiled module. */
export function initSync(module) {
  const exports = initSyncWasm(module);
  state = 'ready';
  return exports;
}

// A StateError like the module's own, so that code telling errors apart by
// `name` and `state` (as afterglow.d.ts declares them) sees this one too.
function notReady(method) {
  const e = new Error(state === 'pending'
    ? `afterglow: Renderer.${method}() was called while init() is still loading the WebAssembly module; ` +
      `write \`await init();\` before it`
    : `afterglow: Renderer.${method}() was called before init(); ` +
      "write `import init, { Renderer } from 'afterglow-hdr'; await init();` before it");
  e.name = 'StateError';
  e.method = method;
  e.state = 'not-initialized';
  return e;
}

const create = Renderer.create;
Renderer.create = function (...args) {
  if (state !== 'ready') return Promise.reject(notReady('create'));
  return create.apply(this, args);
};
