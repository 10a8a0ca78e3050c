// What follows the README's three.js snippet in `three-snippet.ts` (the
// type test writes the snippet, verbatim, above this): the names it takes
// from the app, and the rest of `afterglow-hdr/three`'s API, with
// three.js's objects typed by `@types/three`. It must compile with
// `strict`; it is type-checked, never run.
import type { AfterglowError, EffectiveOptions } from 'afterglow-hdr';
import type { ThreeCamera, ThreeObject3D, ThreePostOptions, ThreeWebGPURenderer } from 'afterglow-hdr/three';

declare const canvas: HTMLCanvasElement;
declare const scene: THREE.Scene;
declare const camera: THREE.PerspectiveCamera;

const options: ThreePostOptions = {
  selective: false,
  samples: 1,
  exposure: 1.5,
  tonemapper: 'khronos-neutral',
  bloom: { intensity: 0.8, radius: 2 },
  canvas: { dynamicRange: 'auto' },
};

function more(three: THREE.WebGPURenderer, ortho: THREE.OrthographicCamera, group: THREE.Group): Promise<void> {
  const asRenderer: ThreeWebGPURenderer = three;
  const asObject: ThreeObject3D = group;
  const asCamera: ThreeCamera = ortho;
  void [asRenderer, asObject, asCamera];
  return ThreePost.create(three, options).then((other) => {
    other.render(group, ortho);
    other.render(scene, camera, 1.5);
    other.selective = !other.selective;
    other.renderer.setOptions({ bloom: { enabled: false } });
    void other.addEffect('tint', { wgsl: 'fn effect(color: vec4f, uv: vec2f) -> vec4f { return color; }' });
    other.setEffectUniforms('tint', {});
    const names: string[] = other.effects();
    other.removeEffect('tint');
    void names;
    const effective: EffectiveOptions = other.renderer.options();
    void effective.bloom.intensity;
    other.dispose();
    other[Symbol.dispose]();
  }, (e: AfterglowError) => {
    if (e.name === 'ArgumentError') void e.argument;
    if (e.name === 'OptionError') void e.option;
  });
}

void [post, more];
