//! JavaScript property access and calls, below everything that needs
//! them: the device's own destroy (`crate::gpu`) and the web layer, whose
//! `interop` offers them with the rest of its helpers. A leaf.

use js_sys::{Array, Function, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// `target[key]`; `undefined` where reading it throws.
pub fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// `target[method](...args)`; an error when it is not a function or throws.
pub fn call(target: &JsValue, method: &str, args: &[&JsValue]) -> Result<JsValue, JsValue> {
    let f: Function = get(target, method)
        .dyn_into()
        .map_err(|_| JsValue::from_str(&format!("{method} is not a function")))?;
    let args: Array = args.iter().copied().collect();
    f.apply(target, &args)
}
