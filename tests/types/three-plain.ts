// `afterglow-hdr/three` in a project without three.js's types (a
// JavaScript project's editor, or TypeScript without `@types/three`):
// the declarations stand alone. Compiled like consumer.ts (`strict`, the
// compiler's default `lib` and `target`, no `async`); never run.
import init from 'afterglow-hdr';
import {
  ThreePost,
  type ThreeCamera,
  type ThreeObject3D,
  type ThreePostOptions,
  type ThreeWebGPURenderer,
} from 'afterglow-hdr/three';

declare const renderer: ThreeWebGPURenderer;
declare const scene: ThreeObject3D;
declare const camera: ThreeCamera;

const options: ThreePostOptions = { selective: true, samples: 4, bloom: { intensity: 0.8 } };

function start(): Promise<void> {
  return init()
    .then(() => ThreePost.create(renderer, options))
    .then((post: ThreePost) => {
      post.render(scene, camera, 0.5);
      post.renderer.render();
      post.dispose();
    });
}

// Three.js's brand properties are what is checked.
const lookalike = { isWebGPURenderer: true } as const;
void ThreePost.create(lookalike);
// @ts-expect-error a renderer without the WebGPURenderer brand
void ThreePost.create({ isWebGLRenderer: true });
// @ts-expect-error a camera is an Object3D with `isCamera`
declare const post: ThreePost; post.render(scene, scene);

void start;
