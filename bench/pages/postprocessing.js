// pmndrs postprocessing: EffectComposer with half-float frame buffers,
// RenderPass, one EffectPass with BloomEffect (mipmap blur) and
// ToneMappingEffect (ACES; left out for tonemapper none).
import * as THREE from 'three';
import {
  BloomEffect, EffectComposer, EffectPass, RenderPass, ToneMappingEffect, ToneMappingMode,
} from 'postprocessing';
import { BLOOM, pageContent } from '../scene.js';
import { expose, glSyncer, sizeCanvas } from './harness.js';
import { glslScene } from './glsl-scene.js';

const content = pageContent();
let composer = null;
let uniforms = null;
let finish = null;

expose({
  info: { library: 'postprocessing 6.39.6', backend: 'WebGL2' },
  async setup({ width, height, msaa }) {
    const canvas = sizeCanvas(width, height);
    // As postprocessing recommends: no antialias, depth or stencil on the canvas.
    const renderer = new THREE.WebGLRenderer({
      canvas, antialias: false, depth: false, stencil: false, powerPreference: 'high-performance',
    });
    renderer.setPixelRatio(1);
    renderer.setSize(width, height, false);
    const quad = glslScene(width, height, content);
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
      off: [new BloomEffect({ intensity: 0 })],
    }[content.bloom];
    if (content.tonemapper === 'aces') effects.push(new ToneMappingEffect({ mode: ToneMappingMode.ACES_FILMIC }));
    composer.addPass(new EffectPass(quad.camera, ...effects));
    composer.setSize(width, height, false);
    finish = glSyncer(renderer.getContext());
  },
  frame(t) {
    uniforms.time.value = t;
    composer.render();
  },
  async sync() {
    finish();
  },
});
