//! Composite: the last link of the chain and the only pass that touches the
//! output texture. Reads the HDR target and the bloom result, applies
//! exposure, bloom intensity, the effects fused into it (`crate::effect`),
//! the tonemapper and dithering, and writes through the output's `-srgb`
//! view (or encodes in the shader where there is none), premultiplied when
//! the canvas is. The bloom is added here rather than in a separate
//! full-resolution pass: the HDR target is read once and never written
//! back.
//!
//! Its shader is generated for the effects that are on, in their order
//! ([`fused_source`]): one module, bind group layout and set of pipelines
//! per such list, made on first use and kept. The effects' bindings come
//! from one list made with them ([`plan`]): their WGSL declarations, their
//! layout entries and, for every frame, their resources. This module knows
//! no effect by name.

use super::neighbours::NeighbourPasses;
use crate::effect::{
    push_all, shared_bindings, Binding, BindingKind, Builtin, Context, EffectFrame, Input,
    LookTexture, Neighbours, Place, EFFECT_PRELUDE,
};
use crate::effects::BUILTINS;
use crate::error::Error;
use crate::frame::{FrameBuilder, FrameInfo, Image};
use crate::gpu::Gpu;
use crate::options::{BloomMode, DebugView, Options};
use crate::output::OutputSpec;
use crate::pass::{
    compute_pipeline, entry, layout, linear_sampler, pipeline, pipeline_layout, storage_entry,
    uniform, uniform_buffer, Blend, FrameUniform, Pass, Pipe, PipeCache, PipeDesc, Registration,
    Stage, FILTERABLE_TEXTURE, FILTERING_SAMPLER, UNIFORM,
};
use crate::user_effect::UserEffect;

/// The WGSL of the composite pass after the full-screen stage.
pub const SHADER_PARTS: &[&str] = &[
    wgsl!("tonemap.wgsl"),
    wgsl!("bright.wgsl"),
    wgsl!("composite.wgsl"),
];

uniform! {
    /// `CompositeParams` in composite.wgsl (layout checked by src/tests/shaders.rs).
    struct CompositeParams {
        exposure: f32,
        bloom_scale: f32,
        // Frame to bloom texture coordinates (see `bloom::coverage`).
        bloom_uv: [f32; 2],
        // The curve's peak (1 but on the extended path: `canvas.headroom`).
        headroom: f32,
        // The bloom extract's threshold and knee width, for the
        // energy-conserving mode, which takes back what blooms.
        threshold: f32,
        knee: f32,
        // How much of each pixel's bloomed light it gives away (0 in the
        // additive mode).
        bloom_subtract: f32,
    }
}

uniform! {
    /// `ExposureView` in composite.wgsl and auto_exposure.wgsl: what
    /// `debug: 'exposure'` draws (layout checked by src/tests/shaders.rs).
    struct ExposureView {
        bins: [[f32; 4]; 16],
        meter: [f32; 4],
    }
}

/// What a composite pipeline is specialised for besides its effects: the
/// output view's format and the shader's override constants.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Variant {
    pub format: wgpu::TextureFormat,
    /// `FLAGS`: the `FLAG_*` bits of the output and the frame.
    pub flags: u32,
    /// `TONEMAPPER`: the curve's `TONEMAP_*` index.
    pub tonemapper: u32,
    /// `BLOOM`: the bloom result is added.
    pub bloom: bool,
    /// `ENERGY`: what blooms is taken from the pixel it came from.
    pub energy: bool,
    /// `DEBUG`: 0 the picture, 1 the bloom alone, 2 the exposure histogram,
    /// 3 the HDR image as it is (depth of field's circle of confusion).
    pub debug: u32,
    /// Which part of the frame the pipeline draws.
    pub part: Part,
    /// `SDR_WHITE_NITS`: SDR white on a PQ output, cd/m², as its `f32` bits.
    pub sdr_white_nits: u32,
}

/// The part of the frame a composite pipeline draws.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Part {
    /// All of it, into the output (`fs_composite`).
    Whole,
    /// Up to the display image, for an effect that reads around its pixel
    /// (`cs_composite`, or `fs_composite` with `SPLIT` where an effect it
    /// reaches is fragment-only).
    Head,
    /// From that effect on, into the output (`fs_resume`).
    Resume,
}

/// The energy-conserving mode's mix towards the blur: `intensity`, at most 1.
fn energy_weight(settings: &Options) -> f32 {
    settings.bloom.intensity.min(1.0) as f32
}

impl Variant {
    /// The values of the composite's `override` constants.
    fn constants(&self) -> [(&'static str, f64); 7] {
        [
            ("FLAGS", f64::from(self.flags)),
            ("TONEMAPPER", f64::from(self.tonemapper)),
            ("BLOOM", if self.bloom { 1.0 } else { 0.0 }),
            ("ENERGY", if self.energy { 1.0 } else { 0.0 }),
            ("DEBUG", self.debug as f64),
            ("SPLIT", if self.part == Part::Head { 1.0 } else { 0.0 }),
            ("SDR_WHITE_NITS", f32::from_bits(self.sdr_white_nits).into()),
        ]
    }

    /// The variant a frame of these settings, output and shape draws with.
    pub fn of(settings: &Options, output: &OutputSpec, info: &FrameInfo) -> Variant {
        let one_to_one = if info.size == info.output_size {
            crate::output::FLAG_ONE_TO_ONE
        } else {
            0
        };
        Variant {
            format: output.view_format,
            flags: output.shader_flags(settings.dither) | one_to_one,
            tonemapper: settings.tonemapper.shader_index(),
            bloom: info.bloom_levels > 0,
            energy: info.bloom_levels > 0 && settings.bloom.mode == BloomMode::EnergyConserving,
            debug: match settings.debug {
                DebugView::None => 0,
                DebugView::Bloom => 1,
                DebugView::Exposure => 2,
                // Depth of field's view, where it drew one (it needs depth).
                DebugView::Coc if info.coc_view => 3,
                DebugView::Coc => 0,
            },
            part: Part::Whole,
            sdr_white_nits: match output.transfer {
                crate::output::Transfer::Pq { sdr_white_nits } => sdr_white_nits.to_bits(),
                _ => 203f32.to_bits(),
            },
        }
    }
}

/// What the effects' switches and uniforms read of a frame.
pub fn context(info: &FrameInfo) -> Context {
    Context {
        size: info.size,
        output_size: info.output_size,
        bloom: info.bloom_levels > 0,
        lut: info.look.lut,
        dirt: info.look.dirt,
    }
}

/// An effect the composite runs.
#[derive(Clone, Copy)]
pub enum Active<'a> {
    /// A built-in effect, by its index in [`BUILTINS`].
    Builtin(usize, &'static Builtin),
    User(&'a UserEffect),
}

impl Active<'_> {
    /// What it reads around its pixel, if it does.
    fn neighbours(&self) -> Option<&'static Neighbours> {
        match self {
            Active::Builtin(_, b) => b.neighbours,
            Active::User(_) => None,
        }
    }

    fn place(&self) -> Place {
        match self {
            Active::Builtin(_, b) => b.place,
            Active::User(u) => u.stage.place(),
        }
    }

    /// What tells two lists of effects apart: a built-in's index, a
    /// user's effect's serial.
    fn key(&self) -> EffectKey {
        match self {
            Active::Builtin(i, _) => EffectKey::Builtin(*i),
            Active::User(u) => EffectKey::User(u.serial),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EffectKey {
    Builtin(usize),
    User(u64),
}

/// The effects that run for these settings and this frame, in the order
/// they run: by place; within one, the built-ins in their order, then the
/// user's in the order they were added.
pub fn active<'a>(
    settings: &Options,
    info: &FrameInfo,
    users: &'a [UserEffect],
) -> Vec<Active<'a>> {
    let ctx = context(info);
    let mut all: Vec<Active<'a>> = Vec::new();
    for place in Place::ALL {
        for (i, b) in BUILTINS.iter().enumerate() {
            if b.place == place && (b.on)(settings, &ctx) {
                all.push(Active::Builtin(i, b));
            }
        }
        for u in users {
            if u.stage.place() == place {
                all.push(Active::User(u));
            }
        }
    }
    all
}

/// The composite's own bindings: the HDR image, its sampler, its uniform,
/// the bloom result, what bloomed, the exposure view.
const OWN_BINDINGS: [wgpu::BindingType; 6] = [
    FILTERABLE_TEXTURE,
    FILTERING_SAMPLER,
    UNIFORM,
    FILTERABLE_TEXTURE,
    FILTERABLE_TEXTURE,
    UNIFORM,
];

/// The first of the effects' bindings, after the composite's own.
const FIRST_EFFECT_BINDING: u32 = OWN_BINDINGS.len() as u32;

/// Where the resource of an effect's binding comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Source {
    /// The frame every effect reads ([`EffectFrame`]).
    EffectFrame,
    /// The composite's sampler.
    Sampler,
    /// A built-in effect's uniform block, by its index in [`BUILTINS`].
    Params(usize),
    /// A texture of the look.
    Look(LookTexture),
    /// The uniform block of the user's effect.
    UserUniforms,
    /// This texture of the user's effect.
    UserTexture(usize),
    /// What an effect that reads around its pixel reads.
    Input(Input),
}

/// One of the effects' bindings.
pub struct Planned {
    binding: Binding,
    source: Source,
    /// The effect (its index in the list) whose WGSL follows the
    /// declaration; none for the bindings every effect shares.
    effect: Option<usize>,
    /// Its bind group: 0, or 1 for what the pass that resumes the frame
    /// at an effect that reads around its pixel reads (the display image
    /// the first pass writes cannot be bound there).
    group: u32,
    /// Its number in the group.
    number: u32,
}

/// The index of the first effect that reads around its pixel: the frame
/// is split there.
pub fn split(effects: &[Active<'_>]) -> Option<usize> {
    effects.iter().position(|e| e.neighbours().is_some())
}

/// Whether effect `i`, `e`, of a frame split at `split` runs in the pass
/// that resumes the frame: the effect split at (its function starts that
/// pass) and the display effects after it (through `fx_resumed`). The rest
/// run in the composite, through their place's hook.
fn resumed(split: Option<usize>, i: usize, e: &Active<'_>) -> bool {
    split.is_some_and(|k| i == k || (i > k && e.place() == Place::Display))
}

/// Whether every effect of `effects` can run in a compute entry point:
/// none is fragment-only (a user's `textureSample` or `discard`).
fn all_compute<'e, 'a: 'e>(mut effects: impl Iterator<Item = &'e Active<'a>>) -> bool {
    effects.all(|e| match e {
        Active::User(u) => !crate::wgsl::fragment_only(&u.source),
        Active::Builtin(_, b) => !crate::wgsl::fragment_only(b.wgsl),
    })
}

/// Whether the frame is split and the part before the split runs as
/// compute (`cs_composite`): it does unless an effect it can reach, any
/// not [`resumed`], is fragment-only.
fn head_computes(effects: &[Active<'_>]) -> bool {
    let split = split(effects);
    split.is_some()
        && all_compute(
            effects
                .iter()
                .enumerate()
                .filter(|&(i, e)| !resumed(split, i, e))
                .map(|(_, e)| e),
        )
}

/// The format of the output where the composite writes it as compute
/// (`cs_output`: the whole composite, or the pass that resumes a split
/// frame): a device that computes its largest images
/// ([`Gpu::compute_images`]), an output that allows it
/// ([`OutputSpec::storage`]) and no fragment-only effect.
fn output_computes(
    effects: &[Active<'_>],
    output: &OutputSpec,
    gpu: &Gpu,
) -> Option<wgpu::TextureFormat> {
    (gpu.compute_images && output.storage && all_compute(effects.iter())).then_some(output.format)
}

/// The WGSL name of the output written as compute (binding 0 of the group
/// after the plan's: 1, or 2 in a split frame).
const OUTPUT_OUT: &str = "fx_output_out";

/// The WGSL name of the display image where the part before the split
/// runs as compute, and its binding in group 1, after what the pass that
/// resumes the frame reads.
const HEAD_OUT: &str = "fx_display_out";
fn head_out_binding(plan: &[Planned]) -> u32 {
    plan.iter().filter(|p| p.group == 1).count() as u32
}

/// The bindings of `effects`, numbered from [`FIRST_EFFECT_BINDING`] in
/// this order: those every effect shares, then each effect's own. The one
/// list their WGSL declarations ([`fused_source`]), their layout entries
/// and their resources are made from.
pub fn plan(effects: &[Active<'_>]) -> Vec<Planned> {
    if effects.is_empty() {
        return Vec::new();
    }
    let mut plan: Vec<Planned> = Vec::new();
    let mut add = |binding, source, effect, group| {
        let number = plan.iter().filter(|p: &&Planned| p.group == group).count() as u32;
        let first = if group == 0 { FIRST_EFFECT_BINDING } else { 0 };
        plan.push(Planned {
            binding,
            source,
            effect,
            group,
            number: first + number,
        });
    };
    let [frame, sampler] = shared_bindings();
    add(frame, Source::EffectFrame, None, 0);
    add(sampler, Source::Sampler, None, 0);
    for (i, e) in effects.iter().enumerate() {
        let mine = Some(i);
        match e {
            Active::Builtin(index, b) => {
                if let Some(p) = b.params_binding() {
                    add(p, Source::Params(*index), mine, 0);
                }
                for &(name, texture) in b.textures {
                    add(Binding::look(name, texture), Source::Look(texture), mine, 0);
                }
                // What it reads around its pixel, in the pass that resumes
                // the frame there: the display image first.
                let reads = b.neighbours.map_or(&[][..], |n| n.reads);
                let display = b.neighbours.map(|_| (INPUT, Input::Display));
                for &(name, read) in display.iter().chain(reads) {
                    let binding = Binding {
                        name: std::borrow::Cow::Borrowed(name),
                        kind: BindingKind::Texture2d,
                    };
                    add(binding, Source::Input(read), mine, 1);
                }
            }
            Active::User(u) => {
                // Its uniform block, if it has one, then its textures.
                let mut texture = 0;
                for b in crate::user_effect::bindings(u) {
                    let source = match b.kind {
                        BindingKind::Uniform(_) => Source::UserUniforms,
                        _ => {
                            texture += 1;
                            Source::UserTexture(texture - 1)
                        }
                    };
                    add(b, source, mine, 0);
                }
            }
        }
    }
    plan
}

/// The WGSL name of the display image, for an effect that reads around
/// its pixel.
const INPUT: &str = "fx_input";

/// The hook of the effects after one that reads around its pixel, in the
/// pass that resumes the frame there, and its constant.
const RESUMED: (&str, &str) = ("fx_resumed", "FX_RESUMED");

/// The composite's WGSL for these effects and their [`plan`]: the
/// composite, the effects' prelude and the shared bindings, each effect's
/// bindings and functions, and the hooks that call them in order (the
/// identity where none runs). With an effect that reads around its pixel,
/// the effects after it are called from `fx_resumed` in `fs_resume`,
/// which starts from that effect's function.
pub fn fused_source(
    effects: &[Active<'_>],
    plan: &[Planned],
    output_image: Option<wgpu::TextureFormat>,
) -> String {
    let mut s = crate::shaders::compose(SHADER_PARTS);
    if !effects.is_empty() {
        s.push('\n');
        s.push_str(EFFECT_PRELUDE);
        s.push('\n');
    }
    let declare = |s: &mut String, effect: Option<usize>| {
        for p in plan.iter().filter(|p| p.effect == effect) {
            p.binding.declare(s, p.group, p.number);
        }
    };
    declare(&mut s, None);
    if !effects.is_empty() {
        s.push_str(crate::user_effect::TEXEL);
    }
    let scene_user =
        |e: &Active<'_>| matches!(e, Active::User(u) if u.stage.place() == Place::Scene);
    if effects.iter().any(scene_user) {
        s.push_str(crate::user_effect::LIGHT_AT);
    }
    let split = split(effects);
    let mut calls: Vec<((&str, &str), String)> = Vec::new();
    for (i, e) in effects.iter().enumerate() {
        declare(&mut s, Some(i));
        let function = match e {
            Active::Builtin(_, b) => {
                s.push_str(b.wgsl);
                s.push('\n');
                b.function()
            }
            Active::User(u) => {
                let (text, function) = crate::user_effect::fused_source(u);
                s.push_str(&text);
                function
            }
        };
        match split {
            Some(k) if i == k => {}
            _ if resumed(split, i, e) => calls.push((RESUMED, function)),
            _ => calls.push((e.place().hook(), function)),
        }
    }
    let hooks = Place::ALL.map(Place::hook);
    for &(hook, flag) in hooks.iter().chain(split.map(|_| RESUMED).iter()) {
        let mine: Vec<&String> = calls
            .iter()
            .filter(|(h, _)| h.0 == hook)
            .map(|(_, f)| f)
            .collect();
        let on = if mine.is_empty() { "false" } else { "true" };
        push_all(&mut s, &["const ", flag, ": bool = ", on, ";\nfn ", hook]);
        s.push_str("(c: vec4f, uv: vec2f) -> vec4f {\n    var x = c;\n");
        for f in mine {
            push_all(&mut s, &["    x = ", f, "(x, uv);\n"]);
        }
        s.push_str("    return x;\n}\n");
    }
    push_entry_points(&mut s, effects, plan, output_image);
    s
}

/// The entry points of the composite's module beyond `fs_composite`: the
/// pass that resumes a split frame (`fs_resume`), the part before the split
/// computed (`cs_composite`), and the output computed (`cs_output`), each
/// with the image it writes declared.
fn push_entry_points(
    s: &mut String,
    effects: &[Active<'_>],
    plan: &[Planned],
    output_image: Option<wgpu::TextureFormat>,
) {
    let split = split(effects);
    if let Some(Active::Builtin(_, b)) = split.and_then(|k| effects.get(k)) {
        push_all(
            s,
            &[
                "fn fx_resume(in: FullscreenOut) -> vec4f {\n    var c = ",
                &b.function(),
                "(in.uv);\n    if FX_RESUMED {\n        c = fx_resumed(c, in.uv);\n    }\n    \
                 return fx_finish(c.rgb, c.a, in.position.xy, in.uv);\n}\n\
                 @fragment\nfn fs_resume(in: FullscreenOut) -> @location(0) vec4f {\n    \
                 return fx_resume(in);\n}\n",
            ],
        );
    }
    if head_computes(effects) {
        let binding = head_out_binding(plan);
        crate::shaders::declare_image_out(s, 1, binding, HEAD_OUT, DISPLAY_FORMAT);
        s.push_str(&crate::shaders::image_entry(
            "cs_composite",
            "fx_composite",
            HEAD_OUT,
        ));
    }
    if let Some(format) = output_image {
        let (group, function) = match split {
            Some(_) => (2, "fx_resume"),
            None => (1, "fx_composite"),
        };
        crate::shaders::declare_image_out(s, group, 0, OUTPUT_OUT, format);
        s.push_str(&crate::shaders::image_entry(
            "cs_output",
            function,
            OUTPUT_OUT,
        ));
    }
}

/// The composite made for one list of effects.
struct Shape {
    /// The effects, and the output's format where the composite writes it
    /// as compute.
    key: (Vec<EffectKey>, Option<wgpu::TextureFormat>),
    plan: Vec<Planned>,
    /// The layouts of its bind groups: 0, and 1 where the frame is split.
    layouts: Vec<wgpu::BindGroupLayout>,
    /// Group 0 alone (the whole frame, or its head drawn), and both groups
    /// (the pass that resumes it); the head computed has its own.
    pipeline_layouts: Vec<wgpu::PipelineLayout>,
    module: wgpu::ShaderModule,
    pipes: PipeCache<Variant>,
    /// The part before the split as compute, where it runs so.
    head: Option<ComputeImage>,
    /// The whole composite as compute into the output, where it runs so
    /// ([`output_computes`]).
    output: Option<ComputeImage>,
}

/// The composite run as compute: the layout of the image it writes (group
/// 1: the display image of a split frame, or the output) and its pipelines.
struct ComputeImage {
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    pipes: PipeCache<Variant, wgpu::ComputePipeline>,
}

pub const PASS: Registration = Registration {
    stage: Stage::Composite,
    make: Some(|gpu| Box::new(CompositePass::new(gpu))),
    // The composite with every built-in effect on; split at each one that
    // reads around its pixel (one at a time: they are choices of one
    // option), named by it, and its passes.
    #[cfg(test)]
    shaders: || {
        let all = all_builtins();
        let mut shaders = vec![
            ("composite", fused_source(&all, &plan(&all), None)),
            (
                "composite as compute",
                fused_source(&all, &plan(&all), Some(wgpu::TextureFormat::Rgba8Unorm)),
            ),
        ];
        for (i, b) in BUILTINS.iter().enumerate() {
            if let Some(n) = b.neighbours {
                // Drawn and computed into the output both (`fs_resume`,
                // `cs_output`).
                let all = builtins_with(Some(i));
                let output = Some(wgpu::TextureFormat::Rgba8Unorm);
                shaders.push((b.name, fused_source(&all, &plan(&all), output)));
                for pass in n.passes {
                    shaders.push((pass.name, super::neighbours::source(pass)));
                }
            }
        }
        shaders
    },
    #[cfg(test)]
    uniforms: || {
        use crate::uniform::Uniform;
        let all = all_builtins();
        let source = fused_source(&all, &plan(&all), None);
        let mut all: Vec<crate::pass::UniformLayout> = vec![
            (
                source.clone(),
                "CompositeParams",
                std::mem::size_of::<CompositeParams>(),
                CompositeParams::offsets(),
            ),
            (
                source.clone(),
                "ExposureView",
                std::mem::size_of::<ExposureView>(),
                ExposureView::offsets(),
            ),
            (
                source.clone(),
                "EffectFrame",
                std::mem::size_of::<EffectFrame>(),
                EffectFrame::offsets(),
            ),
        ];
        for p in BUILTINS.iter().filter_map(|b| b.params.as_ref()) {
            let (name, size, offsets) = (p.layout)();
            all.push((source.clone(), name, size, offsets));
        }
        all
    },
};

/// Every built-in effect that reads only its own pixel, on, in the order
/// they run.
#[cfg(test)]
pub fn all_builtins() -> Vec<Active<'static>> {
    builtins_with(None)
}

/// [`all_builtins`] and the one at `neighbour` in [`BUILTINS`], which
/// reads around its pixel, in the order they run.
#[cfg(test)]
pub fn builtins_with(neighbour: Option<usize>) -> Vec<Active<'static>> {
    let mut all = Vec::new();
    for place in Place::ALL {
        let here = BUILTINS
            .iter()
            .enumerate()
            .filter(|(i, b)| b.place == place && (b.neighbours.is_none() || Some(*i) == neighbour));
        all.extend(here.map(|(i, b)| Active::Builtin(i, b)));
    }
    all
}

pub struct CompositePass {
    shapes: std::sync::Mutex<Vec<std::sync::Arc<Shape>>>,
    sampler: wgpu::Sampler,
    params: FrameUniform,
    /// Auto exposure's histogram, for `debug: 'exposure'` (copied in from
    /// its pass each frame; zeros without it).
    exposure_view: wgpu::Buffer,
    /// What every effect reads (time, resolution), written every frame
    /// while effects run.
    effect_frame: FrameUniform,
    /// Each built-in effect's uniform block, in [`BUILTINS`] order.
    effect_params: Vec<Option<FrameUniform>>,
    /// Effects run in the frame built last.
    fused: std::sync::atomic::AtomicBool,
    /// The passes of effects that read around their pixel.
    neighbours: NeighbourPasses,
}

impl CompositePass {
    pub fn new(gpu: &Gpu) -> CompositePass {
        CompositePass {
            shapes: std::sync::Mutex::new(Vec::new()),
            sampler: linear_sampler(gpu, "composite sampler"),
            params: FrameUniform::new(
                gpu,
                "composite params",
                std::mem::size_of::<CompositeParams>(),
            ),
            exposure_view: uniform_buffer(
                gpu,
                "composite exposure view",
                std::mem::size_of::<ExposureView>(),
            ),
            effect_frame: FrameUniform::new(
                gpu,
                "effect frame",
                std::mem::size_of::<EffectFrame>(),
            ),
            effect_params: BUILTINS
                .iter()
                .map(|b| {
                    b.params
                        .as_ref()
                        .map(|p| FrameUniform::new(gpu, b.name, p.size))
                })
                .collect(),
            fused: std::sync::atomic::AtomicBool::new(false),
            neighbours: NeighbourPasses::new(gpu),
        }
    }

    /// The composite for `effects`, made on first use. Lists with a user's
    /// effect that is gone are forgotten.
    fn shape(
        &self,
        gpu: &Gpu,
        effects: &[Active<'_>],
        users: &[UserEffect],
        output: &OutputSpec,
    ) -> Result<std::sync::Arc<Shape>, Error> {
        let output_image = output_computes(effects, output, gpu);
        let key = (effects.iter().map(Active::key).collect(), output_image);
        let mut shapes = self.shapes.lock().unwrap_or_else(|e| e.into_inner());
        shapes.retain(|s| {
            s.key.0.iter().all(|k| match k {
                EffectKey::User(serial) => users.iter().any(|u| u.serial == *serial),
                EffectKey::Builtin(_) => true,
            })
        });
        if let Some(s) = shapes.iter().find(|s| s.key == key) {
            return Ok(s.clone());
        }
        let plan = plan(effects);
        let groups = if split(effects).is_some() { 2 } else { 1 };
        let mut layouts = Vec::new();
        let mut pipeline_layouts = Vec::new();
        for group in 0..groups {
            let mut entries = Vec::new();
            if group == 0 {
                for (n, ty) in OWN_BINDINGS.iter().enumerate() {
                    entries.push(entry(n as u32, *ty));
                }
            }
            for p in &plan {
                if p.group == group {
                    entries.push(entry(p.number, p.binding.layout()));
                }
            }
            layouts.push(layout(gpu, "composite bind group layout", &entries));
            let these: Vec<&wgpu::BindGroupLayout> = layouts.iter().collect();
            pipeline_layouts.push(pipeline_layout(gpu, "composite pipeline layout", &these));
        }
        let source = fused_source(effects, &plan, output_image);
        let module = crate::user_effect::fused_module(gpu, source)?;
        // The image written as compute is bound after the groups before it.
        let compute_image = |before: &[&wgpu::BindGroupLayout], binding, format| {
            let entries = [storage_entry(binding, format)];
            let layout = layout(gpu, "composite image layout", &entries);
            let mut all = before.to_vec();
            all.push(&layout);
            let pipeline_layout = pipeline_layout(gpu, "composite pipeline layout", &all);
            ComputeImage {
                layout,
                pipeline_layout,
                pipes: PipeCache::new(),
            }
        };
        let head = head_computes(effects)
            .then(|| compute_image(&[&layouts[0]], head_out_binding(&plan), DISPLAY_FORMAT));
        // After the plan's groups: the resumed frame's reads too.
        let before: Vec<&wgpu::BindGroupLayout> = layouts.iter().collect();
        let output = output_image.map(|format| compute_image(&before, 0, format));
        let shape = std::sync::Arc::new(Shape {
            key,
            plan,
            layouts,
            pipeline_layouts,
            module,
            pipes: PipeCache::new(),
            head,
            output,
        });
        shapes.push(shape.clone());
        Ok(shape)
    }

    /// The pipeline specialised for `v`, made on first use.
    fn pipe(&self, gpu: &Gpu, shape: &Shape, v: Variant) -> Pipe {
        let (layout, entry) = match v.part {
            Part::Whole | Part::Head => (&shape.pipeline_layouts[0], "fs_composite"),
            Part::Resume => (
                shape
                    .pipeline_layouts
                    .last()
                    .unwrap_or(&shape.pipeline_layouts[0]),
                "fs_resume",
            ),
        };
        shape.pipes.get(v, || {
            pipeline(
                gpu,
                &PipeDesc {
                    label: "composite pipeline",
                    layout,
                    module: &shape.module,
                    vertex_entry: "vs_fullscreen",
                    fragment_entry: entry,
                    color_format: v.format,
                    blend: Blend::Replace,
                    depth: None,
                    samples: 1,
                    constants: &v.constants(),
                },
            )
        })
    }

    /// Pipelines made so far (one per variant and list of effects used;
    /// the tests count them).
    #[cfg(test)]
    pub fn variants(&self) -> usize {
        let shapes = self.shapes.lock().unwrap_or_else(|e| e.into_inner());
        shapes.iter().map(|s| s.pipes.len()).sum()
    }

    /// The frame split at the effect `at` (its index in [`BUILTINS`], it
    /// and what it reads around its pixel): the composite into the display
    /// image, the effect's passes on it, and the frame resumed at the
    /// effect into the output. `group` is the composite's bind group 0,
    /// `sampled` the images it holds.
    fn build_split(
        &self,
        f: &mut FrameBuilder<'_>,
        shape: &Shape,
        at: (usize, &'static Builtin, &'static Neighbours),
        group: wgpu::BindGroup,
        variant: Variant,
        sampled: &[&Image],
    ) -> Result<(), Error> {
        let (index, b, neighbours) = at;
        let written = match shape.head {
            Some(_) => wgpu::TextureUsages::STORAGE_BINDING,
            None => wgpu::TextureUsages::RENDER_ATTACHMENT,
        };
        let usage = written | wgpu::TextureUsages::TEXTURE_BINDING;
        let size = f.info.output_size;
        let tex = f.texture("display image", size, DISPLAY_FORMAT, 1, 1, usage)?;
        let display = f.view(&tex, 0);
        let head = Variant {
            format: DISPLAY_FORMAT,
            part: Part::Head,
            ..variant
        };
        let name = "composite".to_string();
        match &shape.head {
            Some(h) => {
                let pipe = h.pipes.get(head, || {
                    let constants = head.constants();
                    let (layout, module) = (&h.pipeline_layout, &shape.module);
                    compute_pipeline(f.gpu, &name, layout, module, "cs_composite", &constants)
                });
                let out = [(
                    head_out_binding(&shape.plan),
                    Resource::View(display.view.clone()),
                )];
                let out = bind_group(f.gpu, &h.layout, &out);
                f.compute_image(name, &pipe, vec![group.clone(), out], &display, sampled);
            }
            None => {
                let pipe = self.pipe(f.gpu, shape, head);
                f.fullscreen(name, &pipe, group.clone(), Some(&display), sampled, false);
            }
        }
        let gathered = self.neighbours.build(f, index, neighbours, display)?;
        // What the effect reads, group 1 of the plan.
        let mut inputs = Vec::new();
        // Group 0 is bound here too: the graph hears of all it holds.
        let mut read = sampled.to_vec();
        for p in shape.plan.iter().filter(|p| p.group == 1) {
            if let Source::Input(input) = p.source {
                let image = gathered.input(input);
                inputs.push((p.number, Resource::View(image.view.clone())));
                read.push(image);
            }
        }
        let layout = shape.layouts.last().unwrap_or(&shape.layouts[0]);
        let inputs = bind_group(f.gpu, layout, &inputs);
        let resume = Variant {
            part: Part::Resume,
            ..variant
        };
        let groups = vec![group, inputs];
        match &shape.output {
            Some(c) => {
                let pipe = c.pipes.get(resume, || {
                    let (layout, module) = (&c.pipeline_layout, &shape.module);
                    let constants = resume.constants();
                    compute_pipeline(f.gpu, b.name, layout, module, "cs_output", &constants)
                });
                f.compute_output(b.name.into(), &pipe, groups, &c.layout, &read);
            }
            None => {
                let pipe = self.pipe(f.gpu, shape, resume);
                f.fullscreen_groups(b.name.into(), &pipe, groups, None, &read, false);
            }
        }
        Ok(())
    }

    /// The resources of the effects' bindings in group 0, by number, and
    /// the images they sample (declared in the frame's graph).
    fn effect_resources(
        &self,
        f: &mut FrameBuilder<'_>,
        effects: &[Active<'_>],
        plan: &[Planned],
    ) -> Result<Resources, Error> {
        let mut out = Vec::with_capacity(plan.len());
        let mut images = Vec::new();
        for p in plan.iter().filter(|p| p.group == 0) {
            let name = &*p.binding.name;
            let user = match p.effect.and_then(|i| effects.get(i)) {
                Some(Active::User(u)) => Some(*u),
                _ => None,
            };
            let resource = match p.source {
                Source::EffectFrame => Some(Resource::Buffer(self.effect_frame.renew(f.gpu))),
                Source::Sampler => Some(Resource::Sampler(self.sampler.clone())),
                Source::Params(i) => {
                    let params = self.effect_params.get(i).and_then(Option::as_ref);
                    params.map(|u| Resource::Buffer(u.renew(f.gpu)))
                }
                Source::UserUniforms => user.and_then(|u| u.buffer.clone()).map(Resource::Buffer),
                Source::Look(texture) => f.look.get(texture).cloned().map(|view| {
                    let t = view.texture();
                    images.push(f.external(name, &view, (t.width(), t.height()), t.format()));
                    Resource::View(view)
                }),
                Source::UserTexture(t) => user.and_then(|u| {
                    let t = u.textures.get(t)?;
                    let label = format!("{} {}", u.name, t.name);
                    images.push(f.external(&label, &t.view, t.size, t.format));
                    Some(Resource::View(t.view.clone()))
                }),
                // Group 1's, bound by the pass that resumes the frame.
                Source::Input(_) => None,
            };
            let resource = resource.ok_or_else(|| Error::argument(name, "is not set"))?;
            out.push((p.number, resource));
        }
        Ok((out, images))
    }
}

/// The format of the display image: display light may exceed 1 on an
/// extended output, and an effect blends it linearly.
const DISPLAY_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

/// A bind group of `resources`, by number.
fn bind_group(
    gpu: &Gpu,
    layout: &wgpu::BindGroupLayout,
    resources: &[(u32, Resource)],
) -> wgpu::BindGroup {
    let mut entries = Vec::with_capacity(resources.len());
    for (binding, r) in resources {
        entries.push(wgpu::BindGroupEntry {
            binding: *binding,
            resource: r.binding(),
        });
    }
    gpu.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("composite bind group"),
        layout,
        entries: &entries,
    })
}

/// Resources of a bind group by number, and the images they sample.
type Resources = (Vec<(u32, Resource)>, Vec<Image>);

/// A resource of an effect's binding.
enum Resource {
    Buffer(wgpu::Buffer),
    Sampler(wgpu::Sampler),
    View(wgpu::TextureView),
}
impl Resource {
    fn binding(&self) -> wgpu::BindingResource<'_> {
        match self {
            Resource::Buffer(b) => b.as_entire_binding(),
            Resource::Sampler(s) => wgpu::BindingResource::Sampler(s),
            Resource::View(v) => wgpu::BindingResource::TextureView(v),
        }
    }
}

impl Pass for CompositePass {
    /// Reads the current HDR image and the bloom result, writes the output.
    fn build(&self, f: &mut FrameBuilder<'_>) -> Result<(), Error> {
        let hdr = f.hdr("composite")?;
        let params = self.params.renew(f.gpu);
        // An exposure metered on the GPU replaces the uniform's before the
        // pass runs.
        if let Some(exposure) = f.exposure.clone() {
            let offset = std::mem::offset_of!(CompositeParams, exposure) as u64;
            f.copy_before(&exposure, &params, offset, 4);
        }
        if let (DebugView::Exposure, Some(view)) = (f.settings.debug, f.exposure_view.clone()) {
            let size = std::mem::size_of::<ExposureView>() as u64;
            f.copy_before(&view, &self.exposure_view, 0, size);
        }
        // Without bloom the HDR image stands in for the bloom binding; the
        // shader does not sample it (bloom scale 0).
        let bloom = f.bloom.as_ref().map_or(hdr.clone(), |b| b.image.clone());
        // What bloomed (the energy-conserving mode takes it back): the
        // caller's bloom texture, or the HDR image itself.
        let source = f.bloom_source.clone().unwrap_or_else(|| hdr.clone());
        let users = f.user_effects;
        let effects = active(f.settings, &f.info, users);
        self.fused
            .store(!effects.is_empty(), std::sync::atomic::Ordering::Relaxed);
        let shape = self.shape(f.gpu, &effects, users, f.output)?;
        let (resources, images) = self.effect_resources(f, &effects, &shape.plan)?;
        let own = [
            Resource::View(hdr.view.clone()),
            Resource::Sampler(self.sampler.clone()),
            Resource::Buffer(params.clone()),
            Resource::View(bloom.view.clone()),
            Resource::View(source.view.clone()),
            Resource::Buffer(self.exposure_view.clone()),
        ];
        // The composite's own bindings (0 to 5), then the effects'.
        let mut all: Vec<(u32, Resource)> = (0..).zip(own).collect();
        all.extend(resources);
        let group = bind_group(f.gpu, &shape.layouts[0], &all);
        let variant = Variant::of(f.settings, f.output, &f.info);
        let mut sampled = vec![&hdr, &bloom, &source];
        sampled.extend(images.iter());
        let at = split(&effects).and_then(|k| match effects.get(k) {
            Some(Active::Builtin(index, b)) => Some((*index, *b, b.neighbours?)),
            _ => None,
        });
        match at {
            Some(at) => self.build_split(f, &shape, at, group, variant, &sampled),
            None => {
                match &shape.output {
                    Some(c) => {
                        let pipe = c.pipes.get(variant, || {
                            let (layout, module) = (&c.pipeline_layout, &shape.module);
                            let constants = variant.constants();
                            compute_pipeline(
                                f.gpu,
                                "composite",
                                layout,
                                module,
                                "cs_output",
                                &constants,
                            )
                        });
                        f.compute_output(
                            "composite".into(),
                            &pipe,
                            vec![group],
                            &c.layout,
                            &sampled,
                        );
                    }
                    None => {
                        let pipe = self.pipe(f.gpu, &shape, variant);
                        f.fullscreen("composite".into(), &pipe, group, None, &sampled, false);
                    }
                }
                Ok(())
            }
        }
    }

    fn write_params(
        &self,
        queue: &wgpu::Queue,
        settings: &Options,
        output: &OutputSpec,
        info: &FrameInfo,
    ) {
        let params = CompositeParams {
            exposure: settings.exposure as f32,
            bloom_uv: super::bloom::coverage(info.size, info.bloom_extent),
            bloom_scale: if info.bloom_levels == 0 {
                0.0
            } else {
                let weight = match settings.bloom.mode {
                    BloomMode::Additive => settings.bloom.intensity as f32,
                    BloomMode::EnergyConserving => energy_weight(settings),
                };
                weight / info.bloom_levels as f32
            },
            headroom: match output.tone_mapping {
                crate::options::ToneMapping::Extended => settings.canvas.headroom as f32,
                crate::options::ToneMapping::Standard => 1.0,
            },
            threshold: settings.bloom.threshold as f32,
            knee: (settings.bloom.threshold * settings.bloom.knee) as f32,
            bloom_subtract: match settings.bloom.mode {
                BloomMode::EnergyConserving if info.bloom_levels > 0 => energy_weight(settings),
                _ => 0.0,
            },
        };
        self.params.write(queue, bytemuck::bytes_of(&params));
        let ctx = context(info);
        for (b, params) in BUILTINS.iter().zip(&self.effect_params) {
            if let Some(params) = params.as_ref().filter(|_| (b.on)(settings, &ctx)) {
                params.write(queue, &(b.write)(settings, &ctx));
            }
        }
    }

    fn prepare(&self, queue: &wgpu::Queue, info: &FrameInfo, time: f32) {
        if self.fused.load(std::sync::atomic::Ordering::Relaxed) {
            let frame = EffectFrame {
                time,
                _pad: 0.0,
                resolution: [info.output_size.0 as f32, info.output_size.1 as f32],
            };
            self.effect_frame.write(queue, bytemuck::bytes_of(&frame));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_declares_every_binding_once_in_its_order() {
        let effects = all_builtins();
        let plan = plan(&effects);
        let own: usize = BUILTINS
            .iter()
            .map(|b| usize::from(b.params.is_some()) + b.textures.len())
            .sum();
        assert_eq!(plan.len(), 2 + own);
        let source = fused_source(&effects, &plan, None);
        for (n, p) in (FIRST_EFFECT_BINDING..).zip(&plan) {
            let at = format!("@binding({n})");
            assert_eq!(source.matches(&at).count(), 1, "{at}");
            let line = source.lines().find(|l| l.contains(&at)).unwrap_or_default();
            assert!(line.contains(&format!(" {}: ", p.binding.name)), "{line}");
        }
        // The composite's own and the plan's: nothing else.
        let declared = source.matches("@binding(").count();
        assert_eq!(declared, OWN_BINDINGS.len() + plan.len());
        // A texture the look sets is bound as its kind says.
        let lut = plan
            .iter()
            .find(|p| matches!(p.source, Source::Look(LookTexture::Lut)));
        let lut = lut.map(|p| p.binding.layout());
        assert!(
            matches!(
                lut,
                Some(wgpu::BindingType::Texture {
                    view_dimension: wgpu::TextureViewDimension::D3,
                    ..
                })
            ),
            "{lut:?}"
        );
        assert!(super::plan(&[]).is_empty());
    }
}
