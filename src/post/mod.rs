//! [`PostChain`]: afterglow's bloom, tonemapping and output encoding as the
//! post-processing stage of a wgpu program that renders its own scene.
//!
//! The program keeps its device, its queue, its scene and its frame loop;
//! the chain records its passes into the program's command encoder,
//! reading the program's HDR texture (and, for selective bloom, a second
//! texture holding what should glow) and writing the program's output
//! view. It creates only its own intermediate targets, and rebinds only
//! when it is handed other texture views.

mod error;
mod lut;

pub use crate::arguments::Camera;
pub use crate::passes::depth_of_field::DepthOfFieldState;
pub use crate::user_effect::{EffectStage, UniformValue};
pub use error::{ArgumentError, Error, InternalError, OptionError, ShaderError};

use crate::chain::{Chain, Content, ExternalInput};
use crate::gpu::Gpu;
use crate::lut::Lut;
use crate::options::{AlphaMode, ColorSpace, Options, ToneMapping};
use crate::output::{OutputSpec, Transfer};
use crate::passes::content::DepthInput;
use crate::passes::look::DirtTexture;
use crate::texture_rules::DepthKind;

/// An effect of the program's own, for [`PostChain::add_effect`].
#[derive(Clone, Copy, Debug)]
pub struct Effect<'a> {
    /// WGSL defining `fn effect(color: vec4f, uv: vec2f) -> vec4f`. It may
    /// call `time()`, `resolution()`, `texel()` (one pixel in `uv`) and,
    /// in [`EffectStage::Scene`], `light_at(uv)`: the stage's light and
    /// coverage anywhere in the frame (docs/effects.md).
    pub wgsl: &'a str,
    /// Where it runs: on linear HDR light before the curve, or on linear
    /// display light after it.
    pub stage: EffectStage,
    /// Its uniforms, by name, with their first values (their types are
    /// those of the values).
    pub uniforms: &'a [(&'a str, UniformValue)],
    /// Its textures, by name: views of 2D textures of the program's device
    /// with `TEXTURE_BINDING` usage and a filterable format.
    pub textures: &'a [(&'a str, &'a wgpu::TextureView)],
}

/// The scene's depth, for depth of field ([`PostChain::render_with_depth`]):
/// a view of the program's depth texture, of the scene's size, and how to
/// read it. Made by [`Depth::buffer`] (a depth buffer and the camera that
/// wrote it) or [`Depth::linear`] (distances), so that a depth buffer
/// never comes without its camera.
#[derive(Clone, Copy, Debug)]
pub struct Depth<'a> {
    view: &'a wgpu::TextureView,
    camera: Option<Camera>,
}

impl<'a> Depth<'a> {
    /// A depth buffer (`Depth32Float`, `Depth24Plus`,
    /// `Depth24PlusStencil8`, `Depth16Unorm`; the depth aspect is read) as
    /// `camera` wrote it: its clip planes, its projection, whether its
    /// depth is reversed.
    pub fn buffer(view: &'a wgpu::TextureView, camera: Camera) -> Depth<'a> {
        Depth {
            view,
            camera: Some(camera),
        }
    }

    /// An `R32Float` texture holding the distance along the view
    /// direction, in the camera's units (0, negative or not finite:
    /// nothing there, as far as can be).
    pub fn linear(view: &'a wgpu::TextureView) -> Depth<'a> {
        Depth { view, camera: None }
    }
}

/// What a [`PostChain`] writes: the output view's format and the colour
/// space the display reads it in, as its surface is configured (wgpu's
/// `SurfaceColorSpace`). [`Output::new`] is sRGB, what
/// [`PostChain::new`] writes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Output {
    pub format: wgpu::TextureFormat,
    pub color_space: wgpu::SurfaceColorSpace,
    /// SDR white on a `Bt2100Pq` output, in cd/m²: where 1.0 of the
    /// picture (the curve's SDR white) lands. BT.2408's 203 unless set.
    pub sdr_white_nits: f32,
}

impl Output {
    /// `format`, read as sRGB.
    pub fn new(format: wgpu::TextureFormat) -> Output {
        Output {
            format,
            color_space: wgpu::SurfaceColorSpace::Srgb,
            sdr_white_nits: 203.0,
        }
    }

    /// The same, read in `color_space`.
    pub fn with_color_space(self, color_space: wgpu::SurfaceColorSpace) -> Output {
        Output {
            color_space,
            ..self
        }
    }
}

/// `canvas.headroom` for a display: how far above SDR white it shows
/// light, from wgpu's `DisplayHdrInfo::tone_map_headroom` (1 where it says
/// nothing: an SDR display, or a platform that does not tell), within the
/// option's range. Set it with `canvas.tone_mapping: Extended` on an HDR
/// output, and read it again when the window moves.
pub fn display_headroom(info: &wgpu::DisplayHdrInfo) -> f64 {
    let headroom = info.tone_map_headroom().unwrap_or(1.0);
    f64::from(headroom).clamp(1.0, 100.0)
}

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
/// The output is a view of a 2D, single-sampled texture with
/// `RENDER_ATTACHMENT` usage, created with the `output_format` given to
/// [`PostChain::new`]. Through an `-srgb` view the hardware encodes;
/// through `Rgba8Unorm`, `Bgra8Unorm` or `Rgba16Float` the shader does.
///
/// The device stays the program's: the chain never destroys it, and sets
/// neither its uncaptured-error handler nor its device-lost callback.
/// Textures the chain replaces (after a resize, an option that reshapes
/// the chain, or when the chain is dropped) are released, not destroyed:
/// wgpu keeps each alive until the commands recorded with it have been
/// submitted and have run, so the program may record, change options and
/// drop the chain in any order before its `queue.submit`. A frame already
/// recorded keeps its own targets and uniforms when a change rebuilds the
/// chain (another size, another view, a reshaping option); a change that
/// only rewrites uniforms (`bloom.intensity`, `exposure`) reaches it too,
/// as any `queue.write_buffer` before the submit does. Everything else
/// is recorded into the program's encoder, but for one thing: the first
/// frame with `antialias: Smaa` submits a command buffer of its own to the
/// queue, once, computing SMAA's constant area table before the frame is
/// recorded.
///
/// Views are taken whole: wgpu cannot tell a view's mip level or format,
/// so pass views of mip 0 (the default view) and say the output view's
/// format in `render`.
///
/// `PostChain` is `Send` and `Sync`, like the wgpu objects it holds.
///
/// ```no_run
/// # fn frame(device: &wgpu::Device, queue: &wgpu::Queue, hdr: &wgpu::TextureView,
/// #          emissive: &wgpu::TextureView, surface_view: &wgpu::TextureView)
/// #          -> Result<(), afterglow::Error> {
/// use afterglow::{wgpu, Options, PostChain};
///
/// let options = Options::default();
/// let format = wgpu::TextureFormat::Bgra8UnormSrgb;
/// let mut post = PostChain::new(device, queue, format, &options)?;
///
/// // Every frame, after the program's own passes into `hdr` and `emissive`:
/// let mut encoder = device.create_command_encoder(&Default::default());
/// post.render(&mut encoder, hdr, Some(emissive), surface_view, format)?;
/// queue.submit([encoder.finish()]);
/// # Ok(()) }
/// ```
pub struct PostChain {
    gpu: Gpu,
    chain: Chain,
    output: Output,
    options: Options,
    output_size: (u32, u32),
    clock: Clock,
}

/// Seconds since the chain was made: the time auto exposure adapts by
/// (the program's frames come when they come).
struct Clock {
    #[cfg(not(target_arch = "wasm32"))]
    start: std::time::Instant,
    #[cfg(target_arch = "wasm32")]
    start_ms: f64,
}

impl Clock {
    fn new() -> Clock {
        Clock {
            #[cfg(not(target_arch = "wasm32"))]
            start: std::time::Instant::now(),
            #[cfg(target_arch = "wasm32")]
            start_ms: js_sys::Date::now(),
        }
    }

    fn seconds(&self) -> f64 {
        #[cfg(not(target_arch = "wasm32"))]
        return self.start.elapsed().as_secs_f64();
        #[cfg(target_arch = "wasm32")]
        return (js_sys::Date::now() - self.start_ms) / 1000.0;
    }
}

impl PostChain {
    /// A chain on the program's `device` and `queue`, writing views of
    /// `output_format`: `Rgba8Unorm(Srgb)`, `Bgra8Unorm(Srgb)` or
    /// `Rgba16Float`. `options` are the same as the JavaScript renderer's,
    /// checked against the same table; of the `canvas` group only
    /// `alpha_mode` (premultiplied output), `tone_mapping` (`Extended`
    /// keeps values above 1, for an `Rgba16Float` output) and `headroom`
    /// (how far the curve reaches with `Extended`) apply: the output format
    /// stands for `format`, and `color_space`, `dynamic_range` and
    /// `screenshots` are the canvas's. The scene pass's `msaa` and
    /// `resolve`, and the page's `render_scale` and `auto_resize`, do not
    /// apply either: the program renders the scene at the size it chooses.
    ///
    /// Fails with [`Error::Argument`] naming `output_format` for another
    /// format, or [`Error::Option`] naming an option out of its range or
    /// options that do not go together.
    ///
    /// ```no_run
    /// # fn f(device: &wgpu::Device, queue: &wgpu::Queue) -> Result<(), afterglow::Error> {
    /// let post = afterglow::PostChain::new(
    ///     device,
    ///     queue,
    ///     afterglow::wgpu::TextureFormat::Rgba8UnormSrgb,
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
        PostChain::with_output(device, queue, Output::new(output_format), options)
    }

    /// A chain writing `output`: views of its format, read by the display
    /// in its colour space (an HDR surface's: scRGB, HDR10). Fails as
    /// [`PostChain::new`] does, and with [`Error::Argument`] naming
    /// `output` for a format and colour space that do not go together
    /// (docs/rust.md, "HDR displays").
    ///
    /// ```no_run
    /// # fn f(device: &wgpu::Device, queue: &wgpu::Queue) -> Result<(), afterglow::Error> {
    /// use afterglow::{wgpu, Output, PostChain};
    /// let output = Output::new(wgpu::TextureFormat::Rgb10a2Unorm)
    ///     .with_color_space(wgpu::SurfaceColorSpace::Bt2100Pq);
    /// let post = PostChain::with_output(device, queue, output, &afterglow::Options::default())?;
    /// # Ok(()) }
    /// ```
    pub fn with_output(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        output: Output,
        options: &Options,
    ) -> Result<PostChain, Error> {
        check_options(options, output.format)?;
        let mut gpu = Gpu::shared(None, device.clone(), queue.clone());
        gpu.caller_submits = true;
        let spec = output_spec(&output, options)?;
        let chain = Chain::new(&gpu, spec, *options, (0, 0))?;
        Ok(PostChain {
            gpu,
            chain,
            output,
            options: *options,
            output_size: (0, 0),
            clock: Clock::new(),
        })
    }

    /// Sets the output size in pixels (0 in either dimension: frames record
    /// nothing). Once a frame has been rendered, this rebuilds the targets
    /// that depend on it, moving that work out of the next frame; before the
    /// first frame (when the input's size is not known yet) it only records
    /// the size. [`PostChain::render`] also follows the output view's size
    /// by itself.
    ///
    /// Fails with [`Error::Argument`] naming `width` or `height` when it
    /// is larger than the device's `max_texture_dimension_2d`.
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), Error> {
        let max = self.gpu.max_texture_size();
        for (argument, value) in [("width", width), ("height", height)] {
            if value > max {
                return Err(Error::argument(
                    argument,
                    format!(
                        "is {value}; this device's textures are at most {max} pixels wide and high (Limits::max_texture_dimension_2d)"
                    ),
                ));
            }
        }
        self.output_size = (width, height);
        if !matches!(self.chain.content(), Content::Texture(_)) {
            return Ok(());
        }
        Ok(self
            .chain
            .resize_scaled(&self.gpu, self.output_size, self.output_size)?)
    }

    /// Writes `output` from now on (a surface reconfigured for another
    /// colour space, a window moved to another display), checked as in
    /// [`PostChain::with_output`]; refused, the chain writes what it wrote.
    pub fn set_output(&mut self, output: Output) -> Result<(), Error> {
        check_options(&self.options, output.format)?;
        let spec = output_spec(&output, &self.options)?;
        if spec != *self.chain.output() {
            self.chain.set_output(&self.gpu, spec)?;
        }
        self.output = output;
        Ok(())
    }

    /// Changes options, checked as in [`PostChain::new`]; a change of the
    /// chain's shape (bloom mode, levels, tonemapper…) rebuilds it, the
    /// rest only rewrites uniforms. A refused change leaves the options in
    /// use as they were.
    pub fn set_options(&mut self, options: &Options) -> Result<(), Error> {
        check_options(options, self.output.format)?;
        let output = output_spec(&self.output, options)?;
        if output != *self.chain.output() {
            self.chain.set_output(&self.gpu, output)?;
        }
        self.chain.set_settings(&self.gpu, *options)?;
        self.options = *options;
        Ok(())
    }

    /// Sets the 3D lookup table applied after the curve, in display space
    /// (`None` removes it); `grading.lut_intensity` mixes it in. The table
    /// is copied to the GPU here; the one it replaces is released.
    ///
    /// ```no_run
    /// # fn f(post: &mut afterglow::PostChain) -> Result<(), afterglow::Error> {
    /// let lut = afterglow::Lut::from_cube(&std::fs::read_to_string("film.cube").unwrap())?;
    /// post.set_lut(Some(&lut))?;
    /// # Ok(()) }
    /// ```
    pub fn set_lut(&mut self, lut: Option<&Lut>) -> Result<(), Error> {
        Ok(self.chain.set_lut(&self.gpu, lut)?)
    }

    /// Sets the lens dirt (`None` removes it): a view of a 2D texture of
    /// the program's device with `TEXTURE_BINDING` usage and a filterable
    /// format, scaled to cover the output. The bloom, and only the bloom,
    /// is multiplied by `1 + bloom.dirt_intensity × dirt`. The chain
    /// keeps the view; the program keeps the texture alive.
    ///
    /// Fails with [`Error::Argument`] naming `dirt` when the texture
    /// cannot be used that way (another device's, or destroyed, too).
    pub fn set_lens_dirt(&mut self, dirt: Option<&wgpu::TextureView>) -> Result<(), Error> {
        let dirt = match dirt {
            Some(view) => {
                let (_, size) = input("dirt", view, self.gpu.features)?;
                bindable("dirt", self.gpu.probe_texture(view))?;
                Some(DirtTexture {
                    view: view.clone(),
                    size,
                    own: None,
                })
            }
            None => None,
        };
        Ok(self.chain.set_dirt(&self.gpu, dirt)?)
    }

    /// Adds an effect of the program's own, fused into the chain's last
    /// pass after the others of its [`EffectStage`]: its WGSL defines
    /// `fn effect(color: vec4f, uv: vec2f) -> vec4f` (premultiplied colour
    /// and alpha, and the output's coordinates, 0 to 1 with y down), and
    /// may read its uniforms as `uniforms.<name>`, its textures by their
    /// names (`texture_2d<f32>`, with `effect_sampler`), `time()` (seconds
    /// since the chain was made) and `resolution()` (the output's size in
    /// pixels). Its top-level names are its own: two effects may both
    /// define `fn effect` or a helper of the same name.
    ///
    /// `name` is any string of 1 to 64 characters (`"film-look"`,
    /// `"Tint 2"`); the effect's WGSL never sees it.
    ///
    /// Fails, leaving the chain as it was, with [`Error::Argument`] naming
    /// `name` (empty, longer, or in use), `uniforms.<name>`,
    /// `textures.<name>` (not sampleable, or another device's) or `wgsl`
    /// (it declares bindings of its own), or
    /// with [`Error::Shader`] at the line and column of the WGSL that does
    /// not compile. Natively the WGSL is compiled here; in the wasm build
    /// the browser answers later, so a compile error shows as the device's
    /// validation error (the JavaScript `addEffect` waits for it).
    ///
    /// ```no_run
    /// # fn f(post: &mut afterglow::PostChain) -> Result<(), afterglow::Error> {
    /// use afterglow::{Effect, EffectStage, UniformValue};
    /// post.add_effect(
    ///     "film-look",
    ///     &Effect {
    ///         wgsl: "fn effect(color: vec4f, uv: vec2f) -> vec4f {
    ///                    return vec4f(color.rgb * uniforms.tint, color.a);
    ///                }",
    ///         stage: EffectStage::Scene,
    ///         uniforms: &[("tint", UniformValue::Vec3([1.0, 0.8, 0.6]))],
    ///         textures: &[],
    ///     },
    /// )?;
    /// post.set_effect_uniforms("film-look", &[("tint", UniformValue::Vec3([0.6, 0.8, 1.0]))])?;
    /// # Ok(()) }
    /// ```
    pub fn add_effect(&mut self, name: &str, effect: &Effect<'_>) -> Result<(), Error> {
        let mut textures = Vec::new();
        for (texture, view) in effect.textures {
            let argument = format!("textures.{texture}");
            let (format, size) = input(&argument, view, self.gpu.features)?;
            bindable(&argument, self.gpu.probe_texture(view))?;
            textures.push(crate::user_effect::EffectTexture {
                name: texture.to_string(),
                view: (*view).clone(),
                format,
                size,
                own: None,
            });
        }
        let spec = crate::user_effect::EffectSpec {
            name: name.into(),
            stage: effect.stage,
            wgsl: effect.wgsl.into(),
            uniforms: effect
                .uniforms
                .iter()
                .map(|(n, v)| (n.to_string(), *v))
                .collect(),
            textures,
        };
        let serial = self.chain.next_effect_serial();
        let made = crate::user_effect::make(&self.gpu, spec, serial, &self.chain.effect_names())?;
        let check = crate::user_effect::start_check(&self.gpu, &made);
        if let Some(result) = check.now(&made.source) {
            result?;
        }
        Ok(self.chain.add_effect(&self.gpu, made)?)
    }

    /// New values for some of the effect's uniforms, each of the type it
    /// was declared with; all are checked before any is written.
    ///
    /// Fails with [`Error::Argument`] naming `name` (no such effect) or
    /// `uniforms.<name>` (not declared, another type, not finite).
    pub fn set_effect_uniforms(
        &mut self,
        name: &str,
        values: &[(&str, UniformValue)],
    ) -> Result<(), Error> {
        let values: Vec<(String, UniformValue)> =
            values.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        Ok(self.chain.set_effect_uniforms(&self.gpu, name, &values)?)
    }

    /// Removes the effect `name`; the chain renders as it did before it
    /// was added. Fails with [`Error::Argument`] naming `name` when there
    /// is no such effect.
    pub fn remove_effect(&mut self, name: &str) -> Result<(), Error> {
        Ok(self.chain.remove_effect(&self.gpu, name)?)
    }

    /// The names of the program's effects, in the order they were added.
    pub fn effects(&self) -> Vec<&str> {
        self.chain.effect_names()
    }

    /// With `auto_exposure` on, jumps to the metered exposure on the next
    /// frame instead of adapting to it (a camera cut, a new scene).
    pub fn reset_exposure(&mut self) {
        self.chain.reset_history();
    }

    /// With `auto_exposure` on, the exposure in use in EV (log2 of the
    /// multiplier, `exposure` not included), read back without stalling a
    /// frame: it arrives once the GPU has run a submitted frame and the
    /// device was polled (`Device::poll`, or any later `Queue::submit`),
    /// so it lags a few frames. `None` until known and with auto exposure
    /// off.
    pub fn exposure_ev(&self) -> Option<f64> {
        if !self.options.auto_exposure.enabled {
            return None;
        }
        self.chain.report().exposure_ev
    }

    /// The options in use.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Textures the chain has created (for the crate's tests).
    #[cfg(test)]
    pub(crate) fn textures_created(&self) -> u64 {
        self.gpu.counters.snapshot().textures
    }

    /// Records the chain into `encoder`: bloom from `bloom` (or from the
    /// scene when `None`), exposure, tonemapping and encoding of `hdr` into
    /// `output`, a view created with `output_format` (the format given to
    /// [`PostChain::new`]; wgpu cannot tell a view's format, so the program
    /// says it). Views other than the last frame's rebuild the chain's
    /// frame (new targets only where the size changed); the same views
    /// cost nothing.
    ///
    /// Fails with [`Error::Argument`], recording nothing, naming `hdr`,
    /// `bloom`, `output` or `output_format` when one cannot be used
    /// (multisampled, missing `TEXTURE_BINDING` or `RENDER_ATTACHMENT`,
    /// the bloom view of another size, a format other than the chain's,
    /// `output` a view of the same texture as `hdr` or `bloom`, a texture
    /// of another device or destroyed: asked of the device for views the
    /// chain has not seen). A texture destroyed while its view is still
    /// passed, and views of another `wgpu::Instance`, which wgpu itself
    /// cannot tell apart, are the program's to avoid.
    pub fn render(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        hdr: &wgpu::TextureView,
        bloom: Option<&wgpu::TextureView>,
        output: &wgpu::TextureView,
        output_format: wgpu::TextureFormat,
    ) -> Result<(), Error> {
        self.record(encoder, hdr, bloom, None, output, output_format)
    }

    /// [`PostChain::render`] with the scene's depth, which depth of field
    /// (`options.depth_of_field`) blurs by; `debug: DebugView::Coc` shows
    /// its circle of confusion. Other views than the last frame's rebuild
    /// the chain's frame; the same views with another camera only rewrite
    /// uniforms.
    ///
    /// Fails as `render` does, and with [`Error::Argument`] naming `depth`
    /// (another shape or format, another size than `hdr`, a depth buffer
    /// given as [`Depth::linear`] or the other way round, a texture of
    /// another device or destroyed), `camera.near` or `camera.far` (planes
    /// that cannot be read). Devices and destruction are asked of the
    /// device for views the chain has not seen; a texture destroyed while
    /// its view is still passed is the program's to avoid (wgpu reports it
    /// at submit).
    ///
    /// ```no_run
    /// # fn f(post: &mut afterglow::PostChain, encoder: &mut afterglow::wgpu::CommandEncoder,
    /// #      hdr: &afterglow::wgpu::TextureView, depth: &afterglow::wgpu::TextureView,
    /// #      surface: &afterglow::wgpu::TextureView) -> Result<(), afterglow::Error> {
    /// use afterglow::{wgpu, Camera, Depth};
    /// let camera = Camera::perspective(0.1, 100.0);
    /// let format = wgpu::TextureFormat::Bgra8UnormSrgb;
    /// post.render_with_depth(encoder, hdr, None, Depth::buffer(depth, camera), surface, format)?;
    /// # Ok(()) }
    /// ```
    pub fn render_with_depth(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        hdr: &wgpu::TextureView,
        bloom: Option<&wgpu::TextureView>,
        depth: Depth<'_>,
        output: &wgpu::TextureView,
        output_format: wgpu::TextureFormat,
    ) -> Result<(), Error> {
        self.record(encoder, hdr, bloom, Some(depth), output, output_format)
    }

    /// The chain inside, for the benchmark's timestamp queries.
    #[cfg(test)]
    pub(crate) fn parts(&mut self) -> (&crate::gpu::Gpu, &mut Chain) {
        (&self.gpu, &mut self.chain)
    }

    /// What depth of field does: [`DepthOfFieldState::NoDepth`] while it
    /// is on and frames come through [`PostChain::render`], which gives
    /// no depth (the picture is then the sharp one).
    pub fn depth_of_field(&self) -> DepthOfFieldState {
        self.chain.depth_of_field()
    }

    fn record(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        hdr: &wgpu::TextureView,
        bloom: Option<&wgpu::TextureView>,
        depth: Option<Depth<'_>>,
        output: &wgpu::TextureView,
        output_format: wgpu::TextureFormat,
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
        let out_size = check_output(output, output_format, self.chain.output().view_format)?;
        // Asked of the device for views other than the last frame's.
        let known = match self.chain.content() {
            Content::Texture(t) => Some((t.scene.clone(), t.bloom.clone())),
            _ => None,
        };
        let (known_hdr, known_bloom) = known.unzip();
        if known_hdr.as_ref() != Some(hdr) {
            bindable("hdr", self.gpu.probe_texture(hdr))?;
        }
        if let Some(view) = bloom.filter(|v| known_bloom.flatten().as_ref() != Some(*v)) {
            bindable("bloom", self.gpu.probe_texture(view))?;
        }
        for (argument, view) in [("hdr", Some(hdr)), ("bloom", bloom)] {
            if view.is_some_and(|v| v.texture() == output.texture()) {
                return Err(Error::argument(
                    "output",
                    format!(
                        "is a view of the same texture as {argument}: the chain samples \
                         {argument} while it writes output, which WebGPU does not allow in \
                         one pass; render into another texture"
                    ),
                ));
            }
        }
        let content = Content::Texture(ExternalInput {
            scene: hdr.clone(),
            bloom: bloom.cloned(),
            size,
            formats: (scene_format, bloom_format),
            depth: match depth {
                Some(d) => Some(self.depth_input(&d, size)?),
                None => None,
            },
        });
        self.output_size = out_size;
        // One rebuild at most: other views rebuild with the new size; the
        // same views rebuild only when the size changed. The camera is
        // uniforms only.
        self.chain
            .set_camera(&self.gpu, depth.and_then(|d| d.camera));
        if &content != self.chain.content() {
            self.chain.resize_with_next_build(out_size, out_size);
            self.chain.set_content(&self.gpu, content)?;
        } else {
            self.chain.resize_scaled(&self.gpu, out_size, out_size)?;
        }
        // Time since the chain was made: what auto exposure adapts by.
        self.chain
            .encode(&self.gpu, encoder, output, self.clock.seconds());
        Ok(())
    }
}

impl PostChain {
    /// The program's depth, checked: shape, format, size, camera, and
    /// that its texture is the device's (asked of the device only for
    /// another view than the last frame's).
    fn depth_input(&self, depth: &Depth<'_>, size: (u32, u32)) -> Result<DepthInput, Error> {
        let t = depth.view.texture();
        let kind = as_caller(t, |facts| {
            crate::texture_rules::check_caller_depth("depth", facts, (t.width(), t.height()), size)
        })?;
        match (kind, depth.camera) {
            (DepthKind::Buffer | DepthKind::Multisampled, None) => {
                return Err(Error::argument(
                    "depth",
                    format!(
                        "is a depth buffer ({:?}): give it with Depth::buffer and \
                         the camera that wrote it",
                        t.format()
                    ),
                ))
            }
            (DepthKind::Linear, Some(_)) => {
                return Err(Error::argument(
                    "depth",
                    "is R32Float, read as linear distance: give it with Depth::linear",
                ))
            }
            (_, Some(camera)) => camera.check()?,
            (_, None) => {}
        }
        // The last frame's, with its view of the depth aspect: a new view
        // only for another depth.
        if let Content::Texture(t) = self.chain.content() {
            if let Some(known) = t.depth.as_ref() {
                if known.view == *depth.view && known.kind == kind {
                    return Ok(known.clone());
                }
            }
        }
        // The view of its depth aspect is made in the same scope as the
        // probe: of a destroyed texture, it is refused too, and its error
        // stays out of the program's handler.
        let scope = self
            .gpu
            .device
            .push_error_scope(wgpu::ErrorFilter::Validation);
        let input = DepthInput::new(&self.gpu, depth.view.clone(), kind);
        let bound = bindable(
            "depth",
            self.gpu.probe_texture_as(&input.read, kind.binding()),
        );
        bindable("depth", Box::pin(scope.pop())).and(bound)?;
        Ok(input)
    }
}

/// Refuses `argument` where wgpu answered `probe`, a bind of its view in
/// an error scope, with an error: the texture is another device's, or was
/// destroyed. Natively the answer is there at once; where it is not yet
/// (on the web) nothing is refused here and wgpu reports the frame.
fn bindable(argument: &str, probe: crate::gpu::ErrorAnswer) -> Result<(), Error> {
    match crate::user_effect::answer_now(probe) {
        Some(Some(e)) => Err(Error::argument(
            argument,
            format!(
                "cannot be bound on the chain's device: its texture is another device's, or was \
                 destroyed; wgpu says: {e}"
            ),
        )),
        _ => Ok(()),
    }
}

/// The output view's size, after checking that the chain can render into
/// it: 2D, one layer, single-sampled, `RENDER_ATTACHMENT`, and a view
/// format that is the chain's and fits the texture's.
fn check_output(
    output: &wgpu::TextureView,
    output_format: wgpu::TextureFormat,
    chain_format: wgpu::TextureFormat,
) -> Result<(u32, u32), Error> {
    if output_format != chain_format {
        return Err(Error::argument(
            "output_format",
            format!(
                "is {output_format:?}; this chain was created for {chain_format:?} views (create another PostChain for another format)"
            ),
        ));
    }
    let t = output.texture();
    let refuse = |why: String| Err(Error::argument("output", why));
    if t.dimension() != wgpu::TextureDimension::D2 || t.depth_or_array_layers() != 1 {
        return refuse("must be a view of a single-layer 2D texture".into());
    }
    if t.sample_count() != 1 {
        return refuse(format!(
            "is multisampled ({} samples); the chain writes single-sampled output",
            t.sample_count()
        ));
    }
    if !t.usage().contains(wgpu::TextureUsages::RENDER_ATTACHMENT) {
        return refuse("lacks TextureUsages::RENDER_ATTACHMENT".into());
    }
    if t.format().remove_srgb_suffix() != output_format.remove_srgb_suffix() {
        return refuse(format!(
            "is a view of a {:?} texture, which has no {output_format:?} view",
            t.format()
        ));
    }
    Ok((t.width(), t.height()))
}

/// The format and size of an input view, after checking the chain can
/// sample it (`texture_rules::check_caller_texture`).
fn input(
    argument: &str,
    view: &wgpu::TextureView,
    features: wgpu::Features,
) -> Result<(wgpu::TextureFormat, (u32, u32)), Error> {
    let t = view.texture();
    as_caller(t, |facts| {
        crate::texture_rules::check_caller_texture(argument, facts, features)
    })?;
    Ok((t.format(), (t.width(), t.height())))
}

/// A caller's texture as the texture rules read it, handed to `check`:
/// the same facts, spelled as Rust names them, for colour and depth.
fn as_caller<R>(
    t: &wgpu::Texture,
    check: impl FnOnce(&crate::texture_rules::CallerTexture<'_>) -> R,
) -> R {
    let usage_spelled = format!("{:?}", t.usage());
    let format_spelled = format!("{:?}", t.format());
    check(&crate::texture_rules::CallerTexture {
        dimension: t.dimension(),
        layers: t.depth_or_array_layers(),
        samples: t.sample_count(),
        usage: t.usage(),
        usage_spelled: (&usage_spelled, "TextureUsages::TEXTURE_BINDING"),
        format: t.format(),
        format_spelled: &format_spelled,
    })
}

/// The options checked against the table, as the chain will use them: the
/// output format stands for the canvas group's `format` (and nothing picks
/// it from a display), so `Extended` goes with an `Rgba16Float` output
/// whatever `canvas.format` says.
fn check_options(options: &Options, output_format: wgpu::TextureFormat) -> Result<(), Error> {
    use crate::options::{CanvasFormat, DynamicRange};
    let mut o = *options;
    // A 10-bit output holds values past SDR white as a float one does.
    let hdr = [
        wgpu::TextureFormat::Rgba16Float,
        wgpu::TextureFormat::Rgb10a2Unorm,
    ];
    o.canvas.format = if hdr.contains(&output_format) {
        CanvasFormat::Rgba16Float
    } else {
        CanvasFormat::Preferred
    };
    o.canvas.dynamic_range = DynamicRange::Standard;
    Ok(o.validate()?)
}

/// The output description for the program's output and the options.
fn output_spec(out: &Output, options: &Options) -> Result<OutputSpec, Error> {
    use wgpu::TextureFormat as F;
    let view_format = out.format;
    let base = view_format.remove_srgb_suffix();
    if !matches!(
        base,
        F::Rgba8Unorm | F::Bgra8Unorm | F::Rgba16Float | F::Rgb10a2Unorm
    ) {
        return Err(Error::argument(
            "output_format",
            format!(
                "{view_format:?} is not an output format; allowed: Rgba8Unorm(Srgb), \
                 Bgra8Unorm(Srgb), Rgba16Float, Rgb10a2Unorm (Bt2100Pq)"
            ),
        ));
    }
    let (space, transfer, extended, formats) = encoding(out)?;
    if !formats.contains(&base) {
        let allowed: Vec<String> = formats.iter().map(|f| format!("{f:?}")).collect();
        return Err(Error::argument(
            "output",
            format!(
                "{view_format:?} does not go with {:?}; that colour space is written to {}",
                out.color_space,
                allowed.join(" or ")
            ),
        ));
    }
    let alpha: AlphaMode = options.canvas.alpha_mode;
    if alpha == AlphaMode::Premultiplied && matches!(transfer, Transfer::Pq { .. }) {
        return Err(Error::argument(
            "output",
            "Bt2100Pq is written opaque: set options.canvas.alpha_mode to Opaque",
        ));
    }
    let tone: ToneMapping = options.canvas.tone_mapping;
    let mut spec = OutputSpec::with_view(base, view_format, alpha, tone, space)?;
    spec.transfer = transfer;
    spec.extended = extended;
    Ok(spec)
}

/// How `out` is encoded: its primaries, transfer, whether it is extended
/// past SDR white, and the formats it is written to.
fn encoding(
    out: &Output,
) -> Result<(ColorSpace, Transfer, bool, &'static [wgpu::TextureFormat]), Error> {
    use wgpu::SurfaceColorSpace as S;
    use wgpu::TextureFormat as F;
    const SDR: &[F] = &[F::Rgba8Unorm, F::Bgra8Unorm, F::Rgba16Float];
    const FLOAT: &[F] = &[F::Rgba16Float];
    Ok(match out.color_space {
        S::Auto => {
            return Err(Error::argument(
                "output",
                "Auto is resolved by the surface (scRGB or sRGB for Rgba16Float, by what it \
                 offers; always sRGB in a browser): give the colour space it was configured with",
            ))
        }
        S::Srgb => (ColorSpace::Srgb, Transfer::Srgb, false, SDR),
        S::DisplayP3 => (ColorSpace::DisplayP3, Transfer::Srgb, false, SDR),
        S::ExtendedSrgb => (ColorSpace::Srgb, Transfer::Srgb, true, FLOAT),
        S::ExtendedDisplayP3 => (ColorSpace::DisplayP3, Transfer::Srgb, true, FLOAT),
        S::ExtendedSrgbLinear => (ColorSpace::Srgb, Transfer::Linear, true, FLOAT),
        S::Bt2100Pq => {
            let nits = out.sdr_white_nits;
            if !(nits.is_finite() && (1.0..=10_000.0).contains(&nits)) {
                return Err(Error::argument(
                    "sdr_white_nits",
                    format!("is {nits}; SDR white is 1 to 10000 cd/m² (BT.2408: 203)"),
                ));
            }
            (
                ColorSpace::Srgb,
                Transfer::Pq {
                    sdr_white_nits: nits,
                },
                true,
                &[F::Rgb10a2Unorm, F::Rgba16Float],
            )
        }
        S::Bt2100Hlg => {
            return Err(Error::argument(
                "output",
                "Bt2100Hlg is not written: HLG is scene-referred and its display applies a system \
                 gamma that depends on the display's peak (BT.2100's OOTF), so the light afterglow \
                 grades is not a signal it can name; use Bt2100Pq (HDR10) or ExtendedSrgbLinear",
            ))
        }
    })
}
