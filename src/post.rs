//! [`PostChain`]: afterglow's bloom, tonemapping and output encoding as the
//! post-processing stage of a wgpu program that renders its own scene.
//!
//! The program keeps its device, its queue, its scene and its frame loop;
//! the chain records its passes into the program's command encoder,
//! reading the program's HDR texture (and, for selective bloom, a second
//! texture holding what should glow) and writing the program's output
//! view. It creates only its own intermediate targets, and rebinds only
//! when it is handed other texture views.

use crate::chain::{Chain, Content, ExternalInput};
use crate::error::Error;
use crate::gpu::Gpu;
use crate::options::{AlphaMode, ColorSpace, Options, ToneMapping};
use crate::output::OutputSpec;

/// Bloom, exposure, tonemapping, dithering and output encoding for a wgpu
/// program's own HDR scene, recorded into the program's command encoder.
///
/// Inputs the program renders each frame:
/// - the scene: linear HDR radiance with premultiplied alpha, in a 2D,
///   single-sampled texture with `TEXTURE_BINDING` usage and a filterable
///   format (`Rgba16Float` is the usual one); any size, scaled to fill the
///   output;
/// - optionally a bloom texture of the same size (typically an emissive
///   target written by the same pass): only what it holds blooms.
///
/// The output view's format is the `output_format` given to
/// [`PostChain::new`]. Through an `-srgb` view the hardware encodes; through
/// `Rgba8Unorm`, `Bgra8Unorm` or `Rgba16Float` the shader does. The device
/// stays the program's: the chain never destroys it and leaves its
/// uncaptured-error handler alone.
///
/// ```no_run
/// # fn frame(device: &wgpu::Device, queue: &wgpu::Queue, hdr: &wgpu::TextureView,
/// #          emissive: &wgpu::TextureView, surface_view: &wgpu::TextureView)
/// #          -> Result<(), afterglow::Error> {
/// use afterglow::{Options, PostChain};
///
/// let mut options = Options::default();
/// options.bloom.intensity = 0.8;
/// let mut post = PostChain::new(device, queue, wgpu::TextureFormat::Bgra8UnormSrgb, &options)?;
///
/// // Every frame, after the program's own passes into `hdr` and `emissive`:
/// let mut encoder = device.create_command_encoder(&Default::default());
/// post.render(&mut encoder, hdr, Some(emissive), surface_view, 0.0)?;
/// queue.submit([encoder.finish()]);
/// # Ok(()) }
/// ```
pub struct PostChain {
    gpu: Gpu,
    chain: Chain,
    options: Options,
    output_size: (u32, u32),
}

impl PostChain {
    /// A chain on the program's `device` and `queue`, writing views of
    /// `output_format`: `Rgba8Unorm(Srgb)`, `Bgra8Unorm(Srgb)` or
    /// `Rgba16Float`. `options` are the same as the JavaScript renderer's;
    /// of the `canvas` group only `alphaMode` (premultiplied output) and
    /// `toneMapping` (`Extended` keeps values above 1, for `Rgba16Float`)
    /// apply. The scene pass's `msaa` and `resolve` do not apply: the
    /// program renders the scene.
    ///
    /// Fails with [`Error::Argument`] naming `output_format` for another
    /// format, or an [`Error::Option`] for options that do not go together.
    ///
    /// ```no_run
    /// # fn f(device: &wgpu::Device, queue: &wgpu::Queue) -> Result<(), afterglow::Error> {
    /// let post = afterglow::PostChain::new(
    ///     device,
    ///     queue,
    ///     wgpu::TextureFormat::Rgba8UnormSrgb,
    ///     &afterglow::Options::default(),
    /// )?;
    /// # Ok(()) }
    /// ```
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        output_format: wgpu::TextureFormat,
        options: &Options,
    ) -> Result<PostChain, Error> {
        let gpu = Gpu::shared(None, device.clone(), queue.clone());
        let output = output_spec(output_format, options)?;
        let chain = Chain::new(&gpu, output, options.into(), (0, 0))?;
        Ok(PostChain {
            gpu,
            chain,
            options: *options,
            output_size: (0, 0),
        })
    }

    /// Sets the output size in pixels and rebuilds the targets that depend
    /// on it. [`PostChain::render`] also follows the output view's size by
    /// itself; calling this first moves the rebuild out of the frame.
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), Error> {
        self.output_size = (width, height);
        self.chain
            .resize_scaled(&self.gpu, self.output_size, self.output_size)
    }

    /// Changes options; a change of the chain's shape (bloom mode, levels,
    /// tonemapper…) rebuilds it, the rest only rewrites uniforms.
    pub fn set_options(&mut self, options: &Options) -> Result<(), Error> {
        let output = output_spec(self.chain.output().view_format, options)?;
        if output != *self.chain.output() {
            self.chain.set_output(&self.gpu, output)?;
        }
        self.chain.set_settings(&self.gpu, options.into())?;
        self.options = *options;
        Ok(())
    }

    /// The options in use.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Records the chain into `encoder`: bloom from `bloom` (or from the
    /// scene when `None`), exposure, tonemapping and encoding of `hdr` into
    /// `output`. `time_seconds` animates the dither pattern. Views other than
    /// the last frame's rebind the chain (a rebuild of its bind groups);
    /// the same views cost nothing.
    ///
    /// Fails with [`Error::Argument`] naming `hdr`, `bloom` or `output`
    /// when a view cannot be used (multisampled, missing `TEXTURE_BINDING`,
    /// the bloom view of another size, an output of another format).
    pub fn render(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        hdr: &wgpu::TextureView,
        bloom: Option<&wgpu::TextureView>,
        output: &wgpu::TextureView,
        time_seconds: f64,
    ) -> Result<(), Error> {
        let (scene_format, size) = input("hdr", hdr, self.gpu.features)?;
        let bloom_format = match bloom {
            Some(view) => {
                let (format, bloom_size) = input("bloom", view, self.gpu.features)?;
                if bloom_size != size {
                    return Err(Error::argument(
                        "bloom",
                        format!(
                            "is {}×{} but hdr is {}×{}; both must have the same size",
                            bloom_size.0, bloom_size.1, size.0, size.1
                        ),
                    ));
                }
                Some(format)
            }
            None => None,
        };
        let out = output.texture();
        if out.format().add_srgb_suffix() != self.chain.output().view_format.add_srgb_suffix() {
            return Err(Error::argument(
                "output",
                format!(
                    "has format {:?}; this chain was created for {:?}",
                    out.format(),
                    self.chain.output().view_format
                ),
            ));
        }
        let out_size = (out.width(), out.height());
        if out_size != self.output_size {
            self.resize(out_size.0, out_size.1)?;
        }
        self.chain.set_content(
            &self.gpu,
            Content::Texture(ExternalInput {
                scene: hdr.clone(),
                bloom: bloom.cloned(),
                size,
                formats: (scene_format, bloom_format),
            }),
        )?;
        self.chain.encode(&self.gpu, encoder, output, time_seconds);
        Ok(())
    }
}

/// The format and size of an input view, after checking the chain can
/// sample it.
fn input(
    argument: &str,
    view: &wgpu::TextureView,
    features: wgpu::Features,
) -> Result<(wgpu::TextureFormat, (u32, u32)), Error> {
    let t = view.texture();
    let refuse = |why: String| Err(Error::argument(argument, why));
    if t.dimension() != wgpu::TextureDimension::D2 || t.depth_or_array_layers() != 1 {
        return refuse("must be a view of a single-layer 2D texture".into());
    }
    if t.sample_count() != 1 {
        return refuse(format!(
            "is multisampled ({} samples); resolve it into a single-sampled texture first",
            t.sample_count()
        ));
    }
    if !t.usage().contains(wgpu::TextureUsages::TEXTURE_BINDING) {
        return refuse("lacks TextureUsages::TEXTURE_BINDING".into());
    }
    let filterable = match t.format().sample_type(None, Some(features)) {
        Some(wgpu::TextureSampleType::Float { filterable }) => filterable,
        _ => false,
    };
    if !filterable {
        return refuse(format!(
            "has format {:?}, which cannot be filtered as a color",
            t.format()
        ));
    }
    Ok((t.format(), (t.width(), t.height())))
}

/// The output description for a view format and the options.
fn output_spec(view_format: wgpu::TextureFormat, options: &Options) -> Result<OutputSpec, Error> {
    use wgpu::TextureFormat as F;
    let base = view_format.remove_srgb_suffix();
    if !matches!(base, F::Rgba8Unorm | F::Bgra8Unorm | F::Rgba16Float) {
        return Err(Error::argument(
            "output_format",
            format!(
                "{view_format:?} is not an output format; allowed: Rgba8Unorm(Srgb), \
                 Bgra8Unorm(Srgb), Rgba16Float"
            ),
        ));
    }
    let alpha: AlphaMode = options.canvas.alpha_mode;
    let tone: ToneMapping = options.canvas.tone_mapping;
    let mut spec = OutputSpec::new(base, alpha, tone, ColorSpace::Srgb)?;
    // A non-srgb view: the shader encodes (see `OutputSpec::hardware_encodes`).
    spec.view_format = view_format;
    Ok(spec)
}
