//! The JavaScript surface: the only `#[wasm_bindgen]` exports. Each method
//! converts its JS arguments (through `interop`), calls the renderer and
//! turns a failure into a JS `Error` with a `name` and the fields of its
//! kind. Nothing here panics on caller input: a panic would kill the wasm
//! module.
//!
//! Modules, each using only those listed after it: `recovery` (device
//! loss) and `shader` (scene shaders compiling), `renderer` (the state and
//! what each method does to it), `content` (the user's content, replayed
//! after a device loss), `image`, `canvas`, `resize_observer`, `png`,
//! `request` (asking the browser for an adapter and a device, each wait
//! bounded), and `interop`, every JS helper.

mod canvas;
mod capabilities;
mod content;
mod display;
mod effects;
mod image;
pub(crate) mod interop;
mod look;
mod png;
mod recovery;
mod renderer;
mod request;
mod resize_observer;
mod shader;
mod shared;
mod texture;
mod verdicts;

use wasm_bindgen::prelude::*;

use crate::arguments;
use crate::error::Error;
use crate::options::{Options, OptionsValue};
use interop::{js_error, read_value, to_js, Handle};
use renderer::WebRenderer;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &'static str = include_str!("afterglow.d.ts");

/// A failure as the JS `Error` it is thrown as.
fn js<T, E: Into<Error>>(result: Result<T, E>) -> Result<T, JsValue> {
    result.map_err(|e| js_error(&e.into()))
}

/// `Renderer.create`'s options, checked, and the app's `device` when it
/// gave one. Kept out of `create`'s state machine.
#[inline(never)]
fn create_options(options: Option<JsValue>) -> Result<(Options, Option<JsValue>), JsValue> {
    let options_js = options.unwrap_or(JsValue::UNDEFINED);
    let mut options = js(read_value(&options_js, "options"))?;
    js(arguments::options_object(
        "options",
        &options,
        "{ bloom: { intensity: 0.8 } }",
    ))?;
    // `device` is an object, not an option: taken out before parsing.
    let mut device = None;
    if let crate::options::Value::Object(entries) = &mut options {
        if entries.iter().any(|(k, _)| k == "device") {
            entries.retain(|(k, _)| k != "device");
            device = Some(interop::get(&options_js, "device")).filter(|d| !d.is_undefined());
        }
    }
    Ok((js(Options::from_value(&options))?, device))
}

/// An HDR renderer bound to one canvas.
#[wasm_bindgen]
pub struct Renderer {
    inner: Handle<WebRenderer>,
}

#[wasm_bindgen]
impl Renderer {
    /// Creates a renderer for `canvas` (an `HTMLCanvasElement` or
    /// `OffscreenCanvas`): requests a WebGPU device (or uses the app's, given
    /// as `device`), configures the canvas context and builds the HDR chain
    /// at the canvas's current size.
    /// Rejects with an `OptionError` naming the bad option, an
    /// `ArgumentError` for something that is not a canvas, or a
    /// `DeviceError` saying why WebGPU is unavailable.
    pub async fn create(
        #[wasm_bindgen(unchecked_param_type = "HTMLCanvasElement | OffscreenCanvas")]
        canvas: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CreateOptions")] options: Option<JsValue>,
    ) -> Result<Renderer, JsValue> {
        interop::install_panic_hook();
        let (options, device) = create_options(options)?;
        let inner = js(WebRenderer::create(canvas, options, device).await)?;
        Ok(Renderer {
            inner: Handle::new(inner),
        })
    }

    /// Renders one frame at `timeSeconds` (default 0): fetches the canvas's
    /// current texture, runs the chain, one submit. Does nothing while the
    /// canvas is 0×0. After a device loss it skips frames while a new
    /// device is set up, and throws a `DeviceError` if that keeps failing.
    pub fn render(
        &self,
        #[wasm_bindgen(js_name = timeSeconds, unchecked_optional_param_type = "number")]
        time_seconds: Option<JsValue>,
    ) -> Result<(), JsValue> {
        // A number, as every frame passes, is read with one call into
        // JavaScript; anything else is read whole, for the error message.
        let time = match time_seconds.as_ref().and_then(JsValue::as_f64) {
            Some(n) => crate::options::Value::Number(n),
            None => js(read_value(
                &time_seconds.unwrap_or(JsValue::UNDEFINED),
                "timeSeconds",
            ))?,
        };
        let time = js(arguments::time(&time))?;
        js(recovery::render(&self.inner, time))
    }

    /// Resizes the canvas to `width`×`height` device pixels, reconfigures the
    /// context and rebuilds the size-dependent targets. 0 in either
    /// dimension pauses rendering; more than the device's
    /// `maxTextureDimension2D` is refused. With `autoResize` on, the next
    /// `render()` puts the displayed size back. A size the device has too
    /// little memory for makes `render()` throw a `DeviceError`
    /// (`'out-of-memory'`) a frame or a few later.
    pub fn resize(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] width: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] height: JsValue,
    ) -> Result<(), JsValue> {
        // Converted before the renderer is borrowed (see read_value).
        let width = js(read_value(&width, "width"))?;
        let height = js(read_value(&height, "height"))?;
        js(self.inner.with("resize", |r| {
            let max = r.gpu.max_texture_size();
            let w = arguments::dimension("width", &width, max)?;
            let h = arguments::dimension("height", &height, max)?;
            r.resize((w, h))
        }))
    }

    /// Changes any options at run time; fields left out keep their value.
    /// What each change costs is in the option schema: canvas options
    /// reconfigure the context, `msaa`/`resolve` and the bloom chain's shape
    /// rebuild the frame, `renderScale` resizes the targets, the others
    /// only update uniforms; unchanged options cost nothing. Throws
    /// (changing nothing) on a bad value.
    #[wasm_bindgen(js_name = setOptions)]
    pub fn set_options(
        &self,
        #[wasm_bindgen(unchecked_param_type = "RendererOptions")] options: JsValue,
    ) -> Result<(), JsValue> {
        let partial = js(read_value(&options, "options"))?;
        js(arguments::options_object(
            "options",
            &partial,
            "{ exposure: 2 }",
        ))?;
        js(self.inner.with("setOptions", |r| {
            let next = r.options.merged(&partial)?;
            r.apply_options(next)
        }))
    }

    /// The effective options, defaults filled in.
    #[wasm_bindgen(unchecked_return_type = "EffectiveOptions")]
    pub fn options(&self) -> Result<JsValue, JsValue> {
        js(self
            .inner
            .with("options", |r| Ok(to_js(&r.options.to_value()))))
    }

    /// The canvas context's configuration as the browser reports it
    /// (`getConfiguration()`), with the canvas `width` and `height`.
    #[wasm_bindgen(unchecked_return_type = "CanvasConfiguration")]
    pub fn configuration(&self) -> Result<JsValue, JsValue> {
        js(self.inner.with("configuration", |r| Ok(r.configuration())))
    }

    /// Renders `wgsl` as the scene. It must define
    /// `fn scene(uv: vec2f, time: f32) -> vec4f` returning linear HDR
    /// radiance and alpha (premultiplied) for `uv` in 0..1 (y down);
    /// `resolution()` gives the target size in pixels. Resolves once the
    /// shader is in use; rejects with a `ShaderError` carrying `line`,
    /// `column` and the compiler's message, and the previous content keeps
    /// rendering.
    #[wasm_bindgen(js_name = setSceneShader, unchecked_return_type = "Promise<void>")]
    pub fn set_scene_shader(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] wgsl: JsValue,
    ) -> js_sys::Promise {
        let inner = self.inner.clone();
        // Started now, not when the promise first runs: a call made right
        // after this one must win over it.
        let started = wgsl
            .as_string()
            .ok_or_else(|| {
                Error::argument(
                    "wgsl",
                    format!("must be a string of WGSL, got {}", interop::describe(&wgsl)),
                )
            })
            .and_then(|source| shader::start(&inner, source));
        wasm_bindgen_futures::future_to_promise(async move {
            js(shader::finish(inner, js(started)?).await)?;
            Ok(JsValue::UNDEFINED)
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
        let options = js(read_value(&options.unwrap_or_default(), "options"))?;
        let gain = js(arguments::image_gain(&options))?;
        let source = js(image::ImageSource::new(source))?;
        js(self.inner.with("setImage", |r| {
            r.content.set_image(&r.gpu, &mut r.chain, source, gain)
        }))
    }

    /// Shows the app's own texture as the scene: a `GPUTexture` of the
    /// renderer's device (`create(canvas, { device })`), 2D, single-sampled,
    /// with `TEXTURE_BINDING` usage and a filterable color format. It is
    /// sampled where it is on every `render()` (no copy) and scaled to fill
    /// the canvas. `bloom`, a second texture of the same size, feeds the
    /// bloom instead of the scene (selective bloom); `depth`, a depth
    /// texture of the same size (or `r32float` distances), with the
    /// `camera` that reads it, is what depth of field blurs by. Calling it
    /// again with the same objects costs nothing (another camera only
    /// rewrites uniforms); a new object rebinds. WebGPU
    /// cannot say at once which device made a texture: a new object is
    /// checked in the background while the next `render()` already shows
    /// it (no frame is skipped). Until the answer is in, frames are
    /// submitted under afterglow's own error scopes, so the app's error
    /// handler never sees an error; a texture of another device turns the
    /// scene black and makes the next `render()` throw an `ArgumentError`
    /// naming `texture`, `bloom` or `depth`.
    #[wasm_bindgen(js_name = setTexture)]
    pub fn set_texture(
        &self,
        #[wasm_bindgen(unchecked_param_type = "GPUTexture")] texture: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "TextureOptions")] options: Option<JsValue>,
    ) -> Result<(), JsValue> {
        let options = options.unwrap_or(JsValue::UNDEFINED);
        let value = js(read_value(&options, "options"))?;
        let given = js(arguments::texture_options(&value))?;
        let bloom = given.bloom.then(|| interop::get(&options, "bloom"));
        let depth = given.depth.then(|| interop::get(&options, "depth"));
        let textures = content::AppTextures {
            scene: texture,
            bloom,
            depth,
            camera: given.camera,
        };
        js(self.inner.with("setTexture", |r| {
            r.check_device()?;
            if r.content.shows_textures(&textures) {
                // The same textures: a camera that moved is uniforms only.
                return texture::set_camera(&mut r.texture_parts(), &textures);
            }
            // A texture of another size makes the frame's targets anew.
            r.allocating(&mut |r| texture::set_texture(&mut r.texture_parts(), textures.clone()))
        }))
    }

    /// Sets the 3D lookup table applied after the curve, in display space:
    /// `cube` is the text of an Adobe/Resolve `.cube` file (`LUT_3D_SIZE`
    /// 2 to 65, optional `TITLE`, `DOMAIN_MIN`/`DOMAIN_MAX`, `#` comments),
    /// or `null` to remove it. `grading.lutIntensity` mixes it in. A
    /// malformed file throws an `ArgumentError` naming `cube`, with the
    /// line and what is wrong, and the previous table stays. The table is
    /// kept across a device loss.
    #[wasm_bindgen(js_name = setLut)]
    pub fn set_lut(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string | null")] cube: JsValue,
    ) -> Result<(), JsValue> {
        js(self
            .inner
            .with("setLut", |r| r.look.set_lut(&r.gpu, &mut r.chain, &cube)))
    }

    /// Sets the lens dirt (`null` removes it): an image source `setImage`
    /// accepts (a video's current frame is taken once) or a `GPUTexture`
    /// of the renderer's device (2D, `TEXTURE_BINDING`, a filterable
    /// format), scaled to cover the canvas. The bloom, and only the bloom,
    /// is multiplied by `1 + bloom.dirtIntensity × dirt`. Resolves once the
    /// dirt is in use; rejects with an `ArgumentError` naming `source`. An
    /// image is kept across a device loss; a texture, being the lost
    /// device's, is not.
    #[wasm_bindgen(js_name = setLensDirt, unchecked_return_type = "Promise<void>")]
    pub fn set_lens_dirt(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ImageSourceInput | GPUTexture | null")]
        source: JsValue,
    ) -> js_sys::Promise {
        let inner = self.inner.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            js(set_lens_dirt(inner, source).await)?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// Adds an effect of the page's own, fused into the composite after
    /// the others of its stage, under `name`, any string of 1 to 64
    /// characters (`'film-look'`, `'Tint 2'`): `wgsl` defines
    /// `fn effect(color: vec4f, uv: vec2f) -> vec4f` and may read
    /// `uniforms.<name>`, its textures by name, `time()` and
    /// `resolution()`. Resolves once the effect is in use; rejects with an
    /// `ArgumentError` naming `name`, `stage`, `uniforms.<name>`,
    /// `textures.<name>` or `wgsl`, or a `ShaderError` at the line and
    /// column of the WGSL, and the frame renders as before.
    #[wasm_bindgen(js_name = addEffect, unchecked_return_type = "Promise<void>")]
    pub fn add_effect(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "EffectOptions")] options: JsValue,
    ) -> js_sys::Promise {
        let inner = self.inner.clone();
        // Started now: a later call with the same name loses to this one.
        let started = effects::request(&name, &options).and_then(|request| {
            inner.with("addEffect", |r| {
                r.effects.start(&r.gpu, &mut r.chain, request)
            })
        });
        wasm_bindgen_futures::future_to_promise(async move {
            let (parts, verdict) = js(started)?.verdict().await;
            js(inner.with("addEffect", |r| {
                r.effects.install(&r.gpu, &mut r.chain, parts, verdict)
            }))?;
            Ok(JsValue::UNDEFINED)
        })
    }

    /// New values for some of an effect's uniforms, each of the type it
    /// was added with (a number, or an array of 2 to 4 numbers).
    #[wasm_bindgen(js_name = setEffectUniforms)]
    pub fn set_effect_uniforms(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
        #[wasm_bindgen(unchecked_param_type = "Record<string, number | number[]>")] values: JsValue,
    ) -> Result<(), JsValue> {
        js(self.inner.with("setEffectUniforms", |r| {
            r.effects.set_uniforms(&r.gpu, &mut r.chain, &name, &values)
        }))
    }

    /// Removes an effect the page added; the frame renders as before it.
    #[wasm_bindgen(js_name = removeEffect)]
    pub fn remove_effect(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] name: JsValue,
    ) -> Result<(), JsValue> {
        js(self.inner.with("removeEffect", |r| {
            r.effects.remove(&r.gpu, &mut r.chain, &name)
        }))
    }

    /// The names of the page's effects, in the order they were added.
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn effects(&self) -> Result<JsValue, JsValue> {
        js(self.inner.with("effects", |r| {
            let names = js_sys::Array::new();
            for n in r.chain.effect_names() {
                names.push(&JsValue::from_str(n));
            }
            Ok(names.into())
        }))
    }

    /// With `autoExposure` on, jumps to the metered exposure on the next
    /// frame instead of adapting to it (for a camera cut or a new scene).
    #[wasm_bindgen(js_name = resetExposure)]
    pub fn reset_exposure(&self) -> Result<(), JsValue> {
        js(self.inner.with("resetExposure", |r| {
            r.chain.reset_history();
            Ok(())
        }))
    }

    /// Goes back to the built-in demo scene.
    #[wasm_bindgen(js_name = useDemoScene)]
    pub fn use_demo_scene(&self) -> Result<(), JsValue> {
        js(self
            .inner
            .with("useDemoScene", |r| r.content.use_demo(&r.gpu, &mut r.chain)))
    }

    /// A PNG of the current frame (rendered again at the last frame's time
    /// and read back from the canvas texture). Needs `canvas.screenshots:
    /// true`.
    #[wasm_bindgen(unchecked_return_type = "Promise<Blob>")]
    pub fn screenshot(&self) -> js_sys::Promise {
        let inner = self.inner.clone();
        wasm_bindgen_futures::future_to_promise(
            async move { js(renderer::screenshot(inner).await) },
        )
    }

    /// Frame counts, CPU and per-pass GPU time, GPU memory, configuration.
    /// `{ gpu: true }` turns per-pass GPU timing on (it stays on; `gpuMs` is
    /// `null` until it is on and results have arrived); `{ gpu: false }`
    /// turns it off again.
    #[wasm_bindgen(unchecked_return_type = "RendererStats")]
    pub fn stats(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "StatsOptions")] options: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        let options = js(read_value(
            &options.unwrap_or(JsValue::UNDEFINED),
            "options",
        ))?;
        let gpu = js(arguments::stats_gpu(&options))?;
        js(self.inner.with("stats", |r| {
            if let Some(on) = gpu {
                r.set_timing(on);
            }
            Ok(r.stats())
        }))
    }

    /// Unconfigures the canvas context (releasing its images) and the GPU
    /// resources. Any later call throws.
    pub fn destroy(&self) -> Result<(), JsValue> {
        // Dropping the renderer unconfigures and destroys (see its Drop).
        js(self.inner.take("destroy")).map(drop)
    }
}

/// Rust-side access for the browser suites (`src/tests/`), in test builds
/// only: the renderer's device, content no page can give, the frame read
/// back as pixels.
#[cfg(test)]
use crate::{chain::Content, gpu::Gpu, readback::Image};

#[cfg(test)]
impl Renderer {
    /// Runs `f` with the renderer's GPU; `None` after `destroy()`.
    pub fn with_gpu<T>(&self, f: impl FnOnce(&Gpu) -> T) -> Option<T> {
        self.inner.peek(|r| f(&r.gpu))
    }

    /// Replaces the content of the scene pass.
    pub fn set_content(&self, content: Content) -> Result<(), Error> {
        self.inner.with("setContent", |r| {
            r.content.set(&r.gpu, &mut r.chain, content)
        })
    }

    /// Panics inside a call, as a bug in afterglow would.
    pub fn panic_inside_a_call(&self) -> Result<(), Error> {
        self.inner
            .with("render", |_| panic!("a panic inside render()"))
    }

    /// From now on acts as on an engine with only these capabilities: an
    /// `rgba16float` canvas, `toneMapping: 'extended'`, timestamp queries
    /// (Chromium has them all, and each has a path without it). The
    /// options are applied again, as after a change of the display.
    pub fn pretend_engine(
        &self,
        float_canvas: bool,
        extended_tone_mapping: bool,
        timestamps: bool,
    ) -> Result<(), Error> {
        self.inner.with("setOptions", |r| {
            r.canvas.set_caps(capabilities::Capabilities {
                float_canvas,
                extended_tone_mapping,
                display_p3: r.canvas.caps().display_p3,
            });
            if !timestamps {
                r.gpu.features.remove(wgpu::Features::TIMESTAMP_QUERY);
                r.set_timing(false);
            }
            let options = r.options;
            r.apply_options(options)
        })
    }

    /// The names of the passes of a frame, in order.
    pub fn pass_names(&self) -> Vec<String> {
        self.inner
            .peek(|r| r.chain.pass_names())
            .unwrap_or_default()
    }

    /// Renders a frame and reads the canvas texture back (needs
    /// `canvas.screenshots: true`).
    pub async fn render_and_read(&self, time_seconds: f64) -> Result<Image, Error> {
        renderer::texture_checked(&self.inner, "render").await?;
        let (readback, device) = self.inner.with("render", |r| {
            Ok((r.frame_for_reading(time_seconds)?, r.gpu.device.clone()))
        })?;
        readback.read(&device).await
    }
}

/// The JS `Error` that afterglow throws for `e`, with its `name` and
/// fields (for the browser suite's checks of every variant).
#[cfg(test)]
pub fn error_to_js(e: &Error) -> JsValue {
    js_error(e)
}

/// `setLensDirt(source)`: an image source is uploaded at once; a
/// `GPUTexture` is checked to belong to the renderer's device first (as
/// `setTexture`'s are), then installed unless another call came since.
async fn set_lens_dirt(handle: Handle<WebRenderer>, source: JsValue) -> Result<(), Error> {
    if !shared::instance_of(&source, "GPUTexture") {
        return handle.with("setLensDirt", |r| {
            look::image_dirt(&mut r.look, &r.gpu, &mut r.chain, source)
        });
    }
    let (dirt, probe, generation) = handle.with("setLensDirt", |r| {
        r.look.check_dirt_texture(&r.gpu, &source)
    })?;
    if let Some(e) = probe.await {
        return Err(Error::argument(
            "source",
            format!(
                "is not a texture of the renderer's GPUDevice (the device given to \
                 Renderer.create(canvas, {{ device }})): create it on that device. \
                 The browser says: {e}"
            ),
        ));
    }
    handle.with("setLensDirt", |r| {
        r.look
            .install_dirt_texture(&r.gpu, &mut r.chain, dirt, generation, source)
    })
}
