// The soak page: counts textures created and destroyed (createTexture and
// GPUTexture.destroy wrapped before any renderer exists), and offers the
// phases that bench/soak.mjs runs and measures between.
import init, { Renderer } from '../../www/pkg/afterglow.js';

const count = { created: 0, destroyed: 0 };
const live = new Set();
const create = GPUDevice.prototype.createTexture;
GPUDevice.prototype.createTexture = function (d) {
  const t = create.call(this, d); count.created++; live.add(t); return t;
};
const destroy = GPUTexture.prototype.destroy;
GPUTexture.prototype.destroy = function () {
  if (live.delete(this)) count.destroyed++;
  return destroy.call(this);
};

const wasm = await init();
const canvas = document.getElementById('view');
let renderer = await Renderer.create(canvas, {});
let frame = 0;
const tick = () => new Promise((r) => setTimeout(r, 0));
const draw = () => renderer.render(frame++ / 60);

// A fixed pseudo-random sequence, so that runs compare.
let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

window.soak = {
  async measure() {
    if (window.gc) { window.gc(); await tick(); window.gc(); }
    return {
      created: count.created,
      destroyed: count.destroyed,
      live: live.size,
      gpuBytes: renderer.stats().gpuBytes,
      wasmBytes: wasm.memory.buffer.byteLength,
      jsHeap: performance.memory?.usedJSHeapSize ?? null,
    };
  },
  async frames(n) {
    for (let i = 0; i < n; i++) { draw(); if (i % 50 === 49) await tick(); }
  },
  async resizes(n) {
    for (let i = 0; i < n; i++) {
      renderer.resize(16 + Math.floor(random() * 497), 16 + Math.floor(random() * 497));
      draw();
      if (i % 10 === 9) await tick();
    }
    renderer.resize(64, 64);
    draw();
  },
  async options(n) {
    const shapes = [
      { msaa: 1, resolve: 'hardware' },
      { msaa: 4, bloom: { blur: 'gaussian' } },
      { bloom: { blur: 'mip', levels: 3 }, renderScale: 0.5 },
      { bloom: { levels: 8 }, renderScale: 1, resolve: 'tonemapped' },
      { exposure: 0.5 + random(), tonemapper: ['agx', 'aces', 'khronos-neutral', 'reinhard'][i4()] },
    ];
    function i4() { return Math.floor(random() * 4); }
    for (let i = 0; i < n; i++) {
      renderer.setOptions(shapes[i % shapes.length]);
      draw();
      if (i % 10 === 9) await tick();
    }
    renderer.setOptions({ msaa: 4, resolve: 'hardware', bloom: { blur: 'mip', levels: 8 }, renderScale: 1 });
    draw();
  },
  async cycles(n) {
    for (let i = 0; i < n; i++) {
      renderer.destroy();
      renderer = await Renderer.create(canvas, {});
      draw();
      await tick();
    }
  },
};
window.soakReady = true;
