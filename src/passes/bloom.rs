//! Bloom passes. The bright extract thresholds single texels of the HDR
//! image before any averaging (see bloom.wgsl), then:
//!
//! - `mip` (default): an area-average extract into mip 0 of one half-resolution texture, a
//!   13-tap downsample into each next mip, then a tent upsample added back
//!   up the chain. Every pass renders into a one-mip view and samples
//!   another one-mip view of the same texture: different subresources, so
//!   legal within the same-subresource rule.
//! - `gaussian`: a smoother (tent) extract into a ping target, then horizontal/vertical passes
//!   ping-ponging between two targets. Their bind groups are made with the
//!   targets, once per size, never per frame or per iteration.
//!
//! The format is `rg11b10ufloat` where the adapter can render it (half the
//! bytes of `rgba16float`; bloom needs no alpha and no negative values).
//! Sizes and the blur radius are set in screen terms (see [`plan`]) so the
//! look does not change with resolution or devicePixelRatio.

use super::{
    entry, layout, linear_sampler, pipeline, pipeline_layout, shader_module, uniform,
    uniform_buffer, Blend, Pass, Pipe, PipeCache, PipeDesc, FILTERABLE_TEXTURE, FILTERING_SAMPLER,
    UNIFORM,
};
use crate::error::Error;
use crate::frame::{BloomResult, FrameBuilder, FrameInfo};
use crate::gpu::Gpu;
use crate::options::BlurMode;
use crate::output::OutputSpec;
use crate::settings::ChainSettings;

/// The WGSL of the bloom passes after the full-screen stage.
pub const SHADER_PARTS: &[&str] = &[wgsl!("bloom.wgsl")];

/// Height of the bloom base (mip 0) at and above 1080p: the chain has the
/// same shape in screen terms at every resolution from there up.
pub const REFERENCE_HEIGHT: u32 = 540;

/// The size of the bloom base and its number of mip levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BloomPlan {
    pub size: (u32, u32),
    pub levels: u32,
}

/// Sizes the chain for a frame of `size`. The base is half the frame,
/// at most [`REFERENCE_HEIGHT`] high (aspect kept). The level count makes
/// the smallest mip the same fraction of the screen as `levels` mips of a
/// reference-height base would, capped by the largest chain the size
/// allows.
pub fn plan(size: (u32, u32), levels: u32) -> BloomPlan {
    let half_h = size.1.div_ceil(2).max(1);
    let base_h = half_h.min(REFERENCE_HEIGHT);
    let base_w =
        ((size.0 as u64 * base_h as u64 + size.1 as u64 / 2) / size.1.max(1) as u64).max(1) as u32;
    // Fewer levels where the base is smaller than the reference.
    let shortfall = (REFERENCE_HEIGHT as f32 / base_h as f32).log2().round() as u32;
    let max_levels = 1 + base_w.max(base_h).ilog2();
    let levels = levels.saturating_sub(shortfall).clamp(1, max_levels);
    BloomPlan {
        size: (base_w, base_h),
        levels,
    }
}

uniform! {
    /// `BloomParams` in bloom.wgsl (layout checked by tests/shaders.rs).
    struct BloomParams {
        threshold: f32,
        knee: f32,
        exposure: f32,
        radius: f32,
        gauss_step: f32,
        _pad0: f32,
        extract_scale: [f32; 2],
    }
}

/// A bloom pipeline: the fragment stage, and for the extracts the
/// `EXTRACT` constant it is specialised for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Extract(u32),
    ExtractSmooth(u32),
    Downsample,
    /// `NARROW_TENT`: the tent's radius is at most half a source texel.
    Upsample(bool),
    BlurH,
    BlurV,
}

/// The upsample tent's offsets in texels of each source mip: half a texel
/// at radius 1, so neighbouring levels blend smoothly.
fn tent_radius(b: &crate::options::BloomOptions) -> f32 {
    0.5 * b.radius as f32
}

/// `EXTRACT` in bloom.wgsl: the base is exactly half the frame.
const EXTRACT_HALF: u32 = 0;
/// A whole number of frame texels per base texel on each axis.
const EXTRACT_WHOLE: u32 = 1;
/// Any other ratio.
const EXTRACT_ANY: u32 = 2;

/// How the bright extract maps a frame of `size` onto a base of `base`.
fn extract_mode(size: (u32, u32), base: (u32, u32)) -> u32 {
    if size.0 == 2 * base.0 && size.1 == 2 * base.1 {
        EXTRACT_HALF
    } else if size.0.is_multiple_of(base.0) && size.1.is_multiple_of(base.1) {
        EXTRACT_WHOLE
    } else {
        EXTRACT_ANY
    }
}

pub struct BloomPass {
    pub format: wgpu::TextureFormat,
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    module: wgpu::ShaderModule,
    sampler: wgpu::Sampler,
    params: wgpu::Buffer,
    /// Made on first use: a frame needs four of them at most.
    pipes: PipeCache<Stage>,
}

impl BloomPass {
    pub fn new(gpu: &Gpu) -> BloomPass {
        let format = if gpu
            .features
            .contains(wgpu::Features::RG11B10UFLOAT_RENDERABLE)
        {
            wgpu::TextureFormat::Rg11b10Ufloat
        } else {
            wgpu::TextureFormat::Rgba16Float
        };
        let module = shader_module(gpu, "bloom shader", SHADER_PARTS);
        let layout = layout(
            gpu,
            "bloom bind group layout",
            &[
                entry(0, FILTERABLE_TEXTURE),
                entry(1, FILTERING_SAMPLER),
                entry(2, UNIFORM),
            ],
        );
        let pipeline_layout = pipeline_layout(gpu, "bloom pipeline layout", &[&layout]);
        BloomPass {
            format,
            params: uniform_buffer(gpu, "bloom params", std::mem::size_of::<BloomParams>()),
            sampler: linear_sampler(gpu, "bloom sampler"),
            layout,
            pipeline_layout,
            module,
            pipes: PipeCache::new(),
        }
    }

    fn pipe(&self, gpu: &Gpu, stage: Stage) -> Pipe {
        let (label, fs, blend, constant) = match stage {
            Stage::Extract(m) => (
                "bloom: extract pipeline",
                "fs_extract",
                Blend::Replace,
                Some(("EXTRACT", f64::from(m))),
            ),
            Stage::ExtractSmooth(m) => (
                "bloom: smooth extract pipeline",
                "fs_extract_smooth",
                Blend::Replace,
                Some(("EXTRACT", f64::from(m))),
            ),
            Stage::Downsample => (
                "bloom: downsample pipeline",
                "fs_downsample",
                Blend::Replace,
                None,
            ),
            Stage::Upsample(narrow) => (
                "bloom: upsample pipeline",
                "fs_upsample",
                Blend::Add,
                Some(("NARROW_TENT", if narrow { 1.0 } else { 0.0 })),
            ),
            Stage::BlurH => (
                "bloom: horizontal blur pipeline",
                "fs_blur_h",
                Blend::Replace,
                None,
            ),
            Stage::BlurV => (
                "bloom: vertical blur pipeline",
                "fs_blur_v",
                Blend::Replace,
                None,
            ),
        };
        self.pipes.get(stage, || {
            let constants = constant.map(|c| [c]);
            pipeline(
                gpu,
                &PipeDesc {
                    label,
                    layout: &self.pipeline_layout,
                    module: &self.module,
                    vertex_entry: "vs_fullscreen",
                    fragment_entry: fs,
                    color_format: self.format,
                    blend,
                    depth: None,
                    samples: 1,
                    constants: constants.as_ref().map_or(&[], |c| c.as_slice()),
                },
            )
        })
    }

    /// A bind group that samples `source`.
    fn bind(&self, gpu: &Gpu, label: &str, source: &wgpu::TextureView) -> wgpu::BindGroup {
        gpu.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(source),
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
        })
    }
}

impl Pass for BloomPass {
    /// Extract from the current HDR image, blur, and publish the result.
    fn build(&self, f: &mut FrameBuilder<'_>) -> Result<(), Error> {
        let settings = f.settings.bloom;
        if !settings.enabled {
            return Ok(());
        }
        let gpu = f.gpu;
        // Selective bloom: a caller's emissive texture replaces the scene.
        let hdr = match f.bloom_source.clone() {
            Some(source) => source,
            None => f.hdr("bloom extract")?,
        };
        let plan = plan(f.size(), settings.levels);
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let mode = extract_mode(f.size(), plan.size);
        let extract = |f: &mut FrameBuilder<'_>, pipe: &Pipe, target| {
            f.fullscreen(
                "bloom extract".into(),
                pipe,
                self.bind(gpu, "bloom extract bind group", &hdr.view),
                Some(target),
                &[&hdr],
                false,
            )
        };
        let result = match settings.blur {
            BlurMode::Mip => {
                let tex = f.texture("bloom", plan.size, self.format, 1, plan.levels, usage)?;
                let mips: Vec<_> = (0..plan.levels).map(|m| f.view(&tex, m)).collect();
                extract(f, &self.pipe(gpu, Stage::Extract(mode)), &mips[0]);
                let downsample = self.pipe(gpu, Stage::Downsample);
                let upsample = self.pipe(gpu, Stage::Upsample(tent_radius(&settings) <= 0.5));
                for i in 1..mips.len() {
                    f.fullscreen(
                        format!("bloom downsample {i}"),
                        &downsample,
                        self.bind(
                            gpu,
                            &format!("bloom downsample {i} bind group"),
                            &mips[i - 1].view,
                        ),
                        Some(&mips[i]),
                        &[&mips[i - 1]],
                        false,
                    );
                }
                for i in (0..mips.len() - 1).rev() {
                    f.fullscreen(
                        format!("bloom upsample {i}"),
                        &upsample,
                        self.bind(
                            gpu,
                            &format!("bloom upsample {i} bind group"),
                            &mips[i + 1].view,
                        ),
                        Some(&mips[i]),
                        &[&mips[i + 1]],
                        true,
                    );
                }
                BloomResult {
                    image: mips[0].clone(),
                    levels: plan.levels,
                }
            }
            BlurMode::Gaussian => {
                let ping = f.texture("bloom ping", plan.size, self.format, 1, 1, usage)?;
                let pong = f.texture("bloom pong", plan.size, self.format, 1, 1, usage)?;
                let (ping, pong) = (f.view(&ping, 0), f.view(&pong, 0));
                // Made once per size: one bind group reading each target.
                let read_ping = self.bind(gpu, "bloom read ping bind group", &ping.view);
                let read_pong = self.bind(gpu, "bloom read pong bind group", &pong.view);
                extract(f, &self.pipe(gpu, Stage::ExtractSmooth(mode)), &ping);
                let (blur_h, blur_v) = (self.pipe(gpu, Stage::BlurH), self.pipe(gpu, Stage::BlurV));
                for k in 0..settings.iterations {
                    f.fullscreen(
                        format!("bloom blur {k} horizontal"),
                        &blur_h,
                        read_ping.clone(),
                        Some(&pong),
                        &[&ping],
                        false,
                    );
                    f.fullscreen(
                        format!("bloom blur {k} vertical"),
                        &blur_v,
                        read_pong.clone(),
                        Some(&ping),
                        &[&pong],
                        false,
                    );
                }
                BloomResult {
                    image: ping,
                    levels: 1,
                }
            }
        };
        f.info.bloom_levels = result.levels;
        f.bloom = Some(result);
        Ok(())
    }

    fn write_params(
        &self,
        queue: &wgpu::Queue,
        settings: &ChainSettings,
        _output: &OutputSpec,
        info: &FrameInfo,
    ) {
        let b = &settings.bloom;
        let plan = plan(info.size, b.levels);
        let params = BloomParams {
            threshold: b.threshold as f32,
            knee: (b.threshold * b.knee) as f32,
            exposure: settings.exposure as f32,
            radius: tent_radius(b),
            // Gaussian tap spacing: 4 texels of a reference-height base, and
            // never under one texel (below that the kernel degenerates).
            gauss_step: (b.radius as f32 * 4.0 * plan.size.1 as f32 / REFERENCE_HEIGHT as f32)
                .max(1.0),
            _pad0: 0.0,
            extract_scale: [
                info.size.0 as f32 / plan.size.0 as f32,
                info.size.1 as f32 / plan.size.1 as f32,
            ],
        };
        queue.write_buffer(&self.params, 0, bytemuck::bytes_of(&params));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_has_the_same_shape_in_screen_terms_from_1080p_up() {
        let p1080 = plan((1920, 1080), 8);
        let p2160 = plan((3840, 2160), 8);
        let p1440 = plan((2560, 1440), 8);
        assert_eq!(
            p1080,
            BloomPlan {
                size: (960, 540),
                levels: 8
            }
        );
        assert_eq!(p2160, p1080, "4K uses the same base and chain as 1080p");
        assert_eq!(p1440, p1080);
        // Same screen at devicePixelRatio 1, 1.5 and 2 from 1280×720 CSS px.
        assert_eq!(plan((1920, 1080), 8), plan((2560, 1440), 8));
    }

    #[test]
    fn smaller_frames_lose_the_finest_levels() {
        // 720p: base 640×360; one level fewer, so the smallest mip covers
        // about the same fraction of the screen (360/64 vs 540/128 px).
        assert_eq!(
            plan((1280, 720), 8),
            BloomPlan {
                size: (640, 360),
                levels: 7
            }
        );
        assert_eq!(plan((128, 128), 8).levels, 5);
        assert!(plan((640, 360), 8).levels < 8);
    }

    #[test]
    fn degenerate_sizes() {
        assert_eq!(
            plan((1, 1), 8),
            BloomPlan {
                size: (1, 1),
                levels: 1
            }
        );
        let p = plan((3, 7), 8);
        assert_eq!(p.size.1, 4);
        assert!(p.levels >= 1 && p.levels <= 1 + p.size.0.max(p.size.1).ilog2());
        assert_eq!(plan((1366, 768), 1).levels, 1, "levels caps the chain");
    }

    #[test]
    fn the_extract_is_specialised_for_the_ratio_of_frame_to_base() {
        let mode = |size| extract_mode(size, plan(size, 8).size);
        assert_eq!(mode((1920, 1080)), EXTRACT_HALF);
        assert_eq!(mode((1280, 720)), EXTRACT_HALF);
        assert_eq!(mode((1366, 768)), EXTRACT_HALF);
        assert_eq!(mode((3840, 2160)), EXTRACT_WHOLE);
        assert_eq!(mode((1, 1)), EXTRACT_WHOLE);
        assert_eq!(mode((2560, 1440)), EXTRACT_ANY);
        assert_eq!(mode((3, 7)), EXTRACT_ANY);
    }
}
