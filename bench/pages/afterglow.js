// afterglow: the scene as a WGSL scene shader, ACES (or none, or its own
// AgX), mip bloom, no dither, and `antialias` as the page's query says.
// afterglow always draws its scene into its HDR target and then through its
// chain to the canvas: there is no way to draw the scene alone, so this page
// has no `scene` (bench/run.mjs takes the floor's instead).
import { BLOOM, afterglowSource, pageContent } from '../scene.js';
import { expose, sizeCanvas } from './harness.js';

// afterglow keeps its GPUDevice to itself; sync() needs the device's queue,
// so remember every device this page asks for (the last one is afterglow's).
let device = null;
const requestDevice = GPUAdapter.prototype.requestDevice;
GPUAdapter.prototype.requestDevice = async function (...args) {
  device = await requestDevice.apply(this, args);
  return device;
};

// `?pkg=/path/to/afterglow.js` measures another build of the package (an
// earlier one, for a before/after comparison in one browser run).
const pkg = new URLSearchParams(location.search).get('pkg') ?? '/www/pkg/afterglow.js';
const content = pageContent();
const { default: init, Renderer } = await import(pkg);
await init();
let renderer = null;

expose({
  info: { library: 'afterglow', backend: 'WebGPU' },
  async setup({ width, height, msaa }) {
    renderer?.destroy();
    const bloom = {
      matched: { threshold: BLOOM.threshold, intensity: BLOOM.afterglow },
      own: {
        ...(content.intensity === null ? {} : { intensity: content.intensity }),
        ...(content.radius === null ? {} : { radius: content.radius }),
      },
      off: { enabled: false },
    }[content.bloom];
    renderer = await Renderer.create(sizeCanvas(width, height), {
      ...(content.tonemapper === 'own' ? {} : { tonemapper: content.tonemapper }),
      dither: false,
      msaa,
      bloom,
      antialias: content.antialias,
      sharpen: { amount: content.sharpen },
      renderScale: content.renderScale,
      upscale: content.upscale,
    });
    await renderer.setSceneShader(afterglowSource(content));
  },
  frame(t) {
    renderer.render(t);
  },
  sync() {
    return device.queue.onSubmittedWorkDone();
  },
  // The renderer's own timestamp queries: a pair around each of its passes,
  // read back a frame or two late, so each draw is followed by a wait.
  timer: {
    name: 'timestamp-query (stats({ gpu: true }), its passes summed)',
    async enable() {
      renderer.stats({ gpu: true });
      return renderer.stats().gpuTiming === 'unavailable' ? "the device has no 'timestamp-query'" : null;
    },
    async measure(draw) {
      draw();
      await device.queue.onSubmittedWorkDone();
      await new Promise((resolve) => setTimeout(resolve, 30));
      const passes = renderer.stats().gpuMs;
      return passes ? Object.values(passes).reduce((sum, ms) => sum + ms, 0) : null;
    },
  },
});
// For bench/profile.mjs: per-pass GPU times through the renderer's stats().
window.renderer = () => renderer;
