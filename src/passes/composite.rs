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

use crate::effect::{
    push_all, shared_bindings, Binding, BindingKind, Builtin, Context, EffectFrame, LookTexture,
    Place, EFFECT_PRELUDE,
};
use crate::effects::BUILTINS;
use crate::error::Error;
use crate::frame::{FrameBuilder, FrameInfo, Image};
use crate::gpu::Gpu;
use crate::options::{BloomMode, DebugView, Options};
use crate::output::OutputSpec;
use crate::pass::{
    entry, layout, linear_sampler, pipeline, pipeline_layout, uniform, uniform_buffer, Blend,
    FrameUniform, Pass, Pipe, PipeCache, PipeDesc, Registration, Stage, FILTERABLE_TEXTURE,
    FILTERING_SAMPLER, UNIFORM,
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
#[derive(Clone, Copy, PartialEq, Debug)]
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
    /// `DEBUG`: 0 the picture, 1 the bloom alone, 2 the exposure histogram.
    pub debug: u32,
}

/// The energy-conserving mode's mix towards the blur: `intensity`, at most 1.
fn energy_weight(settings: &Options) -> f32 {
    settings.bloom.intensity.min(1.0) as f32
}

impl Variant {
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
}

/// One of the effects' bindings.
pub struct Planned {
    binding: Binding,
    source: Source,
    /// The effect (its index in the list) whose WGSL follows the
    /// declaration; none for the bindings every effect shares.
    effect: Option<usize>,
}

/// The bindings of `effects`, numbered from [`FIRST_EFFECT_BINDING`] in
/// this order: those every effect shares, then each effect's own. The one
/// list their WGSL declarations ([`fused_source`]), their layout entries
/// and their resources are made from.
pub fn plan(effects: &[Active<'_>]) -> Vec<Planned> {
    if effects.is_empty() {
        return Vec::new();
    }
    let [frame, sampler] = shared_bindings();
    let mut plan = vec![
        Planned {
            binding: frame,
            source: Source::EffectFrame,
            effect: None,
        },
        Planned {
            binding: sampler,
            source: Source::Sampler,
            effect: None,
        },
    ];
    for (i, e) in effects.iter().enumerate() {
        let mine = |binding, source| Planned {
            binding,
            source,
            effect: Some(i),
        };
        match e {
            Active::Builtin(index, b) => {
                plan.extend(b.params_binding().map(|p| mine(p, Source::Params(*index))));
                for &(name, texture) in b.textures {
                    plan.push(mine(Binding::look(name, texture), Source::Look(texture)));
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
                    plan.push(mine(b, source));
                }
            }
        }
    }
    plan
}

/// The composite's WGSL for these effects and their [`plan`]: the
/// composite, the effects' prelude and the shared bindings, each effect's
/// bindings and functions, and the four hooks that call them in order (the
/// identity where none runs).
pub fn fused_source(effects: &[Active<'_>], plan: &[Planned]) -> String {
    let mut s = crate::shaders::compose(SHADER_PARTS);
    if !effects.is_empty() {
        s.push('\n');
        s.push_str(EFFECT_PRELUDE);
        s.push('\n');
    }
    let declare = |s: &mut String, effect: Option<usize>| {
        for (i, p) in plan.iter().enumerate() {
            if p.effect == effect {
                p.binding.declare(s, FIRST_EFFECT_BINDING + i as u32);
            }
        }
    };
    declare(&mut s, None);
    let mut calls: Vec<(Place, String)> = Vec::new();
    for (i, e) in effects.iter().enumerate() {
        declare(&mut s, Some(i));
        match e {
            Active::Builtin(_, b) => {
                s.push_str(b.wgsl);
                s.push('\n');
                calls.push((e.place(), b.function()));
            }
            Active::User(u) => {
                let (text, function) = crate::user_effect::fused_source(u);
                s.push_str(&text);
                calls.push((e.place(), function));
            }
        }
    }
    for place in Place::ALL {
        let (hook, flag) = place.hook();
        let mine: Vec<&String> = calls
            .iter()
            .filter(|(p, _)| *p == place)
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
    s
}

/// The composite made for one list of effects.
struct Shape {
    key: Vec<EffectKey>,
    plan: Vec<Planned>,
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    module: wgpu::ShaderModule,
    pipes: PipeCache<Variant>,
}

pub const PASS: Registration = Registration {
    stage: Stage::Composite,
    make: Some(|gpu| Box::new(CompositePass::new(gpu))),
    // The composite with every built-in effect on.
    #[cfg(test)]
    shaders: || {
        let all = all_builtins();
        vec![("composite", fused_source(&all, &plan(&all)))]
    },
    #[cfg(test)]
    uniforms: || {
        use crate::uniform::Uniform;
        let all = all_builtins();
        let source = fused_source(&all, &plan(&all));
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

/// Every built-in effect, on, in the order they run.
#[cfg(test)]
pub fn all_builtins() -> Vec<Active<'static>> {
    let mut all = Vec::new();
    for place in Place::ALL {
        let here = BUILTINS
            .iter()
            .enumerate()
            .filter(|(_, b)| b.place == place);
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
        }
    }

    /// The composite for `effects`, made on first use. Lists with a user's
    /// effect that is gone are forgotten.
    fn shape(
        &self,
        gpu: &Gpu,
        effects: &[Active<'_>],
        users: &[UserEffect],
    ) -> Result<std::sync::Arc<Shape>, Error> {
        let key: Vec<EffectKey> = effects.iter().map(Active::key).collect();
        let mut shapes = self.shapes.lock().unwrap_or_else(|e| e.into_inner());
        shapes.retain(|s| {
            s.key.iter().all(|k| match k {
                EffectKey::User(serial) => users.iter().any(|u| u.serial == *serial),
                EffectKey::Builtin(_) => true,
            })
        });
        if let Some(s) = shapes.iter().find(|s| s.key == key) {
            return Ok(s.clone());
        }
        let plan = plan(effects);
        let mut entries: Vec<wgpu::BindGroupLayoutEntry> = Vec::new();
        for ty in OWN_BINDINGS
            .into_iter()
            .chain(plan.iter().map(|p| p.binding.layout()))
        {
            entries.push(entry(entries.len() as u32, ty));
        }
        let layout = layout(gpu, "composite bind group layout", &entries);
        let pipeline_layout = pipeline_layout(gpu, "composite pipeline layout", &[&layout]);
        let module = crate::user_effect::fused_module(gpu, fused_source(effects, &plan))?;
        let shape = std::sync::Arc::new(Shape {
            key,
            plan,
            layout,
            pipeline_layout,
            module,
            pipes: PipeCache::new(),
        });
        shapes.push(shape.clone());
        Ok(shape)
    }

    /// The pipeline specialised for `v`, made on first use.
    fn pipe(&self, gpu: &Gpu, shape: &Shape, v: Variant) -> Pipe {
        shape.pipes.get(v, || {
            pipeline(
                gpu,
                &PipeDesc {
                    label: "composite pipeline",
                    layout: &shape.pipeline_layout,
                    module: &shape.module,
                    vertex_entry: "vs_fullscreen",
                    fragment_entry: "fs_composite",
                    color_format: v.format,
                    blend: Blend::Replace,
                    depth: None,
                    samples: 1,
                    constants: &[
                        ("FLAGS", f64::from(v.flags)),
                        ("TONEMAPPER", f64::from(v.tonemapper)),
                        ("BLOOM", if v.bloom { 1.0 } else { 0.0 }),
                        ("ENERGY", if v.energy { 1.0 } else { 0.0 }),
                        ("DEBUG", v.debug as f64),
                    ],
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

    /// The resources of the effects' bindings, in the order of their
    /// plan, and the images they sample (declared in the frame's graph).
    fn effect_resources(
        &self,
        f: &mut FrameBuilder<'_>,
        effects: &[Active<'_>],
        plan: &[Planned],
    ) -> Result<(Vec<Resource>, Vec<Image>), Error> {
        let mut out = Vec::with_capacity(plan.len());
        let mut images = Vec::new();
        for p in plan {
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
            };
            out.push(resource.ok_or_else(|| Error::argument(name, "is not set"))?);
        }
        Ok((out, images))
    }
}

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
        let shape = self.shape(f.gpu, &effects, users)?;
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
        let entries: Vec<wgpu::BindGroupEntry<'_>> = (0..)
            .zip(own.iter().chain(&resources))
            .map(|(binding, r)| wgpu::BindGroupEntry {
                binding,
                resource: r.binding(),
            })
            .collect();
        let group = f.gpu.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("composite bind group"),
            layout: &shape.layout,
            entries: &entries,
        });
        let pipe = self.pipe(f.gpu, &shape, Variant::of(f.settings, f.output, &f.info));
        let mut sampled = vec![&hdr, &bloom, &source];
        sampled.extend(images.iter());
        f.fullscreen("composite".into(), &pipe, group, None, &sampled, false);
        Ok(())
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
        let source = fused_source(&effects, &plan);
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
