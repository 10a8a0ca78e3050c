//! A user's scene shader, compiled: its pipeline for the scene pass and,
//! where the source defines `fn emissive`, the pipeline that renders only
//! that light into the bloom source.

use crate::frame::HDR_FORMAT;
use crate::gpu::Gpu;
use crate::pass::{pipeline, Blend, Pipe, PipeDesc};

/// A user's shader, compiled, with its pipeline for the current sample count.
pub struct UserShader {
    pub source: String,
    pub module: wgpu::ShaderModule,
    pub(super) pipe: Pipe,
    /// The pipeline of the shader's `fn emissive`, where it defines one.
    pub(super) emissive: Option<Pipe>,
}

/// The pipeline of a user module's `fn emissive`, single-sampled into an
/// HDR target of its own.
pub fn emissive_pipe(
    gpu: &Gpu,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
) -> Pipe {
    pipeline(
        gpu,
        &PipeDesc {
            label: "scene: user emissive pipeline",
            layout,
            module,
            vertex_entry: "vs_fullscreen",
            fragment_entry: "afterglow_user_emissive",
            color_format: HDR_FORMAT,
            blend: Blend::Replace,
            depth: None,
            samples: 1,
            constants: &[],
        },
    )
}
