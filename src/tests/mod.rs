//! The suites that drive the whole chain through the crate's internals,
//! beside the code they test: natively on Vulkan (lavapipe under
//! `cargo test`), and in a browser (`wasm-pack test`). What uses only the
//! public API stays in the repository's `tests/` folder.

mod common;

#[cfg(not(target_arch = "wasm32"))]
mod antialias;

// Native: `cargo test --lib tests::<suite>`.
#[cfg(not(target_arch = "wasm32"))]
mod auto_exposure;
#[cfg(not(target_arch = "wasm32"))]
mod depth_of_field;
#[cfg(not(target_arch = "wasm32"))]
mod golden;
#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(not(target_arch = "wasm32"))]
mod post_native;
#[cfg(not(target_arch = "wasm32"))]
mod properties;
#[cfg(not(target_arch = "wasm32"))]
mod reference;
#[cfg(not(target_arch = "wasm32"))]
mod schema;
#[cfg(not(target_arch = "wasm32"))]
mod shaders;
#[cfg(not(target_arch = "wasm32"))]
mod upscale;

// Tools, run on request (`--ignored`; docs/developing.md): the per-pass
// GPU benchmark, one frame as a PNG, the plots of docs/.
#[cfg(not(target_arch = "wasm32"))]
mod bench;
#[cfg(not(target_arch = "wasm32"))]
mod plots;
#[cfg(not(target_arch = "wasm32"))]
mod snapshot;

// In a browser: `wasm-pack test --headless --chrome -- --lib`.
#[cfg(target_arch = "wasm32")]
mod browser;
#[cfg(target_arch = "wasm32")]
mod byo_browser;
#[cfg(target_arch = "wasm32")]
mod dof_browser;
#[cfg(target_arch = "wasm32")]
mod panic_browser;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// The arguments of a tool run as an ignored test, which takes no
/// command line of its own: `AFTERGLOW_ARGS`, split at whitespace.
#[cfg(not(target_arch = "wasm32"))]
fn tool_args() -> Vec<String> {
    std::env::var("AFTERGLOW_ARGS")
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}
