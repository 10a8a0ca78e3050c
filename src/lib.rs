//! afterglow: an HDR renderer for the HTML canvas.
//!
//! The crate configures a canvas's WebGPU context (all seven fields of
//! `configure()`), renders content into an offscreen `rgba16float` target and
//! writes the result to the canvas texture it fetches every frame, encoding
//! sRGB exactly once. JavaScript uses it through `web::Renderer`
//! (wasm32 only); natively the same [`chain::Chain`] renders into any
//! texture, which is how it is tested on a software Vulkan device and
//! benchmarked on real GPUs.
//!
//! Layout: [`options`] (the option schema and validated options, pure
//! Rust), [`arguments`] (method arguments, pure Rust), [`error`] (typed
//! errors), [`formats`] (texture formats by their WebGPU names),
//! [`settings`] (what the chain takes from the options), [`gpu`]
//! (device, errors, object counters), [`output`] (the output encoding
//! rules), [`shaders`] (the WGSL prelude), [`pipeline`] (pipelines and
//! layouts), [`passes`] (one module per pass), [`frame`] (the frame as
//! steps and graph, built by the passes), [`chain`] (orders the passes,
//! records frames), [`readback`] (pixels back to the CPU), and `web` (the
//! JavaScript boundary). See ARCHITECTURE.md.

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

pub mod arguments;
pub mod chain;
pub mod error;
pub mod formats;
pub mod frame;
pub mod gpu;
pub mod graph;
pub mod options;
pub mod output;
pub mod passes;
pub mod pipeline;
pub mod post;
pub mod readback;
pub mod settings;
pub mod shaders;
pub mod texture_rules;
pub mod timing;

#[cfg(target_arch = "wasm32")]
pub mod web;

#[cfg(not(target_arch = "wasm32"))]
pub mod headless;

pub use chain::{Chain, Content};
pub use error::Error;
pub use options::Options;
#[cfg(feature = "fixtures")]
pub use passes::content::PixelImage;
pub use post::PostChain;
pub use settings::ChainSettings;

/// The Rust snippet of the README's "Use it with your own renderer"
/// section, run by `cargo test --doc` as written, inside a hidden program
/// that checks its pixels (assembled by `build.rs`). Native only: the
/// program makes its own Vulkan device.
#[cfg(all(doctest, not(target_arch = "wasm32")))]
#[doc = include_str!(concat!(env!("OUT_DIR"), "/readme_post_chain.md"))]
pub struct ReadmePostChain;
