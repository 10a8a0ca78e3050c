//! One module per pass. Each owns its pipelines and uniform buffers and
//! implements [`Pass`]: given the frame builder it adds its own steps and
//! graph declarations, reading and publishing the frame's slots (the HDR
//! image, the bloom result). The chain only orders the passes.

pub mod bloom;
pub mod composite;
pub mod content;
#[cfg(feature = "fixtures")]
pub mod fixtures;
pub mod resolve;
pub mod scene;
pub mod user_shader;

use crate::error::Error;
use crate::frame::{FrameBuilder, FrameInfo};
use crate::output::OutputSpec;
use crate::settings::ChainSettings;

pub use crate::pipeline::*;
pub use crate::shaders::{compose, shader_module};

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
        impl $crate::passes::Uniform for $name {
            const WGSL_NAME: &'static str = stringify!($name);
            fn offsets() -> Vec<(&'static str, usize)> {
                vec![$((stringify!($field), std::mem::offset_of!($name, $field))),*]
            }
        }
    };
}
pub(crate) use uniform;

/// A uniform block as Rust lays it out: the WGSL source that declares it,
/// the struct name, its size and its fields' offsets.
pub type UniformLayout = (String, &'static str, usize, Vec<(&'static str, usize)>);

/// Every uniform block with the WGSL source that declares it: the struct
/// name, its size and field offsets in Rust.
pub fn uniform_layouts() -> Vec<UniformLayout> {
    fn entry<U: Uniform>(source: String) -> UniformLayout {
        (source, U::WGSL_NAME, std::mem::size_of::<U>(), U::offsets())
    }
    vec![
        entry::<bloom::BloomParams>(compose(bloom::SHADER_PARTS)),
        entry::<composite::CompositeParams>(compose(composite::SHADER_PARTS)),
        entry::<scene::SceneParams>(compose(scene::SHADER_PARTS)),
    ]
}

/// Every module the crate compiles, by name, as the GPU receives it. A
/// user's scene shader is represented by a minimal valid one.
pub fn shader_registry() -> Vec<(&'static str, String)> {
    #[allow(unused_mut)]
    let mut all = vec![
        ("scene", compose(scene::SHADER_PARTS)),
        ("bloom", compose(bloom::SHADER_PARTS)),
        ("resolve", compose(resolve::SHADER_PARTS)),
        ("composite", compose(composite::SHADER_PARTS)),
        (
            "user scene wrapper",
            content::user_module_source(
                "fn scene(uv: vec2f, time: f32) -> vec4f { \
                 return vec4f(uv * resolution() / 100.0, time, 1.0); }",
            ),
        ),
        (
            "user scene wrapper with emissive",
            content::user_module_source(
                "fn scene(uv: vec2f, time: f32) -> vec4f { return vec4f(uv, time, 1.0); }\n\
                 fn emissive(uv: vec2f, time: f32) -> vec3f { return vec3f(uv, time); }",
            ),
        ),
    ];
    #[cfg(feature = "fixtures")]
    all.push(("test fixtures", compose(fixtures::SHADER_PARTS)));
    all
}
