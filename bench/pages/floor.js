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
import { WGSL_DISC, pageContent } from '../scene.js';
import { expose, sizeCanvas } from './harness.js';

const FLOORS = ['canvas', 'hdr', 'clear'];
const kind = new URLSearchParams(location.search).get('floor') ?? 'hdr';
if (!FLOORS.includes(kind)) throw new Error(`floor: '${kind}' is not one of ${FLOORS.join(', ')}`);
const content = pageContent();
if (content.antialias !== 'none') throw new Error(`antialias: this page has no '${content.antialias}'`);

const adapter = await navigator.gpu.requestAdapter();
const device = await adapter.requestDevice();
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
    const s = state;
    device.queue.writeBuffer(params, 8, new Float32Array([t]));
    const canvasView = s.context.getCurrentTexture().createView({ format: viewFormat });
    const encoder = device.createCommandEncoder();
    const draw = (view, pipe, group, clear) => {
      const pass = encoder.beginRenderPass({
        colorAttachments: [s.msaa === 4 && pipe === s.scene
          ? { view: s.multisampled, resolveTarget: view, loadOp: 'clear', storeOp: 'discard' }
          : { view, loadOp: 'clear', storeOp: 'store', clearValue: clear }],
      });
      if (pipe) {
        pass.setPipeline(pipe);
        pass.setBindGroup(0, group);
        pass.draw(3);
      }
      pass.end();
    };
    if (kind === 'clear') {
      draw(canvasView, null, null, [0, 0, 0, 1]);
    } else if (kind === 'canvas') {
      draw(canvasView, s.scene, s.sceneGroup);
    } else {
      draw(s.hdr, s.scene, s.sceneGroup);
      draw(canvasView, s.copy, s.copyGroup);
    }
    device.queue.submit([encoder.finish()]);
  },
  sync() {
    return device.queue.onSubmittedWorkDone();
  },
});
