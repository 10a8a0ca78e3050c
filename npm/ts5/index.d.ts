// The package's entry point for TypeScript 5.1 to 5.9, whose DOM library
// has no WebGPU declarations: they come from `@webgpu/types` (a dependency
// of the package), which needs iterables and `SharedArrayBuffer` from the
// ES2015 and ES2017 libraries even where the compiler's `lib` is older.

/// <reference types="@webgpu/types" />
/// <reference lib="es2015.iterable" />
/// <reference lib="es2017.sharedmemory" />

export * from '../index.js';
export { default } from '../index.js';
