// The soak page: counts textures created and destroyed (createTexture,
// GPUTexture.destroy and GPUDevice.destroy wrapped before any renderer
// exists), follows the devices the renderer requests, and offers the
// phases that bench/soak.mjs runs and measures between.
import init, { Renderer } from '../../www/pkg/afterglow.js';

// Textures alive: created, not destroyed, on a device not destroyed (a
// destroyed device's textures go with it and count as destroyed).
const count = { created: 0, destroyed: 0 };
const live = new Map();
const create = GPUDevice.prototype.createTexture;
GPUDevice.prototype.createTexture = function (d) {
  const t = create.call(this, d); count.created++; live.set(t, this); return t;
};
const destroy = GPUTexture.prototype.destroy;
GPUTexture.prototype.destroy = function () {
  if (live.delete(this)) count.destroyed++;
  return destroy.call(this);
};
const destroyDevice = GPUDevice.prototype.destroy;
GPUDevice.prototype.destroy = function () {
  for (const [t, d] of live) if (d === this) { live.delete(t); count.destroyed++; }
  return destroyDevice.call(this);
};
// Each device the renderer gets is marked once it is lost.
const request = GPUAdapter.prototype.requestDevice;
GPUAdapter.prototype.requestDevice = async function (d) {
  const device = await request.call(this, d);
  device.lost.then(() => { device.soakLost = true; });
  return device;
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

/** The pixels of a screenshot (the frame rendered again at the last
 * frame's time), as RGBA bytes. */
async function pixels() {
  const bitmap = await createImageBitmap(await renderer.screenshot());
  const c = new OffscreenCanvas(bitmap.width, bitmap.height);
  const g = c.getContext('2d');
  g.drawImage(bitmap, 0, 0);
  bitmap.close();
  return g.getImageData(0, 0, c.width, c.height).data;
}

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
  /** Waits for the GPU to finish the work submitted so far. */
  async settle() {
    await renderer.configuration().device.queue.onSubmittedWorkDone();
  },
  async idle(seconds) {
    await new Promise((r) => setTimeout(r, seconds * 1000));
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
      { bloom: { levels: 7 }, renderScale: 1, resolve: 'tonemapped' },
      { exposure: 0.5 + random(), tonemapper: ['agx', 'aces', 'khronos-neutral', 'reinhard'][i4()] },
    ];
    function i4() { return Math.floor(random() * 4); }
    for (let i = 0; i < n; i++) {
      renderer.setOptions(shapes[i % shapes.length]);
      draw();
      if (i % 10 === 9) await tick();
    }
    renderer.setOptions({ msaa: 4, resolve: 'hardware', bloom: { blur: 'mip', levels: 7 }, renderScale: 1 });
    draw();
  },
  /** `n` device losses: each destroys the renderer's device behind its
   * back, calls render() until it is on a new device that stays live over
   * two calls, and compares a screenshot with one taken before the loss at
   * the same time (at most 2 of 255 apart in any channel). Returns the
   * render() calls each recovery took. */
  async losses(n) {
    renderer.setOptions({ canvas: { screenshots: true } });
    const calls = [];
    for (let i = 0; i < n; i++) {
      const t = frame++ / 60;
      renderer.render(t);
      const before = await pixels();
      if (!before.some((v, j) => j % 4 !== 3 && v > 0)) throw new Error(`loss ${i}: the frame before is black`);
      const old = renderer.configuration().device;
      old.destroy();
      let k = 0;
      for (let steady = false; ;) {
        if (++k > 100) throw new Error(`loss ${i}: no new device after 100 render() calls`);
        await tick();
        renderer.render(t);
        const d = renderer.configuration()?.device;
        const fine = d !== old && d?.soakLost !== true;
        if (fine && steady) break;
        steady = fine;
      }
      calls.push(k);
      const after = await pixels();
      let worst = 0;
      for (let j = 0; j < after.length; j++) worst = Math.max(worst, Math.abs(after[j] - before[j]));
      if (after.length !== before.length || worst > 2) {
        throw new Error(`loss ${i}: the recovered frame differs from the one before by up to ${worst} of 255`);
      }
    }
    renderer.setOptions({ canvas: { screenshots: false } });
    draw();
    return calls;
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
