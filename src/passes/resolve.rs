//! Tonemap-aware resolve (`resolve: 'tonemapped'`): reads the stored 4×
//! multisampled scene color with `textureLoad` per sample and writes the
//! HDR target. Needs the MSAA color stored (not discarded) and bound as a
//! texture, which costs bandwidth that the hardware resolve does not; it
//! buys antialiased edges between very bright and dark surfaces.

use crate::error::Error;
use crate::frame::{FrameBuilder, HDR_FORMAT};
use crate::gpu::Gpu;
use crate::pass::{
    entry, layout, pipeline, pipeline_layout, shader_module, Blend, Pass, Pipe, PipeDesc,
    Registration, Stage,
};

/// The WGSL of the resolve pass after the full-screen stage.
pub const SHADER_PARTS: &[&str] = &[wgsl!("resolve.wgsl")];

/// The tonemapped resolve finishes the scene's HDR image.
pub const PASS: Registration = Registration {
    stage: Stage::Scene,
    make: Some(|gpu| Box::new(ResolvePass::new(gpu))),
    #[cfg(test)]
    shaders: || vec![("resolve", crate::shaders::compose(SHADER_PARTS))],
    #[cfg(test)]
    uniforms: Vec::new,
};

pub struct ResolvePass {
    layout: wgpu::BindGroupLayout,
    pipe: Pipe,
}

impl ResolvePass {
    pub fn new(gpu: &Gpu) -> ResolvePass {
        let module = shader_module(gpu, "resolve shader", SHADER_PARTS);
        let layout = layout(
            gpu,
            "resolve bind group layout",
            &[entry(
                0,
                wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: true,
                },
            )],
        );
        let pl = pipeline_layout(gpu, "resolve pipeline layout", &[&layout]);
        let pipe = pipeline(
            gpu,
            &PipeDesc {
                label: "resolve pipeline",
                layout: &pl,
                module: &module,
                vertex_entry: "vs_fullscreen",
                fragment_entry: "fs_resolve",
                color_format: HDR_FORMAT,
                blend: Blend::Replace,
                depth: None,
                samples: 1,
                constants: &[],
            },
        );
        ResolvePass { layout, pipe }
    }

    fn bind(&self, gpu: &Gpu, msaa_color: &wgpu::TextureView) -> wgpu::BindGroup {
        gpu.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("resolve bind group"),
            layout: &self.layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(msaa_color),
            }],
        })
    }
}

impl Pass for ResolvePass {
    /// Resolves the multisampled color the scene stored (only with
    /// `resolve: 'tonemapped'`) into the current HDR image.
    fn build(&self, f: &mut FrameBuilder<'_>) -> Result<(), Error> {
        let Some(msaa) = f.slots.msaa_color.take() else {
            return Ok(());
        };
        let hdr = f.hdr("resolve")?;
        let group = self.bind(f.gpu, &msaa.view);
        f.fullscreen(
            "resolve".into(),
            &self.pipe,
            group,
            Some(&hdr),
            &[&msaa],
            false,
        );
        Ok(())
    }
}
