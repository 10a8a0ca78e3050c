//! Composite: the last link of the chain and the only pass that touches the
//! output texture. It reads the HDR target, applies exposure, and writes
//! through the output's `-srgb` view (or encodes in the shader where there is
//! none), premultiplied when the canvas is. Its pipeline depends on the
//! output view format; its bind group on the HDR target, so it is rebuilt
//! with the target on resize.

use bytemuck::{Pod, Zeroable};

use super::{
    clear_store, fullscreen_module, fullscreen_pipeline, sampler_entry, texture_entry,
    uniform_entry,
};
use crate::gpu::Gpu;
use crate::output::OutputSpec;

/// Keep in sync with `CompositeParams` in composite.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct CompositeParams {
    exposure: f32,
    flags: u32,
    _pad: [f32; 2],
}

pub struct CompositePass {
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    module: wgpu::ShaderModule,
    pipeline: wgpu::RenderPipeline,
    pipeline_format: wgpu::TextureFormat,
    sampler: wgpu::Sampler,
    params: wgpu::Buffer,
    bind_group: Option<wgpu::BindGroup>,
}

impl CompositePass {
    pub fn new(gpu: &Gpu, output: &OutputSpec) -> CompositePass {
        let module = fullscreen_module(
            &gpu.device,
            "composite shader",
            include_str!("../../shaders/composite.wgsl"),
        );
        let layout = gpu
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("composite bind group layout"),
                entries: &[texture_entry(0), sampler_entry(1), uniform_entry(2)],
            });
        let pipeline_layout = gpu
            .device
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("composite pipeline layout"),
                bind_group_layouts: &[Some(&layout)],
                immediate_size: 0,
            });
        let pipeline = fullscreen_pipeline(
            gpu,
            "composite pipeline",
            &pipeline_layout,
            &module,
            "fs_composite",
            output.view_format,
        );
        let sampler = gpu.device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("composite sampler"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        let params = gpu.create_buffer(&wgpu::BufferDescriptor {
            label: Some("composite params"),
            size: std::mem::size_of::<CompositeParams>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let pass = CompositePass {
            layout,
            pipeline_layout,
            module,
            pipeline,
            pipeline_format: output.view_format,
            sampler,
            params,
            bind_group: None,
        };
        pass.set_output(gpu, output);
        pass
    }

    /// Updates the output-dependent state; the pipeline is rebuilt only when
    /// the view format changes.
    pub fn set_output(&self, gpu: &Gpu, output: &OutputSpec) -> Option<wgpu::RenderPipeline> {
        let params = CompositeParams {
            exposure: 1.0,
            flags: output.shader_flags(),
            _pad: [0.0; 2],
        };
        gpu.queue
            .write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
        (output.view_format != self.pipeline_format).then(|| {
            fullscreen_pipeline(
                gpu,
                "composite pipeline",
                &self.pipeline_layout,
                &self.module,
                "fs_composite",
                output.view_format,
            )
        })
    }

    /// Applies a new output description.
    pub fn reconfigure(&mut self, gpu: &Gpu, output: &OutputSpec) {
        if let Some(pipeline) = self.set_output(gpu, output) {
            self.pipeline = pipeline;
            self.pipeline_format = output.view_format;
        }
    }

    /// Rebuilds the bind group for a new HDR target (on resize).
    pub fn bind_input(&mut self, gpu: &Gpu, hdr: &wgpu::TextureView) {
        self.bind_group = Some(gpu.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("composite bind group"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(hdr),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: self.params.as_entire_binding(),
                },
            ],
        }));
    }

    pub fn record(&self, encoder: &mut wgpu::CommandEncoder, output: &wgpu::TextureView) {
        let Some(bind_group) = &self.bind_group else {
            return;
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("composite"),
            color_attachments: &[Some(clear_store(output))],
            ..Default::default()
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind_group, &[]);
        pass.draw(0..3, 0..1);
    }
}
