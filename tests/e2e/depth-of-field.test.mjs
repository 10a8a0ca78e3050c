// End-to-end: depth of field on a page written outside the project. The
// page is the depth-of-field guide's snippet (docs/depth-of-field.md,
// "## Depth from your renderer") as written, with an app of its own in
// front: a device, and one WebGPU pass that draws stripes at two depths
// into its own rgba16float colour and depth32float depth textures, which
// the snippet hands to afterglow (the package as served, imported as the
// guide says for a page without a bundler). The canvas, read back as the
// page shows it, meets the picture targets: focused on the far stripes
// they keep at least 90 % of their contrast and the near ones at most
// 30 %, and the other way round focused on the near ones; and the
// console stays clean.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { launch, record, problems, serveOutsidePage } from './harness.mjs';
import { snippet } from './snippets.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

// The app: stripes of 0.1 and 0.9 (3 pixels each) everywhere, a band of
// columns 160 to 319 at 2 m, the rest at 20 m, drawn every frame by one
// pass into its colour and depth textures (a perspective camera, planes
// 0.1 and 100), as a renderer of its own would.
const APP = `
export const canvas = document.querySelector('canvas');
const adapter = await navigator.gpu.requestAdapter();
export const device = await adapter.requestDevice();
const U = GPUTextureUsage;
const size = [canvas.width, canvas.height];
export const sceneTexture = device.createTexture({ size, format: 'rgba16float', usage: U.RENDER_ATTACHMENT | U.TEXTURE_BINDING });
export const depthTexture = device.createTexture({ size, format: 'depth32float', usage: U.RENDER_ATTACHMENT | U.TEXTURE_BINDING });
const module = device.createShaderModule({ code: \`
  @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
    let uv = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4f(uv * 2.0 - 1.0, 0.5, 1.0);
  }
  struct Out { @location(0) color: vec4f, @builtin(frag_depth) depth: f32 }
  @fragment fn fs(@builtin(position) p: vec4f) -> Out {
    let x = u32(p.x);
    let z = select(20.0, 2.0, x >= 160u && x < 320u);
    let v = select(0.1, 0.9, (x / 3u) % 2u == 0u);
    var o: Out;
    o.color = vec4f(v, v, v, 1.0);
    o.depth = 100.0 * (z - 0.1) / (z * (100.0 - 0.1));
    return o;
  }\` });
const pipeline = device.createRenderPipeline({
  layout: 'auto',
  vertex: { module, entryPoint: 'vs' },
  fragment: { module, entryPoint: 'fs', targets: [{ format: 'rgba16float' }] },
  depthStencil: { format: 'depth32float', depthWriteEnabled: true, depthCompare: 'always' },
});
export function drawMyScene(device, scene, depth) {
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ view: scene.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }],
    depthStencilAttachment: { view: depth.createView(), depthClearValue: 1, depthLoadOp: 'clear', depthStoreOp: 'store' },
  });
  pass.setPipeline(pipeline);
  pass.draw(3);
  pass.end();
  device.queue.submit([encoder.finish()]);
  window.drawn = (window.drawn ?? 0) + 1;
}
`;

/** The canvas as the page shows it, with the guide's snippet changed by `edit`. */
async function picture(edit) {
  const page = await browser.newPage({ viewport: { width: 480, height: 270 } });
  const messages = [];
  record(page, messages);
  const code = snippet('docs/depth-of-field.md', '## Depth from your renderer', 'js');
  assert.match(code, /focusDistance: 20/);
  const js = "import { canvas, device, sceneTexture, depthTexture, drawMyScene } from './app.js';\n"
    + edit(code).replace("from 'afterglow-hdr'", "from './afterglow-hdr/index.js'");
    const files = {
    'index.html': ['text/html', '<!doctype html><link rel="icon" href="data:,"><style>body{margin:0}</style>'
      + '<canvas width="480" height="270" style="width: 480px; height: 270px; display: block"></canvas>'
      + '<script type="module" src="./main.js"></script>'],
    'app.js': ['text/javascript', APP],
    'main.js': ['text/javascript', js],
  };
  const base = await serveOutsidePage(page, 'outside-depth-of-field', files);
  await page.goto(`${base}index.html`);
  await page.waitForFunction(() => window.drawn > 5, null, { timeout: 30000 });
  await page.waitForTimeout(300);
  const png = PNG.sync.read(await page.locator('canvas').screenshot());
  assert.deepEqual(problems(messages), []);
  await page.close();
  return png;
}

// The sRGB transfer function's inverse.
const decode = (v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);

/** Michelson contrast of the light in columns `from` to `to`, rows 40 to 229 averaged. */
function contrast(png, [from, to]) {
  let hi = -Infinity;
  let lo = Infinity;
  for (let x = from; x < to; x++) {
    let sum = 0;
    for (let y = 40; y < 230; y++) sum += decode(png.data[(y * png.width + x) * 4] / 255);
    const mean = sum / 190;
    hi = Math.max(hi, mean);
    lo = Math.min(lo, mean);
  }
  return (hi - lo) / (hi + lo);
}

// Away from the band's edges by more than the largest blur (16 px).
const FAR = [24, 136];
const NEAR = [184, 296];

test("the depth-of-field guide's snippet on a page of one's own meets the picture targets", async (t) => {
  // Without depth of field, the contrast each stripe field has as shown.
  const sharp = await picture((code) => code.replace('enabled: true', 'enabled: false'));
  const base = { far: contrast(sharp, FAR), near: contrast(sharp, NEAR) };
  assert.ok(base.far > 0.3 && base.near > 0.3, `the stripes as drawn: ${JSON.stringify(base)}`);
  const focusFar = await picture((code) => code);
  const focusNear = await picture((code) => code.replace('focusDistance: 20', 'focusDistance: 2'));
  const kept = (png) => ({ far: contrast(png, FAR) / base.far, near: contrast(png, NEAR) / base.near });
  const [a, b] = [kept(focusFar), kept(focusNear)];
  t.diagnostic(`focus far: far keeps ${a.far.toFixed(3)}, near ${a.near.toFixed(3)}; `
    + `focus near: near keeps ${b.near.toFixed(3)}, far ${b.far.toFixed(3)}`);
  assert.ok(a.far >= 0.9, `focused far, the far stripes keep ${a.far}`);
  assert.ok(a.near <= 0.3, `focused far, the near stripes keep ${a.near}`);
  assert.ok(b.near >= 0.9, `focused near, the near stripes keep ${b.near}`);
  assert.ok(b.far <= 0.3, `focused near, the far stripes keep ${b.far}`);
});
