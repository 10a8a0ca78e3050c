//! What a link of the chain is: the [`Pass`] trait the chain drives, and
//! uniform blocks declared once in Rust with a layout a test compares to
//! their WGSL. Passes (`crate::passes`) take their pipeline helpers from
//! here too, so no pass module reaches up into the list that names it.

use crate::error::Error;
use crate::frame::{FrameBuilder, FrameInfo};
use crate::gpu::Gpu;
use crate::options::Options;
use crate::output::OutputSpec;

pub use crate::pipeline::*;
pub use crate::shaders::shader_module;

/// A link of the chain. `Send + Sync` natively (so is a chain), as wgpu's
/// objects are.
pub trait Pass: wgpu::WasmNotSendSync {
    /// Adds this pass's steps to the frame being built (none while it is
    /// off), reading and publishing slots on the builder.
    fn build(&self, frame: &mut FrameBuilder<'_>) -> Result<(), Error>;

    /// Writes the uniforms that depend on the settings and the frame.
    fn write_params(
        &self,
        _queue: &wgpu::Queue,
        _settings: &Options,
        _output: &OutputSpec,
        _info: &FrameInfo,
    ) {
    }

    /// Per frame, before recording: uniforms that change every frame.
    fn prepare(&self, _queue: &wgpu::Queue, _info: &FrameInfo, _time: f32) {}

    /// Draws a step this pass added with [`crate::frame::Draw::ByPass`].
    fn draw(&self, _pass: &mut wgpu::RenderPass<'_>) {}

    /// Forgets what the pass carries from frame to frame (an adapted
    /// exposure), for a camera cut.
    fn reset_history(&self) {}

    /// After the frame's passes, in the same encoder: copies for reading
    /// results back.
    fn finish_frame(&self, _encoder: &mut wgpu::CommandEncoder) {}

    /// Adds what the pass last read back to the chain's report.
    fn report(&self, _report: &mut PassReport) {}
}

/// What passes read back from the GPU, a few frames late.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PassReport {
    /// The exposure in use in EV (log2 of the multiplier), with auto
    /// exposure on.
    pub exposure_ev: Option<f64>,
}

pub(crate) use crate::uniform::uniform;
#[cfg(test)]
pub use crate::uniform::Uniform;

/// Where a pass sits in the frame. The chain runs the scene first, then
/// the registered passes by stage, in registration order within a stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Makes the HDR image (the scene, the tonemapped resolve).
    Scene,
    /// Reads the current HDR image and writes the next one
    /// ([`FrameBuilder::swap_hdr`]): effects before the bloom sees it
    /// (depth of field, the tests' example effect).
    HdrEffect,
    /// Measures the final HDR image (auto exposure) before anything
    /// applies the exposure.
    Measure,
    /// Blurs the bright parts into the bloom slot.
    Bloom,
    /// Writes the output.
    Composite,
}

/// A pass as the chain registers it (`crate::passes::PASSES`): its stage,
/// how it is made, and, for the tests, what it compiles.
pub struct Registration {
    pub stage: Stage,
    /// Makes the pass on a device. `None` for the scene, which the chain
    /// holds itself (it draws the content the chain is given).
    pub make: Option<fn(&Gpu) -> Box<dyn Pass>>,
    /// Its shader modules, each by name as the GPU receives it.
    #[cfg(test)]
    pub shaders: fn() -> Vec<(&'static str, String)>,
    /// Its uniform blocks, with the WGSL that declares each.
    #[cfg(test)]
    pub uniforms: fn() -> Vec<UniformLayout>,
}

/// A uniform block as Rust lays it out: the WGSL source that declares it,
/// the struct name, its size and its fields' offsets.
#[cfg(test)]
pub type UniformLayout = (String, &'static str, usize, Vec<(&'static str, usize)>);

/// The layout of `U`, declared in the shader made of `parts`.
#[cfg(test)]
pub fn uniform_layout<U: Uniform>(parts: &[&str]) -> UniformLayout {
    (
        crate::shaders::compose(parts),
        U::WGSL_NAME,
        std::mem::size_of::<U>(),
        U::offsets(),
    )
}
