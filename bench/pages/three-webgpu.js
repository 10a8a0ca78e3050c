// three.js WebGPURenderer + RenderPipeline: pass() into a half-float target,
// TSL bloom(), ACES (or none) and sRGB in the pipeline's output transform.
// The scene is the same WGSL as afterglow's, through wgslFn.
import * as THREE from 'three/webgpu';
import { pass, uniform, uv, vec2, vec4, positionGeometry, wgslFn } from 'three/tsl';
import { bloom } from 'three/addons/tsl/display/BloomNode.js';
import { WGSL_DISC, BLOOM, pageContent } from '../scene.js';
import { expose, sizeCanvas } from './harness.js';

let renderer = null;
let pipeline = null;
const time = uniform(0);
const res = uniform(new THREE.Vector2(1, 1));

const content = pageContent();
if (content.antialias !== 'none') throw new Error(`antialias: this page has no '${content.antialias}'`);
const benchScene = wgslFn(content.wgsl, content.wgslNeedsDisc ? [wgslFn(WGSL_DISC)] : []);

const info = { library: `three.js ${THREE.REVISION} WebGPURenderer`, backend: 'not set up yet' };

expose({
  info,
  async setup({ width, height, msaa }) {
    const canvas = sizeCanvas(width, height);
    renderer = new THREE.WebGPURenderer({ canvas, antialias: false });
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
    const scene = new THREE.Scene();
    scene.add(quad);
    const camera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0, 1);

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
    time.value = t;
    pipeline.render();
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
});
