// three.js WebGLRenderer + EffectComposer (half-float targets) + RenderPass +
// UnrealBloomPass + OutputPass (ACES or none, sRGB). The scene alone is
// renderer.render(scene, camera) into the half-float target the composer
// was made with, as its RenderPass draws, with no pass after it.
import * as THREE from 'three';
import { EffectComposer } from 'three/addons/postprocessing/EffectComposer.js';
import { RenderPass } from 'three/addons/postprocessing/RenderPass.js';
import { UnrealBloomPass } from 'three/addons/postprocessing/UnrealBloomPass.js';
import { OutputPass } from 'three/addons/postprocessing/OutputPass.js';
import { pageContent, unrealBloom } from '../scene.js';
import { expose, glSyncer, glTimer, sizeCanvas } from './harness.js';
import { glslScene } from './glsl-scene.js';

const content = pageContent();
if (content.antialias !== 'none') throw new Error(`antialias: this page has no '${content.antialias}'`);
let renderer = null;
let composer = null;
let uniforms = null;
let finish = null;
let quad = null;
let target = null;

expose({
  info: { library: `three.js ${THREE.REVISION} WebGLRenderer`, backend: 'WebGL2' },
  async setup({ width, height, msaa }) {
    const canvas = sizeCanvas(width, height);
    renderer = new THREE.WebGLRenderer({ canvas, antialias: false, powerPreference: 'high-performance' });
    renderer.setPixelRatio(1);
    renderer.setSize(width, height, false);
    renderer.toneMapping = content.tonemapper === 'aces' ? THREE.ACESFilmicToneMapping : THREE.NoToneMapping;
    quad = glslScene(width, height, content);
    uniforms = quad.uniforms;
    target = new THREE.WebGLRenderTarget(width, height, {
      type: THREE.HalfFloatType,
      samples: msaa === 4 ? 4 : 0,
    });
    composer = new EffectComposer(renderer, target);
    composer.addPass(new RenderPass(quad.scene, quad.camera));
    // strength, radius, threshold
    if (content.bloom !== 'off') composer.addPass(new UnrealBloomPass(new THREE.Vector2(width, height), ...unrealBloom(content)));
    composer.addPass(new OutputPass());
    finish = glSyncer(renderer.getContext());
  },
  frame(t) {
    uniforms.time.value = t;
    composer.render();
  },
  scene(t) {
    uniforms.time.value = t;
    renderer.setRenderTarget(target);
    renderer.render(quad.scene, quad.camera);
    renderer.setRenderTarget(null);
  },
  async sync() {
    finish();
  },
  timer: glTimer(() => renderer.getContext()),
});
