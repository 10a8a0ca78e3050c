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
//! per such list, made on first use and kept.

use crate::effect::{declare_binding, push_all, Builtin, Context, LookTexture, Place, EFFECT_PRELUDE};
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
    /// `CompositeParams` in composite.wgsl (layout checked by tests/shaders.rs).
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
    /// `debug: 'exposure'` draws (layout checked by tests/shaders.rs).
    struct ExposureView {
        bins: [[f32; 4]; 16],
        meter: [f32; 4],
    }
}

uniform! {
    /// `EffectFrame` in effect_prelude.wgsl: what every effect reads.
    struct EffectFrame {
        time: f32,
        _pad: f32,
        resolution: [f32; 2],
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
pub fn active<'a>(settings: &Options, info: &FrameInfo, users: &'a [UserEffect]) -> Vec<Active<'a>> {
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

/// The first binding of the effects' uniforms and textures, after the
/// composite's own (0 to 5) and the effects' frame and sampler (6, 7).
const FIRST_EFFECT_BINDING: u32 = 8;

/// The composite's WGSL for these effects: the composite, the effects'
/// prelude and each effect's bindings and functions, and the four hooks
/// that call them in order (the identity where none runs).
pub fn fused_source(effects: &[Active<'_>]) -> String {
    let mut s = crate::shaders::compose(SHADER_PARTS);
    if !effects.is_empty() {
        s.push('\n');
        s.push_str(EFFECT_PRELUDE);
        s.push('\n');
    }
    let mut binding = FIRST_EFFECT_BINDING;
    let mut calls: Vec<(Place, String)> = Vec::new();
    for e in effects {
        match e {
            Active::Builtin(_, b) => {
                if let Some((name, _)) = b.params {
                    declare_binding(&mut s, binding, &["<uniform> fx_", b.name, "_params: ", name]);
                    binding += 1;
                }
                for (name, kind) in b.textures {
                    let ty = match kind {
                        LookTexture::Lut => "texture_3d<f32>",
                        LookTexture::Dirt => "texture_2d<f32>",
                    };
                    declare_binding(&mut s, binding, &[" ", name, ": ", ty]);
                    binding += 1;
                }
                s.push_str(b.wgsl);
                s.push('\n');
                calls.push((e.place(), format!("fx_{}", b.name)));
            }
            Active::User(u) => {
                let (text, function) = crate::user_effect::fused_source(u, binding);
                binding += crate::user_effect::binding_count(u);
                s.push_str(&text);
                calls.push((e.place(), function));
            }
        }
    }
    for place in Place::ALL {
        let (hook, flag) = place.hook();
        let mine: Vec<&String> = calls.iter().filter(|(p, _)| *p == place).map(|(_, f)| f).collect();
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

/// The lookup table: a 3D texture read with `textureLoad` (rgba32float,
/// which WebGPU does not filter).
const LUT_TEXTURE: wgpu::BindingType = wgpu::BindingType::Texture {
    sample_type: wgpu::TextureSampleType::Float { filterable: false },
    view_dimension: wgpu::TextureViewDimension::D3,
    multisampled: false,
};

/// The bind group layout entries of these effects, from
/// [`FIRST_EFFECT_BINDING`] on (with the frame and sampler before them).
fn effect_entries(effects: &[Active<'_>]) -> Vec<wgpu::BindGroupLayoutEntry> {
    if effects.is_empty() {
        return Vec::new();
    }
    let mut kinds = vec![UNIFORM, FILTERING_SAMPLER];
    for e in effects {
        match e {
            Active::Builtin(_, b) => {
                kinds.extend(b.params.map(|_| UNIFORM));
                kinds.extend(b.textures.iter().map(|(_, kind)| match kind {
                    LookTexture::Lut => LUT_TEXTURE,
                    LookTexture::Dirt => FILTERABLE_TEXTURE,
                }));
            }
            Active::User(u) => {
                kinds.extend(u.buffer.as_ref().map(|_| UNIFORM));
                kinds.extend(u.textures.iter().map(|_| FILTERABLE_TEXTURE));
            }
        }
    }
    (6..).zip(kinds).map(|(binding, kind)| entry(binding, kind)).collect()
}

/// The composite made for one list of effects.
struct Shape {
    key: Vec<EffectKey>,
    layout: wgpu::BindGroupLayout,
    pipeline_layout: wgpu::PipelineLayout,
    module: wgpu::ShaderModule,
    pipes: PipeCache<Variant>,
}

pub const PASS: Registration = Registration {
    stage: Stage::Composite,
    make: Some(|gpu| Box::new(CompositePass::new(gpu))),
    // The composite with every built-in effect on.
    #[cfg(afterglow_internals)]
    shaders: || vec![("composite", fused_source(&all_builtins()))],
    #[cfg(afterglow_internals)]
    uniforms: || {
        use crate::uniform::Uniform;
        let source = fused_source(&all_builtins());
        let mut all: Vec<crate::pass::UniformLayout> = vec![
            (source.clone(), "CompositeParams", std::mem::size_of::<CompositeParams>(), CompositeParams::offsets()),
            (source.clone(), "ExposureView", std::mem::size_of::<ExposureView>(), ExposureView::offsets()),
            (source.clone(), "EffectFrame", std::mem::size_of::<EffectFrame>(), EffectFrame::offsets()),
        ];
        for b in BUILTINS {
            let (name, size, offsets) = (b.layout)();
            all.push((source.clone(), name, size, offsets));
        }
        all
    },
};

/// Every built-in effect, on.
#[cfg(afterglow_internals)]
fn all_builtins() -> Vec<Active<'static>> {
    let mut all = Vec::new();
    for place in Place::ALL {
        let here = BUILTINS.iter().enumerate().filter(|(_, b)| b.place == place);
        all.extend(here.map(|(i, b)| Active::Builtin(i, b)));
    }
    all
}

pub struct CompositePass {
    base: Vec<wgpu::BindGroupLayoutEntry>,
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
            base: vec![
                entry(0, FILTERABLE_TEXTURE),
                entry(1, FILTERING_SAMPLER),
                entry(2, UNIFORM),
                entry(3, FILTERABLE_TEXTURE),
                entry(4, FILTERABLE_TEXTURE),
                entry(5, UNIFORM),
            ],
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
            effect_frame: FrameUniform::new(gpu, "effect frame", std::mem::size_of::<EffectFrame>()),
            effect_params: BUILTINS
                .iter()
                .map(|b| b.params.map(|(_, size)| FrameUniform::new(gpu, b.name, size)))
                .collect(),
            fused: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// The composite for `effects`, made on first use. Lists with a user's
    /// effect that is gone are forgotten.
    fn shape(&self, gpu: &Gpu, effects: &[Active<'_>], users: &[UserEffect]) -> Result<std::sync::Arc<Shape>, Error> {
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
        let mut entries = self.base.clone();
        entries.extend(effect_entries(effects));
        let layout = layout(gpu, "composite bind group layout", &entries);
        let pipeline_layout = pipeline_layout(gpu, "composite pipeline layout", &[&layout]);
        let module = crate::user_effect::fused_module(gpu, fused_source(effects))?;
        let shape = std::sync::Arc::new(Shape {
            key,
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
    #[cfg(afterglow_internals)]
    pub fn variants(&self) -> usize {
        let shapes = self.shapes.lock().unwrap_or_else(|e| e.into_inner());
        shapes.iter().map(|s| s.pipes.len()).sum()
    }

    /// The resources of the effects' bindings, in the layout's order, and
    /// the images they sample (declared in the frame's graph).
    fn effect_resources(&self, f: &mut FrameBuilder<'_>, effects: &[Active<'_>]) -> Result<(Vec<Resource>, Vec<Image>), Error> {
        if effects.is_empty() {
            return Ok((Vec::new(), Vec::new()));
        }
        let mut out = vec![
            Resource::Buffer(self.effect_frame.renew(f.gpu)),
            Resource::Sampler(self.sampler.clone()),
        ];
        let mut images = Vec::new();
        for e in effects {
            match e {
                Active::Builtin(i, b) => {
                    if let Some(params) = &self.effect_params[*i] {
                        out.push(Resource::Buffer(params.renew(f.gpu)));
                    }
                    for (name, kind) in b.textures {
                        let view = match kind {
                            LookTexture::Lut => f.look.lut.clone(),
                            LookTexture::Dirt => f.look.dirt.clone(),
                        };
                        let view = view.ok_or_else(|| Error::argument(name, "is not set"))?;
                        let t = view.texture();
                        let image = f.external(name, &view, (t.width(), t.height()), t.format());
                        out.push(Resource::View(image.view.clone()));
                        images.push(image);
                    }
                }
                Active::User(u) => {
                    if let Some(buffer) = &u.buffer {
                        out.push(Resource::Buffer(buffer.clone()));
                    }
                    for t in &u.textures {
                        let label = format!("{} {}", u.name, t.name);
                        let image = f.external(&label, &t.view, t.size, t.format);
                        out.push(Resource::View(image.view.clone()));
                        images.push(image);
                    }
                }
            }
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
        let (resources, images) = self.effect_resources(f, &effects)?;
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
