//! Bloom passes. The bright extract thresholds single texels of the HDR
//! image before any averaging (see bloom.wgsl), then:
//!
//! - `mip` (default): an area-average extract of quarter-resolution boxes
//!   that also records where in each box its light sits, a pass that puts
//!   the light back there (into a quarter-resolution base: the glow is
//!   centred on its light, not on its box), a 13-tap downsample into each
//!   next mip of one texture, then a tent upsample added back up the
//!   chain; the last one writes mip 0 as the base smoothed by a 3x3 tent
//!   plus the coarser levels, and mip 0 is read into a target twice its
//!   size, which the composite samples (a small light's glow is then
//!   round wherever it falls in its box). Every chain pass renders into a
//!   one-mip view and samples other subresources: legal within the
//!   same-subresource rule.
//! - `gaussian`: a smoother (tent) extract into a ping target (half the frame up to
//!   1080p), then horizontal/vertical passes ping-ponging between two targets. Their
//!   bind groups are made with the targets, once per size, never per frame or iteration.
//!
//! The mip chain's largest steps (the extract, the centring, the last
//! upsample and the fine target) run as compute, the rest draws; their
//! images and the chain are `rgba16float`, which storage can write. The
//! Gaussian blur draws into `rg11b10ufloat` where the adapter can render
//! it (half the bytes; bloom needs no alpha and no negative values).
//! Sizes and the blur radius are set in screen terms (see [`plan`]) so the
//! look does not change with resolution or devicePixelRatio.

use crate::error::Error;
use crate::frame::{BloomResult, FrameBuilder, FrameInfo, Image};
use crate::gpu::Gpu;
use crate::options::Options;
use crate::options::{BloomMode, BlurMode};
use crate::output::OutputSpec;
use crate::pass::{
    compute_pipeline, entry, layout, linear_sampler, pipeline, pipeline_layout, shader_module,
    storage_entry, uniform, Blend, FrameUniform, Pass, Pipe, PipeCache, PipeDesc, Registration,
    FILTERABLE_TEXTURE, FILTERING_SAMPLER, UNIFORM,
};

/// The WGSL of the bloom passes after the full-screen stage.
pub const SHADER_PARTS: &[&str] = &[wgsl!("bright.wgsl"), wgsl!("bloom.wgsl")];

/// Height of the bloom base (mip 0) at 1080p, and near it above: the
/// chain has about the same shape in screen terms at every resolution from
/// there up.
pub const REFERENCE_HEIGHT: u32 = 270;

/// Frame texels per base texel and axis: a quarter resolution at least (a
/// finer base costs two large passes for no visible detail), 16 at most
/// (the extract's loop bound: past 4320 px the base grows instead).
pub const MIN_RATIO: u32 = 4;
pub const MAX_RATIO: u32 = 16;

/// The size of the bloom base, its number of mip levels and the whole
/// number of frame texels each base texel averages per axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BloomPlan {
    pub size: (u32, u32),
    pub levels: u32,
    pub ratio: u32,
}

impl BloomPlan {
    /// Frame texels the base covers per axis: whole `ratio`-texel boxes,
    /// so its last column and row may reach past the frame's edge.
    pub fn extent(&self) -> (u32, u32) {
        (
            self.size.0.saturating_mul(self.ratio),
            self.size.1.saturating_mul(self.ratio),
        )
    }
}

/// Sizes the chain for a frame of `size`: each base texel averages a whole
/// `ratio` × `ratio` box of frame texels (see `base` and bloom.wgsl), and
/// the smallest mip is the fraction of the screen that `levels` mips of a
/// reference-height base would be, capped by the largest chain allowed.
pub fn plan(size: (u32, u32), levels: u32) -> BloomPlan {
    let (base, ratio) = base(size, REFERENCE_HEIGHT, MIN_RATIO);
    // Fewer levels where the base is smaller than the reference.
    let shortfall = (REFERENCE_HEIGHT as f32 / base.1 as f32)
        .log2()
        .round()
        .max(0.0) as u32;
    let max_levels = 1 + base.0.max(base.1).ilog2();
    let levels = levels.saturating_sub(shortfall).clamp(1, max_levels);
    BloomPlan {
        size: base,
        levels,
        ratio,
    }
}

/// Base height of the Gaussian blur at 1080p (half the frame): its kernel
/// is spaced in whole texels, so a coarser base would widen it when small.
pub const GAUSSIAN_REFERENCE_HEIGHT: u32 = 540;

/// The Gaussian blur's single target: a whole ratio of at least 2.
pub fn gaussian_plan(size: (u32, u32)) -> BloomPlan {
    let (base, ratio) = base(size, GAUSSIAN_REFERENCE_HEIGHT, 2);
    BloomPlan {
        size: base,
        levels: 1,
        ratio,
    }
}

/// The plan of the chain `b` asks for.
pub fn plan_for(size: (u32, u32), b: &crate::options::BloomOptions) -> BloomPlan {
    match b.blur {
        BlurMode::Mip => plan(size, b.levels),
        BlurMode::Gaussian => gaussian_plan(size),
    }
}

/// A base of whole `ratio`-texel boxes covering a frame of `size`, `ratio`
/// the frame's height over `reference` rounded, from `min_ratio` to
/// [`MAX_RATIO`].
fn base(size: (u32, u32), reference: u32, min_ratio: u32) -> ((u32, u32), u32) {
    let (w, h) = (size.0.max(1), size.1.max(1));
    let ratio = (h.saturating_add(reference / 2) / reference).clamp(min_ratio, MAX_RATIO);
    ((w.div_ceil(ratio), h.div_ceil(ratio)), ratio)
}

uniform! {
    /// `BloomParams` in bloom.wgsl (layout checked by src/tests/shaders.rs).
    struct BloomParams {
        threshold: f32,
        knee: f32,
        exposure: f32,
        radius: f32,
        gauss_step: f32,
        ratio: f32,
        _pad0: [f32; 2],
    }
}

pub const PASS: Registration = Registration {
    stage: crate::pass::Stage::Bloom,
    make: Some(|gpu| Box::new(BloomPass::new(gpu))),
    #[cfg(test)]
    shaders: || {
        let entries = compute_entries();
        vec![("bloom", crate::shaders::compose(&module_parts(&entries)))]
    },
    #[cfg(test)]
    uniforms: || vec![crate::pass::uniform_layout::<BloomParams>(SHADER_PARTS)],
};

/// The steps of the mip chain that read or write its largest images: they
/// run as compute where the device computes its largest images
/// ([`Gpu::compute_images`]: `cs_<name>`, writing bloom.wgsl's
/// `fx_bloom_out`) and draw elsewhere (`fs_<name>`): both entry points are
/// generated around bloom.wgsl's `fx_<name>`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Computed {
    /// The extract's boxes; `PARTIAL_BOXES`: the last boxes reach past
    /// the frame.
    Extract(bool),
    /// The boxes' light moved to its centroids, into the base.
    Centre,
    /// The last upsample, which also smooths the base into mip 0;
    /// `NARROW_TENT` as for [`Stage::Upsample`].
    UpsampleBase(bool),
    /// A chain of one level: the base smoothed into mip 0.
    Smooth,
    /// Mip 0 read into the target twice its size, which the composite samples.
    Fine,
}

impl Computed {
    /// One of each kind, for their entry points.
    const KINDS: [Computed; 5] = [
        Computed::Extract(false),
        Computed::Centre,
        Computed::UpsampleBase(false),
        Computed::Smooth,
        Computed::Fine,
    ];

    /// The name of its function in bloom.wgsl without `fx_`, and its
    /// pipeline constant, if any.
    fn name(self) -> (&'static str, Option<(&'static str, f64)>) {
        let on = |b: bool| if b { 1.0 } else { 0.0 };
        match self {
            Computed::Extract(partial) => ("extract", Some(("PARTIAL_BOXES", on(partial)))),
            Computed::Centre => ("centre", None),
            Computed::UpsampleBase(narrow) => ("upsample_base", Some(("NARROW_TENT", on(narrow)))),
            Computed::Smooth => ("smooth", None),
            Computed::Fine => ("fine", None),
        }
    }
}

/// The compute and fragment entry points of every [`Computed`] step.
fn compute_entries() -> String {
    Computed::KINDS
        .iter()
        .map(|step| {
            let name = step.name().0;
            let (entry, function) = (format!("cs_{name}"), format!("fx_{name}"));
            let compute = crate::shaders::image_entry(&entry, &function, "fx_bloom_out");
            format!(
                "{compute}@fragment\nfn fs_{name}(in: FullscreenOut) -> @location(0) vec4f {{\n    \
                 return {function}(in);\n}}\n"
            )
        })
        .collect()
}

/// The bloom module's WGSL: its parts and the compute entry points.
fn module_parts(entries: &str) -> [&str; 3] {
    [SHADER_PARTS[0], SHADER_PARTS[1], entries]
}

/// The format of what the computed steps write, and so of the mip chain.
const COMPUTED_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

/// A bloom pipeline that draws: the fragment stage.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Stage {
    ExtractSmooth,
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

pub struct BloomPass {
    pub format: wgpu::TextureFormat,
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    module: wgpu::ShaderModule,
    sampler: wgpu::Sampler,
    params: FrameUniform,
    /// Made on first use: a frame needs two of them at most (downsample,
    /// upsample) with the mip chain, three with the Gaussian blur.
    pipes: PipeCache<(Stage, wgpu::TextureFormat)>,
    /// The steps of [`Computed`] as compute: the layout of the image they
    /// write (group 1), and their pipelines; and drawn. Made on first use.
    computed_layout: wgpu::BindGroupLayout,
    computed_pipeline_layout: wgpu::PipelineLayout,
    computed: PipeCache<Computed, wgpu::ComputePipeline>,
    drawn: PipeCache<Computed>,
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
        let entries = compute_entries();
        let module = shader_module(gpu, "bloom shader", &module_parts(&entries));
        let layout = layout(
            gpu,
            "bloom bind group layout",
            &[
                entry(0, FILTERABLE_TEXTURE),
                entry(1, FILTERING_SAMPLER),
                entry(2, UNIFORM),
                entry(3, FILTERABLE_TEXTURE),
            ],
        );
        let pipeline_layout = pipeline_layout(gpu, "bloom pipeline layout", &[&layout]);
        let computed_layout = crate::pass::layout(
            gpu,
            "bloom image layout",
            &[storage_entry(0, COMPUTED_FORMAT)],
        );
        let computed_pipeline_layout = crate::pass::pipeline_layout(
            gpu,
            "bloom compute pipeline layout",
            &[&layout, &computed_layout],
        );
        BloomPass {
            computed_layout,
            computed_pipeline_layout,
            computed: PipeCache::new(),
            drawn: PipeCache::new(),
            format,
            params: FrameUniform::new(gpu, "bloom params", std::mem::size_of::<BloomParams>()),
            sampler: linear_sampler(gpu, "bloom sampler"),
            layout,
            pipeline_layout,
            module,
            pipes: PipeCache::new(),
        }
    }

    /// The format of the Gaussian blur's targets: the small one the device renders
    /// (`rg11b10ufloat` where it can), but `rgba16float` for the
    /// energy-conserving mode, whose light must come back whole (the
    /// 6-bit mantissas of `rg11b10ufloat` lose about 4 % of it along the
    /// chain on lavapipe; 16-bit floats, 0.25 %).
    fn target_format(&self, settings: &Options) -> wgpu::TextureFormat {
        match settings.bloom.mode {
            BloomMode::Additive => self.format,
            BloomMode::EnergyConserving => wgpu::TextureFormat::Rgba16Float,
        }
    }

    fn pipe(&self, gpu: &Gpu, stage: Stage, format: wgpu::TextureFormat) -> Pipe {
        let (label, fs, blend, constant) = match stage {
            Stage::ExtractSmooth => (
                "bloom: smooth extract pipeline",
                "fs_extract_smooth",
                Blend::Replace,
                None,
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
        self.pipes.get((stage, format), || {
            let constants = constant.map(|c| [c]);
            pipeline(
                gpu,
                &PipeDesc {
                    label,
                    layout: &self.pipeline_layout,
                    module: &self.module,
                    vertex_entry: "vs_fullscreen",
                    fragment_entry: fs,
                    color_format: format,
                    blend,
                    depth: None,
                    samples: 1,
                    constants: constants.as_ref().map_or(&[], |c| c.as_slice()),
                },
            )
        })
    }

    /// A bind group that samples `source` (and has it as the base too,
    /// which only the last upsample reads).
    fn bind(&self, gpu: &Gpu, label: &str, source: &wgpu::TextureView) -> wgpu::BindGroup {
        self.bind_with_base(gpu, label, source, source)
    }

    /// A bind group that samples `source` and `base`.
    fn bind_with_base(
        &self,
        gpu: &Gpu,
        label: &str,
        source: &wgpu::TextureView,
        base: &wgpu::TextureView,
    ) -> wgpu::BindGroup {
        let params = self.params.current();
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
                    resource: params.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: wgpu::BindingResource::TextureView(base),
                },
            ],
        })
    }
}

impl BloomPass {
    /// An exposure metered on the GPU replaces the uniform's before the
    /// extract runs.
    fn meter(&self, f: &mut FrameBuilder<'_>) {
        if let Some(exposure) = f.slots.exposure.clone() {
            let offset = std::mem::offset_of!(BloomParams, exposure) as u64;
            f.copy_before(&exposure, &self.params.current(), offset, 4);
        }
    }

    /// The Gaussian blur's extract from `source` into `target`, of `format`.
    fn extract_smooth(
        &self,
        f: &mut FrameBuilder<'_>,
        format: wgpu::TextureFormat,
        source: &Image,
        target: &Image,
    ) {
        self.meter(f);
        f.fullscreen(
            "bloom extract".into(),
            &self.pipe(f.gpu, Stage::ExtractSmooth, format),
            self.bind(f.gpu, "bloom extract bind group", &source.view),
            Some(target),
            &[source],
            false,
        );
    }

    /// The step `step` of the mip chain, named `name`: reads `input`
    /// (group 0, holding `sampled`), writes every texel of `target`, as
    /// compute or drawn ([`Computed`]).
    fn step(
        &self,
        f: &mut FrameBuilder<'_>,
        name: &str,
        step: Computed,
        input: wgpu::BindGroup,
        target: &Image,
        sampled: &[&Image],
    ) {
        let (function, constant) = step.name();
        let constants = constant.map(|c| [c]);
        let constants = constants.as_ref().map_or(&[][..], |c| c.as_slice());
        if !f.gpu.compute_images {
            let pipe = self.drawn.get(step, || {
                let fragment_entry = format!("fs_{function}");
                pipeline(
                    f.gpu,
                    &PipeDesc {
                        label: name,
                        layout: &self.pipeline_layout,
                        module: &self.module,
                        vertex_entry: "vs_fullscreen",
                        fragment_entry: &fragment_entry,
                        color_format: COMPUTED_FORMAT,
                        blend: Blend::Replace,
                        depth: None,
                        samples: 1,
                        constants,
                    },
                )
            });
            f.fullscreen(name.into(), &pipe, input, Some(target), sampled, false);
            return;
        }
        let pipe = self.computed.get(step, || {
            let (layout, module) = (&self.computed_pipeline_layout, &self.module);
            let entry = format!("cs_{function}");
            compute_pipeline(f.gpu, name, layout, module, &entry, constants)
        });
        let out = f.gpu.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("bloom image bind group"),
            layout: &self.computed_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&target.view),
            }],
        });
        f.compute_image(name.into(), &pipe, vec![input, out], target, sampled);
    }

    /// The mip chain: extract into boxes, their light moved to its
    /// centroids into the base, 13-tap downsamples down the chain, tent
    /// upsamples added back up it, the last one also smoothing the base
    /// into mip 0, then mip 0 read into a target twice its size for the
    /// composite.
    fn build_mips(
        &self,
        f: &mut FrameBuilder<'_>,
        source: &Image,
        plan: BloomPlan,
    ) -> Result<BloomResult, Error> {
        let gpu = f.gpu;
        // Mip 0 is written as [`Computed`] steps are, the other levels drawn.
        let format = COMPUTED_FORMAT;
        let written = written_usage(gpu);
        let usage = TARGET_USAGE | written;
        let tex = f.texture("bloom", plan.size, format, 1, plan.levels, usage)?;
        let mips: Vec<_> = (0..plan.levels).map(|m| f.view(&tex, m)).collect();
        // The extract's boxes with their light's centroids, then the light
        // moved to them (bloom.wgsl).
        let usage = wgpu::TextureUsages::TEXTURE_BINDING | written;
        let boxes = f.texture("bloom extract", plan.size, format, 1, 1, usage)?;
        let boxes = f.view(&boxes, 0);
        let base = f.texture("bloom base", plan.size, format, 1, 1, usage)?;
        let base = f.view(&base, 0);
        let partial = plan.extent() != f.size();
        self.meter(f);
        let input = self.bind(gpu, "bloom extract bind group", &source.view);
        self.step(
            f,
            "bloom extract",
            Computed::Extract(partial),
            input,
            &boxes,
            &[source],
        );
        let input = self.bind(gpu, "bloom centre bind group", &boxes.view);
        self.step(f, "bloom centre", Computed::Centre, input, &base, &[&boxes]);
        let downsample = self.pipe(gpu, Stage::Downsample, format);
        let narrow = tent_radius(&f.settings.bloom) <= 0.5;
        let upsample = self.pipe(gpu, Stage::Upsample(narrow), format);
        for i in 1..mips.len() {
            let from = if i == 1 { &base } else { &mips[i - 1] };
            let label = format!("bloom downsample {i} bind group");
            f.fullscreen(
                format!("bloom downsample {i}"),
                &downsample,
                self.bind(gpu, &label, &from.view),
                Some(&mips[i]),
                &[from],
                false,
            );
        }
        for i in (1..mips.len().saturating_sub(1)).rev() {
            let label = format!("bloom upsample {i} bind group");
            f.fullscreen(
                format!("bloom upsample {i}"),
                &upsample,
                self.bind(gpu, &label, &mips[i + 1].view),
                Some(&mips[i]),
                &[&mips[i + 1]],
                true,
            );
        }
        let fine = self.smooth_and_fine(f, &base, &mips, plan, narrow)?;
        Ok(BloomResult {
            image: fine,
            levels: plan.levels,
        })
    }

    /// The base smoothed into mip 0 by the last upsample, which adds mip 1
    /// (or on its own, in a chain of one level), then mip 0 read into a
    /// target twice its size, which the composite samples: a small light's
    /// glow is then round wherever it falls in its box (bloom.wgsl,
    /// fs_upsample_base).
    fn smooth_and_fine(
        &self,
        f: &mut FrameBuilder<'_>,
        base: &Image,
        mips: &[Image],
        plan: BloomPlan,
        narrow: bool,
    ) -> Result<Image, Error> {
        let gpu = f.gpu;
        match mips.get(1) {
            Some(mip1) => {
                let label = "bloom upsample 0 bind group";
                let input = self.bind_with_base(gpu, label, &mip1.view, &base.view);
                let step = Computed::UpsampleBase(narrow);
                self.step(f, "bloom upsample 0", step, input, &mips[0], &[mip1, base]);
            }
            None => {
                let input = self.bind(gpu, "bloom smooth bind group", &base.view);
                self.step(
                    f,
                    "bloom smooth",
                    Computed::Smooth,
                    input,
                    &mips[0],
                    &[base],
                );
            }
        }
        let size = fine_size(plan.size);
        let usage = wgpu::TextureUsages::TEXTURE_BINDING | written_usage(gpu);
        let fine = f.texture("bloom fine", size, COMPUTED_FORMAT, 1, 1, usage)?;
        let fine = f.view(&fine, 0);
        let input = self.bind(gpu, "bloom fine bind group", &mips[0].view);
        self.step(f, "bloom fine", Computed::Fine, input, &fine, &[&mips[0]]);
        Ok(fine)
    }

    /// The Gaussian blur: extract into a ping target, then horizontal and
    /// vertical passes between ping and pong, with bind groups made once.
    fn build_gaussian(
        &self,
        f: &mut FrameBuilder<'_>,
        source: &Image,
        plan: BloomPlan,
    ) -> Result<BloomResult, Error> {
        let gpu = f.gpu;
        let format = self.target_format(f.settings);
        let ping = f.texture("bloom ping", plan.size, format, 1, 1, TARGET_USAGE)?;
        let pong = f.texture("bloom pong", plan.size, format, 1, 1, TARGET_USAGE)?;
        let (ping, pong) = (f.view(&ping, 0), f.view(&pong, 0));
        // Made once per size: one bind group reading each target.
        let read_ping = self.bind(gpu, "bloom read ping bind group", &ping.view);
        let read_pong = self.bind(gpu, "bloom read pong bind group", &pong.view);
        self.extract_smooth(f, format, source, &ping);
        let (blur_h, blur_v) = (
            self.pipe(gpu, Stage::BlurH, format),
            self.pipe(gpu, Stage::BlurV, format),
        );
        for k in 0..f.settings.bloom.iterations {
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
        Ok(BloomResult {
            image: ping,
            levels: 1,
        })
    }
}

/// The size of the target the composite reads the mip chain from: twice
/// the base's (it covers the same frame texels).
pub fn fine_size(base: (u32, u32)) -> (u32, u32) {
    (base.0.saturating_mul(2), base.1.saturating_mul(2))
}

/// How [`Computed`] steps write their images on `gpu`.
fn written_usage(gpu: &Gpu) -> wgpu::TextureUsages {
    if gpu.compute_images {
        wgpu::TextureUsages::STORAGE_BINDING
    } else {
        wgpu::TextureUsages::RENDER_ATTACHMENT
    }
}

/// The bloom targets are rendered into and sampled.
const TARGET_USAGE: wgpu::TextureUsages =
    wgpu::TextureUsages::RENDER_ATTACHMENT.union(wgpu::TextureUsages::TEXTURE_BINDING);

impl Pass for BloomPass {
    /// Extract from the current HDR image (or the caller's bloom texture),
    /// blur, and publish the result.
    fn build(&self, f: &mut FrameBuilder<'_>) -> Result<(), Error> {
        let settings = f.settings.bloom;
        if !settings.enabled {
            return Ok(());
        }
        // Selective bloom: a caller's emissive texture replaces the scene.
        let source = match f.slots.bloom_source.clone() {
            Some(source) => source,
            None => f.hdr("bloom extract")?,
        };
        let plan = plan_for(f.size(), &settings);
        self.params.renew(f.gpu);
        let result = match settings.blur {
            BlurMode::Mip => self.build_mips(f, &source, plan)?,
            BlurMode::Gaussian => self.build_gaussian(f, &source, plan)?,
        };
        f.info.bloom_levels = result.levels;
        f.info.bloom_extent = plan.extent();
        f.slots.bloom = Some(result);
        Ok(())
    }

    fn write_params(
        &self,
        queue: &wgpu::Queue,
        settings: &Options,
        _output: &OutputSpec,
        info: &FrameInfo,
    ) {
        let b = &settings.bloom;
        let plan = plan_for(info.size, b);
        let params = BloomParams {
            threshold: b.threshold as f32,
            knee: (b.threshold * b.knee) as f32,
            exposure: settings.exposure as f32,
            radius: tent_radius(b),
            // Gaussian tap spacing: 4 texels of a reference-height base, and
            // never under one texel (below that the kernel degenerates).
            gauss_step: (b.radius as f32 * 4.0 * plan.size.1 as f32
                / GAUSSIAN_REFERENCE_HEIGHT as f32)
                .max(1.0),
            ratio: plan.ratio as f32,
            _pad0: [0.0; 2],
        };
        self.params.write(queue, bytemuck::bytes_of(&params));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_has_about_the_same_shape_in_screen_terms_from_1080p_up() {
        let p1080 = plan((1920, 1080), 7);
        assert_eq!(
            p1080,
            BloomPlan {
                size: (480, 270),
                levels: 7,
                ratio: 4,
            }
        );
        let p2160 = plan((3840, 2160), 7);
        assert_eq!((p2160.size, p2160.levels, p2160.ratio), ((480, 270), 7, 8));
        // Between whole ratios the base stays within 13 % of the
        // reference height, with the same levels.
        for h in [1200, 1440, 1600, 2000, 2880, 4320] {
            let p = plan((h * 16 / 9, h), 7);
            let off = p.size.1.abs_diff(REFERENCE_HEIGHT) as f32 / REFERENCE_HEIGHT as f32;
            assert!(off <= 0.125, "{h}: base {:?}", p.size);
            assert_eq!(p.levels, 7, "{h}");
        }
        // Past 16 × 270 px the base grows instead of the loop.
        assert_eq!(plan((8192, 8192), 7).ratio, MAX_RATIO);
    }

    #[test]
    fn smaller_frames_lose_the_finest_levels() {
        // 720p: base 320×180; one level fewer, so the smallest mip covers
        // about the same fraction of the screen (180/32 vs 270/64 px).
        assert_eq!(
            plan((1280, 720), 7),
            BloomPlan {
                size: (320, 180),
                levels: 6,
                ratio: 4,
            }
        );
        assert_eq!(plan((128, 128), 7).levels, 4);
        assert!(plan((640, 360), 7).levels < 7);
    }

    #[test]
    fn the_base_covers_the_frame_in_whole_boxes() {
        for size in [(1, 1), (3, 7), (1366, 768), (1917, 1077), (2560, 1440)] {
            let p = plan(size, 7);
            let r = p.ratio;
            assert!(
                p.size.0 * r >= size.0 && (p.size.0 - 1) * r < size.0,
                "{size:?}"
            );
            assert!(
                p.size.1 * r >= size.1 && (p.size.1 - 1) * r < size.1,
                "{size:?}"
            );
            let c = crate::frame::bloom_coverage(size, p.extent());
            assert!(
                c[0] > 0.0 && c[0] <= 1.0 && c[1] > 0.0 && c[1] <= 1.0,
                "{c:?}"
            );
        }
        assert_eq!(
            crate::frame::bloom_coverage((1920, 1080), plan((1920, 1080), 7).extent()),
            [1.0, 1.0]
        );
    }

    #[test]
    fn the_gaussian_blur_keeps_a_half_size_target() {
        let p = gaussian_plan((1920, 1080));
        assert_eq!((p.size, p.levels, p.ratio), ((960, 540), 1, 2));
        assert_eq!(gaussian_plan((192, 108)).size, (96, 54));
        assert_eq!(gaussian_plan((3840, 2160)).ratio, 4);
    }

    #[test]
    fn degenerate_sizes() {
        assert_eq!(
            plan((1, 1), 7),
            BloomPlan {
                size: (1, 1),
                levels: 1,
                ratio: 4,
            }
        );
        let p = plan((3, 7), 7);
        assert_eq!(p.size, (1, 2));
        assert!(p.levels >= 1 && p.levels <= 1 + p.size.0.max(p.size.1).ilog2());
        assert_eq!(plan((1366, 768), 1).levels, 1, "levels caps the chain");
    }

    #[test]
    fn no_size_overflows_the_plan() {
        for size in [(u32::MAX, u32::MAX), (u32::MAX, 1), (1, u32::MAX), (0, 0)] {
            for p in [plan(size, 7), gaussian_plan(size)] {
                assert!(p.levels >= 1 && p.ratio <= MAX_RATIO, "{size:?}: {p:?}");
                let extent = p.extent();
                assert!(
                    extent.0 >= size.0.min(p.size.0) && extent.1 >= 1,
                    "{size:?}"
                );
                crate::frame::bloom_coverage(size, extent);
            }
        }
    }
}
