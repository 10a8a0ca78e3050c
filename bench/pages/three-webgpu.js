// three.js WebGPURenderer + RenderPipeline: pass() into a half-float target,
// TSL bloom(), ACES (or none) and sRGB in the pipeline's output transform.
// The scene is the same WGSL as afterglow's, through wgslFn. The scene
// alone is renderer.render(scene, camera) into a half-float target of the
// pass()'s size and samples, with nothing after it. Its GPU timer is
// three.js's own (`trackTimestamp`, `resolveTimestampsAsync`), which can
// only be chosen when the renderer is made: turning it on builds the page
// again with it.
import * as THREE from 'three/webgpu';
import { pass, uniform, uv, vec2, vec4, positionGeometry, wgslFn } from 'three/tsl';
import { bloom } from 'three/addons/tsl/display/BloomNode.js';
import { WGSL_DISC, BLOOM, pageContent } from '../scene.js';
import { expose, sizeCanvas } from './harness.js';

let renderer = null;
let pipeline = null;
let scene = null;
let camera = null;
let sceneTarget = null;
let config = null;
const time = uniform(0);
const res = uniform(new THREE.Vector2(1, 1));

const content = pageContent();
if (content.antialias !== 'none') throw new Error(`antialias: this page has no '${content.antialias}'`);
const benchScene = wgslFn(content.wgsl, content.wgslNeedsDisc ? [wgslFn(WGSL_DISC)] : []);

const info = { library: `three.js ${THREE.REVISION} WebGPURenderer`, backend: 'not set up yet' };

/** What three.js's own animation loop does before each display frame
 * (renderers/common/Animation.js): a new node frame. pass() and bloom()
 * draw once per node frame, so without it a second frame() within one
 * display frame (frames queued back to back, or frames faster than the
 * display) would draw the output pass alone. */
function nextNodeFrame() {
  const nodeFrame = renderer._nodes?.nodeFrame;
  if (!nodeFrame) throw new Error(`three.js ${THREE.REVISION}: no renderer._nodes.nodeFrame to start a frame with`);
  if (renderer.info.autoReset) renderer.info.reset();
  nodeFrame.update();
  renderer.info.frame = nodeFrame.frameId;
}

expose({
  info,
  async setup({ width, height, msaa }, { timestamps = false } = {}) {
    config = { width, height, msaa };
    await renderer?.dispose();
    sceneTarget?.dispose();
    const canvas = sizeCanvas(width, height);
    renderer = new THREE.WebGPURenderer({ canvas, antialias: false, trackTimestamp: timestamps });
    await renderer.init();
    // WebGPURenderer falls back to WebGL 2 without telling; say which one ran.
    info.backend = renderer.backend.isWebGPUBackend ? 'WebGPU' : 'WebGL2 (fallback)';
    renderer.setPixelRatio(1);
    renderer.setSize(width, height, false);
    renderer.toneMapping = content.tonemapper === 'aces' ? THREE.ACESFilmicToneMapping : THREE.NoToneMapping;
    res.value.set(width, height);

    const material = new THREE.NodeMaterial();
    material.vertexNode = vec4(positionGeometry.xy, 0, 1);
    material.fragmentNode = benchScene({ uv: vec2(uv().x, uv().y.oneMinus()), time, res });
    material.depthTest = false;
    material.depthWrite = false;
    const quad = new THREE.Mesh(new THREE.PlaneGeometry(2, 2), material);
    quad.frustumCulled = false;
    scene = new THREE.Scene();
    scene.add(quad);
    camera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0, 1);
    sceneTarget = new THREE.RenderTarget(width, height, { type: THREE.HalfFloatType, samples: msaa === 4 ? 4 : 0 });

    const scenePass = pass(scene, camera, { samples: msaa === 4 ? 4 : 0 });
    const color = scenePass.getTextureNode('output');
    pipeline = new THREE.RenderPipeline(renderer);
    // strength, radius, threshold
    pipeline.outputNode = {
      matched: () => color.add(bloom(color, BLOOM.threeWebgpu, 0.4, BLOOM.threshold)),
      own: () => color.add(bloom(color)),
      off: () => color,
    }[content.bloom]();
    await renderer.compileAsync(scene, camera);
  },
  frame(t) {
    nextNodeFrame();
    time.value = t;
    pipeline.render();
  },
  scene(t) {
    nextNodeFrame();
    time.value = t;
    renderer.setRenderTarget(sceneTarget);
    renderer.render(scene, camera);
    renderer.setRenderTarget(null);
  },
  async sync() {
    if (renderer.backend.isWebGPUBackend) {
      await renderer.backend.device.queue.onSubmittedWorkDone();
    } else {
      const gl = renderer.getContext();
      gl.finish();
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    }
  },
  timer: {
    get name() {
      return renderer?.backend.isWebGPUBackend === false
        ? 'trackTimestamp (EXT_disjoint_timer_query_webgl2)' : 'trackTimestamp (timestamp-query)';
    },
    async enable() {
      await window.setup(config, { timestamps: true });
      // three.js turns tracking off where the WebGPU device has no
      // 'timestamp-query'; its WebGL 2 backend says whether it has the
      // extension in hasTimestamp.
      const on = renderer.backend.trackTimestamp && renderer.backend.hasTimestamp;
      return on ? null : `three.js's ${info.backend} backend has no timestamp queries here`;
    },
    async measure(draw) {
      // Each resolve takes every query written since the last one and
      // gives the summed passes of the latest frame among them: resolve
      // first so that the next holds this draw's passes alone.
      await renderer.resolveTimestampsAsync(THREE.TimestampQuery.RENDER);
      await renderer.resolveTimestampsAsync(THREE.TimestampQuery.COMPUTE);
      draw();
      const render = await renderer.resolveTimestampsAsync(THREE.TimestampQuery.RENDER);
      const compute = await renderer.resolveTimestampsAsync(THREE.TimestampQuery.COMPUTE);
      return typeof render === 'number' ? render + (compute ?? 0) : null;
    },
  },
});
