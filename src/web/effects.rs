//! `addEffect`, `setEffectUniforms`, `removeEffect` and `effects()`: the
//! page's own effects (`crate::user_effect`), kept as the page gave them so
//! that they are made again on a new device after a device loss.
//!
//! `addEffect` checks everything it can at once (name, stage, uniforms,
//! textures, bindings in the WGSL), then waits for the browser to compile
//! the effect alone and to say whether its `GPUTexture`s are the
//! renderer's device's; only then is the effect fused into the frame.
//! Until then, and after any refusal, the frame renders as before.

use wasm_bindgen::prelude::*;

use super::image::{image_texture, ImageSource};
use super::interop::{describe, get};
use super::shared::{instance_of, wrap_texture};
use super::verdicts::Given;
use crate::chain::Chain;
use crate::error::Error;
use crate::gpu::ErrorAnswer;
use crate::gpu::Gpu;
use crate::user_effect::{
    check_name, start_check, Check, EffectSpec, EffectStage, EffectTexture, UniformValue,
    UserEffect,
};

/// Where an effect's texture came from.
enum Source {
    /// Uploaded by afterglow (again after a device loss).
    Image(ImageSource),
    /// The app's `GPUTexture`; it cannot outlive its device.
    Texture(JsValue),
}

/// An effect as the page gave it.
pub struct Record {
    name: String,
    stage: EffectStage,
    wgsl: String,
    /// The uniforms' latest values.
    uniforms: Vec<(String, UniformValue)>,
    textures: Vec<(String, Source)>,
}

/// The page's effects, in the order they were added.
#[derive(Default)]
pub struct EffectSources {
    records: Vec<Record>,
}

impl EffectSources {
    /// The app's textures the effects read, for the destroyed-texture
    /// watch.
    pub fn given(&self) -> Vec<Given> {
        let textures = self.records.iter().flat_map(|r| &r.textures);
        textures
            .filter_map(|(_, s)| match s {
                Source::Texture(t) => Some(Given {
                    method: "addEffect",
                    argument: "textures",
                    texture: t.clone(),
                }),
                Source::Image(_) => None,
            })
            .collect()
    }

    /// Removes the effects that read one of `textures` (destroyed by the
    /// app); returns their names.
    pub fn drop_reading(
        &mut self,
        gpu: &Gpu,
        chain: &mut Chain,
        textures: &[JsValue],
    ) -> Vec<String> {
        let reads = |r: &Record| {
            r.textures
                .iter()
                .any(|(_, s)| matches!(s, Source::Texture(t) if textures.contains(t)))
        };
        let names: Vec<String> = self
            .records
            .iter()
            .filter(|r| reads(r))
            .map(|r| r.name.clone())
            .collect();
        for name in &names {
            let _ = chain.remove_effect(gpu, name);
        }
        self.records.retain(|r| !reads(r));
        names
    }

    /// Makes the effects again on a new device's chain (they compiled
    /// before). An effect that read an app's texture, which was the lost
    /// device's, is dropped, and the error says so.
    pub fn replay(&mut self, gpu: &Gpu, chain: &mut Chain) -> Result<(), Error> {
        let mut lost = Vec::new();
        let mut first_error = None;
        for r in &self.records {
            if r.textures
                .iter()
                .any(|(_, s)| matches!(s, Source::Texture(_)))
            {
                lost.push(r.name.clone());
                continue;
            }
            let made = textures_of(gpu, &r.textures).and_then(|textures| {
                let spec = EffectSpec {
                    name: r.name.clone(),
                    stage: r.stage,
                    wgsl: r.wgsl.clone(),
                    uniforms: r.uniforms.clone(),
                    textures,
                };
                let serial = chain.next_effect_serial();
                crate::user_effect::make(gpu, spec, serial, &chain.effect_names())
            });
            if let Err(e) = made.and_then(|e| chain.add_effect(gpu, e)) {
                first_error.get_or_insert(e);
            }
        }
        self.records.retain(|r| !lost.contains(&r.name));
        if !lost.is_empty() {
            return Err(Error::argument(
                "textures",
                format!(
                    "effects {} read textures of the lost device; add them again",
                    crate::options::value::join(&lost, ", ")
                ),
            ));
        }
        first_error.map_or(Ok(()), Err)
    }
}

/// An `addEffect` as the page called it, its arguments read.
pub struct Request {
    name: String,
    stage: EffectStage,
    wgsl: String,
    uniforms: Vec<(String, UniformValue)>,
    textures: Vec<(String, Source)>,
}

/// An `addEffect` whose checks are under way.
pub struct Pending {
    effect: UserEffect,
    check: Check,
    probes: Vec<(String, ErrorAnswer)>,
    record: Record,
}

/// Reads `addEffect(name, { wgsl, stage, uniforms, textures })`.
pub fn request(name: &JsValue, options: &JsValue) -> Result<Request, Error> {
    let name = effect_name(name)?;
    if !options.is_object() || js_sys::Array::is_array(options) {
        return Err(Error::argument(
            "options",
            format!(
                "must be an object {{ wgsl, stage, uniforms, textures }}, got {}",
                describe(options)
            ),
        ));
    }
    let wgsl_js = get(options, "wgsl");
    let wgsl = wgsl_js.as_string().ok_or_else(|| {
        Error::argument(
            "wgsl",
            format!(
                "must be a string of WGSL defining fn effect(color: vec4f, uv: vec2f) -> vec4f, got {}",
                describe(&wgsl_js)
            ),
        )
    })?;
    Ok(Request {
        name,
        stage: stage(&get(options, "stage"))?,
        wgsl,
        uniforms: uniform_values(&get(options, "uniforms"))?,
        textures: texture_sources(&get(options, "textures"))?,
    })
}

impl EffectSources {
    /// `addEffect`, first half: everything checked at once, the
    /// compilation and the texture checks started.
    pub fn start(&self, gpu: &Gpu, chain: &mut Chain, request: Request) -> Result<Pending, Error> {
        let Request {
            name,
            stage,
            wgsl,
            uniforms,
            textures: sources,
        } = request;
        // The name first: nothing is uploaded for an effect refused by it.
        check_name(&name, &chain.effect_names())?;
        let textures = textures_of(gpu, &sources)?;
        let probes = textures
            .iter()
            .filter(|t| t.own.is_none())
            .map(|t| (format!("textures.{}", t.name), gpu.probe_texture(&t.view)))
            .collect();
        let spec = EffectSpec {
            name: name.clone(),
            stage,
            wgsl: wgsl.clone(),
            uniforms: uniforms.clone(),
            textures,
        };
        let serial = chain.next_effect_serial();
        let effect = crate::user_effect::make(gpu, spec, serial, &chain.effect_names())?;
        let check = start_check(gpu, &effect);
        Ok(Pending {
            effect,
            check,
            probes,
            record: Record {
                name,
                stage,
                wgsl,
                uniforms,
                textures: sources,
            },
        })
    }

    /// `addEffect`, last: the effect is fused into the frame once the
    /// browser's answers (`verdict`) are in, unless an effect of the same
    /// name came first.
    pub fn install(
        &mut self,
        gpu: &Gpu,
        chain: &mut Chain,
        parts: (UserEffect, Record),
        verdict: Result<(), Error>,
    ) -> Result<(), Error> {
        let (effect, record) = parts;
        match verdict.and_then(|()| check_name(&effect.name, &chain.effect_names())) {
            Ok(()) => {
                chain.add_effect(gpu, effect)?;
                self.records.push(record);
                Ok(())
            }
            Err(e) => {
                crate::chain::release_effect(gpu, &effect);
                Err(e)
            }
        }
    }

    /// `setEffectUniforms(name, values)`.
    pub fn set_uniforms(
        &mut self,
        gpu: &Gpu,
        chain: &mut Chain,
        name: &JsValue,
        values: &JsValue,
    ) -> Result<(), Error> {
        let name = effect_name(name)?;
        if !values.is_object() || js_sys::Array::is_array(values) {
            return Err(Error::argument(
                "values",
                format!(
                    "must be an object of uniform values, got {}",
                    describe(values)
                ),
            ));
        }
        let values = uniform_values(values)?;
        chain.set_effect_uniforms(gpu, &name, &values)?;
        if let Some(record) = self.records.iter_mut().find(|rec| rec.name == name) {
            for (k, v) in values {
                if let Some(slot) = record.uniforms.iter_mut().find(|(n, _)| *n == k) {
                    slot.1 = v;
                }
            }
        }
        Ok(())
    }

    /// `removeEffect(name)`.
    pub fn remove(&mut self, gpu: &Gpu, chain: &mut Chain, name: &JsValue) -> Result<(), Error> {
        let name = effect_name(name)?;
        chain.remove_effect(gpu, &name)?;
        self.records.retain(|rec| rec.name != name);
        Ok(())
    }
}

impl Pending {
    /// Waits for the browser: the compilation, then each `GPUTexture`'s
    /// device. Returns the effect and what to keep of it, with the verdict.
    pub async fn verdict(self) -> ((UserEffect, Record), Result<(), Error>) {
        let Pending {
            effect,
            check,
            probes,
            record,
        } = self;
        let mut verdict = check.result(&effect.source).await;
        for (argument, probe) in probes {
            if let Some(e) = probe.await {
                verdict = verdict.and(Err(Error::argument(
                    &argument,
                    format!(
                        "is not a texture of the renderer's GPUDevice (the device given to \
                         Renderer.create(canvas, {{ device }})): create it on that device. \
                         The browser says: {e}"
                    ),
                )));
            }
        }
        ((effect, record), verdict)
    }
}

/// An effect's `name` argument: a string (what names it may be is
/// `user_effect::check_name`'s).
fn effect_name(name: &JsValue) -> Result<String, Error> {
    name.as_string()
        .ok_or_else(|| Error::argument("name", format!("must be a string, got {}", describe(name))))
}

/// `stage`: `'scene'` (the default) or `'display'`.
fn stage(v: &JsValue) -> Result<EffectStage, Error> {
    if v.is_undefined() {
        return Ok(EffectStage::Scene);
    }
    v.as_string()
        .as_deref()
        .and_then(EffectStage::from_name)
        .ok_or_else(|| {
            Error::argument(
                "stage",
                format!("must be 'scene' or 'display', got {}", describe(v)),
            )
        })
}

/// The entries of a plain object (`uniforms`, `textures`), or none for
/// `undefined`.
fn entries(v: &JsValue, argument: &str, what: &str) -> Result<Vec<(String, JsValue)>, Error> {
    if v.is_undefined() || v.is_null() {
        return Ok(Vec::new());
    }
    if !v.is_object() || js_sys::Array::is_array(v) {
        return Err(Error::argument(
            argument,
            format!("must be an object of {what} by name, got {}", describe(v)),
        ));
    }
    let object: &js_sys::Object = v.unchecked_ref();
    Ok(js_sys::Object::entries(object)
        .iter()
        .map(|pair| {
            let pair: js_sys::Array = pair.unchecked_into();
            (pair.get(0).as_string().unwrap_or_default(), pair.get(1))
        })
        .collect())
}

/// `uniforms`: numbers, or arrays of 2, 3 or 4 numbers.
fn uniform_values(v: &JsValue) -> Result<Vec<(String, UniformValue)>, Error> {
    let mut out = Vec::new();
    for (name, value) in entries(v, "uniforms", "numbers or arrays of 2 to 4 numbers")? {
        let refuse = || {
            Error::argument(
                &format!("uniforms.{name}"),
                format!(
                    "must be a finite number or an array of 2, 3 or 4 finite numbers, got {}",
                    describe(&value)
                ),
            )
        };
        let number = |x: &JsValue| {
            x.as_f64()
                .filter(|x| x.is_finite() && x.abs() <= f64::from(f32::MAX))
                .map(|x| x as f32)
        };
        let parsed = if let Some(x) = number(&value) {
            UniformValue::F32(x)
        } else if js_sys::Array::is_array(&value) {
            let array: &js_sys::Array = value.unchecked_ref();
            let xs: Option<Vec<f32>> = array.iter().map(|x| number(&x)).collect();
            match xs.as_deref() {
                Some(&[a, b]) => UniformValue::Vec2([a, b]),
                Some(&[a, b, c]) => UniformValue::Vec3([a, b, c]),
                Some(&[a, b, c, d]) => UniformValue::Vec4([a, b, c, d]),
                _ => return Err(refuse()),
            }
        } else {
            return Err(refuse());
        };
        out.push((name, parsed));
    }
    Ok(out)
}

/// `textures`: image sources or `GPUTexture`s of the renderer's device.
fn texture_sources(v: &JsValue) -> Result<Vec<(String, Source)>, Error> {
    let mut out = Vec::new();
    for (name, value) in entries(v, "textures", "images or GPUTextures")? {
        let source = if instance_of(&value, "GPUTexture") {
            Source::Texture(value)
        } else {
            let shown = describe(&value);
            Source::Image(ImageSource::new(value).map_err(|_| {
                Error::argument(
                    &format!("textures.{name}"),
                    format!(
                        "must be an ImageBitmap, HTMLImageElement, HTMLCanvasElement, \
                         HTMLVideoElement, OffscreenCanvas, ImageData or a GPUTexture of the \
                         renderer's device; got {shown}"
                    ),
                )
            })?)
        };
        out.push((name, source));
    }
    Ok(out)
}

/// The effect's textures on `gpu`: images uploaded, the app's wrapped.
fn textures_of(gpu: &Gpu, sources: &[(String, Source)]) -> Result<Vec<EffectTexture>, Error> {
    let mut out: Vec<EffectTexture> = Vec::new();
    let made = sources.iter().try_for_each(|(name, source)| {
        let argument = format!("textures.{name}");
        let texture = match source {
            Source::Texture(t) => {
                let (texture, view) = wrap_texture(gpu, t, &argument)?;
                EffectTexture {
                    name: name.clone(),
                    format: texture.format(),
                    size: (texture.width(), texture.height()),
                    view,
                    own: None,
                }
            }
            Source::Image(image) => {
                let size = image.size_on(gpu, &argument)?;
                let texture = image_texture(gpu, size, "effect texture")?;
                image.copy_to(gpu, &texture)?;
                EffectTexture {
                    name: name.clone(),
                    format: texture.format(),
                    size,
                    view: gpu.create_view(&texture, &Default::default()),
                    own: Some(texture),
                }
            }
        };
        out.push(texture);
        Ok(())
    });
    if let Err(e) = made {
        for t in out.iter().filter_map(|t| t.own.as_ref()) {
            t.destroy();
        }
        return Err(e);
    }
    Ok(out)
}
