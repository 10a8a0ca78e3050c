// `afterglow-hdr/three` for TypeScript 5.1 to 5.9: the same declarations,
// with the WebGPU types of `@webgpu/types` (see `index.d.ts` here).

/// <reference types="@webgpu/types" />
/// <reference lib="es2015.iterable" />
/// <reference lib="es2017.sharedmemory" />

export * from '../three.js';
