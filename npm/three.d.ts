// `afterglow-hdr/three` for TypeScript 6.0 and later (`ts5/three.d.ts`
// before that, as for the package's entry point).
//
// three.js ships no declarations of its own, and a project may have
// `@types/three` at any version or none at all: these declarations import
// nothing from three.js. They describe the objects ThreePost takes by the
// brand properties three.js itself sets on them and that ThreePost checks
// at run time (`isWebGPURenderer`, `isObject3D`, `isCamera`), so that
// `@types/three`'s `WebGPURenderer`, `Scene` and `PerspectiveCamera` are
// accepted as they are, and a `WebGLRenderer` or swapped arguments are not.

import type { EffectOptions, Renderer, RendererOptions } from './index.js';

/** A three.js `WebGPURenderer` (from `'three/webgpu'`), initialised with `await renderer.init()`. */
export interface ThreeWebGPURenderer {
  readonly isWebGPURenderer: true;
}

/** A three.js `Object3D`: the `Scene` to render (or any object of one). */
export interface ThreeObject3D {
  readonly isObject3D: true;
}

/** A three.js `Camera` (`PerspectiveCamera`, `OrthographicCamera`). */
export interface ThreeCamera extends ThreeObject3D {
  readonly isCamera: boolean;
}

/**
 * `Renderer.create`'s options, but `device` (ThreePost uses the
 * WebGPURenderer's) and `autoResize` (it follows `renderer.setSize` and
 * `setPixelRatio`), plus two of its own.
 */
export interface ThreePostOptions extends Omit<RendererOptions, 'autoResize'> {
  /** `true`: only materials' `emissive` light blooms (three.js's `mrt({ output, emissive })`);
   * `false`: the whole scene feeds the bloom. Default `true`. */
  selective?: boolean;
  /** Samples per pixel of three.js's render of the scene (its render target's MSAA). Default `4`. */
  samples?: 1 | 4;
}

/** A three.js WebGPURenderer's scene, bloomed and tonemapped by afterglow into the renderer's canvas. */
export declare class ThreePost {
  private constructor();
  /**
   * An afterglow `Renderer` on `renderer`'s device and canvas. `await init()`
   * (from `'afterglow-hdr'`) and `await renderer.init()` first. Rejects with
   * an `ArgumentError` naming `renderer` (not a WebGPURenderer, not
   * initialised, on the WebGL 2 backend) or `options`, an `OptionError`,
   * a `CanvasError` where `renderer` has a ThreePost already (dispose of
   * it first), or whatever `Renderer.create` rejects with. `msaa`,
   * `resolve` and `renderScale` do nothing here: three.js draws the scene
   * (`samples` is its MSAA).
   */
  static create(renderer: ThreeWebGPURenderer, options?: ThreePostOptions): Promise<ThreePost>;
  /** The afterglow `Renderer`: `setOptions`, `stats`, `screenshot`, auto exposure. */
  readonly renderer: Renderer;
  /** Whether only the emissive light blooms (`true`) or the whole scene. */
  selective: boolean;
  /**
   * Renders `scene` through `camera` into a half-float render target, then
   * afterglow into the canvas (`timeSeconds` as in `Renderer.render`). The
   * target's depth and the camera's planes (perspective or orthographic,
   * reversed where three.js's `reversedDepthBuffer` is on) go to afterglow
   * for depth of field (`renderer.setOptions({ depthOfField })`); a
   * perspective camera with a logarithmic depth buffer, an infinite far
   * plane or a near plane at 0 gives it none (`'no-depth'`).
   * Follows the canvas's size; draws nothing while it is 0×0. Throws an
   * `ArgumentError` naming `scene` or `camera`, a `StateError` after
   * `dispose()` or `renderer.destroy()`, and an `Error` naming the three.js release if that
   * release keeps its render targets' textures where this version does
   * not look.
   */
  render(scene: ThreeObject3D, camera: ThreeCamera, timeSeconds?: number): void;
  /** `Renderer.addEffect`: an effect of your own, fused into afterglow's last pass. */
  addEffect(name: string, options: EffectOptions): Promise<void>;
  /** `Renderer.setEffectUniforms`. */
  setEffectUniforms(name: string, values: Record<string, number | number[]>): void;
  /** `Renderer.removeEffect`. */
  removeEffect(name: string): void;
  /** `Renderer.effects`: the names of your effects, in order. */
  effects(): string[];
  /** Frees the afterglow Renderer and the render target and gives the canvas back to three.js. */
  dispose(): void;
  [Symbol.dispose](): void;
}
