//! Rendering without a canvas (native): the chain writes into an ordinary
//! texture configured the way a canvas would be, and frames can be read
//! back. Used by the native tests (lavapipe) and the benchmarks.

use crate::chain::{Chain, Content};
use crate::error::Error;
use crate::gpu::Gpu;
use crate::options::Options;
use crate::output::OutputSpec;
use crate::readback::{Image, Readback};

/// Creates a Vulkan device (lavapipe where there is no GPU).
pub async fn vulkan_gpu() -> Result<Gpu, Error> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    Gpu::request(&instance, None).await
}

/// An output texture standing in for a canvas, with the chain drawing into it.
pub struct Headless {
    pub gpu: Gpu,
    pub chain: Chain,
    output: wgpu::Texture,
    output_view: wgpu::TextureView,
}

impl Headless {
    pub fn new(
        gpu: Gpu,
        output: OutputSpec,
        settings: impl Into<Options>,
        size: (u32, u32),
    ) -> Result<Headless, Error> {
        Headless::with_passes(gpu, output, settings, size, crate::passes::PASSES)
    }

    /// A headless chain of the scene and the passes `registered` makes.
    pub fn with_passes(
        gpu: Gpu,
        output: OutputSpec,
        settings: impl Into<Options>,
        size: (u32, u32),
        registered: &[&crate::pass::Registration],
    ) -> Result<Headless, Error> {
        let chain = Chain::with_passes(&gpu, output, settings.into(), size, registered)?;
        let (texture, view) = Self::make_output(&gpu, &output, size)?;
        Ok(Headless {
            gpu,
            chain,
            output: texture,
            output_view: view,
        })
    }

    pub fn set_content(&mut self, content: Content) -> Result<(), Error> {
        self.chain.set_content(&self.gpu, content)
    }

    pub fn set_settings(&mut self, settings: impl Into<Options>) -> Result<(), Error> {
        self.chain.set_settings(&self.gpu, settings.into())
    }

    fn make_output(
        gpu: &Gpu,
        output: &OutputSpec,
        size: (u32, u32),
    ) -> Result<(wgpu::Texture, wgpu::TextureView), Error> {
        let view_formats = output.view_formats();
        let texture = gpu.create_texture(&wgpu::TextureDescriptor {
            label: Some("headless output"),
            size: wgpu::Extent3d {
                width: size.0.max(1),
                height: size.1.max(1),
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: output.format,
            // As a canvas is configured: storage where the composite
            // writes it as compute.
            usage: output.usage() | wgpu::TextureUsages::COPY_SRC,
            view_formats: &view_formats,
        })?;
        let view = gpu.create_canvas_view(
            &texture,
            &wgpu::TextureViewDescriptor {
                label: Some("headless output view"),
                format: Some(output.view_format),
                ..Default::default()
            },
        );
        Ok((texture, view))
    }

    pub fn resize(&mut self, size: (u32, u32)) -> Result<(), Error> {
        self.chain.resize(&self.gpu, size)?;
        let (texture, view) = Self::make_output(&self.gpu, self.chain.output(), size)?;
        self.output = texture;
        self.output_view = view;
        Ok(())
    }

    /// Renders one frame: one encoder, one submit.
    pub fn render(&self, time_seconds: f64) -> bool {
        self.chain
            .submit_frame(&self.gpu, &self.output_view, time_seconds, |_| Ok(()))
            .is_ok_and(|(drawn, ())| drawn)
    }

    /// Renders one frame and reads the output back.
    pub async fn render_and_read(&self, time_seconds: f64) -> Result<Image, Error> {
        let (_, readback) =
            self.chain
                .submit_frame(&self.gpu, &self.output_view, time_seconds, |encoder| {
                    Readback::record(&self.gpu, encoder, &self.output)
                })?;
        readback.read(&self.gpu.device).await
    }
}
