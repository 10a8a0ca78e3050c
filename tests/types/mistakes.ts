// Deliberate mistakes a user can make with the API. Each is marked
// `@ts-expect-error`, so the file compiles only if the declarations reject
// every one of them: a declaration loose enough to accept one (an `any`, a
// `string` where a union belongs) makes the compiler report the directive as
// unused, and the type test fail.
import init, { Renderer, type AfterglowError, type RendererOptions } from 'afterglow-hdr';

declare const renderer: Renderer;
declare const canvas: HTMLCanvasElement;
declare const error: AfterglowError;

// @ts-expect-error the constructor is private: Renderer.create() makes renderers
void new Renderer();
// @ts-expect-error a canvas, not a selector
void Renderer.create('#canvas');
// @ts-expect-error WGSL is a string
void renderer.setSceneShader(42);
// @ts-expect-error an effect needs its WGSL
void renderer.addEffect('tint', { stage: 'scene' });
// @ts-expect-error no such stage
void renderer.addEffect('tint', { wgsl: '', stage: 'after' });
// @ts-expect-error uniforms are numbers or arrays of numbers
renderer.setEffectUniforms('tint', { k: 'red' });
// @ts-expect-error the time is a number of seconds
renderer.render('0');
// @ts-expect-error both width and height
renderer.resize(640);
// @ts-expect-error an image source, not its URL
renderer.setImage('photo.png');
// @ts-expect-error a GPUTexture, not a canvas
renderer.setTexture(canvas);
// @ts-expect-error no such blur
renderer.setOptions({ bloom: { blur: 'box' } });
// @ts-expect-error WebGPU allows 1 or 4 samples
renderer.setOptions({ msaa: 2 });
// @ts-expect-error no such tonemapper
renderer.setOptions({ tonemapper: 'filmic' });
// @ts-expect-error the canvas format is 'preferred' or 'rgba16float'
renderer.setOptions({ canvas: { format: 'bgra8unorm' } });
// @ts-expect-error dynamicRange is 'standard' or 'auto'
renderer.setOptions({ canvas: { dynamicRange: 'hdr' } });
// @ts-expect-error a misspelt option
renderer.setOptions({ bloomm: { intensity: 1 } });
// @ts-expect-error a number, not a string
const intensity: RendererOptions = { bloom: { intensity: '0.8' } };
// @ts-expect-error effective options are numbers
const radius: string = renderer.options().bloom.radius;
// @ts-expect-error gpuMs is null until GPU timing results arrive
const composite: number | undefined = renderer.stats().gpuMs['composite'];
// @ts-expect-error screenshot() is a promise of a Blob
const png: Blob = renderer.screenshot();
// @ts-expect-error `line` belongs to ShaderError, not to every error
void error.line;
if (error.name === 'DeviceError') {
  // @ts-expect-error no such reason
  void (error.reason === 'gone');
}
// @ts-expect-error init() resolves to the module's memory, not its raw exports
void init().then((m) => m.renderer_create);
// @ts-expect-error the wasm-bindgen glue's own types are not part of the API
import type { InitOutput } from 'afterglow-hdr';

void [intensity, radius, composite, png];
