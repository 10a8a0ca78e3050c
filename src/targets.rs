//! Size-dependent render targets. Everything that depends on the frame size
//! is built by one function, called on resize, never per frame.

use crate::gpu::Gpu;

/// Format of the offscreen HDR target: 16-bit float, filterable, renderable
/// and multisample-capable everywhere WebGPU runs.
pub const HDR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

/// The targets of one frame size.
pub struct Targets {
    pub size: (u32, u32),
    /// Scene radiance, premultiplied linear. Rendered to, then sampled:
    /// `RENDER_ATTACHMENT | TEXTURE_BINDING` and nothing more.
    pub hdr: wgpu::Texture,
    pub hdr_view: wgpu::TextureView,
}

impl Targets {
    /// Builds the targets for a non-zero `size`.
    pub fn new(gpu: &Gpu, size: (u32, u32)) -> Targets {
        let hdr = gpu.create_texture(&wgpu::TextureDescriptor {
            label: Some("hdr target"),
            size: wgpu::Extent3d {
                width: size.0,
                height: size.1,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: HDR_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let hdr_view = gpu.create_view(
            &hdr,
            &wgpu::TextureViewDescriptor {
                label: Some("hdr target view"),
                ..Default::default()
            },
        );
        Targets {
            size,
            hdr,
            hdr_view,
        }
    }
}
