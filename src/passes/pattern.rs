//! Built-in pattern content: an animated HDR test image or a solid colour,
//! drawn full-screen into the HDR target. It is the simplest content that
//! exercises the whole chain, and the solid mode gives image tests an exact
//! known input.

use bytemuck::{Pod, Zeroable};

use super::{clear_store, fullscreen_module, fullscreen_pipeline, uniform_entry};
use crate::gpu::Gpu;

/// Keep in sync with `PatternParams` in pattern.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct PatternParams {
    color: [f32; 4],
    time: f32,
    mode: u32,
    aspect: f32,
    _pad: f32,
}

pub struct PatternPass {
    pipeline: wgpu::RenderPipeline,
    params: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
}

impl PatternPass {
    pub fn new(gpu: &Gpu, target_format: wgpu::TextureFormat) -> PatternPass {
        let module = fullscreen_module(
            &gpu.device,
            "pattern shader",
            include_str!("../../shaders/pattern.wgsl"),
        );
        let layout = gpu
            .device
            .create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("pattern bind group layout"),
                entries: &[uniform_entry(0)],
            });
        let pipeline_layout = gpu
            .device
            .create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("pattern pipeline layout"),
                bind_group_layouts: &[Some(&layout)],
                immediate_size: 0,
            });
        let pipeline = fullscreen_pipeline(
            gpu,
            "pattern pipeline",
            &pipeline_layout,
            &module,
            "fs_pattern",
            target_format,
        );
        let params = gpu.create_buffer(&wgpu::BufferDescriptor {
            label: Some("pattern params"),
            size: std::mem::size_of::<PatternParams>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group = gpu.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("pattern bind group"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: params.as_entire_binding(),
            }],
        });
        PatternPass {
            pipeline,
            params,
            bind_group,
        }
    }

    /// Records the pass. `solid` is a premultiplied linear colour, or `None`
    /// for the animated pattern.
    pub fn record(
        &self,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        size: (u32, u32),
        time: f32,
        solid: Option<[f32; 4]>,
    ) {
        let params = PatternParams {
            color: solid.unwrap_or([0.0; 4]),
            time,
            mode: u32::from(solid.is_some()),
            aspect: size.0 as f32 / size.1.max(1) as f32,
            _pad: 0.0,
        };
        queue.write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("pattern"),
            color_attachments: &[Some(clear_store(target))],
            ..Default::default()
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.draw(0..3, 0..1);
    }
}
