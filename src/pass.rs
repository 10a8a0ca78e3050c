//! What a link of the chain is: the [`Pass`] trait the chain drives, and
//! uniform blocks declared once in Rust with a layout a test compares to
//! their WGSL. Passes (`crate::passes`) take their pipeline helpers from
//! here too, so no pass module reaches up into the list that names it.

use crate::error::Error;
use crate::frame::{FrameBuilder, FrameInfo};
use crate::output::OutputSpec;
use crate::settings::ChainSettings;

pub use crate::pipeline::*;
pub use crate::shaders::shader_module;

/// A link of the chain.
pub trait Pass {
    /// Adds this pass's steps to the frame being built (none while it is
    /// off), reading and publishing slots on the builder.
    fn build(&self, frame: &mut FrameBuilder<'_>) -> Result<(), Error>;

    /// Writes the uniforms that depend on the settings and the frame.
    fn write_params(
        &self,
        _queue: &wgpu::Queue,
        _settings: &ChainSettings,
        _output: &OutputSpec,
        _info: &FrameInfo,
    ) {
    }

    /// Per frame, before recording: uniforms that change every frame.
    fn prepare(&self, _queue: &wgpu::Queue, _info: &FrameInfo, _time: f32) {}

    /// Draws a step this pass added with [`crate::frame::Draw::ByPass`].
    fn draw(&self, _pass: &mut wgpu::RenderPass<'_>) {}
}

/// A uniform block shared with WGSL: its WGSL struct name and the byte
/// offset of every Rust field, so a test can compare both layouts.
#[cfg(feature = "fixtures")]
pub trait Uniform: bytemuck::Pod {
    const WGSL_NAME: &'static str;
    fn offsets() -> Vec<(&'static str, usize)>;
}

/// Declares a `#[repr(C)]` uniform struct and its [`Uniform`] layout.
macro_rules! uniform {
    ($(#[$meta:meta])* struct $name:ident { $($field:ident : $ty:ty),* $(,)? }) => {
        $(#[$meta])*
        #[repr(C)]
        #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
        pub struct $name { $(pub $field: $ty),* }
        #[cfg(feature = "fixtures")]
        impl $crate::pass::Uniform for $name {
            const WGSL_NAME: &'static str = stringify!($name);
            fn offsets() -> Vec<(&'static str, usize)> {
                vec![$((stringify!($field), std::mem::offset_of!($name, $field))),*]
            }
        }
    };
}
pub(crate) use uniform;

