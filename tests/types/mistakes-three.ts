// Deliberate mistakes with `afterglow-hdr/three`, each marked
// `@ts-expect-error` (see mistakes.ts), with three.js's objects typed by
// `@types/three`.
import * as THREE from 'three/webgpu';
import { WebGLRenderer } from 'three';
import { ThreePost } from 'afterglow-hdr/three';

declare const post: ThreePost;
declare const renderer: THREE.WebGPURenderer;
declare const scene: THREE.Scene;
declare const camera: THREE.PerspectiveCamera;
declare const canvas: HTMLCanvasElement;

// @ts-expect-error the constructor is private: ThreePost.create() makes them
void new ThreePost();
// @ts-expect-error a WebGPURenderer, not a WebGLRenderer
void ThreePost.create(new WebGLRenderer());
// @ts-expect-error the renderer, not its canvas
void ThreePost.create(canvas);
// @ts-expect-error the device is the renderer's
void ThreePost.create(renderer, { device: undefined as unknown as GPUDevice });
// @ts-expect-error the size follows renderer.setSize
void ThreePost.create(renderer, { autoResize: true });
// @ts-expect-error selective is a boolean
void ThreePost.create(renderer, { selective: 'emissive' });
// @ts-expect-error 1 or 4 samples
void ThreePost.create(renderer, { samples: 2 });
// @ts-expect-error afterglow's options are checked too
void ThreePost.create(renderer, { bloom: { blur: 'box' } });
// @ts-expect-error the scene first, then the camera
post.render(camera, scene);
// @ts-expect-error a camera is needed
post.render(scene);
// @ts-expect-error the time is a number of seconds
post.render(scene, camera, '0');
// @ts-expect-error the afterglow renderer is not replaced
post.renderer = post.renderer;
// @ts-expect-error selective is a boolean
post.selective = 1;
