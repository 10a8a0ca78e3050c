//! The HDR chain, independent of where its output goes:
//!
//! ```text
//! scene (MSAA color + depth) ─resolve─▶ HDR target
//!   ─▶ bloom: extract ─▶ downsample chain ─▶ upsample chain   (or Gaussian ping-pong)
//!   ─▶ composite (HDR + bloom, exposure, tonemap, dither, encoding) ─▶ output
//! ```
//!
//! The frame is built as a list of steps together with its pass graph
//! ([`crate::graph`]) whenever the size or the shape-changing options
//! change; the graph is validated then, and recording a frame only walks
//! the steps: no texture, view, bind group or pipeline is created per frame.
//! The web layer points the last step at the canvas texture of the frame;
//! natively it renders into any texture, which is how it is tested and
//! benchmarked.

use crate::error::Error;
use crate::gpu::Gpu;
use crate::graph::{ColorDecl, DepthDecl, Graph, PassDecl, ViewDecl};
use crate::options::{BlurMode, Options, Resolve};
use crate::output::OutputSpec;
use crate::passes::bloom::BloomPass;
use crate::passes::composite::CompositePass;
use crate::passes::resolve::ResolvePass;
use crate::passes::scene::ScenePass;
use crate::passes::Pipe;
use crate::targets::Targets;
use crate::timing::{PassTimes, Timing};

pub use crate::passes::scene::{Content, ImageContent, PixelImage, UserShader};

/// Where a full-screen step renders.
enum Target {
    View(wgpu::TextureView),
    /// The output view handed to [`Chain::encode`] (the canvas texture).
    Output,
}

struct FullscreenStep {
    name: String,
    pipeline: wgpu::RenderPipeline,
    bind_group: wgpu::BindGroup,
    target: Target,
    /// Add onto the target's content (bloom upsample) instead of clearing.
    accumulate: bool,
}

enum Step {
    Scene {
        color: wgpu::TextureView,
        resolve: Option<wgpu::TextureView>,
        store: bool,
        depth: wgpu::TextureView,
    },
    Fullscreen(FullscreenStep),
}

struct Frame {
    targets: Targets,
    steps: Vec<Step>,
    graph: Graph,
    /// Per-pass GPU timestamps, where the device has them.
    timing: Option<Timing>,
}

pub struct Chain {
    output: OutputSpec,
    options: Options,
    /// Size of the offscreen targets.
    size: (u32, u32),
    /// Size of the output (differs from `size` under a render scale).
    output_size: (u32, u32),
    scene: ScenePass,
    bloom: BloomPass,
    resolve: ResolvePass,
    composite: CompositePass,
    /// `None` while the size is 0 in either dimension: frames are skipped.
    frame: Option<Frame>,
}

/// Collects the steps and their declarations side by side, so the graph
/// that is checked is the frame that is recorded.
struct Builder {
    graph: Graph,
    steps: Vec<Step>,
}

impl Builder {
    fn fullscreen(
        &mut self,
        name: String,
        pipe: &Pipe,
        bind_group: wgpu::BindGroup,
        target: (ViewDecl, Target),
        sampled: Vec<ViewDecl>,
        accumulate: bool,
    ) {
        self.graph.passes.push(PassDecl {
            name: name.clone(),
            colors: vec![ColorDecl {
                view: target.0,
                resolve_target: None,
                pipeline_format: pipe.color_format,
            }],
            depth: None,
            pipeline_samples: pipe.samples,
            sampled,
        });
        self.steps.push(Step::Fullscreen(FullscreenStep {
            name,
            pipeline: pipe.raw.clone(),
            bind_group,
            target: target.1,
            accumulate,
        }));
    }
}

impl Chain {
    pub fn new(
        gpu: &Gpu,
        output: OutputSpec,
        options: Options,
        size: (u32, u32),
    ) -> Result<Chain, Error> {
        options.validate()?;
        let mut chain = Chain {
            output,
            options,
            size,
            output_size: size,
            scene: ScenePass::new(gpu, options.msaa.sample_count()),
            bloom: BloomPass::new(gpu),
            resolve: ResolvePass::new(gpu),
            composite: CompositePass::new(gpu, &output),
            frame: None,
        };
        chain.rebuild(gpu)?;
        Ok(chain)
    }

    pub fn output(&self) -> &OutputSpec {
        &self.output
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// The pass graph of the current frame (`None` at 0×0).
    pub fn graph(&self) -> Option<&Graph> {
        self.frame.as_ref().map(|f| &f.graph)
    }

    /// Names of the passes of a frame, in order.
    pub fn pass_names(&self) -> Vec<String> {
        self.graph()
            .map(|g| g.passes.iter().map(|p| p.name.clone()).collect())
            .unwrap_or_default()
    }

    /// Bytes held by the size-dependent targets.
    pub fn target_bytes(&self) -> u64 {
        self.frame.as_ref().map(|f| f.targets.bytes()).unwrap_or(0)
    }

    /// The bloom texture format in use.
    pub fn bloom_format(&self) -> wgpu::TextureFormat {
        self.bloom.format
    }

    pub fn content(&self) -> &Content {
        self.scene.content()
    }

    pub fn set_content(&mut self, gpu: &Gpu, content: Content) -> Result<(), Error> {
        self.scene.set_content(gpu, content)
    }

    /// Rebuilds the size-dependent targets and every bind group that
    /// references them, together. A zero dimension drops them.
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
        if size == self.size && output_size == self.output_size && (self.frame.is_some() || zero) {
            return Ok(());
        }
        self.size = size;
        self.output_size = output_size;
        self.rebuild(gpu)
    }

    /// Size of the output the chain was last built for.
    pub fn output_size(&self) -> (u32, u32) {
        self.output_size
    }

    /// Compiles a user's scene shader without using it yet.
    pub fn prepare_shader(&self, gpu: &Gpu, source: &str) -> UserShader {
        self.scene.prepare_shader(gpu, source)
    }

    /// Switches the scene to a prepared user shader.
    pub fn install_shader(&mut self, gpu: &Gpu, shader: UserShader) {
        self.scene.install_shader(gpu, shader);
    }

    /// Bytes held by the crate's own textures: the size-dependent targets
    /// and the content's texture.
    pub fn gpu_bytes(&self) -> u64 {
        self.target_bytes() + self.scene.content_bytes()
    }

    /// Switches to a new output description (format, alpha, tone mapping).
    pub fn set_output(&mut self, gpu: &Gpu, output: OutputSpec) -> Result<(), Error> {
        self.composite.set_output(gpu, &output);
        self.output = output;
        self.rebuild(gpu)
    }

    /// Applies new options. Options that change the shape of the frame
    /// (MSAA, resolve, bloom on/off, blur mode, levels, iterations) rebuild
    /// it; the others only rewrite uniforms.
    pub fn set_options(&mut self, gpu: &Gpu, options: Options) -> Result<(), Error> {
        options.validate()?;
        let (a, b) = (&self.options, &options);
        let reshape = a.msaa != b.msaa
            || a.resolve != b.resolve
            || a.bloom.enabled != b.bloom.enabled
            || a.bloom.blur != b.bloom.blur
            || a.bloom.levels != b.bloom.levels
            || a.bloom.iterations != b.bloom.iterations;
        self.options = options;
        if reshape {
            self.scene.set_samples(gpu, options.msaa.sample_count());
            self.rebuild(gpu)
        } else {
            self.write_params(gpu);
            Ok(())
        }
    }

    fn bloom_levels(&self) -> u32 {
        let Some(frame) = &self.frame else { return 0 };
        match (&frame.targets.bloom_plan, self.options.bloom.blur) {
            (None, _) => 0,
            (Some(plan), BlurMode::Mip) => plan.levels,
            (Some(_), BlurMode::Gaussian) => 1,
        }
    }

    fn write_params(&self, gpu: &Gpu) {
        self.bloom
            .write_params(&gpu.queue, &self.options, self.size);
        self.composite
            .write_params(&gpu.queue, &self.options, &self.output, self.bloom_levels());
    }

    /// Builds the frame for the current size and options: targets, views,
    /// bind groups, the steps and their graph, which is validated here.
    fn rebuild(&mut self, gpu: &Gpu) -> Result<(), Error> {
        self.frame = None;
        if self.size.0 == 0 || self.size.1 == 0 {
            return Ok(());
        }
        let targets = Targets::new(
            gpu,
            self.size,
            self.output_size,
            &self.options,
            self.bloom.format,
            &self.output,
        )?;
        let mut b = Builder {
            graph: targets.graph.clone(),
            steps: Vec::new(),
        };

        // Scene.
        let (hdr_decl, hdr_view) = targets.view(gpu, &targets.hdr, 0);
        let (depth_decl, depth_view) = targets.view(gpu, &targets.depth, 0);
        let scene_pipe = self.scene.pipe();
        let depth = Some(DepthDecl {
            view: depth_decl,
            pipeline_format: scene_pipe.depth_format.unwrap_or(depth_decl.format),
            read_only: false,
            pipeline_writes: scene_pipe.depth_write,
        });
        match &targets.msaa {
            Some(msaa) => {
                let (msaa_decl, msaa_view) = targets.view(gpu, msaa, 0);
                let tonemapped = self.options.resolve == Resolve::Tonemapped;
                b.graph.passes.push(PassDecl {
                    name: "scene".into(),
                    colors: vec![ColorDecl {
                        view: msaa_decl,
                        resolve_target: (!tonemapped).then_some(hdr_decl),
                        pipeline_format: scene_pipe.color_format,
                    }],
                    depth,
                    pipeline_samples: scene_pipe.samples,
                    sampled: vec![],
                });
                let resolve_group = tonemapped.then(|| self.resolve.bind(gpu, &msaa_view));
                b.steps.push(Step::Scene {
                    color: msaa_view,
                    resolve: (!tonemapped).then(|| hdr_view.clone()),
                    store: tonemapped,
                    depth: depth_view,
                });
                if let Some(group) = resolve_group {
                    b.fullscreen(
                        "resolve".into(),
                        &self.resolve.pipe,
                        group,
                        (hdr_decl, Target::View(hdr_view.clone())),
                        vec![msaa_decl],
                        false,
                    );
                }
            }
            None => {
                b.graph.passes.push(PassDecl {
                    name: "scene".into(),
                    colors: vec![ColorDecl {
                        view: hdr_decl,
                        resolve_target: None,
                        pipeline_format: scene_pipe.color_format,
                    }],
                    depth,
                    pipeline_samples: scene_pipe.samples,
                    sampled: vec![],
                });
                b.steps.push(Step::Scene {
                    color: hdr_view.clone(),
                    resolve: None,
                    store: true,
                    depth: depth_view,
                });
            }
        }

        // Bloom.
        let mut bloom_result: Option<(ViewDecl, wgpu::TextureView)> = None;
        if let Some(tex) = &targets.bloom {
            let levels = tex.texture.mip_level_count();
            let mips: Vec<(ViewDecl, wgpu::TextureView)> =
                (0..levels).map(|m| targets.view(gpu, tex, m)).collect();
            let bloom = &self.bloom;
            b.fullscreen(
                "bloom extract".into(),
                &bloom.extract,
                bloom.bind(gpu, "bloom extract bind group", &hdr_view),
                (mips[0].0, Target::View(mips[0].1.clone())),
                vec![hdr_decl],
                false,
            );
            for i in 1..levels as usize {
                b.fullscreen(
                    format!("bloom downsample {i}"),
                    &bloom.downsample,
                    bloom.bind(
                        gpu,
                        &format!("bloom downsample {i} bind group"),
                        &mips[i - 1].1,
                    ),
                    (mips[i].0, Target::View(mips[i].1.clone())),
                    vec![mips[i - 1].0],
                    false,
                );
            }
            for i in (0..levels as usize - 1).rev() {
                b.fullscreen(
                    format!("bloom upsample {i}"),
                    &bloom.upsample,
                    bloom.bind(
                        gpu,
                        &format!("bloom upsample {i} bind group"),
                        &mips[i + 1].1,
                    ),
                    (mips[i].0, Target::View(mips[i].1.clone())),
                    vec![mips[i + 1].0],
                    true,
                );
            }
            bloom_result = Some(mips[0].clone());
        } else if let Some((ping, pong)) = &targets.ping_pong {
            let bloom = &self.bloom;
            let ping = targets.view(gpu, ping, 0);
            let pong = targets.view(gpu, pong, 0);
            // Made once per size: one bind group reading each target.
            let read_ping = bloom.bind(gpu, "bloom read ping bind group", &ping.1);
            let read_pong = bloom.bind(gpu, "bloom read pong bind group", &pong.1);
            b.fullscreen(
                "bloom extract".into(),
                &bloom.extract,
                bloom.bind(gpu, "bloom extract bind group", &hdr_view),
                (ping.0, Target::View(ping.1.clone())),
                vec![hdr_decl],
                false,
            );
            for k in 0..self.options.bloom.iterations {
                b.fullscreen(
                    format!("bloom blur {k} horizontal"),
                    &bloom.blur_h,
                    read_ping.clone(),
                    (pong.0, Target::View(pong.1.clone())),
                    vec![ping.0],
                    false,
                );
                b.fullscreen(
                    format!("bloom blur {k} vertical"),
                    &bloom.blur_v,
                    read_pong.clone(),
                    (ping.0, Target::View(ping.1.clone())),
                    vec![pong.0],
                    false,
                );
            }
            bloom_result = Some(ping);
        }

        // Composite. Without bloom the HDR view stands in for the bloom
        // binding; the shader does not sample it (bloom scale 0).
        let (bloom_decl, bloom_view) = bloom_result.unwrap_or_else(|| (hdr_decl, hdr_view.clone()));
        let output_decl = ViewDecl {
            texture: targets.output,
            mip: 0,
            format: self.output.view_format,
        };
        b.fullscreen(
            "composite".into(),
            &self.composite.pipe,
            self.composite.bind(gpu, &hdr_view, &bloom_view),
            (output_decl, Target::Output),
            vec![hdr_decl, bloom_decl],
            false,
        );

        b.graph.validate()?;
        let names = b.graph.passes.iter().map(|p| p.name.clone()).collect();
        self.frame = Some(Frame {
            targets,
            steps: b.steps,
            graph: b.graph,
            timing: Timing::new(gpu, names),
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
        let Some(frame) = &self.frame else {
            return false;
        };
        let timing = frame.timing.as_ref();
        for (index, step) in frame.steps.iter().enumerate() {
            let timestamp_writes = timing.map(|t| t.writes(index));
            match step {
                Step::Scene {
                    color,
                    resolve,
                    store,
                    depth,
                } => self.scene.record(
                    &gpu.queue,
                    encoder,
                    color,
                    resolve.as_ref(),
                    *store,
                    depth,
                    self.size,
                    time_seconds as f32,
                    timestamp_writes,
                ),
                Step::Fullscreen(s) => {
                    let view = match &s.target {
                        Target::View(v) => v,
                        Target::Output => output_view,
                    };
                    let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                        label: Some(&s.name),
                        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                            view,
                            depth_slice: None,
                            resolve_target: None,
                            ops: wgpu::Operations {
                                // Every pass writes every pixel: clear, never
                                // load, except where it adds onto the target.
                                load: if s.accumulate {
                                    wgpu::LoadOp::Load
                                } else {
                                    wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT)
                                },
                                store: wgpu::StoreOp::Store,
                            },
                        })],
                        timestamp_writes,
                        ..Default::default()
                    });
                    pass.set_pipeline(&s.pipeline);
                    pass.set_bind_group(0, &s.bind_group, &[]);
                    pass.draw(0..3, 0..1);
                }
            }
        }
        if let Some(t) = timing {
            t.finish_frame(encoder);
        }
        true
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
                label: Some("frame"),
            });
        let drawn = self.encode(gpu, &mut encoder, output_view, time_seconds);
        let extra = finish(&mut encoder)?;
        gpu.queue.submit([encoder.finish()]);
        self.after_submit();
        Ok((drawn, extra))
    }

    /// After a frame is submitted: starts the asynchronous readback of its
    /// pass timestamps.
    fn after_submit(&self) {
        if let Some(t) = self.frame.as_ref().and_then(|f| f.timing.as_ref()) {
            t.after_submit();
        }
    }

    /// GPU milliseconds per pass of a recent frame; `None` where the device
    /// has no timestamp queries or no result has arrived yet.
    pub fn pass_times(&self) -> Option<PassTimes> {
        self.frame.as_ref()?.timing.as_ref()?.latest()
    }
}
