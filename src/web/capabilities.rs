//! What this engine's WebGPU canvas can do, found out by asking it rather
//! than assumed from the browser's name: once per renderer, a 1×1
//! `OffscreenCanvas` is configured as an HDR canvas would be, and its
//! configuration read back. Firefox has no `rgba16float` canvas
//! (`configure()` throws); an engine may take the format but drop
//! `toneMapping` (its configuration then has none, and values above 1
//! would be clamped).

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::interop::{get, object, offscreen_canvas};
use crate::error::Error;
use crate::gpu::Gpu;
use crate::options::{CanvasFormat, ColorSpace, ToneMapping};
use crate::output::OutputSpec;

/// What is missing, in words.
const NO_FLOAT_CANVAS: &str =
    "this browser has no 'rgba16float' canvas (configure() refuses the format)";
const NO_EXTENDED: &str = "this browser has no toneMapping 'extended' (the canvas configuration \
                           drops it, so light above white would be clamped)";
const NO_DISPLAY_P3: &str = "this browser's canvas configuration keeps no colorSpace \
                             'display-p3' (colours would be shown as sRGB)";
/// What to do about it.
const USE_AUTO: &str =
    "use canvas.dynamicRange 'auto', which stays on the 8-bit path where HDR cannot be had";

/// What the canvas can be configured with, beyond the 8-bit formats
/// every engine has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// `configure()` takes `format: 'rgba16float'`.
    pub float_canvas: bool,
    /// The configuration keeps `toneMapping: { mode: 'extended' }`.
    pub extended_tone_mapping: bool,
    /// The configuration keeps `colorSpace: 'display-p3'` (Firefox's has
    /// no `colorSpace`: P3 values would be shown as sRGB).
    pub display_p3: bool,
}

impl Capabilities {
    /// Everything (what is assumed where the engine cannot be asked: no
    /// `OffscreenCanvas`; `configure()` on the real canvas then says).
    pub const ALL: Capabilities = Capabilities {
        float_canvas: true,
        extended_tone_mapping: true,
        display_p3: true,
    };

    /// Asks the engine, on `gpu`'s device.
    pub fn detect(gpu: &Gpu) -> Capabilities {
        let Some(device) = gpu.device.as_webgpu() else {
            return Capabilities::ALL;
        };
        let Some(context) = scratch_context() else {
            return Capabilities::ALL;
        };
        let device = AsRef::<JsValue>::as_ref(device);
        let Some(float) = configured(
            &context,
            device,
            "rgba16float",
            "toneMapping",
            &object(&[("mode", "extended".into())]).into(),
        ) else {
            return Capabilities::ALL;
        };
        let Some(p3) = configured(
            &context,
            device,
            "rgba8unorm",
            "colorSpace",
            &"display-p3".into(),
        ) else {
            return Capabilities::ALL;
        };
        if let Some(unconfigure) = get(&context, "unconfigure").dyn_ref::<js_sys::Function>() {
            let _ = unconfigure.call0(&context);
        }
        let mode = float.map(|c| get(&get(&c, "toneMapping"), "mode").as_string());
        Capabilities {
            float_canvas: mode.is_some(),
            extended_tone_mapping: mode.flatten().as_deref() == Some("extended"),
            display_p3: p3
                .and_then(|c| get(&c, "colorSpace").as_string())
                .as_deref()
                == Some("display-p3"),
        }
    }

    /// Whether an HDR canvas (`rgba16float`, `'extended'`) can be had.
    pub fn hdr(&self) -> bool {
        self.float_canvas && self.extended_tone_mapping
    }

    /// What is missing for an HDR canvas, in words; `None` when nothing.
    pub fn missing(&self) -> Option<&'static str> {
        if !self.float_canvas {
            Some(NO_FLOAT_CANVAS)
        } else if !self.extended_tone_mapping {
            Some(NO_EXTENDED)
        } else {
            None
        }
    }

    /// Refuses an output this engine cannot show, naming what it lacks:
    /// asked for explicitly (`canvas.format`, `canvas.toneMapping`), HDR
    /// is an error rather than a picture clamped without a word.
    pub fn check(&self, output: &OutputSpec) -> Result<(), Error> {
        let float = output.format == wgpu::TextureFormat::Rgba16Float;
        if float && !self.float_canvas {
            return Err(Error::Canvas(format!(
                "canvas.format '{}': {NO_FLOAT_CANVAS}; {USE_AUTO}",
                CanvasFormat::Rgba16Float.as_str()
            )));
        }
        if output.color_space == ColorSpace::DisplayP3 && !self.display_p3 {
            return Err(Error::Canvas(format!(
                "canvas.colorSpace '{}': {NO_DISPLAY_P3}; use 'srgb'",
                ColorSpace::DisplayP3.as_str()
            )));
        }
        if output.tone_mapping == ToneMapping::Extended && !self.extended_tone_mapping {
            return Err(Error::Canvas(format!(
                "canvas.toneMapping '{}': {NO_EXTENDED}; {USE_AUTO}",
                ToneMapping::Extended.as_str()
            )));
        }
        Ok(())
    }
}

/// Configures `context` on `device` with `format` and `key: value`: the
/// configuration the engine kept, `Some(None)` when `configure()` threw,
/// and `None` when the context cannot be configured or read at all.
fn configured(
    context: &JsValue,
    device: &JsValue,
    format: &str,
    key: &str,
    value: &JsValue,
) -> Option<Option<JsValue>> {
    let config = object(&[
        ("device", device.clone()),
        ("format", format.into()),
        ("alphaMode", "opaque".into()),
        (key, value.clone()),
    ]);
    let configure = get(context, "configure");
    if configure
        .dyn_ref::<js_sys::Function>()?
        .call1(context, &config)
        .is_err()
    {
        return Some(None);
    }
    let read = get(context, "getConfiguration");
    Some(read.dyn_ref::<js_sys::Function>()?.call0(context).ok())
}

/// The `webgpu` context of a new 1×1 `OffscreenCanvas`, where there is one.
fn scratch_context() -> Option<JsValue> {
    let canvas = offscreen_canvas(1, 1).ok()?;
    let get_context = get(&canvas, "getContext");
    let context = get_context
        .dyn_ref::<js_sys::Function>()?
        .call1(&canvas, &"webgpu".into())
        .ok()?;
    (!context.is_null() && !context.is_undefined()).then_some(context)
}
