// The floors every post chain is measured against: plain WebGPU, no
// library, the same scene function as the other pages.
//
//   ?floor=canvas  the scene straight into the canvas (through its -srgb
//                  view; with msaa 4, into a multisampled target resolved
//                  into the canvas): what a page without HDR spends
//   ?floor=hdr     the scene into rgba16float (resolved with msaa 4), then
//                  one pass that loads it, clamps it and writes the canvas:
//                  the least any HDR path spends
//   ?floor=clear   a frame that only clears the canvas: getCurrentTexture,
//                  one clearing pass, submit: the least CPU a WebGPU frame
//                  costs
//
// The scene alone (for 'hdr'; the other floors have nothing after their
// scene) is the scene pass by itself, into rgba16float: the target a post
// chain starts from. The GPU timer is a pair of timestamp queries around
// each pass, written only into the draws it measures.
import { WGSL_DISC, pageContent } from '../scene.js';
import { expose, sizeCanvas } from './harness.js';

const FLOORS = ['canvas', 'hdr', 'clear'];
const kind = new URLSearchParams(location.search).get('floor') ?? 'hdr';
if (!FLOORS.includes(kind)) throw new Error(`floor: '${kind}' is not one of ${FLOORS.join(', ')}`);
const content = pageContent();
if (content.antialias !== 'none') throw new Error(`antialias: this page has no '${content.antialias}'`);

const adapter = await navigator.gpu.requestAdapter();
const timestamps = adapter.features.has('timestamp-query');
const device = await adapter.requestDevice({ requiredFeatures: timestamps ? ['timestamp-query'] : [] });
device.addEventListener('uncapturederror', (e) => console.error(`floor: ${e.error.message}`));
const canvasFormat = navigator.gpu.getPreferredCanvasFormat();
const viewFormat = `${canvasFormat}-srgb`;
const HDR = 'rgba16float';

const module = device.createShaderModule({
  label: 'floor',
  code: `${content.wgslNeedsDisc ? WGSL_DISC : ''}
${content.wgsl}

struct Params { res: vec2f, time: f32, _pad: f32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var hdr: texture_2d<f32>;

struct Out { @builtin(position) position: vec4f, @location(0) uv: vec2f }

// One triangle over the whole target; uv runs 0..1 with y down.
@vertex fn vs(@builtin(vertex_index) i: u32) -> Out {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  var o: Out;
  o.position = vec4f(p * 2.0 - 1.0, 0.0, 1.0);
  o.uv = vec2f(p.x, 1.0 - p.y);
  return o;
}

@fragment fn fs_scene(o: Out) -> @location(0) vec4f {
  return bench_scene(o.uv, params.time, params.res);
}

@fragment fn fs_copy(o: Out) -> @location(0) vec4f {
  return clamp(textureLoad(hdr, vec2i(o.position.xy), 0), vec4f(0.0), vec4f(1.0));
}`,
});

const params = device.createBuffer({ label: 'floor params', size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
const sceneLayout = device.createBindGroupLayout({
  entries: [{ binding: 0, visibility: GPUShaderStage.FRAGMENT, buffer: {} }],
});
const copyLayout = device.createBindGroupLayout({
  entries: [{ binding: 1, visibility: GPUShaderStage.FRAGMENT, texture: { sampleType: 'unfilterable-float' } }],
});
const pipeline = (layout, entryPoint, format, count) => device.createRenderPipeline({
  layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
  vertex: { module, entryPoint: 'vs' },
  fragment: { module, entryPoint, targets: [{ format }] },
  multisample: { count },
});

let state = null;

// Timestamp queries, once the timer is on: a begin and end pair for each
// pass of a measured draw (`armed`), resolved and copied into `read`.
const MAX_PASSES = 2;
let timing = null;

/** The timestamp writes of the next pass, where this draw is measured. */
function passTimestamps() {
  if (!timing?.armed) return undefined;
  const i = timing.passes;
  timing.passes += 1;
  return { querySet: timing.queries, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 };
}

/** Before a measured draw submits: its timestamps into the read buffer. */
function resolveTimestamps(encoder) {
  if (!timing?.armed) return;
  encoder.resolveQuerySet(timing.queries, 0, 2 * timing.passes, timing.resolve, 0);
  encoder.copyBufferToBuffer(timing.resolve, 0, timing.read, 0, 16 * timing.passes);
}

function destroy() {
  for (const t of state?.textures ?? []) t.destroy();
  state = null;
}

expose({
  info: { library: `floor: ${kind}`, backend: 'WebGPU' },
  async setup({ width, height, msaa }) {
    destroy();
    const canvas = sizeCanvas(width, height);
    const context = canvas.getContext('webgpu');
    context.configure({ device, format: canvasFormat, viewFormats: [viewFormat], alphaMode: 'opaque' });
    device.queue.writeBuffer(params, 0, new Float32Array([width, height, 0, 0]));
    const target = (label, format, sampleCount, usage) => device.createTexture({ label, size: [width, height], format, sampleCount, usage });
    const textures = [];
    const s = { context, textures, msaa };
    if (kind !== 'clear') {
      const sceneFormat = kind === 'hdr' ? HDR : viewFormat;
      s.scene = pipeline(sceneLayout, 'fs_scene', sceneFormat, msaa);
      s.sceneGroup = device.createBindGroup({ layout: sceneLayout, entries: [{ binding: 0, resource: { buffer: params } }] });
      if (msaa === 4) {
        const multisampled = target('floor msaa', sceneFormat, 4, GPUTextureUsage.RENDER_ATTACHMENT);
        textures.push(multisampled);
        s.multisampled = multisampled.createView();
      }
    }
    if (kind === 'hdr') {
      const hdr = target('floor hdr', HDR, 1, GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING);
      textures.push(hdr);
      s.hdr = hdr.createView();
      s.copy = pipeline(copyLayout, 'fs_copy', viewFormat, 1);
      s.copyGroup = device.createBindGroup({ layout: copyLayout, entries: [{ binding: 1, resource: s.hdr }] });
    }
    state = s;
  },
  frame(t) {
    encode(t, false);
  },
  scene: kind === 'hdr' ? (t) => encode(t, true) : null,
  sync() {
    return device.queue.onSubmittedWorkDone();
  },
  timer: {
    name: 'timestamp-query (its passes summed)',
    async enable() {
      if (!timestamps) return "the adapter has no 'timestamp-query'";
      const buffer = (label, usage) => device.createBuffer({ label, size: 16 * MAX_PASSES, usage });
      timing = {
        queries: device.createQuerySet({ label: 'floor timestamps', type: 'timestamp', count: 2 * MAX_PASSES }),
        resolve: buffer('floor timestamps resolve', GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC),
        read: buffer('floor timestamps read', GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ),
        armed: false,
        passes: 0,
      };
      return null;
    },
    async measure(draw) {
      timing.armed = true;
      timing.passes = 0;
      try {
        draw();
      } finally {
        timing.armed = false;
      }
      const count = timing.passes;
      await timing.read.mapAsync(GPUMapMode.READ, 0, 16 * count);
      const ticks = new BigUint64Array(timing.read.getMappedRange(0, 16 * count));
      let ns = 0n;
      for (let i = 0; i < count; i++) ns += ticks[2 * i + 1] - ticks[2 * i];
      timing.read.unmap();
      return Number(ns) / 1e6;
    },
  },
});

/** Records and submits one frame at time t, or with `sceneOnly` its scene
 * pass alone ('hdr'). */
function encode(t, sceneOnly) {
  const s = state;
  device.queue.writeBuffer(params, 8, new Float32Array([t]));
  const encoder = device.createCommandEncoder();
  const canvasView = () => s.context.getCurrentTexture().createView({ format: viewFormat });
  const draw = (view, pipe, group, clear) => {
    const pass = encoder.beginRenderPass({
      colorAttachments: [s.msaa === 4 && pipe === s.scene
        ? { view: s.multisampled, resolveTarget: view, loadOp: 'clear', storeOp: 'discard' }
        : { view, loadOp: 'clear', storeOp: 'store', clearValue: clear }],
      timestampWrites: passTimestamps(),
    });
    if (pipe) {
      pass.setPipeline(pipe);
      pass.setBindGroup(0, group);
      pass.draw(3);
    }
    pass.end();
  };
  if (kind === 'clear') {
    draw(canvasView(), null, null, [0, 0, 0, 1]);
  } else if (kind === 'canvas') {
    draw(canvasView(), s.scene, s.sceneGroup);
  } else {
    draw(s.hdr, s.scene, s.sceneGroup);
    if (!sceneOnly) draw(canvasView(), s.copy, s.copyGroup);
  }
  resolveTimestamps(encoder);
  device.queue.submit([encoder.finish()]);
}
