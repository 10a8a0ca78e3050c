// The package's entry point: the declarations of the wasm-bindgen module,
// whose `init` and `initSync` index.js wraps with the same signatures.
export * from './afterglow.js';
export { default } from './afterglow.js';
