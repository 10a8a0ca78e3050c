//! ARCHITECTURE.md's recipe for a full-screen HDR effect, compiled and
//! tested: a pass that doubles the HDR image between the scene and the
//! bloom. Test-only (`cfg(test)`); the crate's suites register it
//! with `Chain::with_passes`. [`CARELESS`] is the same effect rendering
//! into the image it was handed instead of the one `swap_hdr` gives it,
//! which the pass graph refuses when that image is the caller's.

use crate::error::Error;
use crate::frame::FrameBuilder;
use crate::gpu::Gpu;
use crate::pass::{
    entry, layout, pipeline, pipeline_layout, shader_module, Blend, Pass, Pipe, PipeDesc,
    Registration, Stage, FILTERABLE_TEXTURE,
};

pub const SHADER_PARTS: &[&str] = &[wgsl!("example_effect.wgsl")];

pub const PASS: Registration = Registration {
    stage: Stage::HdrEffect,
    make: Some(|gpu| Box::new(ExampleEffect::new(gpu, false))),
    shaders: || vec![("example effect", crate::shaders::compose(SHADER_PARTS))],
    uniforms: Vec::new,
};

/// The effect writing into the image it reads from the `hdr` slot.
pub const CARELESS: Registration = Registration {
    make: Some(|gpu| Box::new(ExampleEffect::new(gpu, true))),
    ..PASS
};

pub struct ExampleEffect {
    layout: wgpu::BindGroupLayout,
    pipe: Pipe,
    careless: bool,
}

impl ExampleEffect {
    fn new(gpu: &Gpu, careless: bool) -> ExampleEffect {
        let module = shader_module(gpu, "example effect shader", SHADER_PARTS);
        let layout = layout(
            gpu,
            "example effect bind group layout",
            &[entry(0, FILTERABLE_TEXTURE)],
        );
        let pl = pipeline_layout(gpu, "example effect pipeline layout", &[&layout]);
        let pipe = pipeline(
            gpu,
            &PipeDesc {
                label: "example effect pipeline",
                layout: &pl,
                module: &module,
                vertex_entry: "vs_fullscreen",
                fragment_entry: "fs_double",
                color_format: crate::frame::HDR_FORMAT,
                blend: Blend::Replace,
                depth: None,
                samples: 1,
                constants: &[],
            },
        );
        ExampleEffect {
            layout,
            pipe,
            careless,
        }
    }
}

impl Pass for ExampleEffect {
    fn build(&self, f: &mut FrameBuilder<'_>) -> Result<(), Error> {
        let (src, dst) = if self.careless {
            let hdr = f.hdr("example effect")?;
            (hdr.clone(), hdr)
        } else {
            f.swap_hdr("example effect")?
        };
        let group = f.gpu.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("example effect bind group"),
            layout: &self.layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&src.view),
            }],
        });
        // The careless one declares no sampled view, so only the ownership
        // rule can catch it.
        let sampled: &[&crate::frame::Image] = if self.careless { &[] } else { &[&src] };
        f.fullscreen(
            "example effect".into(),
            &self.pipe,
            group,
            Some(&dst),
            sampled,
            false,
        );
        Ok(())
    }
}
