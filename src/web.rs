//! The JavaScript surface: the only `#[wasm_bindgen]` exports. JS values
//! come in, are validated into typed Rust, and every failure goes back as a
//! JS `Error` whose message names the field and what is allowed. Nothing
//! here panics on caller input: a panic would kill the wasm module.
//!
//! The renderer state sits behind `Rc<RefCell<..>>` so that the methods
//! returning promises (`setSceneShader`, `screenshot`) hold it only while
//! they touch it, never across an `await`: `render()` keeps working while
//! they wait.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::canvas::{self, Canvas};
use crate::chain::{Chain, Content, ImageContent};
use crate::error::Error;
use crate::gpu::Gpu;
use crate::options::{self, OptionError, Options, Value};
use crate::output::OutputSpec;
use crate::readback::{Image, Readback};
use crate::web_content::{self, AutoResize, ImageSource};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = r#"
/** Options of the canvas context, applied with `configure()`. */
export interface CanvasOptions {
  /** Canvas texture format. `'preferred'` (default) is
   * `navigator.gpu.getPreferredCanvasFormat()`; `'rgba16float'` is for HDR displays. */
  format?: 'preferred' | 'rgba16float';
  /** How the canvas blends with the page. Default `'opaque'`. */
  alphaMode?: 'opaque' | 'premultiplied';
  /** Color space the compositor reads the canvas in. Default `'srgb'`. */
  colorSpace?: 'srgb' | 'display-p3';
  /** `'extended'` lets values above 1 reach HDR displays; needs `format: 'rgba16float'`.
   * Default `'standard'`. */
  toneMapping?: 'standard' | 'extended';
  /** Adds `COPY_SRC` to the canvas usage so frames can be read back
   * (`screenshot()`). Default `false`. */
  screenshots?: boolean;
}

/** Bloom: bright extract, blur, added back in the composite pass. */
export interface BloomOptions {
  /** Default `true`. */
  enabled?: boolean;
  /** Brightness (after exposure) above which light blooms, 0 to 10000. Default 1. */
  threshold?: number;
  /** Softness of the threshold, 0 (hard) to 1. Default 0.5. */
  knee?: number;
  /** How much blurred light is added back, 0 to 100. Default 0.5. */
  intensity?: number;
  /** Spread of the blur relative to the default, 0.1 to 4; independent of
   * resolution and devicePixelRatio. Default 1. */
  radius?: number;
  /** Most mip levels of the chain, 1 to 12 (a cost cap). Default 8. */
  levels?: number;
  /** `'mip'` (downsample/upsample chain) or `'gaussian'` (separable ping-pong). Default `'mip'`. */
  blur?: 'mip' | 'gaussian';
  /** Gaussian mode: horizontal + vertical pass pairs, 1 to 16. Default 3. */
  iterations?: number;
}

/** Options of `Renderer.create` and `setOptions`. Every field is optional. */
export interface RendererOptions {
  canvas?: CanvasOptions;
  /** Samples per pixel of the scene: 4 (default) or 1. */
  msaa?: 1 | 4;
  /** `'hardware'` (default) or `'tonemapped'`: a resolve pass that tonemaps each
   * sample before averaging, so bright edges stay antialiased (needs msaa 4;
   * keeps the multisampled color in memory). */
  resolve?: 'hardware' | 'tonemapped';
  /** Multiplier on the scene radiance, above 0 up to 10000. Default 1. */
  exposure?: number;
  /** Default `'agx'`. */
  tonemapper?: 'agx' | 'aces' | 'khronos-neutral' | 'reinhard' | 'none';
  /** Noise of one 8-bit step against banding (8-bit canvases). Default `true`. */
  dither?: boolean;
  bloom?: BloomOptions;
  /** Size of the offscreen targets relative to the canvas, 0.25 to 2. Default 1. */
  renderScale?: number;
  /** Keep the canvas at its displayed size in device pixels (an `HTMLCanvasElement`
   * in the page). Default `false`. */
  autoResize?: boolean;
}

/** Every option with its effective value. */
export type EffectiveOptions = Required<Omit<RendererOptions, 'canvas' | 'bloom'>> & {
  canvas: Required<CanvasOptions>;
  bloom: Required<BloomOptions>;
};

/** What the canvas context was configured with (from `getConfiguration()`),
 * plus the canvas size in device pixels. */
export interface CanvasConfiguration {
  device: GPUDevice;
  format: GPUTextureFormat;
  usage: number;
  viewFormats: GPUTextureFormat[];
  colorSpace: 'srgb' | 'display-p3';
  toneMapping?: { mode: 'standard' | 'extended' };
  alphaMode: 'opaque' | 'premultiplied';
  width: number;
  height: number;
}

/** Sources `setImage` accepts. */
export type ImageSourceInput = ImageBitmap | HTMLImageElement | HTMLCanvasElement
  | HTMLVideoElement | OffscreenCanvas | ImageData;

export interface ImageOptions {
  /** Multiplier on the image's linear colour (so highlights can bloom), 0 to 10000. Default 1. */
  gain?: number;
}

/** A `setSceneShader` compilation error: an `Error` with the position in the
 * given WGSL (1-based). */
export interface ShaderError extends Error {
  line: number;
  column: number;
}

export interface RendererStats {
  /** Frames rendered since creation. */
  frames: number;
  /** CPU milliseconds of the last `render()` call. */
  cpuMs: number;
  /** GPU milliseconds per pass of a recent frame, from timestamp queries;
   * `null` where the adapter has none (browsers may round to 0.1 ms). */
  gpuMs: Record<string, number> | null;
  /** Bytes of the renderer's own GPU textures (offscreen targets, content). */
  gpuBytes: number;
  configuration: CanvasConfiguration | null;
}
"#;

/// An HDR renderer bound to one canvas.
#[wasm_bindgen]
pub struct Renderer {
    inner: Shared,
}

type Shared = Rc<RefCell<Option<WebRenderer>>>;

struct WebRenderer {
    gpu: Gpu,
    canvas: Canvas,
    chain: Chain,
    options: Options,
    /// Canvas size in device pixels (the chain renders at it × renderScale).
    canvas_size: (u32, u32),
    frames: u64,
    cpu_ms: f64,
    last_time: f64,
    /// The source of the current image content: re-uploaded every frame
    /// while it is a playing video, and after a device loss.
    image: Option<ImageSource>,
    /// A new device is being requested after the old one was lost.
    recovering: Rc<Cell<bool>>,
    /// Failed attempts at replacing a lost device.
    recovery_failures: u32,
    /// Bumped whenever the content or the device changes, so that a scene
    /// shader that finishes compiling afterwards is not installed over it.
    content_generation: u64,
    auto_resize: Option<AutoResize>,
    /// Size reported by the resize observer, applied at the next frame.
    pending_size: Rc<Cell<Option<(u32, u32)>>>,
}

fn js_error(e: Error) -> JsValue {
    js_sys::Error::new(&e.to_string()).into()
}

fn field_error(field: &str, message: String) -> JsValue {
    js_error(Error::Option(OptionError {
        field: field.into(),
        message,
    }))
}

/// Runs `f` on the live renderer; a clear error after `destroy()`.
fn with<T>(
    inner: &Shared,
    method: &'static str,
    f: impl FnOnce(&mut WebRenderer) -> Result<T, Error>,
) -> Result<T, JsValue> {
    let mut guard = inner
        .try_borrow_mut()
        .map_err(|_| js_error(Error::busy(method)))?;
    let r = guard
        .as_mut()
        .ok_or_else(|| js_error(Error::destroyed(method)))?;
    f(r).map_err(js_error)
}

/// Converts a JS value into the option parser's [`Value`] tree.
pub fn to_value(v: &JsValue) -> Value {
    to_value_depth(v, 0)
}

#[wasm_bindgen]
extern "C" {
    // Catching versions: a Proxy can throw from either, and an uncaught JS
    // exception unwinding through wasm would leave the renderer borrowed.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array_checked(v: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn keys_checked(v: &JsValue) -> Result<Array, JsValue>;
}

fn to_value_depth(v: &JsValue, depth: u32) -> Value {
    if v.is_undefined() {
        Value::Undefined
    } else if v.is_null() {
        Value::Null
    } else if let Some(b) = v.as_bool() {
        Value::Bool(b)
    } else if let Some(n) = v.as_f64() {
        Value::Number(n)
    } else if let Some(s) = v.as_string() {
        Value::String(s)
    } else if v.is_function() {
        Value::Other("a function".into())
    } else if !v.is_object() || depth >= 4 {
        Value::Other(format!(
            "a {}",
            v.js_typeof().as_string().unwrap_or_default()
        ))
    } else if is_array_checked(v).unwrap_or(false) {
        Value::Other("an array".into())
    } else {
        let Ok(keys) = keys_checked(v) else {
            return Value::Other("an object whose keys cannot be read".into());
        };
        let object: &Object = v.unchecked_ref();
        let entries = keys
            .iter()
            .filter_map(|k| {
                let key = k.as_string()?;
                let value = Reflect::get(object, &k).unwrap_or(JsValue::UNDEFINED);
                Some((key, to_value_depth(&value, depth + 1)))
            })
            .collect();
        Value::Object(entries)
    }
}

/// Converts a [`Value`] tree into a plain JS value.
fn to_js(v: &Value) -> JsValue {
    match v {
        Value::Undefined | Value::Other(_) => JsValue::UNDEFINED,
        Value::Null => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        Value::Number(n) => JsValue::from_f64(*n),
        Value::String(s) => JsValue::from_str(s),
        Value::Object(entries) => {
            let o = Object::new();
            for (k, v) in entries {
                let _ = Reflect::set(&o, &JsValue::from_str(k), &to_js(v));
            }
            o.into()
        }
    }
}

fn now_ms() -> f64 {
    let performance = Reflect::get(&js_sys::global(), &"performance".into()).unwrap_or_default();
    Reflect::get(&performance, &"now".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(&performance).ok())
        .and_then(|v| v.as_f64())
        .unwrap_or_else(js_sys::Date::now)
}

#[wasm_bindgen]
impl Renderer {
    /// Creates a renderer for `canvas` (an `HTMLCanvasElement` or
    /// `OffscreenCanvas`): requests a WebGPU device, configures the canvas
    /// context and builds the HDR chain at the canvas's current size.
    /// Rejects with an `Error` naming the bad option, or saying why WebGPU
    /// is unavailable.
    pub async fn create(
        #[wasm_bindgen(unchecked_param_type = "HTMLCanvasElement | OffscreenCanvas")]
        canvas: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "RendererOptions")] options: Option<JsValue>,
    ) -> Result<Renderer, JsValue> {
        console_error_panic_hook::set_once();
        let inner = WebRenderer::create(canvas, options.unwrap_or(JsValue::UNDEFINED))
            .await
            .map_err(js_error)?;
        let shared: Shared = Rc::new(RefCell::new(Some(inner)));
        with(&shared, "create", |r| r.sync_auto_resize())?;
        Ok(Renderer { inner: shared })
    }

    /// Renders one frame at `timeSeconds` (default 0): fetches the canvas's
    /// current texture, runs the chain, one submit. Does nothing while the
    /// canvas is 0×0.
    pub fn render(
        &self,
        #[wasm_bindgen(js_name = timeSeconds, unchecked_optional_param_type = "number")]
        time_seconds: Option<JsValue>,
    ) -> Result<(), JsValue> {
        let time = options::parse_time(&to_value(&time_seconds.unwrap_or(JsValue::UNDEFINED)))
            .map_err(|e| js_error(e.into()))?;
        let lost = with(&self.inner, "render", |r| r.lost_state())?;
        match lost {
            LostState::Fine => with(&self.inner, "render", |r| r.render(time)),
            // Frames are skipped until the new device is in place.
            LostState::Recovering => Ok(()),
            LostState::Lost => {
                self.recover();
                Ok(())
            }
            LostState::GaveUp(reason) => Err(js_error(Error::device(
                crate::error::DeviceErrorKind::Lost,
                reason,
            ))),
        }
    }

    /// Resizes the canvas to `width`×`height` device pixels, reconfigures the
    /// context and rebuilds the size-dependent targets. 0 in either
    /// dimension pauses rendering; more than the device's
    /// `maxTextureDimension2D` is refused.
    pub fn resize(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] width: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] height: JsValue,
    ) -> Result<(), JsValue> {
        // Converted before the renderer is borrowed (see to_value).
        let (width, height) = (to_value(&width), to_value(&height));
        with(&self.inner, "resize", |r| {
            let max = r.gpu.max_texture_size();
            let w = options::parse_dimension("width", &width, max)?;
            let h = options::parse_dimension("height", &height, max)?;
            r.resize((w, h))
        })
    }

    /// Changes any options at run time; fields left out keep their value.
    /// Canvas options reconfigure the context, `msaa`/`resolve`/`renderScale`
    /// and the bloom chain's shape rebuild targets, other bloom and tonemap
    /// parameters only update uniforms; unchanged options cost nothing.
    /// Throws (changing nothing) on a bad value.
    #[wasm_bindgen(js_name = setOptions)]
    pub fn set_options(
        &self,
        #[wasm_bindgen(unchecked_param_type = "RendererOptions")] partial: JsValue,
    ) -> Result<(), JsValue> {
        let partial = to_value(&partial);
        with(&self.inner, "setOptions", |r| {
            let next = r.options.merged(&partial)?;
            r.apply_options(next)
        })
    }

    /// The effective options, defaults filled in.
    #[wasm_bindgen(unchecked_return_type = "EffectiveOptions")]
    pub fn options(&self) -> Result<JsValue, JsValue> {
        with(&self.inner, "options", |r| Ok(to_js(&r.options.to_value())))
    }

    /// The canvas context's configuration as the browser reports it
    /// (`getConfiguration()`), with the canvas `width` and `height`.
    #[wasm_bindgen(unchecked_return_type = "CanvasConfiguration")]
    pub fn configuration(&self) -> Result<JsValue, JsValue> {
        with(&self.inner, "configuration", |r| {
            Ok(r.canvas.configuration())
        })
    }

    /// Renders `wgsl` as the scene. It must define
    /// `fn scene(uv: vec2f, time: f32) -> vec4f` returning linear HDR
    /// radiance and alpha (premultiplied) for `uv` in 0..1 (y down);
    /// `resolution()` gives the target size in pixels. Resolves once the
    /// shader is in use; rejects with an `Error` carrying `line`, `column`
    /// and the compiler's message, and the previous content keeps rendering.
    #[wasm_bindgen(js_name = setSceneShader, unchecked_return_type = "Promise<void>")]
    pub fn set_scene_shader(&self, wgsl: JsValue) -> js_sys::Promise {
        let inner = self.inner.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let source = wgsl.as_string().ok_or_else(|| {
                field_error(
                    "wgsl",
                    format!(
                        "must be a string of WGSL, got {}",
                        to_value(&wgsl).describe()
                    ),
                )
            })?;
            let (shader, compiled, scope, generation) = with(&inner, "setSceneShader", |r| {
                r.content_generation += 1;
                let scope = r.gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
                let shader = r.chain.prepare_shader(&r.gpu, &source);
                let compiled = shader.module.get_compilation_info();
                Ok((shader, compiled, scope.pop(), r.content_generation))
            })?;
            let info = compiled.await;
            let scope_error = scope.await;
            web_content::shader_result(&info, scope_error.as_ref(), &source)?;
            with(&inner, "setSceneShader", |r| {
                if r.content_generation != generation {
                    return Err(Error::superseded("setSceneShader"));
                }
                r.image = None;
                // Rebuilt here if msaa changed while it compiled.
                r.chain.install_shader(&r.gpu, shader);
                Ok(JsValue::UNDEFINED)
            })
        })
    }

    /// Shows an image: an `ImageBitmap`, `HTMLImageElement` (loaded),
    /// `HTMLCanvasElement`, `HTMLVideoElement` (re-uploaded every frame
    /// while it plays), `OffscreenCanvas` or `ImageData`. It is decoded to
    /// linear, multiplied by `gain` so its highlights can bloom, and fitted
    /// inside the canvas.
    #[wasm_bindgen(js_name = setImage)]
    pub fn set_image(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ImageSourceInput")] source: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "ImageOptions")] options: Option<JsValue>,
    ) -> Result<(), JsValue> {
        let gain = web_content::parse_image_options(&to_value(&options.unwrap_or_default()))
            .map_err(|e| js_error(e.into()))?;
        let source = ImageSource::new(source).map_err(js_error)?;
        with(&self.inner, "setImage", |r| {
            r.content_generation += 1;
            r.set_image(&source, gain)
        })
    }

    /// Goes back to the built-in demo scene.
    #[wasm_bindgen(js_name = useDemoScene)]
    pub fn use_demo_scene(&self) -> Result<(), JsValue> {
        with(&self.inner, "useDemoScene", |r| {
            r.content_generation += 1;
            r.image = None;
            r.chain.set_content(&r.gpu, Content::DemoScene)
        })
    }

    /// A PNG of the current frame (rendered again at the last frame's time
    /// and read back from the canvas texture). Needs `canvas.screenshots:
    /// true`.
    #[wasm_bindgen(unchecked_return_type = "Promise<Blob>")]
    pub fn screenshot(&self) -> js_sys::Promise {
        let inner = self.inner.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let (readback, device, premultiplied) = with(&inner, "screenshot", |r| {
                let time = r.last_time;
                let readback = r.frame_for_reading(time)?;
                let premultiplied =
                    r.options.canvas.alpha_mode == options::AlphaMode::Premultiplied;
                Ok((readback, r.gpu.device.clone(), premultiplied))
            })?;
            let image = readback.read(&device).await.map_err(js_error)?;
            web_content::encode_png(&image, premultiplied)
                .await
                .map_err(js_error)
        })
    }

    /// Frame counts, CPU and per-pass GPU time, GPU memory, configuration.
    #[wasm_bindgen(unchecked_return_type = "RendererStats")]
    pub fn stats(&self) -> Result<JsValue, JsValue> {
        with(&self.inner, "stats", |r| Ok(r.stats()))
    }

    /// Unconfigures the canvas context (releasing its images) and the GPU
    /// resources. Any later call throws.
    pub fn destroy(&self) -> Result<(), JsValue> {
        let mut guard = self
            .inner
            .try_borrow_mut()
            .map_err(|_| js_error(Error::busy("destroy")))?;
        // Dropping the inner renderer unconfigures and destroys (see Drop).
        guard
            .take()
            .map(drop)
            .ok_or_else(|| js_error(Error::destroyed("destroy")))
    }
}

/// Where the renderer stands with respect to device loss.
enum LostState {
    Fine,
    Lost,
    Recovering,
    GaveUp(String),
}

/// Attempts at a new device before `render()` reports the loss.
const RECOVERY_ATTEMPTS: u32 = 3;

/// Rust-side access, used by the browser tests and embedders in Rust.
impl Renderer {
    /// Requests a new device in the background and moves the renderer onto
    /// it; `render()` skips frames meanwhile.
    fn recover(&self) {
        let inner = self.inner.clone();
        let Ok(flag) = with(&inner, "render", |r| Ok(r.recovering.clone())) else {
            return;
        };
        flag.set(true);
        wasm_bindgen_futures::spawn_local(async move {
            let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
                backends: wgpu::Backends::BROWSER_WEBGPU,
                ..wgpu::InstanceDescriptor::new_without_display_handle()
            });
            let result = match Gpu::request(&instance, None).await {
                Ok(gpu) => with(&inner, "render", |r| r.replace_device(gpu)),
                Err(e) => Err(js_error(e)),
            };
            if let Err(e) = result {
                web_sys::console::error_2(
                    &"afterglow: replacing the lost device failed:".into(),
                    &e,
                );
                let _ = with(&inner, "render", |r| {
                    r.recovery_failures += 1;
                    Ok(())
                });
            }
            flag.set(false);
        });
    }

    /// Runs `f` with the renderer's GPU; `None` after `destroy()`.
    pub fn with_gpu<T>(&self, f: impl FnOnce(&Gpu) -> T) -> Option<T> {
        let guard = self.inner.try_borrow().ok()?;
        guard.as_ref().map(|r| f(&r.gpu))
    }

    /// Replaces the content of the scene pass.
    pub fn set_content(&self, content: Content) -> Result<(), Error> {
        let mut guard = self
            .inner
            .try_borrow_mut()
            .map_err(|_| Error::busy("setContent"))?;
        let r = guard.as_mut().ok_or(Error::destroyed("setContent"))?;
        r.content_generation += 1;
        r.image = None;
        r.chain.set_content(&r.gpu, content)
    }

    /// The effective options.
    pub fn current_options(&self) -> Option<Options> {
        self.inner.try_borrow().ok()?.as_ref().map(|r| r.options)
    }

    /// The names of the passes of a frame, in order.
    pub fn pass_names(&self) -> Vec<String> {
        self.inner
            .try_borrow()
            .ok()
            .and_then(|g| g.as_ref().map(|r| r.chain.pass_names()))
            .unwrap_or_default()
    }

    /// Renders a frame and reads the canvas texture back (needs
    /// `canvas.screenshots: true`).
    pub async fn render_and_read(&self, time_seconds: f64) -> Result<Image, Error> {
        let (readback, device) = {
            let mut guard = self
                .inner
                .try_borrow_mut()
                .map_err(|_| Error::busy("render"))?;
            let r = guard.as_mut().ok_or(Error::destroyed("render"))?;
            (r.frame_for_reading(time_seconds)?, r.gpu.device.clone())
        };
        readback.read(&device).await
    }
}

/// Releasing the renderer (`destroy()`, `free()`, or garbage collection of
/// the JS object) gives the canvas's images and the device's memory back
/// now rather than whenever the browser collects them.
impl Drop for WebRenderer {
    fn drop(&mut self) {
        self.auto_resize = None;
        self.canvas.unconfigure();
        self.gpu.destroy();
    }
}

impl WebRenderer {
    async fn create(canvas_js: JsValue, options_js: JsValue) -> Result<WebRenderer, Error> {
        let options = Options::from_value(&to_value(&options_js))?;
        if canvas::navigator_gpu().is_none() {
            return Err(Error::device(
                crate::error::DeviceErrorKind::NoWebGpu,
                "navigator.gpu is missing (this browser or context has no WebGPU; it needs a \
                 secure context such as https or localhost)",
            ));
        }
        let mut canvas = Canvas::new(canvas_js)?;
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::BROWSER_WEBGPU,
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        let gpu = Gpu::request(&instance, None).await?;
        let format = canvas::resolve_format(options.canvas.format)?;
        let output = OutputSpec::new(
            format,
            options.canvas.alpha_mode,
            options.canvas.tone_mapping,
            options.canvas.color_space,
        )?;
        let max = gpu.max_texture_size();
        let (w, h) = canvas.size();
        let size = (w.min(max), h.min(max));
        canvas.set_size(size);
        canvas.configure(&gpu, &output, &options.canvas)?;
        let render_size = scaled(size, options.render_scale, max);
        let mut chain = Chain::new(&gpu, output, options.into(), render_size)?;
        chain.resize_scaled(&gpu, render_size, size)?;
        Ok(WebRenderer {
            gpu,
            canvas,
            chain,
            options,
            canvas_size: size,
            frames: 0,
            cpu_ms: 0.0,
            last_time: 0.0,
            image: None,
            recovering: Rc::new(Cell::new(false)),
            recovery_failures: 0,
            content_generation: 0,
            auto_resize: None,
            pending_size: Rc::new(Cell::new(None)),
        })
    }

    fn lost_state(&self) -> Result<LostState, Error> {
        Ok(match self.gpu.lost() {
            None => LostState::Fine,
            Some(_) if self.recovering.get() => LostState::Recovering,
            Some(reason) if self.recovery_failures >= RECOVERY_ATTEMPTS => {
                LostState::GaveUp(reason)
            }
            Some(_) => LostState::Lost,
        })
    }

    fn check_device(&self) -> Result<(), Error> {
        match self.gpu.lost() {
            Some(reason) => Err(Error::device(crate::error::DeviceErrorKind::Lost, reason)),
            None => Ok(()),
        }
    }

    fn render(&mut self, time: f64) -> Result<(), Error> {
        let start = now_ms();
        if let Some(size) = self.pending_size.take() {
            self.resize(size)?;
        }
        self.upload_video_frame()?;
        self.render_with(time, false)?;
        self.cpu_ms = now_ms() - start;
        Ok(())
    }

    /// Renders a frame whose canvas texture is copied for reading.
    fn frame_for_reading(&mut self, time: f64) -> Result<Readback, Error> {
        if !self.options.canvas.screenshots {
            return Err(Error::Readback(
                "reading frames needs the option canvas.screenshots: true (it adds COPY_SRC \
                 to the canvas usage)"
                    .into(),
            ));
        }
        self.upload_video_frame()?;
        self.render_with(time, true)?
            .flatten()
            .ok_or_else(|| Error::Readback("the canvas is 0×0: nothing was rendered".into()))
    }

    /// One frame: one encoder, one submit. With `read`, the canvas texture is
    /// also copied into a buffer in the same encoder. Returns `None` when the
    /// frame was skipped (0×0).
    fn render_with(&mut self, time: f64, read: bool) -> Result<Option<Option<Readback>>, Error> {
        self.check_device()?;
        let (w, h) = self.canvas_size;
        if w == 0 || h == 0 {
            return Ok(None);
        }
        // Fetched every frame: the texture belongs to this frame only.
        let texture = self.canvas.current_texture(&self.gpu)?;
        let view = self.gpu.create_canvas_view(
            &texture,
            &wgpu::TextureViewDescriptor {
                label: Some("canvas view"),
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

    fn resize(&mut self, size: (u32, u32)) -> Result<(), Error> {
        self.check_device()?;
        if size == self.canvas_size {
            return Ok(());
        }
        if size.0 > 0 && size.1 > 0 {
            self.canvas.set_size(size);
            let output = *self.chain.output();
            self.canvas
                .configure(&self.gpu, &output, &self.options.canvas)?;
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

    /// Applies validated options. The steps that can fail run before the
    /// renderer's own state changes, and a failure part-way puts the
    /// previous options back, so a refused change changes nothing.
    fn apply_options(&mut self, next: Options) -> Result<(), Error> {
        let prev = self.options;
        if next == prev {
            return Ok(());
        }
        let prev_output = *self.chain.output();
        let output = if next.canvas == prev.canvas {
            prev_output
        } else {
            let format = canvas::resolve_format(next.canvas.format)?;
            OutputSpec::new(
                format,
                next.canvas.alpha_mode,
                next.canvas.tone_mapping,
                next.canvas.color_space,
            )?
        };
        if let Err(e) = self.apply_options_steps(prev, next, output) {
            // Best effort back to where we were; the first error is reported.
            let _ = self.apply_options_steps(next, prev, prev_output);
            return Err(e);
        }
        Ok(())
    }

    fn apply_options_steps(
        &mut self,
        prev: Options,
        next: Options,
        output: OutputSpec,
    ) -> Result<(), Error> {
        if output != *self.chain.output() {
            self.chain.set_output(&self.gpu, output)?;
        }
        self.chain.set_settings(&self.gpu, next.into())?;
        self.options = next;
        if next.render_scale != prev.render_scale {
            self.resize_chain()?;
        }
        if next.canvas != prev.canvas && self.canvas_size.0 > 0 && self.canvas_size.1 > 0 {
            self.canvas.configure(&self.gpu, &output, &next.canvas)?;
        }
        if next.auto_resize != prev.auto_resize {
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

    fn set_image(&mut self, source: &ImageSource, gain: f32) -> Result<(), Error> {
        let size = source.size()?;
        let max = self.gpu.max_texture_size();
        if size.0 > max || size.1 > max {
            return Err(Error::Option(OptionError {
                field: "source".into(),
                message: format!(
                    "is {}×{} but this device allows at most {max} per side",
                    size.0, size.1
                ),
            }));
        }
        let texture = match self.chain.content() {
            Content::Image(img) if (img.texture.width(), img.texture.height()) == size => {
                img.texture.clone()
            }
            _ => web_content::image_texture(&self.gpu, size)?,
        };
        source.copy_to(&self.gpu, &texture)?;
        self.image = Some(source.clone());
        let content = Content::Image(ImageContent { texture, gain });
        if *self.chain.content() != content {
            self.chain.set_content(&self.gpu, content)?;
        }
        Ok(())
    }

    /// Uploads the current frame of a playing video; re-creates the texture
    /// only when the video's size changes.
    fn upload_video_frame(&mut self) -> Result<(), Error> {
        if !self.image.as_ref().is_some_and(|i| i.has_new_frame()) {
            return Ok(());
        }
        self.reupload_image()
    }

    fn reupload_image(&mut self) -> Result<(), Error> {
        let gain = match self.chain.content() {
            Content::Image(img) => img.gain,
            _ => 1.0,
        };
        // The source stays in place if this upload fails.
        match self.image.clone() {
            Some(source) => self.set_image(&source, gain),
            None => Ok(()),
        }
    }

    /// Moves everything onto a new device after the old one was lost: the
    /// canvas is configured again with it (its configuration named the old
    /// device), and the chain and the content are rebuilt.
    fn replace_device(&mut self, gpu: Gpu) -> Result<(), Error> {
        let content = self.chain.content().clone();
        let output = *self.chain.output();
        let render = scaled(
            self.canvas_size,
            self.options.render_scale,
            gpu.max_texture_size(),
        );
        let mut chain = Chain::new(&gpu, output, self.options.into(), render)?;
        chain.resize_scaled(&gpu, render, self.canvas_size)?;
        if self.canvas_size.0 > 0 && self.canvas_size.1 > 0 {
            self.canvas.configure(&gpu, &output, &self.options.canvas)?;
        }
        self.gpu = gpu;
        self.chain = chain;
        self.recovery_failures = 0;
        self.content_generation += 1;
        // The device is back; restoring the content is best effort.
        let restored = match content {
            // Its texture belonged to the old device: upload the source again.
            Content::Image(img) => match self.image.clone() {
                Some(source) => self.set_image(&source, img.gain),
                None => Ok(()),
            },
            other => self.chain.set_content(&self.gpu, other),
        };
        if let Err(e) = restored {
            web_sys::console::warn_1(
                &format!("afterglow: the content could not be restored after a device loss: {e}")
                    .into(),
            );
        }
        Ok(())
    }

    fn stats(&self) -> JsValue {
        let o = Object::new();
        let set = |k: &str, v: JsValue| {
            let _ = Reflect::set(&o, &JsValue::from_str(k), &v);
        };
        set("frames", JsValue::from_f64(self.frames as f64));
        set("cpuMs", JsValue::from_f64(self.cpu_ms));
        let gpu_ms = match self.chain.pass_times() {
            Some(times) => {
                let t = Object::new();
                for (name, ms) in times {
                    let _ = Reflect::set(&t, &JsValue::from_str(&name), &JsValue::from_f64(ms));
                }
                t.into()
            }
            None => JsValue::NULL,
        };
        set("gpuMs", gpu_ms);
        set("gpuBytes", JsValue::from_f64(self.chain.gpu_bytes() as f64));
        set("configuration", self.canvas.configuration());
        o.into()
    }
}

/// The offscreen size for a canvas size and render scale: at least 1×1
/// (unless the canvas is 0), at most the device limit.
fn scaled(size: (u32, u32), scale: f32, max: u32) -> (u32, u32) {
    let s = |v: u32| {
        if v == 0 {
            0
        } else {
            ((v as f32 * scale).round() as u32).clamp(1, max)
        }
    };
    (s(size.0), s(size.1))
}
