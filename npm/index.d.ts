// The package's entry point for TypeScript 6.0 and later, whose DOM library
// declares WebGPU (`GPUDevice`, `GPUTexture`, `GPUTextureFormat`). Older
// versions read `ts5/index.d.ts`, which adds `@webgpu/types` and re-exports
// this file (`exports` and `typesVersions` in package.json choose).
//
// The declarations of the wasm-bindgen module are re-exported by name:
// what it declares for its own glue (`InitOutput`, the raw exports) is
// not part of the API, and `init` and `initSync` are declared here with the
// wrapper's return type.

/// <reference lib="es2015.symbol" />

declare global {
  // `Renderer` has `[Symbol.dispose]()` (so that `using` frees it). Declared
  // here so that the declarations compile with any `lib`; merges with the
  // same declaration of `lib.esnext.disposable`.
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

export { Renderer } from './afterglow.js';
// Generated from the option table (src/options/table.rs) by src/tests/schema.rs;
// `AFTERGLOW_BLESS=1 cargo test --lib tests::schema` writes it again.
export type {
  AutoExposureOptions,
  BloomOptions,
  CanvasOptions,
  DepthOfFieldOptions,
  EffectiveOptions,
  GradingOptions,
  GrainOptions,
  LensOptions,
  RendererOptions,
  SharpenOptions,
  VignetteOptions,
} from './afterglow.js';
// End of the part generated from the option table.
export type {
  AfterglowError,
  ArgumentError,
  CanvasConfiguration,
  CanvasError,
  CreateOptions,
  DepthCamera,
  DeviceError,
  EffectOptions,
  GraphError,
  ImageOptions,
  ImageSourceInput,
  InitInput,
  OptionError,
  ReadbackError,
  RendererStats,
  ShaderError,
  StateError,
  StatsOptions,
  SyncInitInput,
  TextureOptions,
  TextureRuleError,
} from './afterglow.js';

import type { InitInput, SyncInitInput } from './afterglow.js';

/** What `init()` and `initSync()` resolve to: the instantiated WebAssembly
 * module's exports, of which only its memory is meant for callers. */
export interface AfterglowModule {
  readonly memory: WebAssembly.Memory;
}

/**
 * Loads and instantiates the WebAssembly module; await it once before
 * `Renderer.create`. Without an argument it fetches `afterglow_bg.wasm`
 * next to the package's JavaScript (bundlers rewrite that URL); pass
 * `{ module_or_path }` to load it from elsewhere.
 */
export default function init(
  module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<AfterglowModule>;

/** Instantiates the module synchronously from its bytes or a compiled `WebAssembly.Module`. */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): AfterglowModule;
