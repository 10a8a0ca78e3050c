//! The canvas's WebGPU context: the seven fields of `configure()`, the
//! texture of the current frame (fetched every frame, never kept), and
//! `unconfigure()` on destroy. wgpu's surface API hides some of these fields
//! and has no unconfigure, so the context is driven directly.

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::interop::{describe, get, is_a, js_message, set, warn, width_height};
use crate::error::{DeviceErrorKind, Error};
use crate::gpu::Gpu;
use crate::options::{CanvasFormat, CanvasOptions};
use crate::output::OutputSpec;

#[wasm_bindgen]
extern "C" {
    /// `GPUCanvasContext`, bound here so that every field can be set.
    pub type RawCanvasContext;

    #[wasm_bindgen(method, catch)]
    fn configure(this: &RawCanvasContext, configuration: &Object) -> Result<(), JsValue>;

    #[wasm_bindgen(method, catch, js_name = getCurrentTexture)]
    fn get_current_texture(this: &RawCanvasContext) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(method, catch, js_name = getConfiguration)]
    fn get_configuration(this: &RawCanvasContext) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn unconfigure(this: &RawCanvasContext) -> Result<(), JsValue>;
}

pub fn format_name(format: wgpu::TextureFormat) -> &'static str {
    use wgpu::TextureFormat as F;
    match format {
        F::Rgba8Unorm => "rgba8unorm",
        F::Rgba8UnormSrgb => "rgba8unorm-srgb",
        F::Bgra8Unorm => "bgra8unorm",
        F::Bgra8UnormSrgb => "bgra8unorm-srgb",
        F::Rgba16Float => "rgba16float",
        _ => "unsupported",
    }
}

fn parse_format(name: &str) -> Option<wgpu::TextureFormat> {
    use wgpu::TextureFormat as F;
    match name {
        "rgba8unorm" => Some(F::Rgba8Unorm),
        "bgra8unorm" => Some(F::Bgra8Unorm),
        "rgba16float" => Some(F::Rgba16Float),
        _ => None,
    }
}

/// `navigator.gpu`, from a window or a worker.
pub fn navigator_gpu() -> Option<JsValue> {
    let gpu = get(&get(&js_sys::global(), "navigator"), "gpu");
    (!gpu.is_undefined() && !gpu.is_null()).then_some(gpu)
}

/// `navigator.gpu.getPreferredCanvasFormat()`: `rgba8unorm` or `bgra8unorm`,
/// depending on the platform. Never assumed.
pub fn preferred_format() -> Result<wgpu::TextureFormat, Error> {
    let gpu = navigator_gpu()
        .ok_or_else(|| Error::device(DeviceErrorKind::NoWebGpu, "navigator.gpu is missing"))?;
    let name = super::interop::call(&gpu, "getPreferredCanvasFormat", &[])
        .map_err(|e| {
            Error::device(
                DeviceErrorKind::NoWebGpu,
                format!("getPreferredCanvasFormat(): {}", js_message(&e)),
            )
        })?
        .as_string()
        .unwrap_or_default();
    parse_format(&name)
        .ok_or_else(|| Error::Canvas(format!("unexpected preferred canvas format '{name}'")))
}

/// A canvas (`HTMLCanvasElement` or `OffscreenCanvas`) and its WebGPU context.
pub struct Canvas {
    element: JsValue,
    context: RawCanvasContext,
    /// The configuration last applied, for the per-frame texture descriptor.
    applied: Option<Applied>,
    /// What this engine's canvases can be configured with.
    caps: super::capabilities::Capabilities,
}

#[derive(Clone, Copy)]
struct Applied {
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
}

impl Canvas {
    /// Takes the canvas's `webgpu` context. Something that is not a canvas
    /// is an argument error; a canvas that cannot give one, or that another
    /// renderer uses, is a canvas error.
    ///
    /// Canvases are recognised by what they are (the browser's own `width`
    /// getter accepts them), not by `instanceof`: a canvas from an iframe
    /// is one, a Proxy of a canvas or an object that imitates one is not.
    /// The context is checked the same way, so no imitation reaches wgpu.
    pub fn new(element: JsValue) -> Result<Canvas, Error> {
        let kind = if is_a("HTMLCanvasElement", "width", &element) {
            "canvas"
        } else if is_a("OffscreenCanvas", "width", &element) {
            "OffscreenCanvas"
        } else {
            let got = describe(&element);
            let got = if got.ends_with("HTMLCanvasElement") || got.ends_with("OffscreenCanvas") {
                format!("an object that only looks like one ({got}: a Proxy or an imitation)")
            } else {
                got
            };
            return Err(Error::argument(
                "canvas",
                format!("must be an HTMLCanvasElement or OffscreenCanvas, got {got}"),
            ));
        };
        let name = canvas_name(&element, kind);
        let in_use = in_use();
        if in_use.has(element.unchecked_ref()) {
            return Err(Error::Canvas(format!(
                "{name} already has a renderer; destroy() that one first (two renderers \
                 would configure one canvas with two devices)"
            )));
        }
        let context =
            super::interop::call(&element, "getContext", &[&"webgpu".into()]).map_err(|e| {
                Error::Canvas(format!(
                    "{name}: getContext('webgpu') threw: {}",
                    js_message(&e)
                ))
            })?;
        if context.is_null() || context.is_undefined() {
            return Err(Error::Canvas(format!(
                "{name}: getContext('webgpu') returned null: the canvas already has another \
                 kind of context (2d, webgl), or this browser has no WebGPU"
            )));
        }
        if !is_a("GPUCanvasContext", "canvas", &context) {
            return Err(Error::Canvas(format!(
                "{name}: getContext('webgpu') returned {}, not a GPUCanvasContext",
                describe(&context)
            )));
        }
        in_use.add(element.unchecked_ref());
        Ok(Canvas {
            element,
            context: context.unchecked_into(),
            applied: None,
            caps: super::capabilities::Capabilities::ALL,
        })
    }

    /// The canvas element (`HTMLCanvasElement` or `OffscreenCanvas`).
    pub fn element(&self) -> &JsValue {
        &self.element
    }

    /// The canvas's size in device pixels (its `width`/`height` attributes).
    pub fn size(&self) -> (u32, u32) {
        let (w, h) = width_height(&self.element);
        (w.max(0.0) as u32, h.max(0.0) as u32)
    }

    /// Sets the canvas's `width`/`height` attributes. Changing them expires
    /// the current texture; the next `getCurrentTexture()` has the new size.
    pub fn set_size(&self, size: (u32, u32)) {
        set(&self.element, "width", &size.0.into());
        set(&self.element, "height", &size.1.into());
    }

    /// What this engine's canvases can be configured with.
    pub fn caps(&self) -> super::capabilities::Capabilities {
        self.caps
    }

    pub fn set_caps(&mut self, caps: super::capabilities::Capabilities) {
        self.caps = caps;
    }

    /// Calls `configure()` with all seven fields, after refusing what the
    /// engine is known to lack.
    pub fn configure(
        &mut self,
        gpu: &Gpu,
        output: &OutputSpec,
        options: &CanvasOptions,
    ) -> Result<(), Error> {
        self.caps.check(output)?;
        let device = gpu
            .device
            .as_webgpu()
            .ok_or_else(|| Error::Canvas("the device is not a WebGPU device".into()))?;
        let usage = canvas_usage(options, output);
        let config = Object::new();
        set(&config, "device", device.as_ref());
        set(&config, "format", &format_name(output.format).into());
        set(&config, "usage", &usage.bits().into());
        let view_formats = Array::new();
        for f in output.view_formats() {
            view_formats.push(&format_name(f).into());
        }
        set(&config, "viewFormats", &view_formats);
        // The options' JS spellings are WebGPU's.
        set(&config, "colorSpace", &options.color_space.as_str().into());
        let tone_mapping =
            super::interop::object(&[("mode", options.tone_mapping.as_str().into())]);
        set(&config, "toneMapping", &tone_mapping);
        set(&config, "alphaMode", &options.alpha_mode.as_str().into());
        self.context
            .configure(&config)
            .map_err(|e| Error::Canvas(format!("configure() threw: {}", js_message(&e))))?;
        self.applied = Some(Applied {
            format: output.format,
            usage,
        });
        Ok(())
    }

    /// What the context holds now: `getConfiguration()` where the browser
    /// has it, otherwise what was passed to `configure()`. Adds `width` and
    /// `height` of the canvas. `null` when unconfigured.
    pub fn configuration(&self) -> JsValue {
        let read = if Reflect::has(&self.context, &"getConfiguration".into()).unwrap_or(false) {
            self.context.get_configuration().ok()
        } else {
            None
        };
        match read {
            Some(config) if config.is_object() => {
                let config: Object = config.unchecked_into();
                let (w, h) = self.size();
                set(&config, "width", &w.into());
                set(&config, "height", &h.into());
                config.into()
            }
            _ => JsValue::NULL,
        }
    }

    /// The texture of this frame, wrapped for wgpu. Valid for this frame
    /// only. `size` is the canvas's [`Canvas::size`] read just before, in the
    /// same call: the texture `getCurrentTexture()` returns has the canvas's
    /// size at that moment, even where the page changed the canvas's
    /// `width` or `height` attributes behind the renderer's back, so it is
    /// not read from the texture again (two more property reads through
    /// JavaScript every frame).
    pub fn current_texture(&self, gpu: &Gpu, size: (u32, u32)) -> Result<wgpu::Texture, Error> {
        let applied = self
            .applied
            .ok_or_else(|| Error::Canvas("the canvas is not configured".into()))?;
        let raw = self
            .context
            .get_current_texture()
            .map_err(|e| Error::Canvas(format!("getCurrentTexture() threw: {}", js_message(&e))))?;
        let (width, height) = (size.0.max(1), size.1.max(1));
        gpu.count_canvas_texture();
        Ok(gpu.device.create_texture_from_webgpu_handle(
            raw.unchecked_into(),
            &wgpu::TextureDescriptor {
                label: Some("canvas texture"),
                size: wgpu::Extent3d {
                    width,
                    height,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: applied.format,
                usage: applied.usage,
                view_formats: &[],
            },
            None,
        ))
    }

    /// Releases the swap chain images; the canvas stays in the page.
    pub fn unconfigure(&mut self) {
        if let Err(e) = self.context.unconfigure() {
            warn(&format!(
                "afterglow: unconfigure() threw: {}",
                js_message(&e)
            ));
        }
        self.applied = None;
    }
}

impl Drop for Canvas {
    /// The canvas is free for another renderer.
    fn drop(&mut self) {
        in_use().delete(self.element.unchecked_ref());
    }
}

/// The canvases that have a renderer (held weakly).
fn in_use() -> js_sys::WeakSet {
    thread_local! {
        static IN_USE: js_sys::WeakSet = js_sys::WeakSet::new();
    }
    IN_USE.with(|set| set.clone())
}

/// How messages name a canvas: `the canvas #view`, `an OffscreenCanvas`.
fn canvas_name(element: &JsValue, kind: &str) -> String {
    match get(element, "id").as_string().filter(|id| !id.is_empty()) {
        Some(id) => format!("the {kind} #{id}"),
        None if kind == "canvas" => "the canvas (it has no id)".into(),
        None => format!("the {kind}"),
    }
}

/// `RENDER_ATTACHMENT`, plus `COPY_SRC` only when screenshots are on, and
/// `STORAGE_BINDING` where the composite may write the canvas as compute
/// (an `rgba8unorm` or `rgba16float` canvas, [`OutputSpec::written_by_compute`]).
/// Never more than is used: extra usages can cost framebuffer compression.
/// A `bgra8unorm` canvas is drawn: writing it as storage needs the
/// `bgra8unorm-storage` feature, which not every engine has. `COPY_DST` is
/// not needed: nothing is copied into it.
pub fn canvas_usage(options: &CanvasOptions, output: &OutputSpec) -> wgpu::TextureUsages {
    // wgpu's low usage bits are WebGPU's GPUTextureUsage bits.
    if options.screenshots {
        output.usage() | wgpu::TextureUsages::COPY_SRC
    } else {
        output.usage()
    }
}

/// The texture format the canvas is configured with.
pub fn resolve_format(format: CanvasFormat) -> Result<wgpu::TextureFormat, Error> {
    match format {
        CanvasFormat::Preferred => preferred_format(),
        CanvasFormat::Rgba16Float => Ok(wgpu::TextureFormat::Rgba16Float),
    }
}
