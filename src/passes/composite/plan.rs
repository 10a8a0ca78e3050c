//! The composite's plan, apart from the GPU: which effects run and in
//! what order ([`active`]), the one list of their bindings ([`plan`]),
//! where the frame splits for an effect that reads around its pixel
//! ([`split`]), which parts run as compute, the variant a frame's
//! pipelines are specialised for ([`Variant::of`]), and the WGSL made for
//! all of it ([`fused_source`]). Plain data in, plain data out: the tests
//! and the shader registry read it without a device.

use crate::effect::{
    push_all, shared_bindings, Binding, BindingKind, Builtin, Context, Input, LookTexture,
    Neighbours, Place, EFFECT_PRELUDE,
};
use crate::effects::BUILTINS;
use crate::frame::FrameInfo;
use crate::options::{BloomMode, DebugView, Options};
use crate::output::OutputSpec;
use crate::pass::{FILTERABLE_TEXTURE, FILTERING_SAMPLER, UNIFORM};
use crate::user_effect::UserEffect;

/// The WGSL of the composite pass after the full-screen stage.
pub const SHADER_PARTS: &[&str] = &[
    wgsl!("tonemap.wgsl"),
    wgsl!("bright.wgsl"),
    wgsl!("composite.wgsl"),
];

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

impl Variant {
    /// The values of the composite's `override` constants.
    pub(super) fn constants(&self) -> [(&'static str, f64); 7] {
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
        // Scaled up (a render scale below 1), by the edge-adaptive filter.
        let upscaled = info.size != info.output_size
            && info.size.0 <= info.output_size.0
            && info.size.1 <= info.output_size.1;
        let edge = if upscaled && settings.upscale == crate::options::Upscale::Edge {
            crate::output::FLAG_EDGE_UPSCALE
        } else {
            0
        };
        Variant {
            format: output.view_format,
            flags: output.shader_flags(settings.dither) | one_to_one | edge,
            tonemapper: settings.tonemapper.shader_index(),
            bloom: info.bloom_levels > 0,
            energy: info.bloom_levels > 0 && settings.bloom.mode == BloomMode::EnergyConserving,
            debug: match settings.debug {
                // A view its own pass drew as the HDR image (depth of
                // field's, where it had depth to draw it).
                _ if info.view_in_hdr => 3,
                DebugView::Bloom => 1,
                DebugView::Exposure => 2,
                _ => 0,
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
    pub(super) fn neighbours(&self) -> Option<&'static Neighbours> {
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
    pub(super) fn key(&self) -> EffectKey {
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
pub(super) const OWN_BINDINGS: [wgpu::BindingType; 6] = [
    FILTERABLE_TEXTURE,
    FILTERING_SAMPLER,
    UNIFORM,
    FILTERABLE_TEXTURE,
    FILTERABLE_TEXTURE,
    UNIFORM,
];

/// The first of the effects' bindings, after the composite's own.
pub(super) const FIRST_EFFECT_BINDING: u32 = OWN_BINDINGS.len() as u32;

/// Where the resource of an effect's binding comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Source {
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
    pub(super) binding: Binding,
    pub(super) source: Source,
    /// The effect (its index in the list) whose WGSL follows the
    /// declaration; none for the bindings every effect shares.
    pub(super) effect: Option<usize>,
    /// Its bind group: 0, or 1 for what the pass that resumes the frame
    /// at an effect that reads around its pixel reads (the display image
    /// the first pass writes cannot be bound there).
    pub(super) group: u32,
    /// Its number in the group.
    pub(super) number: u32,
}

/// The index of the first effect that reads around its pixel: the frame
/// is split there.
pub fn split(effects: &[Active<'_>]) -> Option<usize> {
    effects.iter().position(|e| e.neighbours().is_some())
}

/// Whether effect `i`, `e`, of a frame split at `split` runs in the pass
/// that resumes the frame: the effect split at (its function starts that
/// pass, or runs first in `fx_resumed` where it is a hook) and the display
/// effects after it (through `fx_resumed`). The rest run in the
/// composite, through their place's hook.
fn resumed(split: Option<usize>, i: usize, e: &Active<'_>) -> bool {
    split.is_some_and(|k| i == k || (i > k && e.place() == Place::Display))
}

/// Whether `e` reads around its pixel as a hook ([`Neighbours::hook`]).
fn is_hook(e: &Active<'_>) -> bool {
    e.neighbours().is_some_and(|n| n.hook)
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
pub(super) fn head_computes(effects: &[Active<'_>]) -> bool {
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
/// (`Gpu::compute_images`), an output that allows it
/// ([`OutputSpec::storage`]) and no fragment-only effect.
pub(super) fn output_computes(
    effects: &[Active<'_>],
    output: &OutputSpec,
    compute_images: bool,
) -> Option<wgpu::TextureFormat> {
    (compute_images && output.storage && all_compute(effects.iter())).then_some(output.format)
}

/// The WGSL name of the output written as compute (binding 0 of the group
/// after the plan's: 1, or 2 in a split frame).
const OUTPUT_OUT: &str = "fx_output_out";

/// The WGSL name of the display image where the part before the split
/// runs as compute, and its binding in group 1, after what the pass that
/// resumes the frame reads.
const HEAD_OUT: &str = "fx_display_out";
pub(super) fn head_out_binding(plan: &[Planned]) -> u32 {
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
    let split = split(effects);
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
                // The display image is declared once, with the effect the
                // frame is split at.
                let reads = b.neighbours.map_or(&[][..], |n| n.reads);
                let display = (split == Some(i)).then_some((INPUT, Input::Display));
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
            Some(k) if i == k && !is_hook(e) => {}
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
    if let Some(e @ Active::Builtin(_, b)) = split.and_then(|k| effects.get(k)) {
        // An effect that starts the pass, or the display image at the
        // pixel where a hook reads around it.
        let start = match is_hook(e) {
            true => "textureLoad(fx_input, vec2i(in.position.xy), 0)".to_string(),
            false => b.function() + "(in.uv)",
        };
        push_all(
            s,
            &[
                "fn fx_resume(in: FullscreenOut) -> vec4f {\n    var c = ",
                &start,
                ";\n    if FX_RESUMED {\n        c = fx_resumed(c, in.uv);\n    }\n    \
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

/// The format of the display image: display light may exceed 1 on an
/// extended output, and an effect blends it linearly.
pub(super) const DISPLAY_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

/// Every built-in effect that reads only its own pixel, on, in the order
/// they run.
#[cfg(test)]
pub fn all_builtins() -> Vec<Active<'static>> {
    builtins_with(&[])
}

/// The indices in [`BUILTINS`] of the effects that read around their
/// pixel as a hook (sharpening): they may run beside the others.
#[cfg(test)]
pub fn hook_builtins() -> Vec<usize> {
    (0..BUILTINS.len())
        .filter(|&i| BUILTINS[i].neighbours.is_some_and(|n| n.hook))
        .collect()
}

/// [`all_builtins`] and those at `neighbour` in [`BUILTINS`], which read
/// around their pixel, in the order they run.
#[cfg(test)]
pub fn builtins_with(neighbour: &[usize]) -> Vec<Active<'static>> {
    let mut all = Vec::new();
    for place in Place::ALL {
        let here = BUILTINS
            .iter()
            .enumerate()
            .filter(|(i, b)| b.place == place && (b.neighbours.is_none() || neighbour.contains(i)));
        all.extend(here.map(|(i, b)| Active::Builtin(i, b)));
    }
    all
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
            .filter(|b| b.neighbours.is_none())
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
