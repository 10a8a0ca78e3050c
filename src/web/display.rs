//! `canvas.dynamicRange: 'auto'`: whether the display can show high
//! dynamic range, from `matchMedia('(dynamic-range: high)')`, kept current
//! by the media query's `change` event.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;

use super::interop::{call, get, js_message, warn};

const QUERY: &str = "(dynamic-range: high)";

/// The media query of the window that shows the canvas, and a listener
/// that records its changes for the next frame. The listener is removed
/// when this is dropped.
pub struct DisplayWatch {
    query: JsValue,
    hdr: Rc<Cell<bool>>,
    listener: Closure<dyn FnMut(JsValue)>,
}

impl DisplayWatch {
    /// Watches the window of `element` (its document's, for a canvas in an
    /// iframe), or the global one. `None` where there is no `matchMedia`
    /// (in a worker): the display is then taken as standard range.
    pub fn new(element: &JsValue) -> Option<DisplayWatch> {
        let view = get(&get(element, "ownerDocument"), "defaultView");
        let window = if view.is_object() {
            view
        } else {
            js_sys::global().into()
        };
        let query = call(&window, "matchMedia", &[&QUERY.into()]).ok()?;
        let hdr = Rc::new(Cell::new(get(&query, "matches").is_truthy()));
        let seen = hdr.clone();
        let listener = Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
            seen.set(get(&event, "matches").is_truthy());
        });
        if let Err(e) = call(
            &query,
            "addEventListener",
            &[&"change".into(), listener.as_ref()],
        ) {
            warn(&format!(
                "afterglow: dynamicRange 'auto' cannot follow display changes: {}",
                js_message(&e)
            ));
        }
        Some(DisplayWatch {
            query,
            hdr,
            listener,
        })
    }

    /// Whether the display showed high dynamic range at the last change.
    pub fn hdr(&self) -> bool {
        self.hdr.get()
    }
}

impl Drop for DisplayWatch {
    fn drop(&mut self) {
        let _ = call(
            &self.query,
            "removeEventListener",
            &[&"change".into(), self.listener.as_ref()],
        );
    }
}
