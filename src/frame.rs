//! The frame as data: the steps a frame records and the pass graph they
//! are checked against, built together by [`FrameBuilder`] whenever the
//! size or the frame's shape changes, never per frame.
//!
//! Passes talk to each other through **slots** on the builder, not through
//! the chain: the scene publishes the HDR image, bloom reads it and
//! publishes its result, the composite reads both. An effect between bloom
//! and composite reads the current HDR image and writes a second HDR
//! target with [`FrameBuilder::swap_hdr`], which becomes the current image;
//! such targets are only allocated when such an effect asks for them.

use crate::error::Error;
use crate::gpu::Gpu;
use crate::graph::{ColorDecl, DepthDecl, Graph, Owner, PassDecl, TextureDecl, ViewDecl};
use crate::options::Options;
use crate::output::OutputSpec;
use crate::pipeline::Pipe;

/// Format of the offscreen HDR targets: 16-bit float, filterable,
/// renderable and multisample-capable everywhere WebGPU runs.
pub const HDR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

/// The usage of the HDR images an effect writes (`FrameBuilder::swap_hdr`):
/// drawn into, or stored to by a compute pass, and read after.
const SWAP_USAGE: wgpu::TextureUsages = wgpu::TextureUsages::RENDER_ATTACHMENT
    .union(wgpu::TextureUsages::STORAGE_BINDING)
    .union(wgpu::TextureUsages::TEXTURE_BINDING);

/// Depth of the scene pass. Only tested against, never sampled: its store
/// op is discard and it can be a transient attachment.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth24Plus;

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

/// A texture of the frame and its index in the pass graph.
pub struct Tex {
    pub texture: wgpu::Texture,
    pub id: usize,
}

/// A one-mip view and its declaration in the pass graph.
#[derive(Clone)]
pub struct Image {
    pub decl: ViewDecl,
    pub view: wgpu::TextureView,
}

/// How a step draws once its render pass is open.
pub enum Draw {
    /// One full-screen triangle with a pipeline and its bind groups, in
    /// order from group 0.
    Fullscreen {
        pipeline: wgpu::RenderPipeline,
        bind_groups: Vec<wgpu::BindGroup>,
    },
    /// The pass that added the step draws (content that changes without
    /// the frame being rebuilt, such as the scene's).
    ByPass,
    /// A compute pass: one dispatch of a pipeline with its bind groups, in
    /// order from group 0.
    Compute {
        pipeline: wgpu::ComputePipeline,
        bind_groups: Vec<wgpu::BindGroup>,
        workgroups: [u32; 3],
    },
    /// A compute pass that writes the output, one invocation per pixel in
    /// workgroups of [`crate::shaders::IMAGE_GROUP`] squared: its bind
    /// groups, then one of `out_layout` made with the output's view when
    /// the frame is recorded (the view exists only then).
    ComputeOutput {
        pipeline: wgpu::ComputePipeline,
        bind_groups: Vec<wgpu::BindGroup>,
        out_layout: wgpu::BindGroupLayout,
    },
}

/// A copy between buffers recorded just before a step (a value another
/// pass computed on the GPU, into a uniform of this one).
#[derive(Clone)]
pub struct BufferCopy {
    pub from: wgpu::Buffer,
    pub from_offset: u64,
    pub to: wgpu::Buffer,
    pub to_offset: u64,
    pub size: u64,
}

/// A value of the frame that lives in GPU memory, at `offset` in `buffer`.
#[derive(Clone)]
pub struct GpuValue {
    pub buffer: wgpu::Buffer,
    pub offset: u64,
}

/// One render pass of the frame.
pub struct Step {
    pub name: String,
    /// Copies recorded before the step's pass.
    pub copies: Vec<BufferCopy>,
    /// Index of the pass (in chain order) that added the step.
    pub owner: usize,
    /// The color attachment; `None`: the output of the frame.
    pub color: Option<wgpu::TextureView>,
    pub resolve: Option<wgpu::TextureView>,
    /// Add onto the target instead of clearing it.
    pub load: bool,
    /// Keep the color after the pass (discarded when only its resolve is used).
    pub store: bool,
    /// A depth attachment, cleared to 1 and discarded after the pass.
    pub depth: Option<wgpu::TextureView>,
    pub draw: Draw,
}

/// A color attachment as a pass declares it.
pub struct ColorAttachment<'a> {
    pub target: &'a Image,
    pub resolve: Option<&'a Image>,
    pub load: bool,
    pub store: bool,
}

/// The bloom result handed to the composite.
#[derive(Clone)]
pub struct BloomResult {
    pub image: Image,
    /// How many blurred levels the result accumulates.
    pub levels: u32,
}

/// What the frame's uniforms depend on besides the settings.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameInfo {
    /// Size of the offscreen targets.
    pub size: (u32, u32),
    /// Size of the output the composite writes.
    pub output_size: (u32, u32),
    /// Blurred levels accumulated by bloom (0 when it is off).
    pub bloom_levels: u32,
    /// Frame texels the bloom texture covers per axis (`size` without bloom).
    pub bloom_extent: (u32, u32),
    /// The lookup table and lens dirt the composite reads, if set.
    pub look: crate::effect::LookInfo,
    /// How the caller's depth texture is read, when one was given with a
    /// depth buffer (set by the chain, changed without a rebuild).
    pub camera: Option<crate::arguments::Camera>,
    /// The frame's HDR image is the asked debug view, drawn there by the
    /// pass it belongs to, and shown as it is.
    pub view_in_hdr: bool,
}

impl FrameInfo {
    /// The composite's scale from frame to bloom texture coordinates.
    pub fn bloom_coverage(&self) -> [f32; 2] {
        bloom_coverage(self.size, self.bloom_extent)
    }
}

/// The part of a bloom texture covering `extent` frame texels that a
/// frame of `size` covers, per axis.
pub fn bloom_coverage(size: (u32, u32), extent: (u32, u32)) -> [f32; 2] {
    let axis = |frame: u32, extent: u32| frame.max(1) as f32 / extent.max(1) as f32;
    [axis(size.0, extent.0), axis(size.1, extent.1)]
}

/// The caller's depth texture as the frame samples it.
#[derive(Clone)]
pub struct DepthImage {
    pub image: Image,
    /// How its values hold distance.
    pub kind: crate::texture_rules::DepthKind,
}

/// How a frame gives its textures back when it is replaced.
#[derive(Clone, Copy)]
struct Release {
    /// `destroy()` at once: the chain submits its own frames, so every
    /// command that used them has been submitted. Otherwise (a
    /// [`crate::PostChain`], whose caller submits) the handles are only
    /// dropped: wgpu keeps each texture alive until the work recorded with
    /// it has been submitted and has finished.
    destroy: bool,
}

impl Release {
    fn all(self, textures: &[wgpu::Texture]) {
        if self.destroy {
            for t in textures {
                t.destroy();
            }
        }
    }
}

pub struct FrameBuilder<'a> {
    pub gpu: &'a Gpu,
    release: Release,
    pub settings: &'a Options,
    pub output: &'a OutputSpec,
    pub info: FrameInfo,
    graph: Graph,
    steps: Vec<Step>,
    textures: Vec<wgpu::Texture>,
    owner: usize,
    output_decl: ViewDecl,
    /// Textures of the frame being replaced: one with the same descriptor
    /// is taken over instead of creating another; the rest are
    /// destroyed when the builder is done.
    recycle: Vec<wgpu::Texture>,
    hdr: Option<Image>,
    spare_hdr: Option<Image>,
    /// HDR targets `swap_hdr` has made in this frame (for their labels).
    hdr_targets: u32,
    /// What passes publish for the passes after them, besides the HDR
    /// image (ARCHITECTURE.md's slot table).
    pub slots: Slots,
    /// Copies for the next step added.
    copies: Vec<BufferCopy>,
    /// The lookup table's and the lens dirt's views (set by the chain).
    pub look: crate::effect::LookViews,
    /// The user's effects, in the order they were added (set by the chain).
    pub user_effects: &'a [crate::user_effect::UserEffect],
}

/// The images and values passes hand on to the passes after them, besides
/// the HDR image ([`FrameBuilder::set_hdr`], [`FrameBuilder::swap_hdr`]).
/// ARCHITECTURE.md's slot table lists each with who writes and reads it.
#[derive(Default)]
pub struct Slots {
    /// The stored multisampled scene color, for a resolve pass.
    pub msaa_color: Option<Image>,
    /// What the bloom extract reads instead of the HDR image (a caller's
    /// emissive texture: selective bloom).
    pub bloom_source: Option<Image>,
    /// The caller's depth, matching the scene (published by the scene).
    pub depth: Option<DepthImage>,
    /// The blurred light the composite adds (published by the bloom).
    pub bloom: Option<BloomResult>,
    /// The exposure multiplier (an `f32`) the frame is to use, when a pass
    /// computes it on the GPU (auto exposure); passes that apply the
    /// exposure copy it into their uniforms with [`FrameBuilder::copy_before`].
    pub exposure: Option<GpuValue>,
    /// What `debug: 'exposure'` draws (`passes::auto_exposure::VIEW_SIZE`
    /// bytes), published by auto exposure.
    pub exposure_view: Option<GpuValue>,
}

/// A built frame: its textures (released when the frame is replaced),
/// its steps and the graph they were checked against.
pub struct Frame {
    pub textures: Vec<wgpu::Texture>,
    pub steps: Vec<Step>,
    pub graph: Graph,
    pub info: FrameInfo,
    release: Release,
}

impl Drop for Frame {
    /// The frame's textures are returned when the frame is replaced (resize,
    /// a shape change), not when the garbage collector gets to them.
    fn drop(&mut self) {
        self.release.all(&self.textures);
    }
}

impl Drop for FrameBuilder<'_> {
    /// Textures not taken over are released at once; so are the new
    /// frame's own if it was never finished (a failed rebuild).
    fn drop(&mut self) {
        self.release.all(&self.recycle);
        self.release.all(&self.textures);
    }
}

impl<'a> FrameBuilder<'a> {
    pub fn new(
        gpu: &'a Gpu,
        settings: &'a Options,
        output: &'a OutputSpec,
        size: (u32, u32),
        output_size: (u32, u32),
    ) -> FrameBuilder<'a> {
        let mut graph = Graph::default();
        let id = graph.texture(TextureDecl {
            label: "canvas".into(),
            format: output.format,
            sample_count: 1,
            size: output_size,
            mip_levels: 1,
            owner: Owner::Output,
            usage: output.usage(),
        });
        FrameBuilder {
            gpu,
            release: Release {
                destroy: !gpu.caller_submits,
            },
            settings,
            output,
            info: FrameInfo {
                size,
                output_size,
                bloom_levels: 0,
                bloom_extent: size,
                look: Default::default(),
                camera: None,
                view_in_hdr: false,
            },
            output_decl: ViewDecl {
                texture: id,
                mip: 0,
                format: output.view_format,
            },
            graph,
            steps: Vec::new(),
            textures: Vec::new(),
            recycle: Vec::new(),
            owner: 0,
            hdr: None,
            spare_hdr: None,
            hdr_targets: 0,
            slots: Slots::default(),
            copies: Vec::new(),
            look: Default::default(),
            user_effects: &[],
        }
    }

    /// Size of the offscreen targets.
    pub fn size(&self) -> (u32, u32) {
        self.info.size
    }

    /// Hands over the textures of the frame being replaced, for
    /// [`FrameBuilder::texture`] to take over where the new frame needs the
    /// same ones (a change of tonemapper or bloom radius reallocates
    /// nothing). Every pass clears or overwrites its target before reading
    /// it, so old contents never show.
    pub fn recycle(&mut self, old: &mut Frame) {
        self.recycle.append(&mut old.textures);
    }

    /// Steps added from now on belong to pass `owner`.
    pub fn set_owner(&mut self, owner: usize) {
        self.owner = owner;
    }

    /// `TRANSIENT_ATTACHMENT` where the device takes it: for attachments
    /// that live only inside one pass.
    pub fn transient(&self) -> wgpu::TextureUsages {
        if self.gpu.transient_attachments {
            wgpu::TextureUsages::TRANSIENT_ATTACHMENT
        } else {
            wgpu::TextureUsages::empty()
        }
    }

    /// Creates a texture of the frame and declares it in the graph.
    pub fn texture(
        &mut self,
        label: &str,
        size: (u32, u32),
        format: wgpu::TextureFormat,
        samples: u32,
        mips: u32,
        usage: wgpu::TextureUsages,
    ) -> Result<Tex, Error> {
        let same = |t: &wgpu::Texture| {
            (t.width(), t.height()) == size
                && t.format() == format
                && t.sample_count() == samples
                && t.mip_level_count() == mips
                && t.usage() == usage
        };
        let old = self.recycle.iter().position(same);
        let texture = match old {
            Some(i) => self.recycle.swap_remove(i),
            None => self.new_texture(label, size, format, samples, mips, usage)?,
        };
        let id = self.graph.texture(TextureDecl {
            label: label.to_string(),
            format: texture.format(),
            sample_count: texture.sample_count(),
            size: (texture.width(), texture.height()),
            mip_levels: texture.mip_level_count(),
            owner: Owner::Chain,
            usage: texture.usage(),
        });
        self.textures.push(texture.clone());
        Ok(Tex { texture, id })
    }

    fn new_texture(
        &self,
        label: &str,
        size: (u32, u32),
        format: wgpu::TextureFormat,
        samples: u32,
        mips: u32,
        usage: wgpu::TextureUsages,
    ) -> Result<wgpu::Texture, Error> {
        self.gpu
            .create_texture_2d(label, size, format, (samples, mips), usage)
    }

    /// A one-mip view of `tex`.
    pub fn view(&self, tex: &Tex, mip: u32) -> Image {
        let decl = self.graph.view(tex.id, mip);
        let label = format!("{} view", self.graph.view_name(&decl));
        let view = self.gpu.create_view(
            &tex.texture,
            &wgpu::TextureViewDescriptor {
                label: Some(&label),
                base_mip_level: mip,
                mip_level_count: Some(1),
                ..Default::default()
            },
        );
        Image { decl, view }
    }

    /// Declares a view of a texture the caller owns (never destroyed or
    /// recycled by the frame) so passes can sample it.
    pub fn external(
        &mut self,
        label: &str,
        view: &wgpu::TextureView,
        size: (u32, u32),
        format: wgpu::TextureFormat,
    ) -> Image {
        let id = self.graph.texture(TextureDecl {
            label: label.to_string(),
            format,
            sample_count: view.texture().sample_count(),
            size,
            mip_levels: 1,
            owner: Owner::Caller,
            usage: view.texture().usage(),
        });
        Image {
            decl: self.graph.view(id, 0),
            view: view.clone(),
        }
    }

    /// The current HDR image. Fails (naming `pass`) before the scene has
    /// published one.
    pub fn hdr(&self, pass: &str) -> Result<Image, Error> {
        self.hdr.clone().ok_or_else(|| {
            Error::Graph(crate::graph::GraphError {
                pass: pass.into(),
                attachment: "hdr".into(),
                message: "reads the HDR image before any pass wrote it".into(),
            })
        })
    }

    /// Publishes `image` as the current HDR image.
    pub fn set_hdr(&mut self, image: Image) {
        self.hdr = Some(image);
    }

    /// For an effect on the HDR image: returns (the current image to read,
    /// an HDR target to write, drawn or stored to), and makes the second
    /// the current one. The effects' targets are allocated on first use in
    /// the frame, and two of them alternate after that. The scene's image
    /// (not made to be stored to) and a caller's image (external input) are
    /// only read, never handed out to be written.
    pub fn swap_hdr(&mut self, pass: &str) -> Result<(Image, Image), Error> {
        let read = self.hdr(pass)?;
        let write = match self.spare_hdr.take() {
            Some(spare) => spare,
            None => {
                // Two alternate at most: the scene's is the first.
                self.hdr_targets += 1;
                let label = ["hdr target 2", "hdr target 3"][usize::from(self.hdr_targets > 1)];
                let tex = self.texture(label, self.info.size, HDR_FORMAT, 1, 1, SWAP_USAGE)?;
                self.view(&tex, 0)
            }
        };
        // The image read becomes the next one written, if it can be written
        // as an effect's own may be (the scene's target is not stored to).
        let t = &self.graph.textures[read.decl.texture];
        if t.owner == Owner::Chain && t.usage.contains(SWAP_USAGE) {
            self.spare_hdr = Some(read.clone());
        }
        self.hdr = Some(write.clone());
        Ok((read, write))
    }

    /// Adds a full-screen pass into `target` (`None`: the output).
    pub fn fullscreen(
        &mut self,
        name: String,
        pipe: &Pipe,
        bind_group: wgpu::BindGroup,
        target: Option<&Image>,
        sampled: &[&Image],
        accumulate: bool,
    ) {
        self.fullscreen_groups(name, pipe, vec![bind_group], target, sampled, accumulate);
    }

    /// [`FrameBuilder::fullscreen`] with more than one bind group.
    pub fn fullscreen_groups(
        &mut self,
        name: String,
        pipe: &Pipe,
        bind_groups: Vec<wgpu::BindGroup>,
        target: Option<&Image>,
        sampled: &[&Image],
        accumulate: bool,
    ) {
        let draw = Draw::Fullscreen {
            pipeline: pipe.raw.clone(),
            bind_groups,
        };
        match target {
            Some(image) => self.pass(
                name,
                pipe,
                ColorAttachment {
                    target: image,
                    resolve: None,
                    load: accumulate,
                    store: true,
                },
                None,
                sampled,
                draw,
            ),
            None => {
                // The output's view exists only while a frame is recorded.
                let decl = self.output_decl;
                self.declare(&name, pipe, decl, None, None, sampled);
                self.steps.push(Step {
                    name,
                    copies: std::mem::take(&mut self.copies),
                    owner: self.owner,
                    color: None,
                    resolve: None,
                    load: accumulate,
                    store: true,
                    depth: None,
                    draw,
                });
            }
        }
    }

    /// Adds a render pass: its declaration in the graph and its step,
    /// from the same values, so the graph checked is the frame recorded.
    pub fn pass(
        &mut self,
        name: String,
        pipe: &Pipe,
        color: ColorAttachment<'_>,
        depth: Option<&Image>,
        sampled: &[&Image],
        draw: Draw,
    ) {
        self.declare(
            &name,
            pipe,
            color.target.decl,
            color.resolve.map(|r| r.decl),
            depth.map(|d| d.decl),
            sampled,
        );
        self.steps.push(Step {
            name,
            copies: std::mem::take(&mut self.copies),
            owner: self.owner,
            color: Some(color.target.view.clone()),
            resolve: color.resolve.map(|r| r.view.clone()),
            load: color.load,
            store: color.store,
            depth: depth.map(|d| d.view.clone()),
            draw,
        });
    }

    /// Records `size` bytes of `value` into `to` at `to_offset` before the
    /// next step is added (so before its pass runs).
    pub fn copy_before(&mut self, value: &GpuValue, to: &wgpu::Buffer, to_offset: u64, size: u64) {
        self.copies.push(BufferCopy {
            from: value.buffer.clone(),
            from_offset: value.offset,
            to: to.clone(),
            to_offset,
            size,
        });
    }

    /// Adds a compute pass reading `sampled` (declared in the graph like a
    /// render pass's sampled views; it has no attachments).
    pub fn compute(
        &mut self,
        name: String,
        pipeline: &wgpu::ComputePipeline,
        bind_group: wgpu::BindGroup,
        workgroups: [u32; 3],
        sampled: &[&Image],
    ) {
        self.dispatch(name, pipeline, vec![bind_group], workgroups, None, sampled);
    }

    /// Adds a compute pass that writes every pixel of `target`, bound as a
    /// storage texture in one of `bind_groups`: one invocation per pixel,
    /// in workgroups of [`crate::shaders::IMAGE_GROUP`] squared (the
    /// shader's `fx_fullscreen_at` gives each the input a full-screen draw
    /// would). An image made this way costs what a draw would on most
    /// GPUs, and far less where the raster path is narrow.
    pub fn compute_image(
        &mut self,
        name: String,
        pipeline: &wgpu::ComputePipeline,
        bind_groups: Vec<wgpu::BindGroup>,
        target: &Image,
        sampled: &[&Image],
    ) {
        let workgroups = crate::shaders::image_workgroups(self.graph.view_size(&target.decl));
        self.dispatch(
            name,
            pipeline,
            bind_groups,
            workgroups,
            Some(target),
            sampled,
        );
    }

    /// Adds a compute pass that writes every pixel of the output
    /// ([`Draw::ComputeOutput`]); the output must be
    /// [`OutputSpec::storage`].
    pub fn compute_output(
        &mut self,
        name: String,
        pipeline: &wgpu::ComputePipeline,
        bind_groups: Vec<wgpu::BindGroup>,
        out_layout: &wgpu::BindGroupLayout,
        sampled: &[&Image],
    ) {
        let draw = Draw::ComputeOutput {
            pipeline: pipeline.clone(),
            bind_groups,
            out_layout: out_layout.clone(),
        };
        let output = self.output_decl;
        self.push_compute(name, Some(output), sampled, draw);
    }

    fn dispatch(
        &mut self,
        name: String,
        pipeline: &wgpu::ComputePipeline,
        bind_groups: Vec<wgpu::BindGroup>,
        workgroups: [u32; 3],
        target: Option<&Image>,
        sampled: &[&Image],
    ) {
        let draw = Draw::Compute {
            pipeline: pipeline.clone(),
            bind_groups,
            workgroups,
        };
        self.push_compute(name, target.map(|t| t.decl), sampled, draw);
    }

    /// A compute step and its declaration: it writes `storage`, reads
    /// `sampled`.
    fn push_compute(
        &mut self,
        name: String,
        storage: Option<ViewDecl>,
        sampled: &[&Image],
        draw: Draw,
    ) {
        self.graph.passes.push(PassDecl {
            name: name.clone(),
            colors: Vec::new(),
            storage: storage.into_iter().collect(),
            depth: None,
            pipeline_depth: None,
            pipeline_samples: 1,
            sampled: sampled.iter().map(|i| i.decl).collect(),
        });
        self.steps.push(Step {
            name,
            copies: std::mem::take(&mut self.copies),
            owner: self.owner,
            color: None,
            resolve: None,
            load: false,
            store: false,
            depth: None,
            draw,
        });
    }

    fn declare(
        &mut self,
        name: &str,
        pipe: &Pipe,
        color: ViewDecl,
        resolve: Option<ViewDecl>,
        depth: Option<ViewDecl>,
        sampled: &[&Image],
    ) {
        self.graph.passes.push(PassDecl {
            name: name.to_string(),
            storage: Vec::new(),
            colors: vec![ColorDecl {
                view: color,
                resolve_target: resolve,
                pipeline_format: pipe.color_format,
            }],
            depth: depth.map(|view| DepthDecl {
                view,
                read_only: false,
                pipeline_writes: pipe.depth_write,
            }),
            pipeline_depth: pipe.depth_format,
            pipeline_samples: pipe.samples,
            sampled: sampled.iter().map(|i| i.decl).collect(),
        });
    }

    /// Validates the graph (natively and in debug builds; a release web build
    /// leaves it to the browser, see ARCHITECTURE.md), hands the frame over.
    pub fn finish(mut self) -> Result<Frame, Error> {
        #[cfg(any(debug_assertions, not(target_arch = "wasm32")))]
        self.graph.validate()?;
        Ok(Frame {
            textures: std::mem::take(&mut self.textures),
            steps: std::mem::take(&mut self.steps),
            graph: std::mem::take(&mut self.graph),
            info: self.info,
            release: self.release,
        })
    }
}
