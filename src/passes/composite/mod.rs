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

mod neighbours;
mod plan;

#[cfg(all(test, not(target_arch = "wasm32")))]
pub use neighbours::source as neighbour_source;
use neighbours::NeighbourPasses;
use plan::*;
#[cfg(test)]
pub use plan::{all_builtins, builtins_with, hook_builtins};
pub use plan::{fused_source, plan, Active};

use crate::effect::{Builtin, EffectFrame, Neighbours};
use crate::effects::BUILTINS;
use crate::error::Error;
use crate::frame::{FrameBuilder, FrameInfo, Image};
use crate::gpu::Gpu;
use crate::options::{BloomMode, DebugView, Options};
use crate::output::OutputSpec;
use crate::pass::{
    compute_pipeline, entry, layout, linear_sampler, pipeline, pipeline_layout, storage_entry,
    uniform, uniform_buffer, Blend, FrameUniform, Pass, Pipe, PipeCache, PipeDesc, Registration,
    Stage,
};
use crate::user_effect::UserEffect;

uniform! {
    /// `CompositeParams` in composite.wgsl (layout checked by src/tests/shaders.rs).
    struct CompositeParams {
        exposure: f32,
        bloom_scale: f32,
        // Frame to bloom texture coordinates (see `FrameInfo::bloom_coverage`).
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

/// The energy-conserving mode's mix towards the blur: `intensity`, at most 1.
fn energy_weight(settings: &Options) -> f32 {
    settings.bloom.intensity.min(1.0) as f32
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
    // reads around its pixel (anti-aliasing's are choices of one option),
    // named by it, and its passes.
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
        // Those that read as a hook (sharpening) run with each of the rest.
        let hooks = hook_builtins();
        for (i, b) in BUILTINS.iter().enumerate() {
            if let Some(n) = b.neighbours {
                // Drawn and computed into the output both (`fs_resume`,
                // `cs_output`).
                let output = Some(wgpu::TextureFormat::Rgba8Unorm);
                let all = builtins_with(&[i]);
                shaders.push((b.name, fused_source(&all, &plan(&all), output)));
                if !n.hook && !hooks.is_empty() {
                    let all = builtins_with(&[&[i][..], &hooks].concat());
                    let name = format!("{} and the hooks", b.name).leak();
                    shaders.push((name, fused_source(&all, &plan(&all), output)));
                }
                for pass in n.passes {
                    shaders.push((pass.name, neighbours::source(pass)));
                }
            }
        }
        shaders
    },
    #[cfg(test)]
    uniforms: || {
        use crate::uniform::Uniform;
        // Every built-in's block: those that read around their pixel as
        // a hook are declared with the rest.
        let hooks = hook_builtins();
        let all = builtins_with(&hooks);
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
        let output_image = output_computes(effects, output, gpu.compute_images);
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
        self.finish(f, shape, resume, b.name, vec![group, inputs], &read);
        Ok(())
    }

    /// The pass that writes the output (the whole composite, or the frame
    /// resumed after a split): computed where the shape computes it
    /// ([`output_computes`]), drawn otherwise.
    fn finish(
        &self,
        f: &mut FrameBuilder<'_>,
        shape: &Shape,
        v: Variant,
        label: &'static str,
        groups: Vec<wgpu::BindGroup>,
        read: &[&Image],
    ) {
        match &shape.output {
            Some(c) => {
                let pipe = c.pipes.get(v, || {
                    let (layout, module) = (&c.pipeline_layout, &shape.module);
                    compute_pipeline(f.gpu, label, layout, module, "cs_output", &v.constants())
                });
                f.compute_output(label.into(), &pipe, groups, &c.layout, read);
            }
            None => {
                let pipe = self.pipe(f.gpu, shape, v);
                f.fullscreen_groups(label.into(), &pipe, groups, None, read, false);
            }
        }
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
        if let Some(exposure) = f.slots.exposure.clone() {
            let offset = std::mem::offset_of!(CompositeParams, exposure) as u64;
            f.copy_before(&exposure, &params, offset, 4);
        }
        if let (DebugView::Exposure, Some(view)) = (f.settings.debug, f.slots.exposure_view.clone())
        {
            let size = std::mem::size_of::<ExposureView>() as u64;
            f.copy_before(&view, &self.exposure_view, 0, size);
        }
        // Without bloom the HDR image stands in for the bloom binding; the
        // shader does not sample it (bloom scale 0).
        let bloom = f
            .slots
            .bloom
            .as_ref()
            .map_or(hdr.clone(), |b| b.image.clone());
        // What bloomed (the energy-conserving mode takes it back): the
        // caller's bloom texture, or the HDR image itself.
        let source = f.slots.bloom_source.clone().unwrap_or_else(|| hdr.clone());
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
                self.finish(f, &shape, variant, "composite", vec![group], &sampled);
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
            bloom_uv: info.bloom_coverage(),
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
