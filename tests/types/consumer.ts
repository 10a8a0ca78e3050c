// A TypeScript program using every part of the package's API as its
// declarations describe it. It must compile with `strict` and the compiler's
// default `lib`; it is type-checked, never run. Written without `async`, which
// TypeScript before 6.0 rejects under its default target (ES5).
import init, {
  initSync,
  Renderer,
  type AfterglowError,
  type AfterglowModule,
  type CanvasConfiguration,
  type CreateOptions,
  type EffectiveOptions,
  type EffectOptions,
  type RendererOptions,
  type RendererStats,
} from 'afterglow-hdr';

const options: RendererOptions = {
  canvas: { format: 'rgba16float', alphaMode: 'premultiplied', colorSpace: 'display-p3', toneMapping: 'extended', screenshots: true },
  msaa: 4,
  resolve: 'tonemapped',
  exposure: 1.5,
  tonemapper: 'khronos-neutral',
  dither: false,
  bloom: { enabled: true, threshold: 1, knee: 0.5, intensity: 0.8, radius: 2, levels: 6, blur: 'gaussian', iterations: 4 },
  renderScale: 0.5,
  autoResize: true,
};

function describe(e: AfterglowError): string {
  switch (e.name) {
    case 'OptionError': return `${e.option}: ${Array.isArray(e.allowed) ? e.allowed.join(', ') : e.allowed}`;
    case 'ArgumentError': return e.argument;
    case 'ShaderError': return `${e.line}:${e.column} ${e.message}`;
    case 'DeviceError': return e.reason;
    case 'StateError': return `${e.method} ${e.state}`;
    case 'GraphError': return `${e.pass} ${e.attachment}`;
    case 'TextureRuleError': return `${e.texture} ${e.rule}`;
    case 'CanvasError':
    case 'ReadbackError': return e.message;
  }
}

function use(renderer: Renderer, device: GPUDevice, video: HTMLVideoElement): void {
  renderer.render();
  renderer.render(performance.now() / 1000);
  renderer.resize(640, 360);
  renderer.setOptions({ bloom: { radius: 0.5 } });
  renderer.setOptions({ canvas: { dynamicRange: 'auto' } });
  const effective: EffectiveOptions = renderer.options();
  const radius: number = effective.bloom.radius;
  const format: GPUTextureFormat = renderer.configuration().format;
  const configuration: CanvasConfiguration = renderer.configuration();
  const sameDevice: boolean = configuration.device === device;
  renderer.setSceneShader('fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(uv, 0.0, 1.0); }')
    .then(() => renderer.screenshot())
    .then((png: Blob) => png.size)
    .catch((e: AfterglowError) => describe(e));
  renderer.setImage(video, { gain: 4 });
  renderer.setImage(new ImageData(1, 1));
  const texture: GPUTexture = device.createTexture({
    size: [16, 16], format: 'rgba16float', usage: 0x04 | 0x10, // TEXTURE_BINDING | RENDER_ATTACHMENT
  });
  renderer.setTexture(texture, { bloom: texture });
  renderer.useDemoScene();
  const tint: EffectOptions = {
    wgsl: 'fn effect(color: vec4f, uv: vec2f) -> vec4f { return color * uniforms.k; }',
    stage: 'display',
    uniforms: { k: 0.5, tint: [1, 0.5, 0.25] },
    textures: { mask: texture, photo: video },
  };
  renderer.addEffect('tint', tint).catch((e: AfterglowError) => describe(e));
  renderer.setEffectUniforms('tint', { k: 0.25 });
  const effectNames: string[] = renderer.effects();
  renderer.removeEffect('tint');
  renderer.setOptions({ lens: { chromaticAberration: 2 }, grain: { intensity: 0.2, size: 1.5 } });
  void effectNames;
  const stats: RendererStats = renderer.stats({ gpu: true });
  const composite: number | undefined = stats.gpuMs?.['composite'];
  renderer.destroy();
  renderer[Symbol.dispose]();
  renderer.free();
  void [radius, format, sameDevice, composite];
}

function start(canvas: HTMLCanvasElement | OffscreenCanvas, device: GPUDevice, video: HTMLVideoElement): Promise<void> {
  const create: CreateOptions = { ...options, device };
  return init()
    .then((module: AfterglowModule) => module.memory.buffer.byteLength)
    .then(() => Renderer.create(canvas, create))
    .then((renderer) => use(renderer, device, video));
}

const compiled: AfterglowModule = initSync({ module: new Uint8Array(8) });
void [start, compiled, init({ module_or_path: new URL('https://example.com/afterglow_bg.wasm') })];
