// afterglow-hdr/three: afterglow behind a three.js WebGPURenderer.
//
// ThreePost renders a scene with the app's WebGPURenderer into a half-float
// render target of its own (two attachments through `mrt({ output, emissive })`:
// the lit scene and the emissive light alone, and its depth), then has an
// afterglow Renderer, on the same GPUDevice and canvas, bloom the emissive
// light, blur by depth (depthOfField) and tonemap the scene into the canvas. three.js never draws into the canvas meanwhile, so
// the canvas's configuration is afterglow's until dispose() hands it back.
import { RenderTarget, DepthTexture, HalfFloatType, FloatType, REVISION } from 'three/webgpu';
import { mrt, output, emissive } from 'three/tsl';
import { Renderer } from './index.js';

/** The three.js releases this package is tested with: the lowest with
 * `three/webgpu`, `three/tsl` and `mrt()`, and the newest tested
 * (package.json's `peerDependencies` says the same). */
const SUPPORTED = '>=0.167.0 <0.188.0';

// Errors shaped like afterglow's own (the `name` and fields that
// `AfterglowError` declares), so that one `switch (e.name)` handles both.
function argumentError(argument, message) {
  const e = new Error(`afterglow-hdr/three: ${argument} ${message}`);
  e.name = 'ArgumentError';
  e.argument = argument;
  return e;
}

function optionError(option, allowed, got) {
  const e = new Error(`afterglow-hdr/three: option ${option} must be ${allowed.join(' or ')}, got ${describe(got)}`);
  e.name = 'OptionError';
  e.option = option;
  e.allowed = allowed;
  return e;
}

function stateError(method, after = 'dispose()') {
  const what = method === 'selective' ? 'ThreePost.selective was set' : `ThreePost.${method}() was called`;
  const e = new Error(`afterglow-hdr/three: ${what} after ${after}`);
  e.name = 'StateError';
  e.method = method;
  e.state = 'destroyed';
  return e;
}

function describe(value) {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'object' && typeof value !== 'function') return String(value);
  const name = value.constructor?.name;
  return name ? `a ${name}` : 'an object';
}

// What three.js has no public API for, read here and only here. Each read
// checks what it finds, so that a three.js release that moves it fails at
// once, saying so, instead of drawing black.
const internals = {
  /** The renderer's GPUDevice. */
  device(renderer) {
    return checked(renderer.backend?.device, 'GPUDevice', 'renderer.backend.device');
  },
  /** The GPUTexture behind a render target's texture: it exists after the
   * first render into the target, and three.js replaces it when the target
   * is resized. */
  texture(renderer, texture) {
    const data = typeof renderer.backend?.get === 'function' ? renderer.backend.get(texture) : undefined;
    return checked(data?.texture, 'GPUTexture', 'renderer.backend.get(texture).texture');
  },
};

function checked(value, type, path) {
  if (Object.prototype.toString.call(value) === `[object ${type}]`) return value;
  throw new Error(`afterglow-hdr/three: three.js r${REVISION} has no ${type} at ${path} `
    + `(found ${describe(value)}), where afterglow-hdr/three reads it; `
    + `it supports three.js ${SUPPORTED}`);
}

function checkRenderer(renderer) {
  if (renderer === null || typeof renderer !== 'object' || renderer.isWebGPURenderer !== true) {
    const what = renderer?.isWebGLRenderer === true ? 'a WebGLRenderer' : describe(renderer);
    throw argumentError('renderer', `must be a three.js WebGPURenderer (from 'three/webgpu'), got ${what}`);
  }
  const ready = typeof renderer.hasInitialized === 'function'
    ? renderer.hasInitialized()
    : renderer.backend?.device != null; // three.js before r168: set by init()
  if (!ready) {
    throw argumentError('renderer', 'is not initialised yet: write `await renderer.init();` before ThreePost.create');
  }
  if (renderer.backend?.isWebGPUBackend !== true) {
    throw argumentError('renderer', 'uses three.js\'s WebGL 2 backend (no WebGPU here, or forceWebGL); '
      + 'afterglow needs its WebGPU backend');
  }
}

/** How afterglow reads the depth three.js wrote through `camera`: its
 * planes, its projection, whether the buffer is reversed (three.js's
 * `reversedDepthBuffer`). `null` where the depth cannot be read so (depth
 * of field then reports 'no-depth', and frames go on): a perspective
 * camera with a logarithmic depth buffer (three.js writes a logarithm of
 * the distance there; an orthographic camera's depth stays linear), a far
 * plane at infinity, or planes no camera could use (a perspective near
 * plane at or behind the lens, far not beyond near). */
function readCamera(renderer, camera) {
  const orthographic = camera.isOrthographicCamera === true;
  if (renderer.logarithmicDepthBuffer === true && !orthographic) return null;
  const reversedZ = camera.reversedDepth === true;
  const { near, far } = camera;
  if (!Number.isFinite(near) || !Number.isFinite(far) || !(far > near)) return null;
  if (!orthographic && !(near > 0)) return null;
  return { near, far, reversedZ, orthographic };
}

const created = Symbol('ThreePost.create');

/** The ThreePost each WebGPURenderer has, until it is disposed. */
const owners = new WeakMap();

/** A three.js WebGPURenderer's scene, bloomed and tonemapped by afterglow. */
export class ThreePost {
  #three;
  #renderer;
  #selective;
  #samples;
  #mrt;
  #target = null;
  #targetSelective = null;
  #size;
  #restore;
  #disposed = false;

  /** Use `await ThreePost.create(renderer, options)`. */
  constructor(token, three, renderer, selective, samples, size, restore) {
    if (token !== created) {
      throw new TypeError('afterglow-hdr/three: use `await ThreePost.create(renderer, options)`, not `new ThreePost()`');
    }
    this.#three = three;
    this.#renderer = renderer;
    this.#selective = selective;
    this.#samples = samples;
    this.#size = size;
    this.#restore = restore;
    this.#mrt = mrt({ output, emissive });
  }

  /**
   * An afterglow Renderer on `renderer`'s device and canvas. `options` are
   * `Renderer.create`'s (without `device` and `autoResize`: the device is
   * three.js's, and the size follows `renderer.setSize`), plus `selective`
   * (default `true`: only materials' emissive light blooms; `false`: the
   * whole scene does) and `samples` (MSAA of the scene, `4` or `1`, default `4`).
   */
  static async create(renderer, options = {}) {
    checkRenderer(renderer);
    if (options === null || typeof options !== 'object' || Array.isArray(options)) {
      throw argumentError('options', `must be an object, got ${describe(options)}`);
    }
    const { selective = true, samples = 4, ...rest } = options;
    if (typeof selective !== 'boolean') throw optionError('selective', [true, false], selective);
    if (samples !== 1 && samples !== 4) throw optionError('samples', [1, 4], samples);
    for (const key of ['device', 'autoResize']) {
      if (key in rest) {
        throw argumentError(`options.${key}`, key === 'device'
          ? "is not taken: ThreePost uses the WebGPURenderer's own device"
          : 'is not taken: ThreePost follows renderer.setSize() and setPixelRatio()');
      }
    }
    const device = internals.device(renderer);
    const canvas = renderer.domElement;
    // three.js's configuration of the canvas (if it has drawn into it), to
    // give back on dispose().
    const context = canvas?.getContext?.('webgpu');
    const previous = typeof context?.getConfiguration === 'function' ? context.getConfiguration() : null;
    const restore = () => {
      if (previous && !context.getConfiguration()) context.configure(previous);
    };
    let post;
    try {
      post = await Renderer.create(canvas, { ...rest, device, autoResize: false });
    } catch (e) {
      restore();
      // The canvas is taken by this renderer's own ThreePost: say so.
      if (e?.name === 'CanvasError' && owners.has(renderer)) {
        const twice = new Error('afterglow-hdr/three: this WebGPURenderer already has a ThreePost; '
          + 'dispose() that one first (or keep using it)');
        twice.name = 'CanvasError';
        throw twice;
      }
      throw e;
    }
    const made = new ThreePost(created, renderer, post, selective, samples, [canvas.width, canvas.height], restore);
    owners.set(renderer, made);
    return made;
  }

  /** The afterglow Renderer: options, stats, screenshots, auto exposure. */
  get renderer() {
    return this.#renderer;
  }

  /** Whether only the emissive light blooms (`true`) or the whole scene. */
  get selective() {
    return this.#selective;
  }

  set selective(value) {
    if (this.#disposed) throw stateError('selective');
    if (typeof value !== 'boolean') throw optionError('selective', [true, false], value);
    this.#selective = value;
  }

  /**
   * Renders `scene` through `camera` into the half-float target, then
   * afterglow into the canvas; `timeSeconds` goes to afterglow's
   * `render(timeSeconds)`. Follows the canvas's size (`renderer.setSize`,
   * `setPixelRatio`); draws nothing while it is 0×0.
   */
  render(scene, camera, timeSeconds) {
    if (this.#disposed) throw stateError('render');
    if (scene?.isObject3D !== true) {
      throw argumentError('scene', `must be a three.js Object3D (a Scene), got ${describe(scene)}`);
    }
    if (camera?.isCamera !== true) {
      throw argumentError('camera', `must be a three.js Camera, got ${describe(camera)}`);
    }
    const three = this.#three;
    const { width, height } = three.domElement;
    if (width === 0 || height === 0) return;
    if (width !== this.#size[0] || height !== this.#size[1]) {
      this.#renderer.resize(width, height);
      this.#size = [width, height];
    }
    const target = this.#targetFor(width, height);
    const previousTarget = three.getRenderTarget();
    const previousMRT = three.getMRT();
    three.setRenderTarget(target);
    three.setMRT(this.#selective ? this.#mrt : null);
    try {
      three.render(scene, camera);
    } finally {
      three.setMRT(previousMRT);
      three.setRenderTarget(previousTarget);
    }
    const color = internals.texture(three, target.textures[0]);
    const inputs = this.#selective ? { bloom: internals.texture(three, target.textures[1]) } : {};
    const depthCamera = readCamera(three, camera);
    if (depthCamera) {
      // A multisampled target keeps multisampled depth, which afterglow
      // reads at its first sample, as three.js reads it.
      inputs.depth = internals.texture(three, target.depthTexture);
      inputs.camera = depthCamera;
    }
    try {
      this.#renderer.setTexture(color, inputs);
    } catch (e) {
      // Its afterglow Renderer destroyed directly: say which call it was.
      if (e?.name === 'StateError' && e.state === 'destroyed') {
        throw stateError('render', 'post.renderer.destroy(): dispose() the ThreePost, or create another');
      }
      throw e;
    }
    if (timeSeconds === undefined) this.#renderer.render();
    else this.#renderer.render(timeSeconds);
  }

  /** `Renderer.addEffect`: an effect of your own, fused into afterglow's last pass. */
  addEffect(name, options) {
    if (this.#disposed) return Promise.reject(stateError('addEffect'));
    return this.#renderer.addEffect(name, options);
  }

  /** `Renderer.setEffectUniforms`. */
  setEffectUniforms(name, values) {
    if (this.#disposed) throw stateError('setEffectUniforms');
    this.#renderer.setEffectUniforms(name, values);
  }

  /** `Renderer.removeEffect`. */
  removeEffect(name) {
    if (this.#disposed) throw stateError('removeEffect');
    this.#renderer.removeEffect(name);
  }

  /** `Renderer.effects`: the names of your effects, in order. */
  effects() {
    if (this.#disposed) throw stateError('effects');
    return this.#renderer.effects();
  }

  /** The target for the current mode at this size: two attachments (named
   * like the `mrt()` outputs) when selective, one otherwise. */
  #targetFor(width, height) {
    if (this.#target && this.#targetSelective !== this.#selective) {
      this.#target.dispose();
      this.#target = null;
    }
    if (!this.#target) {
      const count = this.#selective ? 2 : 1;
      this.#target = new RenderTarget(width, height, {
        type: HalfFloatType, // rgba16float: linear radiance, above 1 where it is bright
        count,
        samples: this.#samples === 4 ? 4 : 0,
        depthBuffer: true,
        // Kept as a texture (32-bit float) for depth of field.
        depthTexture: new DepthTexture(width, height, FloatType),
      });
      this.#target.textures[0].name = 'output';
      if (count === 2) this.#target.textures[1].name = 'emissive';
      this.#targetSelective = this.#selective;
    } else if (this.#target.width !== width || this.#target.height !== height) {
      this.#target.setSize(width, height); // three.js replaces its textures
    }
    return this.#target;
  }

  /**
   * Frees the afterglow Renderer and the render target, and gives the
   * canvas back to three.js as it had configured it. The WebGPURenderer
   * and its device keep working. Later calls (but `dispose()`) throw a
   * `StateError`.
   */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    if (owners.get(this.#three) === this) owners.delete(this.#three);
    this.#target?.dispose();
    this.#target = null;
    try {
      this.#renderer.destroy();
    } catch (e) {
      // Already destroyed through `post.renderer.destroy()`: nothing left to free.
      if (e?.name !== 'StateError') throw e;
    }
    this.#restore();
  }
}

// `using post = await ThreePost.create(...)` where the browser has it.
if (typeof Symbol.dispose === 'symbol') ThreePost.prototype[Symbol.dispose] = ThreePost.prototype.dispose;
