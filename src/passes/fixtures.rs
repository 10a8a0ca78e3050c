//! Test content for the image tests, compiled only with
//! `cfg(test)` (the test build; the shipped package
//! has none of it):
//! a solid colour, a tilted square, and exact pixels.

use super::content::PixelImage;
use crate::error::Error;
use crate::gpu::Gpu;
use crate::pass::{entry, layout, pipeline_layout, shader_module};

/// The WGSL of the test content after the shared prelude.
pub const SHADER_PARTS: &[&str] = &[wgsl!("scene_params.wgsl"), wgsl!("fixtures.wgsl")];

/// The kinds of test content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixtureKind {
    Solid,
    Shape,
    Pixels,
}

pub struct Fixtures {
    module: wgpu::ShaderModule,
    pixels_group: wgpu::BindGroupLayout,
    pixels_layout: wgpu::PipelineLayout,
}

impl Fixtures {
    pub fn new(gpu: &Gpu, params_group: &wgpu::BindGroupLayout) -> Fixtures {
        let pixels_group = layout(
            gpu,
            "scene pixels layout",
            &[entry(
                0,
                wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
            )],
        );
        Fixtures {
            module: shader_module(gpu, "scene test content shader", SHADER_PARTS),
            pixels_layout: pipeline_layout(
                gpu,
                "scene pixels pipeline layout",
                &[params_group, &pixels_group],
            ),
            pixels_group,
        }
    }

    /// What the scene pass needs to make a fixture's pipeline: label,
    /// layout (`None`: the scene's base layout), module and entry points.
    pub fn pipe_spec(
        &self,
        kind: FixtureKind,
    ) -> (
        &'static str,
        Option<&wgpu::PipelineLayout>,
        &wgpu::ShaderModule,
        (&'static str, &'static str),
    ) {
        match kind {
            FixtureKind::Solid => (
                "scene: solid pipeline",
                None,
                &self.module,
                ("vs_fullscreen", "fs_solid"),
            ),
            FixtureKind::Shape => (
                "scene: shape pipeline",
                None,
                &self.module,
                ("vs_shape", "fs_solid"),
            ),
            FixtureKind::Pixels => (
                "scene: pixels pipeline",
                Some(&self.pixels_layout),
                &self.module,
                ("vs_fullscreen", "fs_pixels"),
            ),
        }
    }

    /// Uploads exact pixels (rgba32float) and returns their bind group.
    pub fn upload(&self, gpu: &Gpu, img: &PixelImage) -> Result<wgpu::BindGroup, Error> {
        let max = gpu.max_texture_size();
        if img.width == 0 || img.height == 0 || img.width > max || img.height > max {
            return Err(Error::argument(
                "image",
                format!(
                    "is {}×{} pixels; each side must be 1 to {max}",
                    img.width, img.height
                ),
            ));
        }
        if img.data.len() != img.width as usize * img.height as usize {
            return Err(Error::argument(
                "image",
                format!(
                    "is {}×{} pixels but has {} values",
                    img.width,
                    img.height,
                    img.data.len()
                ),
            ));
        }
        let size = wgpu::Extent3d {
            width: img.width,
            height: img.height,
            depth_or_array_layers: 1,
        };
        let texture = gpu.create_texture(&wgpu::TextureDescriptor {
            label: Some("scene pixels"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba32Float,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        })?;
        gpu.queue.write_texture(
            texture.as_image_copy(),
            bytemuck::cast_slice(&img.data),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(img.width * 16),
                rows_per_image: Some(img.height),
            },
            size,
        );
        let view = gpu.create_view(
            &texture,
            &wgpu::TextureViewDescriptor {
                label: Some("scene pixels view"),
                ..Default::default()
            },
        );
        Ok(gpu.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("scene pixels bind group"),
            layout: &self.pixels_group,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&view),
            }],
        }))
    }
}
