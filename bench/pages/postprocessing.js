// pmndrs postprocessing: EffectComposer with half-float frame buffers,
// RenderPass, one EffectPass with BloomEffect (mipmap blur) and
// ToneMappingEffect (ACES; left out for tonemapper none), and for
// `antialias` SMAAEffect (preset HIGH, luma edges) or FXAAEffect last in
// the same EffectPass, as postprocessing's examples put it. Its buffers
// hold linear light: both effects read and blend linear values, and the
// pass encodes sRGB after them. The AA scene (`scene=aa`) with `bloom=off`
// has no bloom effect at all: the EffectPass holds only what is measured.
// The scene alone is renderer.render(scene, camera) into the composer's
// input buffer, as its RenderPass draws it, with no pass after it.
import * as THREE from 'three';
import {
  BloomEffect, EdgeDetectionMode, EffectComposer, EffectPass, FXAAEffect, RenderPass, SMAAEffect, SMAAPreset,
  ToneMappingEffect, ToneMappingMode,
} from 'postprocessing';
import { BLOOM, pageContent } from '../scene.js';
import { expose, glSyncer, glTimer, sizeCanvas } from './harness.js';
import { glslScene } from './glsl-scene.js';

const content = pageContent();
let renderer = null;
let composer = null;
let quad = null;
let antialias = null;
let uniforms = null;
let finish = null;

/** The effect for `mode`, once it can render: SMAAEffect decodes its
 * area and search images from data URLs after it is made, and renders
 * nothing useful until they have loaded. */
async function antialiasEffect(mode) {
  if (mode === 'fxaa') return new FXAAEffect();
  if (mode !== 'smaa') return null;
  const smaa = new SMAAEffect({ preset: SMAAPreset.HIGH, edgeDetectionMode: EdgeDetectionMode.LUMA });
  await new Promise((resolve, reject) => {
    smaa.addEventListener('load', resolve);
    setTimeout(() => reject(new Error('SMAAEffect: its area and search images did not load in 10 s')), 10_000);
  });
  return smaa;
}

expose({
  info: { library: 'postprocessing 6.39.6', backend: 'WebGL2' },
  async setup({ width, height, msaa }) {
    const canvas = sizeCanvas(width, height);
    // As postprocessing recommends: no antialias, depth or stencil on the canvas.
    renderer = new THREE.WebGLRenderer({
      canvas, antialias: false, depth: false, stencil: false, powerPreference: 'high-performance',
    });
    renderer.setPixelRatio(1);
    renderer.setSize(width, height, false);
    quad = glslScene(width, height, content);
    uniforms = quad.uniforms;
    composer = new EffectComposer(renderer, {
      frameBufferType: THREE.HalfFloatType,
      multisampling: msaa === 4 ? 4 : 0,
    });
    composer.addPass(new RenderPass(quad.scene, quad.camera));
    const effects = {
      matched: [new BloomEffect({ mipmapBlur: true, luminanceThreshold: BLOOM.threshold, intensity: BLOOM.postprocessing })],
      own: [new BloomEffect()],
      // The same passes adding nothing: the EffectPass also encodes sRGB.
      off: content.scene === 'aa' ? [] : [new BloomEffect({ intensity: 0 })],
    }[content.bloom];
    if (content.tonemapper === 'aces') effects.push(new ToneMappingEffect({ mode: ToneMappingMode.ACES_FILMIC }));
    antialias?.dispose();
    antialias = await antialiasEffect(content.antialias);
    composer.addPass(new EffectPass(quad.camera, ...effects, ...(antialias ? [antialias] : [])));
    composer.setSize(width, height, false);
    finish = glSyncer(renderer.getContext());
  },
  frame(t) {
    uniforms.time.value = t;
    composer.render();
  },
  scene(t) {
    uniforms.time.value = t;
    renderer.setRenderTarget(composer.inputBuffer);
    renderer.render(quad.scene, quad.camera);
    renderer.setRenderTarget(null);
  },
  async sync() {
    finish();
  },
  timer: glTimer(() => renderer.getContext()),
});
