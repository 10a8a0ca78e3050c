//! Image sources of `setImage` and their upload.
//!
//! The copy of an external image is made on the raw WebGPU queue, where
//! the browser may reject it with an exception (a cross-origin image
//! without CORS, for one): that exception becomes an `Error`, whereas
//! wgpu's web backend would unwrap it and abort the module.

use std::cell::{Cell, RefCell};

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::interop::{call, describe, get, is_a, js_message, num, object, offscreen_canvas};
use crate::chain::{Chain, Content, ImageContent};
use crate::error::Error;
use crate::gpu::Gpu;
use crate::options::value::decimal;

fn source_error(message: String) -> Error {
    Error::argument("source", message)
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
    /// A 2D canvas a video frame is drawn into first, where the engine
    /// copies no video element to a texture (Firefox): made on the first
    /// upload it refuses.
    frame_canvas: RefCell<Option<JsValue>>,
}

impl ImageSource {
    pub fn new(js: JsValue) -> Result<ImageSource, Error> {
        // By what they are, as `create` checks canvases: an image or a
        // canvas made in another realm (an iframe, a window opened by the
        // page) fails `instanceof` against this realm's classes.
        let kind = if is_a("ImageBitmap", "width", &js) {
            Kind::Bitmap
        } else if is_a("HTMLVideoElement", "videoWidth", &js) {
            Kind::Video
        } else if is_a("HTMLImageElement", "naturalWidth", &js) {
            Kind::Image
        } else if is_a("HTMLCanvasElement", "width", &js) {
            Kind::Canvas
        } else if is_a("OffscreenCanvas", "width", &js) {
            Kind::Offscreen
        } else if is_a("ImageData", "width", &js) {
            Kind::Data
        } else {
            return Err(source_error(format!(
                "must be an ImageBitmap, HTMLImageElement, HTMLCanvasElement, \
                 HTMLVideoElement, OffscreenCanvas or ImageData, got {}",
                describe(&js)
            )));
        };
        Ok(ImageSource {
            js,
            kind,
            uploaded_at: Cell::new(f64::NAN),
            frame_canvas: RefCell::new(None),
        })
    }

    /// [`Self::size`], refused naming `argument` when this device cannot
    /// hold a texture of it.
    pub fn size_on(&self, gpu: &Gpu, argument: &str) -> Result<(u32, u32), Error> {
        let size = self.size()?;
        let max = gpu.max_texture_size();
        if size.0 > max || size.1 > max {
            return Err(Error::argument(
                argument,
                format!(
                    "is {}×{} but this device allows at most {max} per side",
                    size.0, size.1
                ),
            ));
        }
        Ok(size)
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
                "is {}×{}: an image needs at least one pixel",
                decimal(w),
                decimal(h)
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
    /// An sRGB `ImageData` is written as the bytes it holds: not every
    /// engine copies an `ImageData` as an external image (Firefox does
    /// not).
    pub fn copy_to(&self, gpu: &Gpu, texture: &wgpu::Texture) -> Result<(), Error> {
        let srgb = get(&self.js, "colorSpace")
            .as_string()
            .is_none_or(|c| c == "srgb");
        if self.kind == Kind::Data && srgb {
            let bytes = js_sys::Uint8Array::new(&get(&self.js, "data")).to_vec();
            let (w, h) = (texture.width(), texture.height());
            if bytes.len() as u64 != 4 * u64::from(w) * u64::from(h) {
                return Err(source_error(format!(
                    "is an ImageData of {} bytes for {w}×{h} pixels",
                    bytes.len()
                )));
            }
            gpu.queue.write_texture(
                texture.as_image_copy(),
                &bytes,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(4 * w),
                    rows_per_image: Some(h),
                },
                texture.size(),
            );
            return Ok(());
        }
        let queue = gpu
            .queue
            .as_webgpu()
            .ok_or_else(|| Error::Canvas("the queue is not a WebGPU queue".into()))?;
        let raw = texture
            .as_webgpu()
            .ok_or_else(|| Error::Canvas("the texture is not a WebGPU texture".into()))?;
        let dst = object(&[
            ("texture", JsValue::from(raw.clone())),
            ("colorSpace", "srgb".into()),
            ("premultipliedAlpha", false.into()),
        ]);
        let size: Array = [texture.width(), texture.height()]
            .iter()
            .map(|v| JsValue::from(*v))
            .collect();
        let copy = |source: &JsValue| {
            let src = object(&[("source", source.clone())]);
            call(
                queue.as_ref(),
                "copyExternalImageToTexture",
                &[&src, &dst, &size],
            )
        };
        let frame_canvas = self.frame_canvas.borrow().clone();
        let mut copied = match &frame_canvas {
            Some(canvas) => self.draw_frame(canvas).and_then(|()| copy(canvas)),
            None => copy(&self.js),
        };
        // A video element the engine does not take (a TypeError, as for any
        // source of a type it does not copy) goes through a 2D canvas.
        let refused_type = |e: &JsValue| e.is_instance_of::<js_sys::TypeError>();
        if self.kind == Kind::Video
            && frame_canvas.is_none()
            && copied.as_ref().is_err_and(refused_type)
        {
            let (w, h) = (texture.width(), texture.height());
            copied = offscreen_canvas(w, h).and_then(|canvas| {
                self.draw_frame(&canvas)?;
                let result = copy(&canvas);
                *self.frame_canvas.borrow_mut() = Some(canvas);
                result
            });
        }
        copied.map_err(|e| {
            // Only an element's pixels can come from another origin.
            let hint = match self.kind {
                Kind::Image | Kind::Video | Kind::Canvas => {
                    " (a cross-origin image without CORS cannot be used)"
                }
                _ => "",
            };
            source_error(format!(
                "could not be copied to the GPU: {}{hint}",
                js_message(&e)
            ))
        })?;
        self.uploaded_at.set(num(&self.js, "currentTime"));
        Ok(())
    }

    /// Draws the video's current frame into `canvas`, at the video's size.
    fn draw_frame(&self, canvas: &JsValue) -> Result<(), JsValue> {
        let (w, h) = (num(&self.js, "videoWidth"), num(&self.js, "videoHeight"));
        if num(canvas, "width") != w || num(canvas, "height") != h {
            js_sys::Reflect::set(canvas, &"width".into(), &w.into())?;
            js_sys::Reflect::set(canvas, &"height".into(), &h.into())?;
        }
        let context = call(canvas, "getContext", &[&"2d".into()])?;
        call(&context, "drawImage", &[&self.js, &0.into(), &0.into()])?;
        Ok(())
    }
}

/// Shows `source` times `gain`: uploads it into the current image texture
/// when the size matches, else into a new one. On failure the chain keeps
/// its content.
pub fn show(gpu: &Gpu, chain: &mut Chain, source: &ImageSource, gain: f32) -> Result<(), Error> {
    let size = source.size_on(gpu, "source")?;
    let texture = match chain.content() {
        Content::Image(img) if (img.texture.width(), img.texture.height()) == size => {
            img.texture.clone()
        }
        _ => image_texture(gpu, size, "scene image")?,
    };
    source.copy_to(gpu, &texture)?;
    let content = Content::Image(ImageContent { texture, gain });
    if *chain.content() != content {
        chain.set_content(gpu, content)?;
    }
    Ok(())
}

/// The texture of an uploaded image (the scene's, the lens dirt's): sRGB
/// so sampling decodes to linear; exactly the usages
/// `copyExternalImageToTexture` requires plus sampling.
pub fn image_texture(gpu: &Gpu, size: (u32, u32), label: &str) -> Result<wgpu::Texture, Error> {
    let usage = wgpu::TextureUsages::TEXTURE_BINDING
        | wgpu::TextureUsages::COPY_DST
        | wgpu::TextureUsages::RENDER_ATTACHMENT;
    let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    gpu.create_texture_2d(label, size, format, (1, 1), usage)
}
