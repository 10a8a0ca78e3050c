//! The HDR chain, independent of where its output goes:
//!
//! ```text
//! scene (MSAA color + depth) ─resolve─▶ HDR image
//!   ─▶ bloom: extract ─▶ downsample chain ─▶ upsample chain   (or Gaussian ping-pong)
//!   ─▶ composite (HDR + bloom, exposure, tonemap, dither, encoding) ─▶ output
//! ```
//!
//! The chain owns the passes and orders them; each pass adds its own steps
//! to the frame ([`crate::frame`]) and the chain never sees their bindings.
//! The frame is rebuilt when the size or the frame's shape changes; its
//! graph is validated then, and recording a frame only walks the steps: no
//! texture, view, bind group or pipeline is created per frame. The web
//! layer hands the canvas texture's view to [`Chain::submit_frame`];
//! natively it is any texture, which is how the chain is tested and
//! benchmarked.

use crate::error::Error;
use crate::frame::{Draw, Frame, FrameBuilder};
use crate::gpu::Gpu;
use crate::lut::Lut;
use crate::options::Options;
use crate::output::OutputSpec;
use crate::pass::{Pass, Registration};
use crate::passes::look::{DirtTexture, Look};
use crate::passes::scene::ScenePass;
use crate::passes::user_shader::UserShader;
use crate::timing::{PassTimes, Timing};
use crate::user_effect::{UniformValue, UserEffect};

pub use crate::passes::content::{Content, ExternalInput, ImageContent};

/// A built frame and its per-pass timing.
struct Built {
    frame: Frame,
    /// Per-pass GPU timestamps, where the device has them.
    timing: Option<Timing>,
}

pub struct Chain {
    output: OutputSpec,
    settings: Options,
    /// Size of the offscreen targets.
    size: (u32, u32),
    /// Size of the output (differs from `size` under a render scale).
    output_size: (u32, u32),
    /// The scene, held by type: it draws the content the chain is given.
    scene: ScenePass,
    /// The registered passes after it, in stage order.
    passes: Vec<Box<dyn Pass>>,
    /// `None` while the size is 0 in either dimension: frames are skipped.
    built: Option<Built>,
    /// Per-pass GPU timestamps are written and read back (off until asked
    /// for: they cost a query per pass and a readback per frame).
    timing: bool,
    /// The lookup table and lens dirt the composite reads.
    look: Look,
    /// The user's effects, in the order they were added.
    effects: Vec<UserEffect>,
    /// The serial of the next effect (never reused: the composite's
    /// shaders are kept by the effects they were made for).
    next_effect: u64,
    /// How the caller's depth buffer is read (`None`: no depth buffer).
    camera: Option<crate::arguments::Camera>,
}

impl Chain {
    pub fn new(
        gpu: &Gpu,
        output: OutputSpec,
        settings: Options,
        size: (u32, u32),
    ) -> Result<Chain, Error> {
        Chain::with_passes(gpu, output, settings, size, crate::passes::PASSES)
    }

    /// A chain of the scene and the passes `registered` makes.
    pub fn with_passes(
        gpu: &Gpu,
        output: OutputSpec,
        settings: Options,
        size: (u32, u32),
        registered: &[&Registration],
    ) -> Result<Chain, Error> {
        validate(&settings)?;
        let mut order: Vec<&Registration> = registered.to_vec();
        // Stable: registration order within a stage.
        order.sort_by_key(|r| r.stage);
        let mut chain = Chain {
            output,
            settings,
            size,
            output_size: size,
            scene: ScenePass::new(gpu, settings.msaa.sample_count())?,
            passes: order
                .iter()
                .filter_map(|r| r.make)
                .map(|make| make(gpu))
                .collect(),
            built: None,
            timing: false,
            look: Look::default(),
            effects: Vec::new(),
            next_effect: 0,
            camera: None,
        };
        chain.rebuild(gpu)?;
        Ok(chain)
    }

    /// The passes in frame order: the scene, then the registered ones.
    fn passes(&self) -> impl Iterator<Item = &dyn Pass> {
        std::iter::once(&self.scene as &dyn Pass).chain(self.passes.iter().map(|p| p.as_ref()))
    }

    /// The pass at `index` of [`Chain::passes`].
    fn pass(&self, index: usize) -> Option<&dyn Pass> {
        match index {
            0 => Some(&self.scene),
            i => self.passes.get(i - 1).map(|p| p.as_ref()),
        }
    }

    pub fn output(&self) -> &OutputSpec {
        &self.output
    }

    /// The pass graph of the current frame (`None` at 0×0).
    #[cfg(test)]
    pub fn graph(&self) -> Option<&crate::graph::Graph> {
        self.built.as_ref().map(|b| &b.frame.graph)
    }

    /// Names of the passes of a frame, in order.
    #[cfg(test)]
    pub fn pass_names(&self) -> Vec<String> {
        self.graph()
            .map(|g| g.passes.iter().map(|p| p.name.clone()).collect())
            .unwrap_or_default()
    }

    /// Bytes held by the size-dependent targets.
    pub fn target_bytes(&self) -> u64 {
        self.built.as_ref().map_or(0, |b| {
            b.frame
                .textures
                .iter()
                .map(crate::frame::texture_bytes)
                .sum()
        })
    }

    pub fn content(&self) -> &Content {
        self.scene.content()
    }

    /// Replaces the content. The caller's own textures are bound into the
    /// frame, so showing them (or leaving them, or another texture object)
    /// rebuilds it; the same textures again cost nothing.
    pub fn set_content(&mut self, gpu: &Gpu, content: Content) -> Result<(), Error> {
        if &content == self.scene.content() && matches!(content, Content::Texture(_)) {
            return Ok(());
        }
        self.change_content(gpu, |scene| scene.set_content(gpu, content))
    }

    /// Changes the scene's content with `change`, rebuilding the frame
    /// only where it holds something of the content: the caller's textures,
    /// the emissive step's pipeline, or a depth attachment for content
    /// that tests depth. The one decision for every kind of content.
    fn change_content(
        &mut self,
        gpu: &Gpu,
        change: impl FnOnce(&mut ScenePass) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let held = |scene: &ScenePass| {
            matches!(scene.content(), Content::Texture(_)) || scene.emissive().is_some()
        };
        let (held_before, depth_before) = (held(&self.scene), self.scene.uses_depth());
        change(&mut self.scene)?;
        if held_before || held(&self.scene) || self.scene.uses_depth() != depth_before {
            self.rebuild(gpu)?;
        }
        Ok(())
    }

    /// Rebuilds the size-dependent targets and every bind group that
    /// references them, together. A zero dimension drops them.
    #[cfg(test)]
    pub fn resize(&mut self, gpu: &Gpu, size: (u32, u32)) -> Result<(), Error> {
        self.resize_scaled(gpu, size, size)
    }

    /// Like [`Chain::resize`], with offscreen targets of `size` and an
    /// output of `output_size` (the composite pass rescales).
    pub fn resize_scaled(
        &mut self,
        gpu: &Gpu,
        size: (u32, u32),
        output_size: (u32, u32),
    ) -> Result<(), Error> {
        let zero = size.0 == 0 || size.1 == 0;
        if size == self.size && output_size == self.output_size && (self.built.is_some() || zero) {
            return Ok(());
        }
        self.size = size;
        self.output_size = output_size;
        self.rebuild(gpu)
    }

    /// The size of the scene image the frame is built for: the render
    /// size, or the size of the app's texture.
    pub fn image_size(&self) -> (u32, u32) {
        match self.scene.content() {
            Content::Texture(input) => input.size,
            _ => self.size,
        }
    }

    /// Builds the frame again from new textures, none taken over from the
    /// old frame (whose textures are released first): after the device
    /// could not allocate some of them.
    pub fn rebuild_fresh(&mut self, gpu: &Gpu) -> Result<(), Error> {
        self.built = None;
        self.rebuild(gpu)
    }

    /// Records new sizes for the next rebuild without rebuilding now: for
    /// a caller that changes the content in the same step, which rebuilds.
    pub fn resize_with_next_build(&mut self, size: (u32, u32), output_size: (u32, u32)) {
        self.size = size;
        self.output_size = output_size;
    }

    /// Compiles a user's scene shader without using it yet.
    pub fn prepare_shader(&self, gpu: &Gpu, source: &str) -> UserShader {
        self.scene.prepare_shader(gpu, source)
    }

    /// Switches the scene to a prepared user shader.
    pub fn install_shader(&mut self, gpu: &Gpu, shader: UserShader) -> Result<(), Error> {
        self.change_content(gpu, |scene| {
            scene.install_shader(gpu, shader);
            Ok(())
        })
    }

    /// Bytes held by the crate's own textures: the size-dependent targets
    /// and the content's texture.
    pub fn gpu_bytes(&self) -> u64 {
        self.target_bytes() + self.scene.content_bytes() + self.look.bytes()
    }

    /// Sets the 3D lookup table applied after the curve (`None`: none),
    /// releasing the one it replaces. On failure the previous one stays.
    pub fn set_lut(&mut self, gpu: &Gpu, lut: Option<&Lut>) -> Result<(), Error> {
        self.look.set_lut(gpu, lut)?;
        self.rebuild(gpu)
    }

    /// Sets the lens dirt texture (`None`: none), releasing one of the
    /// chain's own it replaces.
    pub fn set_dirt(&mut self, gpu: &Gpu, dirt: Option<DirtTexture>) -> Result<(), Error> {
        self.look.set_dirt(gpu, dirt);
        self.rebuild(gpu)
    }

    /// The chain's own dirt texture (an uploaded image), if it has one.
    pub fn own_dirt(&self) -> Option<&wgpu::Texture> {
        self.look.own_dirt()
    }

    /// The names of the user's effects, in the order they run.
    pub fn effect_names(&self) -> Vec<&str> {
        self.effects.iter().map(|e| e.name.as_str()).collect()
    }

    /// A serial for a new effect.
    pub fn next_effect_serial(&mut self) -> u64 {
        self.next_effect += 1;
        self.next_effect
    }

    /// Runs a checked effect after the others of its stage. If the frame
    /// cannot be built with it, the chain is as it was.
    pub fn add_effect(&mut self, gpu: &Gpu, effect: UserEffect) -> Result<(), Error> {
        self.effects.push(effect);
        if let Err(e) = self.rebuild(gpu) {
            if let Some(gone) = self.effects.pop() {
                release_effect(gpu, &gone);
            }
            self.rebuild(gpu)?;
            return Err(e);
        }
        Ok(())
    }

    /// Stops running the effect `name` and releases what it held.
    pub fn remove_effect(&mut self, gpu: &Gpu, name: &str) -> Result<(), Error> {
        let at = self.effect_index(name)?;
        let gone = self.effects.remove(at);
        let result = self.rebuild(gpu);
        release_effect(gpu, &gone);
        result
    }

    /// New values for some of the effect's uniforms (all checked first).
    pub fn set_effect_uniforms(
        &mut self,
        gpu: &Gpu,
        name: &str,
        values: &[(String, UniformValue)],
    ) -> Result<(), Error> {
        let at = self.effect_index(name)?;
        let effect = &mut self.effects[at];
        effect.set_uniforms(values)?;
        if let Some(buffer) = &effect.buffer {
            gpu.queue.write_buffer(buffer, 0, &effect.values);
        }
        Ok(())
    }

    fn effect_index(&self, name: &str) -> Result<usize, Error> {
        self.effects
            .iter()
            .position(|e| e.name == name)
            .ok_or_else(|| {
                let names = self.effect_names();
                Error::argument(
                    "name",
                    format!(
                        "is '{name}', which is not an effect; the effects are {}",
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            crate::options::value::quote_list(&names)
                        }
                    ),
                )
            })
    }

    /// Switches to a new output description (format, alpha, tone mapping,
    /// color space).
    pub fn set_output(&mut self, gpu: &Gpu, output: OutputSpec) -> Result<(), Error> {
        self.output = output;
        self.rebuild(gpu)
    }

    /// Sets how the caller's depth buffer is read: uniforms only, never a
    /// rebuild (a camera may move its planes every frame).
    pub fn set_camera(&mut self, gpu: &Gpu, camera: Option<crate::arguments::Camera>) {
        if camera == self.camera {
            return;
        }
        self.camera = camera;
        if let Some(built) = &mut self.built {
            built.frame.info.camera = camera;
        }
        self.write_params(gpu);
    }

    /// What depth of field does with the settings and content as they are.
    pub fn depth_of_field(&self) -> crate::passes::depth_of_field::DepthOfFieldState {
        let depth = matches!(self.scene.content(), Content::Texture(t) if t.depth.is_some());
        crate::passes::depth_of_field::state(&self.settings, depth)
    }

    /// Applies new settings (the canvas group is the output's business,
    /// see [`Chain::set_output`]). A change of an option the table marks
    /// `Effect::Rebuild` rebuilds the frame; anything else only rewrites
    /// uniforms.
    pub fn set_settings(&mut self, gpu: &Gpu, settings: Options) -> Result<(), Error> {
        validate(&settings)?;
        let reshape = crate::options::reshapes(&self.settings, &settings);
        self.settings = settings;
        if reshape {
            self.scene.set_samples(gpu, settings.msaa.sample_count());
            self.rebuild(gpu)
        } else {
            self.write_params(gpu);
            Ok(())
        }
    }

    fn write_params(&self, gpu: &Gpu) {
        let Some(built) = &self.built else { return };
        for pass in self.passes() {
            pass.write_params(&gpu.queue, &self.settings, &self.output, &built.frame.info);
        }
    }

    /// Builds the frame for the current size and settings: each pass adds
    /// its targets, views, bind groups and steps; the graph is validated.
    fn rebuild(&mut self, gpu: &Gpu) -> Result<(), Error> {
        // The old frame goes first: the new one takes over its textures
        // where it needs the same ones, the rest are destroyed when the
        // builder is done, and a failed rebuild leaves no frame (frames are
        // skipped) rather than one of another shape.
        let old = self.built.take();
        // The caller's texture sets the size of the HDR image; the
        // composite scales it to fill the output.
        let size = match self.scene.content() {
            Content::Texture(input) => input.size,
            _ => self.size,
        };
        if size.0 == 0 || size.1 == 0 || self.output_size.0 == 0 || self.output_size.1 == 0 {
            return Ok(());
        }
        let mut b = FrameBuilder::new(gpu, &self.settings, &self.output, size, self.output_size);
        if let Some(mut old) = old {
            b.recycle(&mut old.frame);
        }
        b.info.look = self.look.info();
        b.info.camera = self.camera;
        b.look = self.look.views();
        b.user_effects = &self.effects;
        for (index, pass) in self.passes().enumerate() {
            b.set_owner(index);
            pass.build(&mut b)?;
        }
        let frame = b.finish()?;
        let names = frame.graph.passes.iter().map(|p| p.name.clone()).collect();
        self.built = Some(Built {
            frame,
            timing: if self.timing {
                Timing::new(gpu, names)
            } else {
                None
            },
        });
        self.write_params(gpu);
        Ok(())
    }

    /// Records the frame into `encoder`, ending with the composite pass into
    /// `output_view` (a view of format `output().view_format`). Returns
    /// `false`, recording nothing, while the size is zero.
    pub fn encode(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        output_view: &wgpu::TextureView,
        time_seconds: f64,
    ) -> bool {
        let Some(built) = &self.built else {
            return false;
        };
        for pass in self.passes() {
            pass.prepare(&gpu.queue, &built.frame.info, shader_time(time_seconds));
        }
        let timing = built.timing.as_ref();
        for (index, step) in built.frame.steps.iter().enumerate() {
            for c in &step.copies {
                encoder.copy_buffer_to_buffer(&c.from, c.from_offset, &c.to, c.to_offset, c.size);
            }
            let (pipeline, groups, workgroups, out) = match &step.draw {
                Draw::Compute {
                    pipeline,
                    bind_groups,
                    workgroups,
                } => (pipeline, bind_groups, *workgroups, None),
                Draw::ComputeOutput {
                    pipeline,
                    bind_groups,
                    out_layout,
                } => {
                    let workgroups = crate::shaders::image_workgroups(built.frame.info.output_size);
                    let out = gpu.output_bind_group(out_layout, output_view);
                    (pipeline, bind_groups, workgroups, Some(out))
                }
                _ => {
                    self.record_render(encoder, step, output_view, timing, index);
                    continue;
                }
            };
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: per_frame_label(&step.name),
                timestamp_writes: timing.map(|t| t.compute_writes(index)),
            });
            pass.set_pipeline(pipeline);
            for (i, group) in (0..).zip(groups.iter().chain(out.as_ref())) {
                pass.set_bind_group(i, group, &[]);
            }
            pass.dispatch_workgroups(workgroups[0], workgroups[1], workgroups[2]);
        }
        for pass in self.passes() {
            pass.finish_frame(encoder);
        }
        if let Some(t) = timing {
            t.finish_frame(encoder);
        }
        true
    }

    /// Forgets what passes carry between frames (auto exposure jumps to
    /// its target on the next frame): for a camera cut.
    pub fn reset_history(&self) {
        for pass in self.passes() {
            pass.reset_history();
        }
    }

    /// What the passes read back lately (the exposure in use).
    pub fn report(&self) -> crate::pass::PassReport {
        let mut report = crate::pass::PassReport::default();
        for pass in self.passes() {
            pass.report(&mut report);
        }
        report
    }

    /// Records one render step.
    fn record_render(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        step: &crate::frame::Step,
        output_view: &wgpu::TextureView,
        timing: Option<&Timing>,
        index: usize,
    ) {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: per_frame_label(&step.name),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: step.color.as_ref().unwrap_or(output_view),
                depth_slice: None,
                resolve_target: step.resolve.as_ref(),
                ops: wgpu::Operations {
                    // Every pass writes every pixel: clear, never load,
                    // except where it adds onto the target.
                    load: if step.load {
                        wgpu::LoadOp::Load
                    } else {
                        wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT)
                    },
                    store: if step.store {
                        wgpu::StoreOp::Store
                    } else {
                        wgpu::StoreOp::Discard
                    },
                },
            })],
            depth_stencil_attachment: step.depth.as_ref().map(|view| {
                wgpu::RenderPassDepthStencilAttachment {
                    view,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        // Depth is only tested within its pass.
                        store: wgpu::StoreOp::Discard,
                    }),
                    stencil_ops: None,
                }
            }),
            timestamp_writes: timing.map(|t| t.writes(index)),
            ..Default::default()
        });
        match &step.draw {
            Draw::Fullscreen {
                pipeline,
                bind_groups,
            } => {
                pass.set_pipeline(pipeline);
                for (index, group) in (0..).zip(bind_groups) {
                    pass.set_bind_group(index, group, &[]);
                }
                pass.draw(0..3, 0..1);
            }
            Draw::ByPass => {
                if let Some(owner) = self.pass(step.owner) {
                    owner.draw(&mut pass)
                }
            }
            // Recorded by `encode`.
            Draw::Compute { .. } | Draw::ComputeOutput { .. } => {}
        }
    }

    /// Records and submits one frame: one encoder, one submit. `finish`
    /// records extra commands after the passes (a readback copy) into the
    /// same encoder. Returns whether anything was drawn and `finish`'s value.
    pub fn submit_frame<T>(
        &self,
        gpu: &Gpu,
        output_view: &wgpu::TextureView,
        time_seconds: f64,
        finish: impl FnOnce(&mut wgpu::CommandEncoder) -> Result<T, Error>,
    ) -> Result<(bool, T), Error> {
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: per_frame_label("frame"),
            });
        let drawn = self.encode(gpu, &mut encoder, output_view, time_seconds);
        let extra = finish(&mut encoder)?;
        gpu.queue.submit([encoder.finish()]);
        Ok((drawn, extra))
    }

    /// Turns per-pass GPU timing on or off (off by default). Results
    /// arrive a few frames after it is turned on.
    pub fn set_timing(&mut self, gpu: &Gpu, on: bool) {
        if on == self.timing {
            return;
        }
        self.timing = on;
        if let Some(built) = &mut self.built {
            built.timing = if on {
                let names = built
                    .frame
                    .graph
                    .passes
                    .iter()
                    .map(|p| p.name.clone())
                    .collect();
                Timing::new(gpu, names)
            } else {
                None
            };
        }
    }

    /// Whether per-pass GPU timing is on.
    pub fn timing(&self) -> bool {
        self.timing
    }

    /// GPU milliseconds per pass of a recent frame; `None` where the device
    /// has no timestamp queries or no result has arrived yet.
    pub fn pass_times(&self) -> Option<PassTimes> {
        self.built.as_ref()?.timing.as_ref()?.latest()
    }
}

/// The rule among the options the chain reads (the others are checked
/// where they are used: the canvas group by the output).
fn validate(settings: &Options) -> Result<(), crate::options::OptionError> {
    Options {
        msaa: settings.msaa,
        resolve: settings.resolve,
        ..Options::default()
    }
    .validate()
}

/// The label of an object created every frame (passes, the encoder, the
/// canvas view): set in debug builds, where GPU messages name it; left out
/// of release builds, where each label is a string handed across to
/// JavaScript on every frame (about a tenth of `render()`'s CPU time on the
/// web). Objects created once (pipelines, textures) always keep theirs.
pub fn per_frame_label(label: &str) -> Option<&str> {
    cfg!(debug_assertions).then_some(label)
}

/// The period, in seconds, of the time the shaders see: about 4.5 hours.
/// Shaders take time as an `f32`, whose step grows with its size; the page
/// clock (an `f64`) is reduced to this period first, so the step stays
/// under a millisecond (2⁻¹⁰ s at most) however long a page runs, and any
/// finite time, however large, renders. Animations jump once per period.
pub const TIME_PERIOD_SECONDS: f64 = 16384.0;

/// The shaders' time for a frame at `seconds`: `seconds` modulo
/// [`TIME_PERIOD_SECONDS`] (from 0, also for negative times), reduced in
/// `f64` before it is narrowed. A non-finite time gives 0; the JS boundary
/// refuses it before it gets here.
pub fn shader_time(seconds: f64) -> f32 {
    if !seconds.is_finite() {
        return 0.0;
    }
    let t = seconds.rem_euclid(TIME_PERIOD_SECONDS) as f32;
    // Just below the period (tiny negative times) rounds up to it.
    if t >= TIME_PERIOD_SECONDS as f32 {
        0.0
    } else {
        t
    }
}

/// Releases the GPU memory of an effect that is gone (or never came in):
/// its uniform buffer and the textures afterglow made for it (destroyed
/// at once where the chain submits its own frames, dropped where the
/// caller submits).
pub fn release_effect(gpu: &Gpu, effect: &UserEffect) {
    if gpu.caller_submits {
        return;
    }
    if let Some(b) = &effect.buffer {
        b.destroy();
    }
    for t in effect.textures.iter().filter_map(|t| t.own.as_ref()) {
        t.destroy();
    }
}
