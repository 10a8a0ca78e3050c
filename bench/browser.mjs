// What the benchmark drivers (bench/run.mjs, bench/dot.mjs, …) share: the
// four pages, one headless Chromium with the WebGPU flags of webdriver.json,
// opening a page until it has rendered its first frame, and reading its
// 8-bit sRGB screenshots as light.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const PAGES = [
  { id: 'afterglow', name: 'afterglow' },
  { id: 'three-webgl', name: 'three.js WebGL' },
  { id: 'postprocessing', name: 'postprocessing' },
  { id: 'three-webgpu', name: 'three.js WebGPU' },
];

/** An 8-bit sRGB level as linear light, and the table of all 256. */
export const toLinear = (v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
export const LINEAR = Array.from({ length: 256 }, (_, v) => toLinear(v));
/** Linear light in [0, 1] as sRGB-encoded, in [0, 1]. */
export const toSrgb = (l) => (l <= 0.0031308 ? l * 12.92 : 1.055 * l ** (1 / 2.4) - 0.055);

export const label = (c) => `${c.width}×${c.height} msaa ${c.msaa}`;

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Version of an installed npm package. */
export const pkgVersion = (name) =>
  JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url))).version;

/** Headless Chromium on a real GPU (Linux, NVIDIA's driver, no display):
 * WebGL through ANGLE on the driver's EGL, WebGPU through Dawn's own
 * Vulkan with no surface. ANGLE on Vulkan and Chromium's own Vulkan both
 * need a surface extension such a driver lacks. The developer features
 * give timestamps at full resolution instead of rounded to 100 µs. */
export const GPU_FLAGS = [
  '--enable-unsafe-webgpu', '--enable-webgpu-developer-features', '--ignore-gpu-blocklist', '--enable-gpu',
  '--use-gl=angle', '--use-angle=gl-egl', '--enable-features=Vulkan', '--disable-vulkan-surface',
  '--use-vulkan=native', '--no-sandbox', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--disable-quic', '--no-first-run',
];

/** One headless Chromium (CHROMIUM, default /usr/bin/chromium) with the
 * flags the browser tests use (software WebGPU and WebGL), or with `gpu`
 * those of a real GPU (BENCH_GPU's `flags`, what
 * bench/gpu-probe.mjs chose, else `GPU_FLAGS`), or exactly `flags`, and
 * `extra` flags. Its pages get [`canvasCopyHook`] with `copyHook`, or on
 * the GPU where the probe chose to read frames back by copying. */
export async function launch(extra = [], { gpu = false, flags: given = null, copyHook = false } = {}) {
  const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
  const flags = given ?? (gpu ? gpuChoice().flags : JSON.parse(readFileSync(new URL('../webdriver.json', import.meta.url)))
    ['goog:chromeOptions'].args.filter((a) => !a.startsWith('--headless')));
  const browser = await chromium.launch({ executablePath, args: [...flags, ...extra], headless: true });
  // Where a frame is read back by copying the canvas's texture, every page
  // gets the hook that makes that copy possible.
  if (copyHook || (gpu && readsBack() === 'copy')) {
    const newPage = browser.newPage.bind(browser);
    browser.newPage = async (options) => {
      const tab = await newPage(options);
      await tab.addInitScript(canvasCopyHook);
      return tab;
    };
  }
  return browser;
}

/** Whether WebGPU canvases reach the page on this GPU (BENCH_GPU's
 * `presents`, from bench/gpu-probe.mjs): where not, a frame is read back
 * from the canvas itself (`canvasPng`) instead of a screenshot. */
export const presents = () => gpuChoice().presents;

/** How a frame that never reaches the page is read back (BENCH_GPU's
 * `readBack`): 'drawImage' (into a 2D canvas) or 'copy' (the canvas's
 * texture copied into a buffer on the GPU, for a browser whose canvases
 * cannot even be drawn from). */
export const readsBack = () => gpuChoice().readBack ?? 'drawImage';

/** What bench/gpu-probe.mjs chose on this machine (BENCH_GPU, as
 * `cargo xtask bench --gpu-browser` passes it), else GPU_FLAGS, shown. */
const gpuChoice = () => (process.env.BENCH_GPU ? JSON.parse(process.env.BENCH_GPU) : { flags: GPU_FLAGS, presents: true });

/** Run in a page before its own scripts: every WebGPU canvas context is
 * configured with COPY_SRC added to its usage, and remembers its device,
 * format and latest texture, so that `window.canvasCopy(canvas)` can copy
 * the frame just drawn into a buffer. It encodes and submits the copy at
 * once (in the task that drew, before the texture is presented) and
 * resolves to the frame as 8-bit RGBA `ImageData`. */
export function canvasCopyHook() {
  if (typeof GPUCanvasContext === 'undefined') return;
  const proto = GPUCanvasContext.prototype;
  const { configure, getCurrentTexture } = proto;
  const seen = new WeakMap();
  proto.configure = function hooked(desc) {
    seen.set(this, { device: desc.device, format: desc.format });
    const usage = (desc.usage ?? GPUTextureUsage.RENDER_ATTACHMENT) | GPUTextureUsage.COPY_SRC;
    return configure.call(this, { ...desc, usage });
  };
  proto.getCurrentTexture = function hooked() {
    const texture = getCurrentTexture.call(this);
    const s = seen.get(this);
    if (s) s.texture = texture;
    return texture;
  };
  const half = (h) => {
    const e = (h >> 10) & 31;
    const m = h & 1023;
    const v = e === 0 ? m / 1024 / 16384 : e === 31 ? Infinity : (1 + m / 1024) * 2 ** (e - 15);
    return h & 0x8000 ? -v : v;
  };
  window.canvasCopy = (canvas) => {
    const s = seen.get(canvas.getContext('webgpu'));
    if (!s?.texture) return Promise.reject(new Error('canvasCopy: the canvas has drawn no WebGPU frame'));
    const { device, format, texture } = s;
    const [w, h] = [texture.width, texture.height];
    const size = format === 'rgba16float' ? 8 : 4;
    const bytesPerRow = Math.ceil((w * size) / 256) * 256;
    const buffer = device.createBuffer({ size: bytesPerRow * h, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    // A copy WebGPU refuses (a texture already presented, say) would map
    // as zeros: a black frame that is no frame. Its error rejects instead.
    device.pushErrorScope('validation');
    const encoder = device.createCommandEncoder();
    encoder.copyTextureToBuffer({ texture }, { buffer, bytesPerRow }, [w, h]);
    device.queue.submit([encoder.finish()]);
    const refused = device.popErrorScope();
    return refused.then((error) => {
      if (error) throw new Error(`canvasCopy: the copy was refused: ${error.message}`);
      return buffer.mapAsync(GPUMapMode.READ);
    }).then(() => {
      const bytes = new Uint8Array(buffer.getMappedRange());
      const halves = new Uint16Array(bytes.buffer);
      const image = new ImageData(w, h);
      const level = (v) => Math.round(Math.min(Math.max(v, 0), 1) * 255);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const o = (y * w + x) * 4;
          const i = y * bytesPerRow + x * size;
          let rgb;
          if (size === 8) rgb = [0, 1, 2].map((c) => level(half(halves[i / 2 + c])));
          else if (format === 'bgra8unorm') rgb = [bytes[i + 2], bytes[i + 1], bytes[i]];
          else rgb = [bytes[i], bytes[i + 1], bytes[i + 2]];
          image.data.set([...rgb, 255], o);
        }
      }
      buffer.unmap();
      buffer.destroy();
      return image;
    });
  };
}

/** The page's `#view` canvas as PNG bytes, read in the same task as `draw`
 * (a function of the page that draws a frame), before the canvas
 * presents: drawn into a 2D canvas, or copied on the GPU where the probe
 * chose that ([`canvasCopyHook`]). */
export async function canvasPng(tab, draw) {
  const url = await tab.evaluate(async ({ source, copy }) => {
    (0, eval)(source)();
    const canvas = document.getElementById('view');
    const out = document.createElement('canvas');
    [out.width, out.height] = [canvas.width, canvas.height];
    const context = out.getContext('2d');
    if (copy) context.putImageData(await window.canvasCopy(canvas), 0, 0);
    else context.drawImage(canvas, 0, 0);
    return out.toDataURL('image/png');
  }, { source: `(${draw})`, copy: readsBack() === 'copy' });
  return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
}

/** The WebGPU adapter a page outside bench/pages (no harness.js there)
 * gets, named as harness.js names it: { api, name, fallback }. */
export const adapterOf = (tab) => tab.evaluate(async () => {
  const i = (await navigator.gpu.requestAdapter())?.info ?? {};
  return { api: 'WebGPU', name: [i.vendor, i.architecture, i.device, i.description].filter(Boolean).join(' / '), fallback: Boolean(i.isFallbackAdapter) };
});

/** Whether an adapter a page reported (harness.js) is a CPU emulation
 * rather than a GPU: a fallback adapter, SwiftShader or llvmpipe. */
export const software = (adapter) => adapter.fallback || /swiftshader|llvmpipe|lavapipe|software/i.test(adapter.name);

/** Per-pass GPU milliseconds of the afterglow page open in `tab`, from
 * `stats({ gpu: true })`: `frames` frames, each synchronised and followed
 * by a short wait (timestamps arrive a frame or two late). Returns the
 * samples of each pass and the wall time of each frame + sync. */
export async function passTimes(tab, frames) {
  return tab.evaluate(async (n) => {
    window.renderer().stats({ gpu: true });
    const per = {};
    const wall = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      window.frame(i / 60);
      await window.sync();
      wall.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 30));
      const gpu = window.renderer().stats().gpuMs;
      if (gpu) for (const [k, v] of Object.entries(gpu)) (per[k] ??= []).push(v);
    }
    return { per, wall };
  }, frames);
}

/** The server the pages come from: BENCH_URL, as `cargo xtask bench` sets it. */
export const baseUrl = () => process.env.BENCH_URL ?? 'http://127.0.0.1:8000/';

/** Opens one page at `config` ({ width, height, msaa }) with `query` (a
 * URLSearchParams-able object: what the page draws), waits for its module,
 * sets it up and renders frame 0. Returns the tab, the problems it reported
 * so far (errors, crashes: the caller checks them after each step), a
 * `fail(what)` that builds an error naming the page, and its info. */
export async function openPage(browser, base, page, config, query = {}) {
  const tab = await browser.newPage({
    viewport: { width: Math.max(config.width, 200), height: Math.max(config.height, 200) },
    deviceScaleFactor: 1,
  });
  const problems = [];
  tab.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  tab.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  tab.on('crash', () => problems.push('the page crashed'));
  const loadStart = Date.now();
  const what = Object.keys(query).length ? ` ${new URLSearchParams(query)}` : '';
  const fail = (why) => new Error(`${page.name} (${label(config)}${what}): ${why}${problems.length ? `\n  ${problems.join('\n  ')}` : ''}`);
  const url = new URL(`bench/pages/${page.id}.html`, base);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  await tab.goto(url.href, { waitUntil: 'domcontentloaded', timeout: 120_000 });
  const deadline = Date.now() + 120_000;
  while (!(await tab.evaluate(() => window.benchReady === true))) {
    if (problems.length) throw fail('the page failed to load');
    if (Date.now() > deadline) throw fail('the page did not become ready in 120 s');
    await tab.waitForTimeout(100);
  }
  try {
    await tab.evaluate(async (c) => { await window.setup(c); window.frame(0); await window.sync(); }, config);
  } catch (e) {
    throw fail(`setup or first frame threw: ${e.message}`);
  }
  if (problems.length) throw fail('errors during setup');
  const info = await tab.evaluate(() => ({ ...window.info, isolated: window.crossOriginIsolated }));
  info.readyMs = Date.now() - loadStart;
  return { tab, problems, fail, info };
}
