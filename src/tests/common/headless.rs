//! A renderer on lavapipe, for the native suites.

use crate::headless::{vulkan_gpu, Headless};
use crate::options::{CanvasFormat, Options};
use crate::output::OutputSpec;
use crate::readback::Image;

/// A renderer on lavapipe writing into an output of `format`, with the
/// canvas options `options` has (its format follows `format`).
pub fn headless_with(
    mut options: Options,
    format: wgpu::TextureFormat,
    size: (u32, u32),
) -> Headless {
    let gpu =
        pollster::block_on(vulkan_gpu()).expect("a Vulkan adapter (lavapipe: mesa-vulkan-drivers)");
    options.canvas.format = if format == wgpu::TextureFormat::Rgba16Float {
        CanvasFormat::Rgba16Float
    } else {
        CanvasFormat::Preferred
    };
    let output = OutputSpec::new(
        format,
        options.canvas.alpha_mode,
        options.canvas.tone_mapping,
        options.canvas.color_space,
    )
    .expect("valid output");
    Headless::new(gpu, output, options, size).expect("renderer")
}

/// The frame at time `t`, read back; no GPU error may have happened.
pub fn frame(h: &Headless, t: f64) -> Image {
    let img = pollster::block_on(h.render_and_read(t)).expect("readback");
    assert_eq!(
        h.gpu.error_count(),
        0,
        "GPU errors: {:?}",
        h.gpu.last_error()
    );
    img
}
