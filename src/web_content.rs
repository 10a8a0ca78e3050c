//! Web-only helpers behind the JS API: image sources and their upload,
//! shader compilation results, PNG encoding, and the resize observer.
//!
//! Calls that the browser may reject with an exception (the copy of an
//! external image, for one) are made on the raw WebGPU objects so the
//! exception becomes an `Error`: wgpu's web backend unwraps it, which
//! would abort the module.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::canvas::js_message;
use crate::error::Error;
use crate::gpu::Gpu;
use crate::options::{OptionError, Value};
use crate::readback::Image;

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn num(target: &JsValue, key: &str) -> f64 {
    get(target, key).as_f64().unwrap_or(0.0)
}

fn call(target: &JsValue, method: &str, args: &[&JsValue]) -> Result<JsValue, JsValue> {
    let f: Function = get(target, method)
        .dyn_into()
        .map_err(|_| JsValue::from_str(&format!("{method} is not a function")))?;
    let args: Array = args.iter().copied().collect();
    f.apply(target, &args)
}

fn source_error(message: String) -> Error {
    Error::Option(OptionError {
        field: "source".into(),
        message,
    })
}

/// `{ gain }` of `setImage`: a finite number from 0 to 10000, default 1.
pub fn parse_image_options(value: &Value) -> Result<f32, OptionError> {
    let entries = match value {
        Value::Undefined | Value::Null => return Ok(1.0),
        Value::Object(entries) => entries,
        other => {
            return Err(OptionError {
                field: "options".into(),
                message: format!(
                    "must be an object like {{ gain: 4 }}, got {}",
                    other.describe()
                ),
            })
        }
    };
    let mut gain = 1.0;
    for (key, v) in entries {
        match (key.as_str(), v) {
            ("gain", Value::Undefined) => {}
            ("gain", Value::Number(n)) if n.is_finite() && (0.0..=1.0e4).contains(n) => {
                gain = *n as f32
            }
            ("gain", other) => {
                return Err(OptionError {
                    field: "gain".into(),
                    message: format!("must be a number from 0 to 10000, got {}", other.describe()),
                })
            }
            (other, _) => {
                return Err(OptionError {
                    field: other.into(),
                    message: "is not an image option; allowed keys are 'gain'".into(),
                })
            }
        }
    }
    Ok(gain)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bitmap,
    Image,
    Video,
    Canvas,
    Offscreen,
    Data,
}

/// An image source accepted by `setImage`.
#[derive(Clone)]
pub struct ImageSource {
    js: JsValue,
    kind: Kind,
    /// Video time of the last upload, so a paused video is not re-uploaded.
    uploaded_at: Cell<f64>,
}

impl ImageSource {
    pub fn new(js: JsValue) -> Result<ImageSource, Error> {
        let kind = if js.is_instance_of::<web_sys::ImageBitmap>() {
            Kind::Bitmap
        } else if js.is_instance_of::<web_sys::HtmlVideoElement>() {
            Kind::Video
        } else if js.is_instance_of::<web_sys::HtmlImageElement>() {
            Kind::Image
        } else if js.is_instance_of::<web_sys::HtmlCanvasElement>() {
            Kind::Canvas
        } else if js.is_instance_of::<web_sys::OffscreenCanvas>() {
            Kind::Offscreen
        } else if js.is_instance_of::<web_sys::ImageData>() {
            Kind::Data
        } else {
            let what = if js.is_object() {
                get(&get(&js, "constructor"), "name")
                    .as_string()
                    .map(|n| format!("a {n}"))
                    .unwrap_or_else(|| "an object".into())
            } else {
                crate::web::to_value(&js).describe()
            };
            return Err(source_error(format!(
                "must be an ImageBitmap, HTMLImageElement, HTMLCanvasElement, \
                 HTMLVideoElement, OffscreenCanvas or ImageData, got {what}"
            )));
        };
        Ok(ImageSource {
            js,
            kind,
            uploaded_at: Cell::new(f64::NAN),
        })
    }

    pub fn is_video(&self) -> bool {
        self.kind == Kind::Video
    }

    /// Size in pixels; an error while there is nothing to show yet.
    pub fn size(&self) -> Result<(u32, u32), Error> {
        let (w, h) = match self.kind {
            Kind::Image => {
                if get(&self.js, "complete").as_bool() != Some(true)
                    || num(&self.js, "naturalWidth") < 1.0
                {
                    return Err(source_error(
                        "is an image that has not finished loading (or failed to); await \
                         img.decode() first"
                            .into(),
                    ));
                }
                (
                    num(&self.js, "naturalWidth"),
                    num(&self.js, "naturalHeight"),
                )
            }
            Kind::Video => {
                // HAVE_CURRENT_DATA: a frame can be drawn.
                if num(&self.js, "readyState") < 2.0 {
                    return Err(source_error(
                        "is a video with no frame yet; wait for its 'loadeddata' event".into(),
                    ));
                }
                (num(&self.js, "videoWidth"), num(&self.js, "videoHeight"))
            }
            _ => (num(&self.js, "width"), num(&self.js, "height")),
        };
        if w < 1.0 || h < 1.0 {
            return Err(source_error(format!(
                "is {w}×{h}: an image needs at least one pixel"
            )));
        }
        Ok((w as u32, h as u32))
    }

    /// A video that is playing and has moved on since the last upload.
    pub fn has_new_frame(&self) -> bool {
        if self.kind != Kind::Video {
            return false;
        }
        let playing = get(&self.js, "paused").as_bool() == Some(false)
            && get(&self.js, "ended").as_bool() != Some(true)
            && num(&self.js, "readyState") >= 2.0;
        playing && num(&self.js, "currentTime") != self.uploaded_at.get()
    }

    /// `copyExternalImageToTexture` into `texture` (straight alpha, sRGB).
    pub fn copy_to(&self, gpu: &Gpu, texture: &wgpu::Texture) -> Result<(), Error> {
        let queue = gpu
            .queue
            .as_webgpu()
            .ok_or_else(|| Error::Canvas("the queue is not a WebGPU queue".into()))?;
        let raw = texture
            .as_webgpu()
            .ok_or_else(|| Error::Canvas("the texture is not a WebGPU texture".into()))?;
        let src = Object::new();
        let _ = Reflect::set(&src, &"source".into(), &self.js);
        let dst = Object::new();
        let _ = Reflect::set(&dst, &"texture".into(), raw.as_ref());
        let _ = Reflect::set(&dst, &"colorSpace".into(), &"srgb".into());
        let _ = Reflect::set(&dst, &"premultipliedAlpha".into(), &false.into());
        let size: Array = [texture.width(), texture.height()]
            .iter()
            .map(|v| JsValue::from(*v))
            .collect();
        call(queue.as_ref(), "copyExternalImageToTexture", &[&src, &dst, &size]).map_err(|e| {
            source_error(format!(
                "could not be copied to the GPU: {} (a cross-origin image without CORS cannot be used)",
                js_message(&e)
            ))
        })?;
        self.uploaded_at.set(num(&self.js, "currentTime"));
        Ok(())
    }
}

/// The texture of an image content: sRGB so sampling decodes to linear;
/// exactly the usages `copyExternalImageToTexture` requires plus sampling.
pub fn image_texture(gpu: &Gpu, size: (u32, u32)) -> Result<wgpu::Texture, Error> {
    gpu.create_texture(&wgpu::TextureDescriptor {
        label: Some("scene image"),
        size: wgpu::Extent3d {
            width: size.0,
            height: size.1,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8UnormSrgb,
        usage: wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_DST
            | wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    })
}

/// The outcome of compiling a user's scene shader: `Ok`, or an `Error`
/// whose message and `line`/`column` point into the user's own WGSL.
pub fn shader_result(
    info: &wgpu::CompilationInfo,
    scope_error: Option<&wgpu::Error>,
    source: &str,
) -> Result<(), JsValue> {
    let user_lines = source.lines().count().max(1) as i64;
    let prefix_lines = crate::passes::content::user_prefix().lines().count() as i64;
    let first = info
        .messages
        .iter()
        .find(|m| m.message_type == wgpu::CompilationMessageType::Error);
    let (line, column, message) = match (first, scope_error) {
        (Some(m), _) => {
            let (line, column) = m
                .location
                .map(|l| (l.line_number as i64 - prefix_lines, l.line_position as i64))
                .unwrap_or((0, 0));
            (line, column, m.message.clone())
        }
        (None, Some(e)) => (0, 0, e.to_string()),
        (None, None) => return Ok(()),
    };
    let in_user_code = (1..=user_lines).contains(&line);
    let line = if in_user_code { line } else { 0 };
    let text = if in_user_code {
        format!("afterglow: setSceneShader: line {line}, column {column}: {message}")
    } else {
        format!(
            "afterglow: setSceneShader: {message} (the shader must define \
             fn scene(uv: vec2f, time: f32) -> vec4f)"
        )
    };
    let error = js_sys::Error::new(&text);
    let _ = Reflect::set(
        &error,
        &"line".into(),
        &JsValue::from_f64(line.max(0) as f64),
    );
    let _ = Reflect::set(&error, &"column".into(), &JsValue::from_f64(column as f64));
    Err(error.into())
}

/// Encodes pixels as a PNG `Blob` with the browser's own encoder.
pub async fn encode_png(image: &Image, premultiplied: bool) -> Result<JsValue, Error> {
    let fail = |what: &str, e: JsValue| Error::Readback(format!("{what}: {}", js_message(&e)));
    let data = image.to_straight_rgba8(premultiplied);
    let pixels = web_sys::ImageData::new_with_u8_clamped_array_and_sh(
        wasm_bindgen::Clamped(&data),
        image.width,
        image.height,
    )
    .map_err(|e| fail("ImageData", e))?;
    let canvas = web_sys::OffscreenCanvas::new(image.width, image.height)
        .map_err(|e| fail("OffscreenCanvas", e))?;
    let ctx = call(&canvas, "getContext", &[&"2d".into()]).map_err(|e| fail("getContext", e))?;
    call(&ctx, "putImageData", &[&pixels, &0.into(), &0.into()])
        .map_err(|e| fail("putImageData", e))?;
    let options = Object::new();
    let _ = Reflect::set(&options, &"type".into(), &"image/png".into());
    let promise =
        call(&canvas, "convertToBlob", &[&options]).map_err(|e| fail("convertToBlob", e))?;
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(promise))
        .await
        .map_err(|e| fail("convertToBlob", e))
}

/// A `ResizeObserver` on the canvas's `device-pixel-content-box`, writing
/// the displayed size in device pixels (clamped to the device limit) for
/// the next frame to apply. Disconnected when dropped.
pub struct AutoResize {
    observer: JsValue,
    _callback: Closure<dyn FnMut(Array)>,
}

impl AutoResize {
    pub fn observe(
        element: &JsValue,
        max: u32,
        pending: Rc<Cell<Option<(u32, u32)>>>,
    ) -> Result<AutoResize, Error> {
        if !element.is_instance_of::<web_sys::HtmlCanvasElement>() {
            return Err(Error::Option(OptionError {
                field: "autoResize".into(),
                message: "needs an HTMLCanvasElement in the page (an OffscreenCanvas has no \
                          displayed size); resize it with resize(width, height)"
                    .into(),
            }));
        }
        pin_intrinsic_size(element);
        let clamp = move |v: f64| (v.round().max(0.0) as u32).min(max);
        let callback = Closure::<dyn FnMut(Array)>::new(move |entries: Array| {
            let Some(entry) = entries.iter().last() else {
                return;
            };
            let boxes = get(&entry, "devicePixelContentBoxSize");
            let size = if boxes.is_object() {
                let b = get(&boxes, "0");
                (clamp(num(&b, "inlineSize")), clamp(num(&b, "blockSize")))
            } else {
                let ratio = num(&js_sys::global(), "devicePixelRatio").max(1.0);
                let rect = get(&entry, "contentRect");
                (
                    clamp(num(&rect, "width") * ratio),
                    clamp(num(&rect, "height") * ratio),
                )
            };
            pending.set(Some(size));
        });
        let ctor: Function = get(&js_sys::global(), "ResizeObserver")
            .dyn_into()
            .map_err(|_| Error::Canvas("this browser has no ResizeObserver".into()))?;
        let observer = Reflect::construct(&ctor, &Array::of1(callback.as_ref()))
            .map_err(|e| Error::Canvas(format!("ResizeObserver: {}", js_message(&e))))?;
        let options = Object::new();
        let _ = Reflect::set(&options, &"box".into(), &"device-pixel-content-box".into());
        if call(&observer, "observe", &[element, &options]).is_err() {
            // Browsers without device-pixel-content-box: CSS box × devicePixelRatio.
            call(&observer, "observe", &[element]).map_err(|e| {
                Error::Canvas(format!("ResizeObserver.observe: {}", js_message(&e)))
            })?;
        }
        Ok(AutoResize {
            observer,
            _callback: callback,
        })
    }
}

/// An unstyled canvas is displayed at the size of its `width`/`height`
/// attributes. Setting those to the displayed size × devicePixelRatio would
/// then grow it on every observation, so its CSS size is pinned first.
fn pin_intrinsic_size(element: &JsValue) {
    let ratio = num(&js_sys::global(), "devicePixelRatio");
    let (cw, ch) = (num(element, "clientWidth"), num(element, "clientHeight"));
    let intrinsic = cw == num(element, "width") && ch == num(element, "height");
    if ratio != 1.0 && intrinsic && cw > 0.0 {
        let style = get(element, "style");
        let _ = Reflect::set(&style, &"width".into(), &format!("{cw}px").into());
        let _ = Reflect::set(&style, &"height".into(), &format!("{ch}px").into());
    }
}

impl Drop for AutoResize {
    fn drop(&mut self) {
        let _ = call(&self.observer, "disconnect", &[]);
    }
}
