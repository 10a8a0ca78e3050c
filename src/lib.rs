//! afterglow: an HDR renderer for the HTML canvas, and the same HDR post
//! chain for a wgpu program that renders its own scene.
//!
//! In a page, JavaScript drives it (`Renderer.create(canvas)`; see the
//! README). In Rust, [`PostChain`] is the API: bloom (a mip chain or a
//! Gaussian blur, selective through a second texture), exposure, a
//! tonemapping curve ([`Tonemapper`]), dithering and output encoding,
//! recorded into your command encoder from your `Rgba16Float` scene into
//! your surface view, on your device. [`Options`] are the JavaScript
//! renderer's options as Rust fields, checked by the same table; every
//! refusal is an [`Error`] naming the option or argument, returned before
//! wgpu sees the call.
//!
//! ```no_run
//! use afterglow::{wgpu, Options, PostChain};
//!
//! # fn frame(device: &wgpu::Device, queue: &wgpu::Queue, hdr: &wgpu::TextureView,
//! #          surface: &wgpu::TextureView) -> Result<(), afterglow::Error> {
//! let format = wgpu::TextureFormat::Bgra8UnormSrgb;
//! let mut options = Options::default();
//! options.tonemapper = afterglow::Tonemapper::Aces;
//! let mut post = PostChain::new(device, queue, format, &options)?;
//!
//! let mut encoder = device.create_command_encoder(&Default::default());
//! // … your passes into `hdr` …
//! post.render(&mut encoder, hdr, None, surface, format)?;
//! queue.submit([encoder.finish()]);
//! # Ok(()) }
//! ```
//!
//! The crate re-exports the [`wgpu`] it is built with (WebGPU in the wasm
//! build, Vulkan natively). How a frame flows through the chain is in
//! ARCHITECTURE.md.

// Dead code is reported by the wasm build, which compiles everything the
// package ships (the web boundary and `PostChain`); `cargo xtask test`
// denies its warnings. A native build has no web boundary, so what only
// the web uses would be reported there; and a test build holds the test
// hooks of both test builds, the native suites' and the browser suites',
// each unused by the other.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code, unused_imports))]
#![cfg_attr(test, allow(dead_code))]

/// The wasm build's allocator: talc, smaller than dlmalloc in the shipped
/// wasm. Single-threaded (no atomics), as the web build is.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// A shader of `shaders/` as the crate ships it: minified at build time by
/// `build.rs` (no comments, no indentation; the same tokens).
macro_rules! wgsl {
    ($name:literal) => {
        include_str!(concat!(env!("OUT_DIR"), "/", $name))
    };
}

// The crate's modules. Only the items re-exported below are its API: the
// modules are private. Their tests sit beside them, and the suites that
// drive the whole chain are in `tests` (`cargo test --lib`; in a browser,
// `wasm-pack test`).
mod arguments;
mod chain;
mod effect;
mod effects;
mod error;
mod formats;
mod frame;
mod gpu;
mod graph;
/// The chain into an ordinary texture: the native tests and benchmarks.
#[cfg(all(not(target_arch = "wasm32"), test))]
mod headless;
#[cfg(target_arch = "wasm32")]
mod js;
mod lut;
mod options;
mod output;
mod pass;
mod passes;
mod pipeline;
mod post;
mod readback;
mod shaders;
mod texture_rules;
mod timing;
mod uniform;
mod user_effect;
#[cfg(target_arch = "wasm32")]
mod web;
mod wgsl;

/// The wgpu this crate is built with: name its types through
/// `afterglow::wgpu` and the versions cannot disagree.
pub use wgpu;

pub use lut::Lut;
// The options and every struct and enum of their groups and values: a
// new group's type is public by being declared in `options::types`.
pub use options::types::*;
pub use options::{Allowed, AllowedValue};
pub use post::{
    display_headroom, ArgumentError, Camera, Depth, DepthOfFieldState, Effect, EffectStage, Error,
    InternalError, OptionError, Output, PostChain, ShaderError, UniformValue,
};

// What the crate's suites reach by name.
#[cfg(test)]
use {chain::Content, passes::content::PixelImage};

/// The Rust snippet of the README's "Quick start: Rust with wgpu"
/// section, run by `cargo test --doc` as written, inside a hidden program
/// that checks its pixels (assembled by `build.rs`). Native only: the
/// program makes its own Vulkan device.
#[cfg(all(doctest, not(target_arch = "wasm32")))]
#[doc = include_str!(concat!(env!("OUT_DIR"), "/readme_post_chain.md"))]
pub struct ReadmePostChain;

/// The suites that drive the whole chain through the crate's internals:
/// natively on Vulkan (lavapipe in `cargo test`), and in a browser
/// (`wasm-pack test`), where they run in one wasm instance. The one test
/// that panics on purpose, which leaves its instance unusable, is
/// `#[ignore]`d there and run alone in an instance of its own
/// (`wasm-pack test --headless --chrome -- --lib -- --include-ignored
/// tests::panic_browser`): it stays in the crate, with its hook under
/// `cfg(test)`, so the package exports nothing for it. The benchmark, the
/// snapshot and the plots are `#[ignore]`d native tests too
/// (docs/developing.md).
#[cfg(test)]
mod tests;
