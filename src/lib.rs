//! afterglow: an HDR renderer for the HTML canvas.
//!
//! The crate configures a canvas's WebGPU context (all seven fields of
//! `configure()`), renders content into an offscreen `rgba16float` target and
//! writes the result to the canvas texture it fetches every frame, encoding
//! sRGB exactly once. JavaScript uses it through [`web::Renderer`]
//! (wasm32 only); natively the same [`chain::Chain`] renders into any
//! texture, which is how it is tested on a software Vulkan device and
//! benchmarked on real GPUs.
//!
//! Layout: [`options`] (the option schema and validated options, pure
//! Rust), [`arguments`] (method arguments, pure Rust), [`error`] (typed
//! errors), [`gpu`] (device, errors, object counters), [`output`] (the
//! output encoding rules), [`targets`] (size-dependent textures),
//! [`passes`] (one module per pass), [`chain`] (the frame), [`readback`]
//! (pixels back to the CPU), and `web` (the JavaScript boundary).

pub mod arguments;
pub mod chain;
pub mod error;
pub mod gpu;
pub mod graph;
pub mod options;
pub mod output;
pub mod passes;
pub mod readback;
pub mod targets;
pub mod texture_rules;
pub mod timing;

#[cfg(target_arch = "wasm32")]
pub mod web;

#[cfg(not(target_arch = "wasm32"))]
pub mod headless;

pub use chain::{Chain, Content, PixelImage};
pub use error::Error;
pub use options::Options;
