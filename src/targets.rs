//! Size-dependent render targets. Everything that depends on the frame size
//! (and on the options that shape the chain) is built here, in one place,
//! called on resize or when those options change, never per frame. Each
//! texture asks for exactly the usages it needs and is registered in the
//! frame's pass graph with the properties of the real texture.

use crate::error::Error;
use crate::gpu::Gpu;
use crate::graph::{Graph, TextureDecl, ViewDecl};
use crate::options::{BlurMode, Options, Resolve};
use crate::output::OutputSpec;
use crate::passes::bloom::{self, BloomPlan};
use crate::passes::scene::DEPTH_FORMAT;

/// Format of the offscreen HDR target: 16-bit float, filterable, renderable
/// and multisample-capable everywhere WebGPU runs.
pub const HDR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

/// A texture and its index in the pass graph.
pub struct Tex {
    pub texture: wgpu::Texture,
    pub id: usize,
}

pub struct Targets {
    pub size: (u32, u32),
    /// The textures, as the pass graph sees them (the output included).
    pub graph: Graph,
    /// Resolved scene radiance: rendered to, then sampled.
    pub hdr: Tex,
    /// The 4× multisampled scene color (`msaa: 4`).
    pub msaa: Option<Tex>,
    /// Scene depth, multisampled like the color.
    pub depth: Tex,
    /// Bloom mip chain (`bloom.blur: 'mip'`).
    pub bloom: Option<Tex>,
    /// Gaussian ping-pong pair (`bloom.blur: 'gaussian'`).
    pub ping_pong: Option<(Tex, Tex)>,
    pub bloom_plan: Option<BloomPlan>,
    /// Index of the output (canvas) texture in the graph.
    pub output: usize,
}

struct Maker<'a> {
    gpu: &'a Gpu,
    graph: Graph,
}

impl Maker<'_> {
    fn make(
        &mut self,
        label: &str,
        size: (u32, u32),
        format: wgpu::TextureFormat,
        samples: u32,
        mips: u32,
        usage: wgpu::TextureUsages,
    ) -> Result<Tex, Error> {
        let texture = self.gpu.create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width: size.0,
                height: size.1,
                depth_or_array_layers: 1,
            },
            mip_level_count: mips,
            sample_count: samples,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage,
            view_formats: &[],
        })?;
        let id = self.graph.texture(TextureDecl {
            label: label.to_string(),
            format: texture.format(),
            sample_count: texture.sample_count(),
            size: (texture.width(), texture.height()),
            mip_levels: texture.mip_level_count(),
        });
        Ok(Tex { texture, id })
    }
}

impl Targets {
    /// Builds the targets for a non-zero `size`.
    pub fn new(
        gpu: &Gpu,
        size: (u32, u32),
        output_size: (u32, u32),
        options: &Options,
        bloom_format: wgpu::TextureFormat,
        output: &OutputSpec,
    ) -> Result<Targets, Error> {
        use wgpu::TextureUsages as U;
        let mut m = Maker {
            gpu,
            graph: Graph::default(),
        };
        let samples = options.msaa.sample_count();
        // Attachments that live only inside the scene pass may be transient.
        let transient = if gpu.transient_attachments {
            U::TRANSIENT_ATTACHMENT
        } else {
            U::empty()
        };
        let hdr = m.make(
            "hdr target",
            size,
            HDR_FORMAT,
            1,
            1,
            U::RENDER_ATTACHMENT | U::TEXTURE_BINDING,
        )?;
        let msaa = if samples > 1 {
            let usage = match options.resolve {
                Resolve::Hardware => U::RENDER_ATTACHMENT | transient,
                // The resolve pass reads the samples: stored and bound.
                Resolve::Tonemapped => U::RENDER_ATTACHMENT | U::TEXTURE_BINDING,
            };
            Some(m.make("msaa color", size, HDR_FORMAT, samples, 1, usage)?)
        } else {
            None
        };
        let depth_label = if samples > 1 { "msaa depth" } else { "depth" };
        let depth = m.make(
            depth_label,
            size,
            DEPTH_FORMAT,
            samples,
            1,
            U::RENDER_ATTACHMENT | transient,
        )?;
        let (mut bloom_tex, mut ping_pong, mut bloom_plan) = (None, None, None);
        if options.bloom.enabled {
            let plan = bloom::plan(size, options.bloom.levels);
            let usage = U::RENDER_ATTACHMENT | U::TEXTURE_BINDING;
            match options.bloom.blur {
                BlurMode::Mip => {
                    bloom_tex =
                        Some(m.make("bloom", plan.size, bloom_format, 1, plan.levels, usage)?);
                }
                BlurMode::Gaussian => {
                    ping_pong = Some((
                        m.make("bloom ping", plan.size, bloom_format, 1, 1, usage)?,
                        m.make("bloom pong", plan.size, bloom_format, 1, 1, usage)?,
                    ));
                }
            }
            bloom_plan = Some(plan);
        }
        let output = m.graph.texture(TextureDecl {
            label: "canvas".into(),
            format: output.format,
            sample_count: 1,
            size: output_size,
            mip_levels: 1,
        });
        Ok(Targets {
            size,
            graph: m.graph,
            hdr,
            msaa,
            depth,
            bloom: bloom_tex,
            ping_pong,
            bloom_plan,
            output,
        })
    }

    /// A one-mip view of `tex` and its declaration for the pass graph.
    pub fn view(&self, gpu: &Gpu, tex: &Tex, mip: u32) -> (ViewDecl, wgpu::TextureView) {
        let decl = self.graph.view(tex.id, mip);
        let label = format!("{} view", self.graph.view_name(&decl));
        let view = gpu.create_view(
            &tex.texture,
            &wgpu::TextureViewDescriptor {
                label: Some(&label),
                base_mip_level: mip,
                mip_level_count: Some(1),
                ..Default::default()
            },
        );
        (decl, view)
    }

    /// Bytes held by these targets (the output excluded).
    pub fn bytes(&self) -> u64 {
        let mut all: Vec<&Tex> = vec![&self.hdr, &self.depth];
        all.extend(self.msaa.iter());
        all.extend(self.bloom.iter());
        if let Some((a, b)) = &self.ping_pong {
            all.push(a);
            all.push(b);
        }
        all.iter().map(|t| texture_bytes(&t.texture)).sum()
    }
}

/// Approximate bytes of a texture: every mip and sample.
pub fn texture_bytes(t: &wgpu::Texture) -> u64 {
    let bpp = t
        .format()
        .block_copy_size(Some(wgpu::TextureAspect::All))
        .unwrap_or(4) as u64;
    (0..t.mip_level_count())
        .map(|m| {
            let w = (t.width() >> m).max(1) as u64;
            let h = (t.height() >> m).max(1) as u64;
            w * h * bpp * t.sample_count() as u64
        })
        .sum()
}
