//! The JavaScript surface: the only `#[wasm_bindgen]` exports. JS values
//! come in, are validated into typed Rust, and every failure goes back as a
//! JS `Error` whose message names the field and what is allowed. Nothing
//! here panics on caller input: a panic would kill the wasm module.

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::canvas::{self, Canvas};
use crate::chain::{Chain, Content};
use crate::error::Error;
use crate::gpu::Gpu;
use crate::options::{self, Options, Value};
use crate::output::OutputSpec;
use crate::readback::{Image, Readback};

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
  /** Adds `COPY_SRC` to the canvas usage so frames can be read back. Default `false`. */
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
  /** How much blurred light is added back, 0 to 100. Default 0.6. */
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

/** Options of `Renderer.create`. Every field is optional. */
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
}

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
"#;

/// An HDR renderer bound to one canvas.
#[wasm_bindgen]
pub struct Renderer {
    inner: Option<WebRenderer>,
}

struct WebRenderer {
    gpu: Gpu,
    canvas: Canvas,
    chain: Chain,
    options: Options,
}

fn js_error(e: Error) -> JsValue {
    js_sys::Error::new(&e.to_string()).into()
}

/// Converts a JS value into the option parser's [`Value`] tree.
pub fn to_value(v: &JsValue) -> Value {
    to_value_depth(v, 0)
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
    } else if Array::is_array(v) {
        Value::Other("an array".into())
    } else if v.is_function() {
        Value::Other("a function".into())
    } else if v.is_object() && depth < 4 {
        let object: &Object = v.unchecked_ref();
        let entries = Object::keys(object)
            .iter()
            .filter_map(|k| {
                let key = k.as_string()?;
                let value = Reflect::get(object, &k).unwrap_or(JsValue::UNDEFINED);
                Some((key, to_value_depth(&value, depth + 1)))
            })
            .collect();
        Value::Object(entries)
    } else {
        Value::Other(format!(
            "a {}",
            v.js_typeof().as_string().unwrap_or_default()
        ))
    }
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
        WebRenderer::create(canvas, options.unwrap_or(JsValue::UNDEFINED))
            .await
            .map(|inner| Renderer { inner: Some(inner) })
            .map_err(js_error)
    }

    /// Renders one frame at `timeSeconds` (default 0): fetches the canvas's
    /// current texture, runs the chain, one submit. Does nothing while the
    /// canvas is 0×0.
    pub fn render(
        &mut self,
        #[wasm_bindgen(js_name = timeSeconds, unchecked_optional_param_type = "number")]
        time_seconds: Option<JsValue>,
    ) -> Result<(), JsValue> {
        let time = options::parse_time(&to_value(&time_seconds.unwrap_or(JsValue::UNDEFINED)))
            .map_err(|e| js_error(e.into()))?;
        self.live("render")?
            .render(time)
            .map(|_| ())
            .map_err(js_error)
    }

    /// Resizes the canvas to `width`×`height` device pixels, reconfigures the
    /// context and rebuilds the size-dependent targets. 0 in either
    /// dimension pauses rendering; more than the device's
    /// `maxTextureDimension2D` is refused.
    pub fn resize(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] width: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] height: JsValue,
    ) -> Result<(), JsValue> {
        let inner = self.live("resize")?;
        let max = inner.gpu.max_texture_size();
        let w = options::parse_dimension("width", &to_value(&width), max)
            .map_err(|e| js_error(e.into()))?;
        let h = options::parse_dimension("height", &to_value(&height), max)
            .map_err(|e| js_error(e.into()))?;
        inner.resize((w, h)).map_err(js_error)
    }

    /// The canvas context's configuration as the browser reports it
    /// (`getConfiguration()`), with the canvas `width` and `height`.
    #[wasm_bindgen(unchecked_return_type = "CanvasConfiguration")]
    pub fn configuration(&mut self) -> Result<JsValue, JsValue> {
        Ok(self.live("configuration")?.canvas.configuration())
    }

    /// Unconfigures the canvas context (releasing its images) and the GPU
    /// resources. Any later call throws.
    pub fn destroy(&mut self) -> Result<(), JsValue> {
        // Dropping the inner renderer unconfigures and destroys (see Drop).
        self.inner
            .take()
            .map(drop)
            .ok_or_else(|| js_error(Error::Destroyed("destroy")))
    }
}

/// Rust-side access, used by the browser tests and embedders in Rust.
impl Renderer {
    fn live(&mut self, method: &'static str) -> Result<&mut WebRenderer, JsValue> {
        self.inner
            .as_mut()
            .ok_or_else(|| js_error(Error::Destroyed(method)))
    }

    /// The renderer's GPU, or `None` after `destroy()`.
    pub fn gpu(&self) -> Option<&Gpu> {
        self.inner.as_ref().map(|i| &i.gpu)
    }

    /// Replaces the content of the scene pass.
    pub fn set_content(&mut self, content: Content) -> Result<(), Error> {
        let inner = self.inner.as_mut().ok_or(Error::Destroyed("setContent"))?;
        inner.chain.set_content(&inner.gpu, content)
    }

    /// The effective options.
    pub fn options(&self) -> Option<Options> {
        self.inner.as_ref().map(|i| i.options)
    }

    /// Renders a frame and reads the canvas texture back (needs
    /// `canvas.screenshots: true`).
    pub async fn render_and_read(&mut self, time_seconds: f64) -> Result<Image, Error> {
        let inner = self.inner.as_mut().ok_or(Error::Destroyed("render"))?;
        if !inner.options.canvas.screenshots {
            return Err(Error::Readback(
                "reading frames needs the option canvas.screenshots: true (COPY_SRC usage)".into(),
            ));
        }
        let readback = inner
            .render_with(time_seconds, true)?
            .flatten()
            .ok_or_else(|| Error::Readback("the canvas is 0×0: nothing was rendered".into()))?;
        readback.read(&inner.gpu).await
    }
}

/// Releasing the renderer (`destroy()`, `free()`, or garbage collection of
/// the JS object) gives the canvas's images and the device's memory back
/// now rather than whenever the browser collects them.
impl Drop for WebRenderer {
    fn drop(&mut self) {
        self.canvas.unconfigure();
        self.gpu.destroy();
    }
}

impl WebRenderer {
    async fn create(canvas_js: JsValue, options_js: JsValue) -> Result<WebRenderer, Error> {
        let options = Options::from_value(&to_value(&options_js))?;
        if canvas::navigator_gpu().is_none() {
            return Err(Error::NoGpu(
                "navigator.gpu is missing (this browser or context has no WebGPU; it needs a \
                 secure context such as https or localhost)"
                    .into(),
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
        )?;
        let max = gpu.max_texture_size();
        let (w, h) = canvas.size();
        let size = (w.min(max), h.min(max));
        canvas.set_size(size);
        canvas.configure(&gpu, &output, &options.canvas)?;
        let chain = Chain::new(&gpu, output, options, size)?;
        Ok(WebRenderer {
            gpu,
            canvas,
            chain,
            options,
        })
    }

    fn check_device(&self) -> Result<(), Error> {
        match self.gpu.lost() {
            Some(reason) => Err(Error::DeviceLost(reason)),
            None => Ok(()),
        }
    }

    fn render(&mut self, time: f64) -> Result<bool, Error> {
        self.render_with(time, false).map(|r| r.is_some())
    }

    /// One frame: one encoder, one submit. With `read`, the canvas texture is
    /// also copied into a buffer in the same encoder.
    /// Returns `None` when the frame was skipped (0×0), else the readback if
    /// one was asked for.
    fn render_with(&mut self, time: f64, read: bool) -> Result<Option<Option<Readback>>, Error> {
        self.check_device()?;
        let (w, h) = self.chain.size();
        if w == 0 || h == 0 {
            return Ok(None);
        }
        // Fetched every frame: the texture belongs to this frame only.
        let texture = self.canvas.current_texture(&self.gpu)?;
        let view = texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("canvas view"),
            format: Some(self.chain.output().view_format),
            ..Default::default()
        });
        let mut encoder = self
            .gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("frame"),
            });
        self.chain.encode(&self.gpu, &mut encoder, &view, time);
        let readback = read.then(|| Readback::record(&self.gpu, &mut encoder, &texture));
        self.gpu.queue.submit([encoder.finish()]);
        self.chain.after_submit();
        Ok(Some(readback))
    }

    fn resize(&mut self, size: (u32, u32)) -> Result<(), Error> {
        self.check_device()?;
        if size == self.chain.size() {
            return Ok(());
        }
        if size.0 > 0 && size.1 > 0 {
            self.canvas.set_size(size);
            let output = *self.chain.output();
            self.canvas
                .configure(&self.gpu, &output, &self.options.canvas)?;
        }
        self.chain.resize(&self.gpu, size)
    }
}
