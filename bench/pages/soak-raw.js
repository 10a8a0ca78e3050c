// The soak's control: the same resize storm on a canvas configured with
// plain WebGPU, no afterglow, so that the browser's own share of the GPU
// process's growth can be told apart. Each step sets the canvas size,
// configures the context again (as afterglow's resize() does) unless
// asked not to, optionally creates and destroys targets shaped like
// afterglow's (4× MSAA rgba16float colour and depth24plus, a single-sample
// rgba16float target, a half-size rgba16float mip chain), and clears the
// canvas texture (and every target, each mip level) in one submit.
const adapter = await navigator.gpu.requestAdapter();
const device = await adapter.requestDevice();
const canvas = document.getElementById('view');
const context = canvas.getContext('webgpu');
const format = navigator.gpu.getPreferredCanvasFormat();
const configure = () => context.configure({
  device, format, usage: GPUTextureUsage.RENDER_ATTACHMENT, alphaMode: 'opaque',
  viewFormats: [`${format}-srgb`],
});
configure();
const tick = () => new Promise((r) => setTimeout(r, 0));

// The soak page's sequence of sizes.
let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

let targets = [];
function rebuild(w, h) {
  for (const t of targets) t.destroy();
  const A = GPUTextureUsage.RENDER_ATTACHMENT;
  const S = GPUTextureUsage.TEXTURE_BINDING;
  const hw = Math.max(1, w >> 1), hh = Math.max(1, h >> 1);
  targets = [
    device.createTexture({ size: [w, h], format: 'rgba16float', sampleCount: 4, usage: A }),
    device.createTexture({ size: [w, h], format: 'depth24plus', sampleCount: 4, usage: A }),
    device.createTexture({ size: [w, h], format: 'rgba16float', usage: A | S }),
    device.createTexture({
      size: [hw, hh], format: 'rgba16float', usage: A | S,
      mipLevelCount: Math.min(8, Math.floor(Math.log2(Math.max(hw, hh))) + 1),
    }),
  ];
}

function draw() {
  const encoder = device.createCommandEncoder();
  const clear = (view) => encoder.beginRenderPass({
    colorAttachments: [{
      view, loadOp: 'clear', storeOp: 'store', clearValue: { r: 0.5, g: 0.2, b: 0.1, a: 1 },
    }],
  }).end();
  clear(context.getCurrentTexture().createView({ format: `${format}-srgb` }));
  // Every target is written, as afterglow's frame writes all of its own.
  if (targets.length) {
    const [msaa, depth, hdr, mips] = targets;
    encoder.beginRenderPass({
      colorAttachments: [{
        view: msaa.createView(), resolveTarget: hdr.createView(), loadOp: 'clear', storeOp: 'discard',
        clearValue: { r: 0.5, g: 0.2, b: 0.1, a: 1 },
      }],
      depthStencilAttachment: {
        view: depth.createView(), depthLoadOp: 'clear', depthStoreOp: 'discard', depthClearValue: 1,
      },
    }).end();
    for (let level = 0; level < mips.mipLevelCount; level++) {
      clear(mips.createView({ baseMipLevel: level, mipLevelCount: 1 }));
    }
  }
  device.queue.submit([encoder.finish()]);
}

window.soak = {
  async measure() {
    if (window.gc) { window.gc(); await tick(); window.gc(); }
    return { jsHeap: performance.memory?.usedJSHeapSize ?? null };
  },
  async frames(n) {
    for (let i = 0; i < n; i++) { draw(); if (i % 50 === 49) await tick(); }
  },
  /** Waits for the GPU to finish the work submitted so far. */
  async settle() {
    await device.queue.onSubmittedWorkDone();
  },
  async idle(seconds) {
    await new Promise((r) => setTimeout(r, seconds * 1000));
  },
  async resizes(n, { reconfigure = true, withTargets = false } = {}) {
    const step = (w, h) => {
      canvas.width = w; canvas.height = h;
      if (reconfigure) configure();
      if (withTargets) rebuild(w, h);
      draw();
    };
    for (let i = 0; i < n; i++) {
      step(16 + Math.floor(random() * 497), 16 + Math.floor(random() * 497));
      if (i % 10 === 9) await tick();
    }
    step(64, 64);
  },
};
window.soakReady = true;
