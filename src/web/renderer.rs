//! The renderer behind the JS object: the device, the canvas, the chain,
//! the options and the user's content, and what each JS method does to
//! them. Device-loss recovery is in `recovery`.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::canvas::{self, Canvas};
use super::content::UserResources;
use super::display::DisplayWatch;
use super::interop::{now_ms, object, warn, Handle};
use super::png;
use super::resize_observer::AutoResize;
use super::verdicts::{Excuse, Given, Targets, TextureCheck, Verdicts, Watch};
use crate::chain::Chain;
use crate::error::{DeviceErrorKind, Error};
use crate::gpu::Gpu;
use crate::options::{self, AlphaMode, DynamicRange, Effect, Options};
use crate::output::OutputSpec;
use crate::readback::Readback;

/// The output of the chain for `options` (in effect).
/// The canvas is written as compute where the device computes its largest
/// images and the format allows (see [`OutputSpec::written_by_compute`]).
fn output_spec(options: &Options, gpu: &Gpu) -> Result<OutputSpec, Error> {
    let format = canvas::resolve_format(options.canvas.format)?;
    let spec = OutputSpec::new(
        format,
        options.canvas.alpha_mode,
        options.canvas.tone_mapping,
        options.canvas.color_space,
    )?;
    Ok(if gpu.compute_images {
        spec.written_by_compute()
    } else {
        spec
    })
}

mod follow;

pub struct WebRenderer {
    pub gpu: Gpu,
    pub canvas: Canvas,
    pub chain: Chain,
    /// The options as set (what `options()` reports); the GPU work follows
    /// [`WebRenderer::effective`].
    pub options: Options,
    /// `dynamicRange: 'auto'`: the display's dynamic range, watched.
    display: Option<DisplayWatch>,
    /// Whether the options in effect were chosen for an HDR display.
    hdr: bool,
    /// The display's dynamic range last acted on (tried once per change).
    display_seen: bool,
    /// Canvas size in device pixels (the chain renders at it × renderScale).
    pub canvas_size: (u32, u32),
    /// What the page gave to show, replayed after a device loss.
    pub content: UserResources,
    /// The lookup table and lens dirt the page gave, replayed too.
    pub look: super::look::LookSources,
    /// The page's own effects, replayed too.
    pub effects: super::effects::EffectSources,
    /// A new device is being requested after the old one was lost.
    pub recovering: Rc<Cell<bool>>,
    /// Failed attempts at replacing a lost device.
    pub recovery_failures: u32,
    frames: u64,
    cpu_ms: f64,
    last_time: f64,
    auto_resize: Option<AutoResize>,
    /// Size reported by the resize observer, applied at the next frame.
    pending_size: Rc<Cell<Option<(u32, u32)>>>,
    /// Counts the app device's errors (a shared device only).
    _error_listener: Option<super::shared::ErrorListener>,
    /// What the GPU has yet to say about this device, or said and the
    /// renderer has yet to act on.
    pub verdicts: Verdicts,
}

/// The size and settings `targets` were allocated for, as the
/// out-of-memory error says them; spelled only when that error came.
fn settings_spelled((_, (w, h), samples): Targets, render_scale: f64) -> String {
    format!(
        "the frame's targets for a {w}×{h} canvas at renderScale {} and msaa {samples}",
        crate::options::value::decimal(render_scale)
    )
}

/// A WebGPU instance of the browser.
pub fn instance() -> wgpu::Instance {
    wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::BROWSER_WEBGPU,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    })
}

/// Releasing the renderer (`destroy()`, `free()`, or garbage collection of
/// the JS object) gives the canvas's images and the device's memory back
/// now rather than whenever the browser collects them.
impl Drop for WebRenderer {
    fn drop(&mut self) {
        self.auto_resize = None;
        self.display = None;
        self.canvas.unconfigure();
        self.gpu.destroy();
    }
}

/// Why `navigator.gpu` is missing, and what to check, for a page's user.
const NO_WEBGPU: &str = "this browser offers no WebGPU (navigator.gpu is missing). \
    It needs a current Chrome, Edge or Safari, or Firefox with WebGPU, and a secure page \
    (https or localhost). On Linux, Chrome ships WebGPU off: turn on \
    chrome://flags/#enable-unsafe-webgpu";

impl WebRenderer {
    /// Requests a device, configures `canvas_js` and builds the chain at
    /// the canvas's size, with `options` already validated.
    /// With `device` (the app's `GPUDevice`) it renders on that device
    /// instead of requesting its own.
    pub async fn create(
        canvas_js: JsValue,
        options: Options,
        device: Option<JsValue>,
    ) -> Result<WebRenderer, Error> {
        if canvas::navigator_gpu().is_none() {
            return Err(Error::device(DeviceErrorKind::NoWebGpu, NO_WEBGPU));
        }
        let canvas = Canvas::new(canvas_js)?;
        let gpu = match &device {
            Some(device) => super::shared::wrap_device(&instance(), device).await?,
            None => super::request::gpu(&instance()).await?,
        };
        Self::assemble(canvas, gpu, options)
    }

    /// The rest of [`Self::create`] once there is a device: configures the
    /// canvas and builds the chain. Kept out of `create`'s state machine.
    #[inline(never)]
    fn assemble(mut canvas: Canvas, gpu: Gpu, options: Options) -> Result<WebRenderer, Error> {
        let error_listener = if gpu.shared {
            super::shared::ErrorListener::new(&gpu)
        } else {
            None
        };
        canvas.set_caps(super::capabilities::Capabilities::detect(&gpu));
        let display = (options.canvas.dynamic_range == DynamicRange::Auto)
            .then(|| DisplayWatch::new(canvas.element()))
            .flatten();
        let hdr = display.as_ref().is_some_and(DisplayWatch::hdr) && canvas.caps().hdr();
        let requested = options;
        let options = options.for_display(hdr);
        let max = gpu.max_texture_size();
        let (w, h) = canvas.size();
        let size = (w.min(max), h.min(max));
        let built = output_spec(&options, &gpu).and_then(|output| {
            canvas.set_size(size);
            // A 0×0 canvas is configured when it gets a size (`resize`):
            // configuring at 0×0 is a GPU validation error.
            if size.0 > 0 && size.1 > 0 {
                canvas.configure(&gpu, &output, &options.canvas)?;
            }
            new_chain(&gpu, output, options, size)
        });
        let chain = match built {
            Ok(chain) => chain,
            Err(e) => {
                // A renderer that could not be made gives its device back
                // now (never the app's), not when the garbage collector
                // gets to it: browsers keep a device's memory until then,
                // and some stop answering requestDevice after a few.
                gpu.destroy();
                return Err(e);
            }
        };
        let mut r = WebRenderer {
            gpu,
            canvas,
            chain,
            options: requested,
            display,
            hdr,
            display_seen: hdr,
            canvas_size: size,
            content: UserResources::default(),
            look: Default::default(),
            effects: Default::default(),
            recovering: Rc::new(Cell::new(false)),
            recovery_failures: 0,
            frames: 0,
            cpu_ms: 0.0,
            last_time: 0.0,
            auto_resize: None,
            pending_size: Rc::new(Cell::new(None)),
            _error_listener: error_listener,
            verdicts: Verdicts::default(),
        };
        r.sync_auto_resize()?;
        Ok(r)
    }

    pub fn check_device(&self) -> Result<(), Error> {
        match self.gpu.lost() {
            Some(reason) if self.gpu.shared => {
                Err(Error::device(DeviceErrorKind::SharedLost, reason))
            }
            Some(reason) => Err(Error::device(DeviceErrorKind::Lost, reason)),
            None => Ok(()),
        }
    }

    pub fn render(&mut self, time: f64) -> Result<(), Error> {
        let start = now_ms();
        self.follow_display();
        if let Some(size) = self.pending_size.take() {
            self.resize(size)?;
        }
        self.content
            .upload_video_frame(&self.gpu, &mut self.chain)?;
        self.render_with(time, false)?;
        self.cpu_ms = now_ms() - start;
        Ok(())
    }

    /// Renders a frame whose canvas texture is copied for reading.
    pub fn frame_for_reading(&mut self, time: f64) -> Result<Readback, Error> {
        if !self.options.canvas.screenshots {
            return Err(Error::Readback(
                "reading frames needs the option canvas.screenshots: true (it adds COPY_SRC \
                 to the canvas usage)"
                    .into(),
            ));
        }
        self.content
            .upload_video_frame(&self.gpu, &mut self.chain)?;
        self.render_with(time, true)?
            .flatten()
            .ok_or_else(|| Error::Readback("the canvas is 0×0: nothing was rendered".into()))
    }

    /// One frame: one encoder, one submit. With `read`, the canvas texture is
    /// also copied into a buffer in the same encoder. Returns `None` when the
    /// frame was skipped (0×0).
    fn render_with(&mut self, time: f64, read: bool) -> Result<Option<Option<Readback>>, Error> {
        self.check_device()?;
        self.check_memory()?;
        let destroyed = self.verdicts.destroyed.borrow_mut().take();
        if let Some((message, then)) = destroyed {
            // Only textures still in use now: the app may have set others
            // since the failed frame.
            let now = self.given_textures();
            let culprits: Vec<_> = then
                .into_iter()
                .filter(|g| {
                    now.iter()
                        .any(|n| n.argument == g.argument && n.texture == g.texture)
                })
                .collect();
            if !culprits.is_empty() {
                return Err(self.drop_destroyed(culprits, &message));
            }
        }
        // Textures not yet known to be the device's are shown at once, in a
        // frame whose errors go to an error scope of the renderer's own; so
        // are the frames after a resize or new options until the browser
        // has said whether their targets could be allocated (frames with
        // targets it could not allocate are invalid, and their errors are
        // not reported: the next render() throws instead), and frames that
        // sample any of the app's textures, which the app may destroy.
        let mut excuses: Vec<Excuse> = super::texture::frame_scope(&mut self.texture_parts())?
            .into_iter()
            .collect();
        excuses.extend(self.verdicts.pending_allocations());
        let given = self.given_textures();
        let watch = (!excuses.is_empty() || !given.is_empty()).then(|| Watch::start(&self.gpu));
        let frame = self.frame(time, read);
        if let Some(watch) = watch {
            watch.end(&self.gpu, &self.verdicts.destroyed, given, excuses);
        }
        frame
    }

    /// The app's textures the frame samples.
    fn given_textures(&self) -> Vec<Given> {
        let mut given = Vec::new();
        if let Some(t) = self.content.textures() {
            given.push(Given {
                method: "setTexture",
                argument: "texture",
                texture: t.scene.clone(),
            });
            for (argument, texture) in [("bloom", &t.bloom), ("depth", &t.depth)] {
                if let Some(texture) = texture {
                    given.push(Given {
                        method: "setTexture",
                        argument,
                        texture: texture.clone(),
                    });
                }
            }
        }
        if let Some(dirt) = self.look.dirt_texture() {
            given.push(Given {
                method: "setLensDirt",
                argument: "source",
                texture: dirt.clone(),
            });
        }
        given.extend(self.effects.given());
        given
    }

    /// After frames failed on a texture the app destroyed: the textures
    /// the browser's message is about are no longer used (without its
    /// scene texture the scene shows nothing, without a bloom or depth
    /// texture it shows without that one, the lens dirt goes), so the next
    /// frame renders, and the error names them.
    fn drop_destroyed(&mut self, culprits: Vec<Given>, message: &str) -> Error {
        let Some((argument, method)) = culprits.first().map(|g| (g.argument, g.method)) else {
            return Error::argument("texture", format!("a frame failed: {message}"));
        };
        let names: Vec<String> = culprits
            .iter()
            .map(|g| format!("{}'s {}", g.method, g.argument))
            .collect();
        let names = crate::options::value::join(&names, ", ");
        let mut result = Ok(());
        if culprits.iter().any(|g| g.method == "setLensDirt") {
            result = self.look.clear_dirt(&self.gpu, &mut self.chain);
        }
        let gone = |argument: &str| {
            culprits
                .iter()
                .any(|g| g.method == "setTexture" && g.argument == argument)
        };
        if ["texture", "bloom", "depth"].into_iter().any(gone) {
            let dropped = super::texture::drop_destroyed(&mut self.texture_parts(), gone);
            result = result.and(dropped);
        }
        let effect_textures: Vec<JsValue> = culprits
            .iter()
            .filter(|g| g.method == "addEffect")
            .map(|g| g.texture.clone())
            .collect();
        if !effect_textures.is_empty() {
            self.effects
                .drop_reading(&self.gpu, &mut self.chain, &effect_textures);
        }
        if let Err(e) = result {
            return e;
        }
        Error::argument(
            argument,
            format!(
                "was destroyed (GPUTexture.destroy()) while {method}() still had it in use, so \
                 frames failed; no longer used: {names}. Keep a texture alive while it is set: set \
                 another before you destroy() it. The browser says: {message}"
            ),
        )
    }

    /// The frame of [`Self::render_with`], once the textures were looked at.
    fn frame(&mut self, time: f64, read: bool) -> Result<Option<Option<Readback>>, Error> {
        let (w, h) = self.canvas_size;
        // Also skipped while the page has set the canvas to 0 in either
        // dimension behind the renderer's back: its texture would be 0×0.
        let (cw, ch) = self.canvas.size();
        if w == 0 || h == 0 || cw == 0 || ch == 0 {
            return Ok(None);
        }
        // Fetched every frame: the texture belongs to this frame only.
        let texture = self.canvas.current_texture(&self.gpu, (cw, ch))?;
        let view = self.gpu.create_canvas_view(
            &texture,
            &wgpu::TextureViewDescriptor {
                label: crate::chain::per_frame_label("canvas view"),
                format: Some(self.chain.output().view_format),
                ..Default::default()
            },
        );
        let gpu = &self.gpu;
        let (_, readback) = self.chain.submit_frame(gpu, &view, time, |encoder| {
            read.then(|| Readback::record(gpu, encoder, &texture))
                .transpose()
        })?;
        self.frames += 1;
        self.last_time = time;
        Ok(Some(readback))
    }

    pub fn resize(&mut self, size: (u32, u32)) -> Result<(), Error> {
        self.check_device()?;
        if size == self.canvas_size {
            return Ok(());
        }
        self.allocating(&mut |r| r.resize_now(size))
    }

    /// Runs a step that may allocate the frame's targets (a resize, new
    /// options, the app's texture of another size) under an out-of-memory
    /// error scope. WebGPU creates a texture it cannot allocate as an
    /// invalid one and says so only later, to that scope; `render()` then
    /// throws instead of submitting frames that cannot run (see
    /// [`WebRenderer::check_memory`]). After such a failure, a step that
    /// changes the targets builds the frame from new textures.
    pub(super) fn allocating(
        &mut self,
        step: &mut dyn FnMut(&mut Self) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let before = self.targets();
        // Views and bind groups of a texture that could not be allocated
        // are invalid too: those validation errors follow from it.
        let validation = self
            .gpu
            .device
            .push_error_scope(wgpu::ErrorFilter::Validation);
        let memory = self
            .gpu
            .device
            .push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let mut result = step(self);
        if result.is_ok() && self.verdicts.starved.is_some() && self.targets() != before {
            self.verdicts.starved = None;
            result = self.chain.rebuild_fresh(&self.gpu);
        }
        let (memory, validation) = (memory.pop(), validation.pop());
        let (slot, targets) = (self.verdicts.out_of_memory.clone(), self.targets());
        let render_scale = self.effective().render_scale;
        let report = self.gpu.error_sink();
        // A rebuild binds the app's textures again: one the app destroyed
        // is named by the next render(), as a frame's would be.
        let (device, queue) = (self.gpu.device.clone(), self.gpu.queue.clone());
        let (destroyed, given) = (self.verdicts.destroyed.clone(), self.given_textures());
        let excuse = Excuse::new(Box::pin(async move {
            let (memory, validation) = (memory.await, validation.await);
            let Some(e) = memory else {
                if let Some(v) = validation {
                    let message = v.to_string();
                    super::verdicts::blame(&device, &queue, &destroyed, given, message, report)
                        .await;
                }
                return false;
            };
            let settings = settings_spelled(targets, render_scale);
            *slot.borrow_mut() = Some((targets, format!("{settings}: {e}")));
            true
        }));
        self.verdicts.allocating(excuse);
        result
    }

    /// What the frame's targets are made for: the scene image's size (the
    /// render size, or the app's texture's), the canvas size and the MSAA
    /// sample count. Other targets come with other values.
    fn targets(&self) -> Targets {
        (
            self.chain.image_size(),
            self.canvas_size,
            self.effective().msaa.sample_count(),
        )
    }

    /// Before a frame: whether the targets it needs were allocated. An
    /// out-of-memory report about the targets in use means they were not:
    /// nothing is rendered until a step changes them. A report about
    /// targets since replaced (another size or sample count) is dropped.
    fn check_memory(&mut self) -> Result<(), Error> {
        let report = self.verdicts.out_of_memory.borrow_mut().take();
        if let Some((targets, message)) = report {
            if targets == self.targets() {
                self.verdicts.starved = Some(message);
            }
        }
        match &self.verdicts.starved {
            Some(message) => Err(Error::device(
                crate::error::DeviceErrorKind::OutOfMemory,
                format!(
                    "{message}. Nothing is rendered until resize() to a smaller size or \
                     setOptions() with a lower renderScale or msaa"
                ),
            )),
            None => Ok(()),
        }
    }

    fn resize_now(&mut self, size: (u32, u32)) -> Result<(), Error> {
        if size.0 > 0 && size.1 > 0 {
            self.canvas.set_size(size);
            let output = *self.chain.output();
            self.canvas
                .configure(&self.gpu, &output, &self.effective().canvas)?;
        }
        self.canvas_size = size;
        self.resize_chain()
    }

    fn resize_chain(&mut self) -> Result<(), Error> {
        let render = scaled(
            self.canvas_size,
            self.options.render_scale,
            self.gpu.max_texture_size(),
        );
        self.chain
            .resize_scaled(&self.gpu, render, self.canvas_size)
    }

    /// Each step runs only where the schema says an option with its
    /// effect changed; `prev` and `next` are the options in effect,
    /// `set` the options as set.
    fn apply_options_steps(
        &mut self,
        prev: Options,
        next: Options,
        set: Options,
        output: OutputSpec,
    ) -> Result<(), Error> {
        let changed = |effect| options::changes(&prev, &next, effect);
        if output != *self.chain.output() {
            self.chain.set_output(&self.gpu, output)?;
        }
        self.chain.set_settings(&self.gpu, next.into())?;
        self.options = set;
        if changed(Effect::Resize) {
            self.resize_chain()?;
        }
        if changed(Effect::Canvas) && self.canvas_size.0 > 0 && self.canvas_size.1 > 0 {
            self.canvas.configure(&self.gpu, &output, &next.canvas)?;
        }
        if changed(Effect::Observer) {
            self.sync_auto_resize()?;
        }
        Ok(())
    }

    /// Starts or stops the resize observer to match `options.auto_resize`.
    fn sync_auto_resize(&mut self) -> Result<(), Error> {
        if !self.options.auto_resize {
            self.auto_resize = None;
            return Ok(());
        }
        if self.auto_resize.is_none() {
            self.auto_resize = Some(AutoResize::observe(
                self.canvas.element(),
                self.gpu.max_texture_size(),
                self.pending_size.clone(),
            )?);
        }
        Ok(())
    }

    /// Moves everything onto a new device after the old one was lost: the
    /// canvas is configured again with it (its configuration named the old
    /// device), the chain is rebuilt and the user's content replayed.
    /// A new device that cannot be used is destroyed at once.
    pub fn replace_device(&mut self, gpu: Gpu) -> Result<(), Error> {
        let output = *self.chain.output();
        let options = self.effective();
        let set_up = new_chain(&gpu, output, options, self.canvas_size).and_then(|mut chain| {
            chain.set_timing(&gpu, self.chain.timing());
            if self.canvas_size.0 > 0 && self.canvas_size.1 > 0 {
                self.canvas.configure(&gpu, &output, &options.canvas)?;
            }
            Ok(chain)
        });
        let chain = match set_up {
            Ok(chain) => chain,
            Err(e) => {
                gpu.destroy();
                return Err(e);
            }
        };
        // The lost device's objects go with it; the device is destroyed
        // too, so that nothing it held outlives the loss.
        self.gpu.destroy();
        self.gpu = gpu;
        self.chain = chain;
        self.recovery_failures = 0;
        // Answers still to come about the lost device go to an object
        // nobody reads.
        self.verdicts = Verdicts::default();
        // The device is back; restoring the content is best effort.
        if let Err(e) = self.content.replay(&self.gpu, &mut self.chain) {
            warn(&format!(
                "afterglow: the content could not be restored after a device loss: {e}"
            ));
        }
        if let Err(e) = self.look.replay(&self.gpu, &mut self.chain) {
            warn(&format!(
                "afterglow: the lookup table or lens dirt could not be restored after a device loss: {e}"
            ));
        }
        if let Err(e) = self.effects.replay(&self.gpu, &mut self.chain) {
            warn(&format!(
                "afterglow: effects could not be restored after a device loss: {e}"
            ));
        }
        Ok(())
    }

    /// What `setTexture` changes.
    pub fn texture_parts(&mut self) -> super::texture::Parts<'_> {
        super::texture::Parts {
            gpu: &self.gpu,
            chain: &mut self.chain,
            content: &mut self.content,
            check: &mut self.verdicts.texture_check,
        }
    }

    /// `'unavailable'` where the device has no timestamp queries, else
    /// whether per-pass timing is `'on'` or `'off'`.
    fn gpu_timing(&self) -> &'static str {
        if !self.gpu.features.contains(wgpu::Features::TIMESTAMP_QUERY) {
            "unavailable"
        } else if self.chain.timing() {
            "on"
        } else {
            "off"
        }
    }

    /// Per-pass GPU timing on or off.
    pub fn set_timing(&mut self, on: bool) {
        self.chain.set_timing(&self.gpu, on);
    }

    /// What the canvas context holds (`Canvas::configuration`), and under
    /// `dynamicRange: 'auto'` which range was chosen and why.
    pub fn configuration(&self) -> JsValue {
        let config = self.canvas.configuration();
        if config.is_object() && self.options.canvas.dynamic_range == DynamicRange::Auto {
            let display_hdr = self.display.as_ref().is_some_and(DisplayWatch::hdr);
            let why = match (display_hdr, self.canvas.caps().missing()) {
                (false, _) => "the display shows standard dynamic range",
                (true, Some(missing)) => missing,
                (true, None) => "the display shows high dynamic range",
            };
            let choice = object(&[("hdr", self.hdr.into()), ("why", why.into())]);
            super::interop::set(&config, "dynamicRange", &choice);
        }
        config
    }

    pub fn stats(&self) -> JsValue {
        let gpu_ms = match self.chain.pass_times() {
            Some(times) => {
                let entries: Vec<(&str, JsValue)> = times
                    .iter()
                    .map(|(name, ms)| (name.as_str(), JsValue::from_f64(*ms)))
                    .collect();
                object(&entries).into()
            }
            None => JsValue::NULL,
        };
        object(&[
            ("frames", JsValue::from_f64(self.frames as f64)),
            ("cpuMs", JsValue::from_f64(self.cpu_ms)),
            ("gpuMs", gpu_ms),
            ("gpuTiming", self.gpu_timing().into()),
            ("gpuBytes", JsValue::from_f64(self.chain.gpu_bytes() as f64)),
            (
                "exposureEv",
                match self.chain.report().exposure_ev {
                    Some(ev) => JsValue::from_f64(ev),
                    None => JsValue::NULL,
                },
            ),
            ("depthOfField", self.chain.depth_of_field().name().into()),
            ("configuration", self.configuration()),
        ])
        .into()
    }
}

/// A PNG of the frame at the last frame's time, rendered again and read
/// back from the canvas texture.
pub async fn screenshot(handle: Handle<WebRenderer>) -> Result<JsValue, Error> {
    texture_checked(&handle, "screenshot").await?;
    let (readback, device, premultiplied, lost) = handle.with("screenshot", |r| {
        let readback = r.frame_for_reading(r.last_time)?;
        let premultiplied = r.options.canvas.alpha_mode == AlphaMode::Premultiplied;
        Ok((
            readback,
            r.gpu.device.clone(),
            premultiplied,
            r.gpu.loss_watch(),
        ))
    })?;
    let image = match readback.read(&device).await {
        Ok(image) => image,
        // The device went away before the copy could be read: say so,
        // rather than that mapping a buffer failed. The loss is reported a
        // moment after the failed read, so look again after a tick.
        Err(e) => {
            let lost_now = || async {
                if let Some(reason) = lost() {
                    return Some(reason);
                }
                super::interop::sleep(10).await;
                lost()
            };
            return Err(match lost_now().await {
                Some(reason) => Error::device(
                    DeviceErrorKind::Lost,
                    format!("{reason} (while reading a screenshot back; take it again)"),
                ),
                None => e,
            });
        }
    };
    png::encode_png(&image, premultiplied).await
}

/// Waits until the textures given to `setTexture` have been checked (for
/// calls that render and read a frame at once).
pub async fn texture_checked(
    handle: &Handle<WebRenderer>,
    method: &'static str,
) -> Result<(), Error> {
    let pending = handle.with(method, |r| {
        Ok(r.verdicts
            .texture_check
            .as_ref()
            .and_then(TextureCheck::pending))
    })?;
    if let Some(pending) = pending {
        // The promise never rejects.
        let _ = wasm_bindgen_futures::JsFuture::from(pending).await;
    }
    Ok(())
}

/// The chain for a canvas of `canvas_size` on `gpu`.
fn new_chain(
    gpu: &Gpu,
    output: OutputSpec,
    options: Options,
    canvas_size: (u32, u32),
) -> Result<Chain, Error> {
    let render = scaled(canvas_size, options.render_scale, gpu.max_texture_size());
    let mut chain = Chain::new(gpu, output, options.into(), render)?;
    chain.resize_scaled(gpu, render, canvas_size)?;
    Ok(chain)
}

/// The offscreen size for a canvas size and render scale: at least 1×1
/// (unless the canvas is 0), at most the device limit.
fn scaled(size: (u32, u32), scale: f64, max: u32) -> (u32, u32) {
    let s = |v: u32| {
        if v == 0 {
            0
        } else {
            ((v as f64 * scale).round() as u32).clamp(1, max)
        }
    };
    (s(size.0), s(size.1))
}
