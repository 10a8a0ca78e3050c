// Generated from the option table (src/options/table.rs) by src/tests/schema.rs;
// `AFTERGLOW_BLESS=1 cargo test --lib tests::schema` writes it again.
/** Options of `Renderer.create` and `setOptions`. Every field is optional. */
export interface RendererOptions {
  canvas?: CanvasOptions;
  /** Samples per pixel of the scene: 4 smooths the edges of geometry, 1 renders faster.
   * Default `4`. */
  msaa?: 1 | 4;
  /** `'tonemapped'` is a resolve pass that tonemaps each sample before averaging, so bright
   * edges stay antialiased (needs msaa 4; keeps the multisampled color in memory).
   * Default `'hardware'`. */
  resolve?: 'hardware' | 'tonemapped';
  /** Multiplier on the scene radiance. A number above 0 up to 10000. Default `1`. */
  exposure?: number;
  /** The curve from HDR to the display range. Default `'agx'`. */
  tonemapper?: 'agx' | 'aces' | 'khronos-neutral' | 'reinhard' | 'none';
  /** Noise of one 8-bit step against banding (8-bit canvases). Default `true`. */
  dither?: boolean;
  /** Anti-aliasing of the displayed picture, after the curve: `'fxaa'` one pass, the
   * cheapest; `'smaa'` three passes, sharper. For edges a scene shader, an image or a
   * texture drew without MSAA. Default `'none'`. */
  antialias?: 'none' | 'fxaa' | 'smaa';
  bloom?: BloomOptions;
  autoExposure?: AutoExposureOptions;
  depthOfField?: DepthOfFieldOptions;
  lens?: LensOptions;
  vignette?: VignetteOptions;
  grading?: GradingOptions;
  grain?: GrainOptions;
  sharpen?: SharpenOptions;
  /** Size of the offscreen targets relative to the canvas. A number from 0.25 to 2.
   * Default `1`. */
  renderScale?: number;
  /** How the scene is scaled up to the canvas where `renderScale` is below 1: `'bilinear'`
   * the cheapest; `'edge'` edge-adaptive, sharp edges without ringing.
   * Default `'bilinear'`. */
  upscale?: 'bilinear' | 'edge';
  /** Keep the canvas at its displayed size in device pixels (an `HTMLCanvasElement` in the
   * page). Default `false`. */
  autoResize?: boolean;
  /** What the frame shows: `'bloom'` the bloom alone; `'exposure'` auto exposure's
   * histogram over the lower part, the metered range in white, its average in orange;
   * `'coc'` depth of field's circle of confusion (near red, far blue, in focus green).
   * Default `'none'`. */
  debug?: 'none' | 'bloom' | 'exposure' | 'coc';
}

/** Options of the canvas context, applied with `configure()`. */
export interface CanvasOptions {
  /** Canvas texture format. `'preferred'` is `navigator.gpu.getPreferredCanvasFormat()`;
   * `'rgba16float'` is for HDR displays. Default `'preferred'`. */
  format?: 'preferred' | 'rgba16float';
  /** `'opaque'` shows the canvas as a solid picture; `'premultiplied'` blends it over the
   * page by its alpha. Default `'opaque'`. */
  alphaMode?: 'opaque' | 'premultiplied';
  /** Color space the compositor reads the canvas in; a browser whose canvas keeps no
   * 'display-p3' (Firefox) refuses it with a CanvasError. Default `'srgb'`. */
  colorSpace?: 'srgb' | 'display-p3';
  /** `'extended'` lets values above 1 reach HDR displays; needs `format: 'rgba16float'`.
   * Default `'standard'`. */
  toneMapping?: 'standard' | 'extended';
  /** `'auto'` picks `'rgba16float'` with `'extended'` tone mapping while
   * `matchMedia('(dynamic-range: high)')` matches, the 8-bit path otherwise, and follows
   * changes; `format` and `toneMapping` then stay at their defaults. `'standard'`: `format`
   * and `toneMapping` as set. Default `'standard'`. */
  dynamicRange?: 'standard' | 'auto';
  /** How many times SDR white the display can show, for `'extended'` tone mapping: the
   * curve keeps the SDR picture and rolls highlights off up to this. Ignored with
   * `'standard'`. A number from 1 to 100. Default `2`. */
  headroom?: number;
  /** Adds `COPY_SRC` to the canvas usage so frames can be read back (`screenshot()`).
   * Default `false`. */
  screenshots?: boolean;
}

/** Bloom: bright extract, blur, added back in the composite pass. */
export interface BloomOptions {
  /** Whether light above the threshold glows; off, no bloom pass runs. Default `true`. */
  enabled?: boolean;
  /** Brightness (after exposure) above which light blooms. A number from 0 to 10000.
   * Default `1`. */
  threshold?: number;
  /** Softness of the threshold, 0 (hard) to 1. A number from 0 to 1. Default `0.5`. */
  knee?: number;
  /** How much blurred light is added back. A number from 0 to 100. Default `1.6`. */
  intensity?: number;
  /** Spread of the blur relative to the default; independent of resolution and
   * devicePixelRatio. A number from 0.1 to 4. Default `1`. */
  radius?: number;
  /** Most mip levels of the chain (a cost cap). A whole number from 1 to 12.
   * Default `7`. */
  levels?: number;
  /** `'mip'` (downsample/upsample chain) or `'gaussian'` (separable ping-pong).
   * Default `'mip'`. */
  blur?: 'mip' | 'gaussian';
  /** Gaussian mode: horizontal + vertical pass pairs. A whole number from 1 to 16.
   * Default `3`. */
  iterations?: number;
  /** `'additive'` adds the blur of the bright light; `'energy-conserving'` moves that light
   * to its neighbours (mixing by `intensity`, at most 1), keeping the frame's total.
   * Default `'additive'`. */
  mode?: 'additive' | 'energy-conserving';
  /** How much the lens dirt texture (`setLensDirt`) adds to the bloom where it is white:
   * the bloom is multiplied by 1 + dirtIntensity × dirt. No dirt texture, or 0: no cost. A
   * number from 0 to 16. Default `1`. */
  dirtIntensity?: number;
}

/** Auto exposure: the exposure adapts to the scene, metered on the GPU (a histogram of log
 * luminance averaged between two percentiles, aimed at mid grey). */
export interface AutoExposureOptions {
  /** Adapts the exposure to the scene, metered on the GPU; `exposure` multiplies on top.
   * Default `false`. */
  enabled?: boolean;
  /** The lowest exposure it may choose, in EV (log2 of the multiplier). A number from -20
   * to 0. Default `-10`. */
  minEv?: number;
  /** The highest exposure it may choose, in EV. A number from 0 to 20. Default `10`. */
  maxEv?: number;
  /** EV added to the metered exposure; positive is brighter. A number from -10 to 10.
   * Default `0`. */
  compensation?: number;
  /** How fast it brightens when the scene darkens, in EV per second. A number above 0 up to
   * 100. Default `3`. */
  speedBrighten?: number;
  /** How fast it darkens when the scene brightens, in EV per second. A number above 0 up to
   * 100. Default `1`. */
  speedDarken?: number;
  /** Where in the histogram the average starts, as a fraction of the pixels from the
   * darkest: 0.1 leaves out the darkest tenth. A number from 0 to 1. Default `0.1`. */
  lowPercentile?: number;
  /** Where in the histogram the average ends, as a fraction of the pixels from the darkest:
   * 0.9 leaves out the brightest tenth (small lights). Above lowPercentile. A number from 0
   * to 1. Default `0.9`. */
  highPercentile?: number;
  /** `'average'` weighs every pixel alike; `'center'` weighs the centre up to four times
   * the corners. Default `'average'`. */
  metering?: 'average' | 'center';
}

/** Depth of field: a thin lens's blur, from `setTexture`'s `depth`. Lengths in the camera's
 * units. */
export interface DepthOfFieldOptions {
  /** Blurs what is out of focus, from the scene's depth. Default `false`. */
  enabled?: boolean;
  /** Distance in focus, along the view; beyond focalLength. A number above 0 up to
   * 1000000000. Default `10`. */
  focusDistance?: number;
  /** The aperture as an f-number: smaller blurs more. A number from 0.5 to 128.
   * Default `2.8`. */
  fStop?: number;
  /** Focal length (0.05: 50 mm). A number above 0 up to 1000. Default `0.05`. */
  focalLength?: number;
  /** Sensor height (0.024: full frame). A number above 0 up to 1000. Default `0.024`. */
  sensorHeight?: number;
  /** Largest blur: a diameter in pixels at 1080p, scaled with the height. A number from 0
   * to 128. Default `16`. */
  maxBlur?: number;
}

/** The camera's lens. */
export interface LensOptions {
  /** Lens fringing, in output pixels at the corners: red is shifted outwards and blue
   * inwards by this much there, less towards the centre. 0: none, and no cost. A number
   * from 0 to 64. Default `0`. */
  chromaticAberration?: number;
}

/** Vignette: light darkened towards the corners, before the curve. */
export interface VignetteOptions {
  /** How much light the corners lose, before the curve (0: no vignette). Round on any
   * aspect ratio. A number from 0 to 1. Default `0`. */
  intensity?: number;
  /** Where the darkening starts, as a fraction of the distance from the centre to a corner.
   * A number from 0 to 1. Default `0.5`. */
  radius?: number;
  /** Over how much of that distance the darkening reaches its full strength. A number from
   * 0 to 1. Default `0.5`. */
  smoothness?: number;
}

/** Colour grading in scene-linear light, before the curve: one grade serves the SDR and the
 * HDR (headroom) output alike. At the defaults the composite leaves it out. */
export interface GradingOptions {
  /** White balance before the curve, -1 (cooler) to 1 (warmer): a chromatic adaptation
   * (CAT02) to D65 from a white on the daylight locus between about 4 300 K and 9 800 K. A
   * number from -1 to 1. Default `0`. */
  temperature?: number;
  /** White balance across the daylight locus, -1 (greener) to 1 (more magenta). A number
   * from -1 to 1. Default `0`. */
  tint?: number;
  /** Saturation in scene-linear light: 0 is grey, 1 leaves colours, 2 doubles their
   * distance from grey. A number from 0 to 2. Default `1`. */
  saturation?: number;
  /** Contrast of luminance in log space around mid grey (0.18), which stays where it is;
   * hue and saturation are kept. A number from 0 to 2. Default `1`. */
  contrast?: number;
  /** How much of the 3D lookup table (`setLut`) is mixed in, after the curve in display
   * space. No table, or 0: no cost. A number from 0 to 1. Default `1`. */
  lutIntensity?: number;
}

/** Film grain on the displayed picture. */
export interface GrainOptions {
  /** Film grain, animated by time and strongest in the mid-tones: at 1 a mid grey moves by
   * up to ±0.2 of the encoded range. 0: none, and no cost. A number from 0 to 1.
   * Default `0`. */
  intensity?: number;
  /** Size of a grain in output pixels: 1 is a grain per pixel at any resolution. A number
   * from 1 to 8. Default `1`. */
  size?: number;
}

/** Contrast-adaptive sharpening of the displayed picture, limited by each pixel's
 * neighbourhood so flat areas and already-sharp edges are left alone. */
export interface SharpenOptions {
  /** How much to sharpen, 0 (off) to 1, on display values after the curve and
   * anti-aliasing. Counters the softness of a low `renderScale` and of FXAA. A number from
   * 0 to 1. Default `0`. */
  amount?: number;
}

/** Every option with its effective value. */
export type EffectiveOptions = Required<Omit<RendererOptions, 'canvas' | 'bloom' | 'autoExposure' | 'depthOfField' | 'lens' | 'vignette' | 'grading' | 'grain' | 'sharpen'>> & {
  canvas: Required<CanvasOptions>;
  bloom: Required<BloomOptions>;
  autoExposure: Required<AutoExposureOptions>;
  depthOfField: Required<DepthOfFieldOptions>;
  lens: Required<LensOptions>;
  vignette: Required<VignetteOptions>;
  grading: Required<GradingOptions>;
  grain: Required<GrainOptions>;
  sharpen: Required<SharpenOptions>;
};
// End of the part generated from the option table.

/** What the canvas context was configured with (from `getConfiguration()`),
 * plus the canvas size in device pixels. */
export interface CanvasConfiguration {
  device: GPUDevice;
  format: GPUTextureFormat;
  usage: number;
  viewFormats: GPUTextureFormat[];
  colorSpace: 'srgb' | 'display-p3';
  toneMapping?: { mode: 'standard' | 'extended' };
  alphaMode: 'opaque' | 'premultiplied';
  width: number;
  height: number;
  /** With `dynamicRange: 'auto'`: whether the HDR path was chosen, and why
   * (the display's range, or what this browser's canvas lacks: an
   * `rgba16float` format, or `toneMapping: 'extended'`). */
  dynamicRange?: { hdr: boolean; why: string };
}

/** Sources `setImage` accepts. */
export type ImageSourceInput = ImageBitmap | HTMLImageElement | HTMLCanvasElement
  | HTMLVideoElement | OffscreenCanvas | ImageData;

/** Options of `Renderer.create`: the renderer's options, and the app's own device. */
export interface CreateOptions extends RendererOptions {
  /** A `GPUDevice` the app already uses. afterglow renders with it (adapting to its
   * features), never destroys it, and does not replace it when it is lost: `render()`
   * then throws a `DeviceError` with reason `'shared-device-lost'`. Needed by `setTexture`. */
  device?: GPUDevice;
}

/** Options of `setTexture()`. */
export interface TextureOptions {
  /** A second texture of the same size (typically the emissive target of the same
   * pass) that feeds the bloom instead of the scene: only what it holds glows. */
  bloom?: GPUTexture;
  /** The scene's depth, for depth of field (`depthOfField`), of the scene's size: a depth
   * texture (`depth32float`, `depth24plus`, `depth24plus-stencil8`, `depth16unorm`; its
   * depth aspect is read, with the `camera` that wrote it), or an `r32float` texture of
   * linear distance along the view direction (without a camera: one given with it is
   * refused). */
  depth?: GPUTexture;
  /** How `depth` is read: required with a depth texture, refused with an `r32float` one.
   * Another camera with the same textures only rewrites uniforms. */
  camera?: DepthCamera;
}

/** The camera that wrote a depth texture. */
export interface DepthCamera {
  /** Distance of the near plane, in the camera's units (above 0; any finite number for an
   * orthographic camera, negative behind it, as three.js's `OrthographicCamera` often has). */
  near: number;
  /** Distance of the far plane: finite, beyond `near`. */
  far: number;
  /** The depth buffer holds 1 at `near` and 0 at `far`. Default false. */
  reversedZ?: boolean;
  /** An orthographic projection (depth linear between the planes). Default false:
   * perspective. */
  orthographic?: boolean;
}

/** What `addEffect` takes besides its name (any string of 1 to 64 characters, such as
 * `'film-look'` or `'Tint 2'`): an effect of the page's own, fused into the composite pass. */
export interface EffectOptions {
  /** WGSL defining `fn effect(color: vec4f, uv: vec2f) -> vec4f`: premultiplied colour and
   * coverage in, the same out; `uv` is 0 to 1 over the output, y down. It may read its
   * uniforms as `uniforms.<name>`, its textures by name (`texture_2d<f32>`, sampled with
   * `effect_sampler`), `time()` (seconds, as given to `render`), `resolution()` (the
   * canvas in pixels) and `texel()` (one pixel in `uv`); in the `'scene'` stage also
   * `light_at(uv)`, the stage's light and coverage anywhere in the frame. Its top-level
   * names are its own. */
  wgsl: string;
  /** `'scene'`: linear HDR light before the curve (after exposure, bloom, vignette and
   * grading). `'display'`: linear display light after the curve and `antialias` (before
   * the lookup table, grain and encoding). Default `'scene'`. */
  stage?: 'scene' | 'display';
  /** The effect's uniforms and their first values: a number is an `f32`, an array of 2, 3
   * or 4 numbers a `vec2f`, `vec3f` or `vec4f`. At most 16. */
  uniforms?: Record<string, number | number[]>;
  /** The textures it reads, by their WGSL names: image sources (uploaded) or
   * `GPUTexture`s of the renderer's device. At most 4. */
  textures?: Record<string, ImageSourceInput | GPUTexture>;
}

export interface ImageOptions {
  /** Multiplier on the image's linear colour (so highlights can bloom), 0 to 10000. Default 1. */
  gain?: number;
}

/** Options of `stats()`. */
export interface StatsOptions {
  /** `true` turns per-pass GPU timing on (it stays on; off by default, since
   * it costs a timestamp query per pass and a readback per frame); `false`
   * turns it off. */
  gpu?: boolean;
}

export interface RendererStats {
  /** Frames rendered since creation. */
  frames: number;
  /** CPU milliseconds of the last `render()` call. */
  cpuMs: number;
  /** GPU milliseconds per pass of a recent frame, from timestamp queries;
   * `null` until `stats({ gpu: true })` turned timing on and results
   * arrived, or where the adapter has none (browsers may round to 0.1 ms). */
  gpuMs: Record<string, number> | null;
  /** `'unavailable'` where the device has no timestamp queries (then `gpuMs` stays
   * `null`), else whether `stats({ gpu })` turned per-pass timing `'on'` or `'off'`. */
  gpuTiming: 'on' | 'off' | 'unavailable';
  /** Bytes of the renderer's own GPU textures (offscreen targets, content). */
  gpuBytes: number;
  /** With `autoExposure` on, the exposure in use in EV (log2 of the multiplier,
   * `exposure` included), read back a few frames late; `null` until known or
   * with it off. */
  exposureEv: number | null;
  /** What depth of field does: `'off'`, `'on'`, or `'no-depth'` while it is enabled but
   * the content gives no depth (the demo scene, a shader, an image, a texture set
   * without `depth`): then no pass runs and the picture is the sharp one. */
  depthOfField: 'off' | 'on' | 'no-depth';
  configuration: CanvasConfiguration | null;
}

/* Errors. Every method throws (or rejects with) an `Error` whose `name`
 * says what kind it is and which carries the fields of that kind; its
 * `message` says the same in words. Test `error.name`: these are plain
 * `Error` objects, not subclasses. */

/** An option was refused (`Renderer.create`, `setOptions`, `setImage`'s `gain`, `stats`' `gpu`). */
export interface OptionError extends Error {
  name: 'OptionError';
  /** Dotted path of the option: `'bloom.radius'`, `'canvas.alphaMode'`. */
  option: string;
  /** What the option allows: an array of the values it takes (the choices, `[true, false]`,
   * `[1, 4]`, the keys of an options object, or what is left given the other options),
   * or a phrase for a range or shape (`'a number from 0.1 to 4'`, `'an object'`). */
  allowed: Array<string | number | boolean> | string;
}

/** A method argument that is not an option was refused: `canvas` (`create`),
 * `options` (not an object), `timeSeconds` (`render`), `width`/`height` (`resize`),
 * `wgsl` (`setSceneShader`), `source` (`setImage`), `texture`/`bloom` (`setTexture`). */
export interface ArgumentError extends Error {
  name: 'ArgumentError';
  argument: string;
}

/** A `setSceneShader` compilation error. */
export interface ShaderError extends Error {
  name: 'ShaderError';
  /** 1-based line in the given WGSL; 0 when the error is outside of it
   * (such as a missing `fn scene`). A `fn scene` (or `fn emissive`) whose
   * parameters or result do not match is reported at its declaration. */
  line: number;
  /** 1-based column; 0 with line 0. */
  column: number;
  /** The compiler's message after its first line (candidate overloads,
   * notes); `''` when it had one line. `message` carries the first. */
  details: string;
}

/** The frame's pass graph broke a rule: a bug in afterglow, caught before the GPU saw it. */
export interface GraphError extends Error {
  name: 'GraphError';
  /** The pass, e.g. `'bloom downsample 3'`. */
  pass: string;
  /** The attachment or view, e.g. `'bloom mip 4'`. */
  attachment: string;
}

/** A texture descriptor broke a rule of `createTexture`. */
export interface TextureRuleError extends Error {
  name: 'TextureRuleError';
  /** The texture's label. */
  texture: string;
  /** The rule, with the offending values. */
  rule: string;
}

/** No WebGPU, the GPU device was lost, or it ran out of memory. */
export interface DeviceError extends Error {
  name: 'DeviceError';
  /** `'no-webgpu'`, `'no-adapter'`, `'no-device'`: WebGPU is unavailable (`create`), or the
   * browser did not answer `requestAdapter()` or `requestDevice()` within 10 s;
   * `'lost'`: the device was lost and is being replaced; `'recovery-failed'`: `render()`
   * after three failed attempts at a new device; `'shared-device-lost'`: the device given
   * as `{ device }` was lost, and a new renderer is needed with the app's new device;
   * `'out-of-memory'`: `render()` after a resize or new options whose targets the device
   * could not allocate (nothing is rendered until a smaller size, renderScale or msaa). */
  reason: 'no-webgpu' | 'no-adapter' | 'no-device' | 'lost' | 'recovery-failed' | 'shared-device-lost' | 'out-of-memory';
}

/** A method was called when it cannot run. */
export interface StateError extends Error {
  name: 'StateError';
  /** The method called, e.g. `'render'`. */
  method: string;
  /** `'destroyed'`: after `destroy()`; `'busy'`: during another call on the renderer;
   * `'superseded'`: a `setSceneShader` overtaken by other content or a device loss;
   * `'broken'`: an earlier call panicked inside afterglow (a bug), so no call is trusted;
   * `'not-initialized'`: `Renderer.create` before `await init()` had finished. */
  state: 'destroyed' | 'busy' | 'superseded' | 'broken' | 'not-initialized';
}

/** The canvas could not be used (it has another kind of context, `configure()` threw). */
export interface CanvasError extends Error {
  name: 'CanvasError';
}

/** A frame could not be read back (`screenshot()` without `canvas.screenshots`, a 0×0 canvas). */
export interface ReadbackError extends Error {
  name: 'ReadbackError';
}

/** Every error afterglow throws. */
export type AfterglowError = OptionError | ArgumentError | ShaderError | GraphError
  | TextureRuleError | DeviceError | StateError | CanvasError | ReadbackError;
