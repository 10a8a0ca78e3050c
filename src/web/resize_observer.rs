//! `autoResize`: a `ResizeObserver` that keeps the canvas at its displayed
//! size in device pixels.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Array, Function, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::interop::{call, get, js_message, num, object, set, warn};
use crate::error::Error;
use crate::options::value::decimal;
use crate::options::{Allowed, AllowedValue, OptionError};

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
            return Err(OptionError::new(
                "autoResize",
                Allowed::OneOf(vec![AllowedValue::Bool(false)]),
                "needs an HTMLCanvasElement in the page (an OffscreenCanvas has no displayed \
                 size); resize it with resize(width, height)",
            )
            .into());
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
        let options = object(&[("box", "device-pixel-content-box".into())]);
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
        set(&style, "width", &format!("{}px", decimal(cw)).into());
        set(&style, "height", &format!("{}px", decimal(ch)).into());
    }
}

impl Drop for AutoResize {
    fn drop(&mut self) {
        if let Err(e) = call(&self.observer, "disconnect", &[]) {
            warn(&format!(
                "afterglow: ResizeObserver.disconnect() failed: {}",
                js_message(&e)
            ));
        }
    }
}
