//! Every JavaScript interop helper of the web layer, in one leaf module
//! (it uses no other web module): property access (`get` and `call` are
//! `crate::js`'s, which the device needs too), describing a JS value
//! for messages, JS values to the option tree and back, the renderer's
//! shared-state handle, the clock, and JS `Error`s built from [`Error`]
//! with their `name` and fields.

use std::cell::{Cell, RefCell, RefMut};
use std::rc::Rc;
use std::sync::Once;

use js_sys::{Array, Function, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::error::Error;
use crate::options::{Allowed, AllowedValue, OptionError, Value};

pub use crate::js::{call, get};

/// A new `OffscreenCanvas` of `w`×`h`, where the global scope has the
/// class (a window or a worker).
pub fn offscreen_canvas(w: u32, h: u32) -> Result<JsValue, JsValue> {
    let class: Function = Reflect::get(&js_sys::global(), &"OffscreenCanvas".into())?.dyn_into()?;
    Reflect::construct(&class, &Array::of2(&w.into(), &h.into())).map(JsValue::from)
}

/// `target[key]` as a number; 0 where it is not one.
pub fn num(target: &JsValue, key: &str) -> f64 {
    get(target, key).as_f64().unwrap_or(0.0)
}

/// `target[key] = value` on an object the renderer made or owns; such a
/// write cannot throw, so there is nothing to report.
pub fn set(target: &JsValue, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

/// A new plain object with these entries.
pub fn object(entries: &[(&str, JsValue)]) -> Object {
    let o = Object::new();
    for (k, v) in entries {
        set(&o, k, v);
    }
    o
}

/// A JS exception's message.
pub fn js_message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// `performance.now()` where there is one (windows and workers), else the
/// wall clock. The function is looked up once per thread: this runs twice
/// per frame.
pub fn now_ms() -> f64 {
    thread_local! {
        static HAS_CLOCK: bool = get(&get(&js_sys::global(), "performance"), "now").is_function();
    }
    if HAS_CLOCK.with(|has| *has) {
        performance_now()
    } else {
        js_sys::Date::now()
    }
}

#[wasm_bindgen]
extern "C" {
    /// `performance.now()` called directly: one call into JavaScript that
    /// returns a number, where calling the function looked up costs two.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// A promise resolved after `ms`, through the global `setTimeout` (a
/// window's or a worker's); at once where there is none.
pub fn timer(ms: u32) -> wasm_bindgen_futures::JsFuture {
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::new(&mut |resolve, _| {
        if call(&js_sys::global(), "setTimeout", &[&resolve, &ms.into()]).is_err() {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    }))
}

/// Waits `ms`.
pub async fn sleep(ms: u32) {
    let _ = timer(ms).await;
}

/// `target.width` and `target.height` as numbers (0 where not numbers),
/// with the two keys made once per thread: read on every frame.
pub fn width_height(target: &JsValue) -> (f64, f64) {
    thread_local! {
        static KEYS: (JsValue, JsValue) = (JsValue::from_str("width"), JsValue::from_str("height"));
    }
    KEYS.with(|(w, h)| {
        let read = |k| {
            Reflect::get(target, k)
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0)
        };
        (read(w), read(h))
    })
}

/// `console.warn`, for failures that are reported nowhere else.
pub fn warn(message: &str) {
    web_sys::console::warn_1(&JsValue::from_str(message));
}

/// What a JS value is, for messages: `undefined`, `'cat.png'`, `3`,
/// `an array`, `a plain object`, `an HTMLDivElement`.
pub fn describe(v: &JsValue) -> String {
    if v.is_object() && !v.is_function() && !is_array_checked(v).unwrap_or(false) {
        get(&get(v, "constructor"), "name")
            .as_string()
            .filter(|n| !n.is_empty())
            .map(|n| match n.as_str() {
                "Object" => "a plain object".into(),
                _ => with_article(&n),
            })
            .unwrap_or_else(|| "an object".into())
    } else {
        to_value(v).describe()
    }
}

#[wasm_bindgen]
extern "C" {
    // Catching versions: a Proxy can throw from either, and an uncaught JS
    // exception unwinding through wasm would leave the renderer borrowed.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn is_array_checked(v: &JsValue) -> Result<bool, JsValue>;
    #[wasm_bindgen(catch, js_namespace = Object, js_name = keys)]
    fn keys_checked(v: &JsValue) -> Result<Array, JsValue>;
}

/// Converts a JS value into the option parser's [`Value`] tree. Done before
/// the renderer is borrowed: a getter or Proxy may run page code. A getter
/// or Proxy trap that throws is an error naming what was being read (the
/// option's path inside an `options` argument), never a missing key.
pub fn read_value(v: &JsValue, argument: &str) -> Result<Value, Error> {
    read_depth(v, 0, &mut Vec::new()).map_err(|(path, e)| {
        let what = crate::options::value::join(&path, ".");
        let message = format!("could not be read: {}", js_message(&e));
        if argument == "options" {
            let field = if what.is_empty() {
                "options".into()
            } else {
                what
            };
            OptionError::new(field, Allowed::Range("a readable value".into()), message).into()
        } else if what.is_empty() {
            Error::argument(argument, message)
        } else {
            Error::argument(argument, format!("(at '{what}') {message}"))
        }
    })
}

/// A primitive as a [`Value`] (objects are only named: nothing is read).
fn to_value(v: &JsValue) -> Value {
    read_depth(v, MAX_DEPTH, &mut Vec::new()).unwrap_or(Value::Other("an object".into()))
}

/// `Some("a Date")` for an object that is not a plain object (a Date, a
/// boxed number, a Map...), judged by its `Object.prototype.toString` tag
/// so that plain objects from another realm are plain too.
fn not_plain(v: &JsValue) -> Result<Option<String>, JsValue> {
    thread_local! {
        static TO_STRING: Function = get(&get(&get(&js_sys::global(), "Object"), "prototype"), "toString")
            .dyn_into()
            .unwrap_or_else(|_| Function::new_no_args("return '[object Object]'"));
    }
    let tag = TO_STRING
        .with(|f| f.call0(v))?
        .as_string()
        .unwrap_or_default();
    let name = tag
        .strip_prefix("[object ")
        .and_then(|t| t.strip_suffix(']'))
        .unwrap_or("Object");
    Ok((name != "Object").then(|| with_article(name)))
}

/// `a Date`, `an ImageBitmap`, `an HTMLDivElement`: a type's name with the
/// article it is read with (HTML is spoken letter by letter).
fn with_article(name: &str) -> String {
    let vowel = matches!(
        name.as_bytes().first(),
        Some(b'A' | b'E' | b'I' | b'O' | b'U' | b'a' | b'e' | b'i' | b'o' | b'u')
    );
    let article = if vowel || name.starts_with("HTML") {
        "an"
    } else {
        "a"
    };
    format!("{article} {name}")
}

/// Objects nested deeper than this are not read (no option is).
const MAX_DEPTH: u32 = 4;

type ReadError = (Vec<String>, JsValue);

fn read_depth(v: &JsValue, depth: u32, path: &mut Vec<String>) -> Result<Value, ReadError> {
    Ok(if v.is_undefined() {
        Value::Undefined
    } else if v.is_null() {
        Value::Null
    } else if let Some(b) = v.as_bool() {
        Value::Bool(b)
    } else if let Some(n) = v.as_f64() {
        Value::Number(n)
    } else if let Some(s) = v.as_string() {
        Value::String(s)
    } else if v.is_function() {
        Value::Other("a function".into())
    } else if !v.is_object() {
        Value::Other(format!(
            "a {}",
            v.js_typeof().as_string().unwrap_or_default()
        ))
    } else if is_array_checked(v).map_err(|e| (path.clone(), e))? {
        Value::Other("an array".into())
    } else if depth >= MAX_DEPTH {
        Value::Other("an object nested too deeply".into())
    } else if let Some(kind) = not_plain(v).map_err(|e| (path.clone(), e))? {
        Value::Other(kind)
    } else {
        let keys = keys_checked(v).map_err(|e| (path.clone(), e))?;
        let mut entries = Vec::new();
        for k in keys.iter() {
            let Some(key) = k.as_string() else { continue };
            path.push(key.clone());
            let value = Reflect::get(v, &k).map_err(|e| (path.clone(), e))?;
            let value = read_depth(&value, depth + 1, path)?;
            path.pop();
            entries.push((key, value));
        }
        Value::Object(entries)
    })
}

/// Converts a [`Value`] tree into a plain JS value.
pub fn to_js(v: &Value) -> JsValue {
    match v {
        Value::Undefined | Value::Other(_) => JsValue::UNDEFINED,
        Value::Null => JsValue::NULL,
        Value::Bool(b) => JsValue::from_bool(*b),
        Value::Number(n) => JsValue::from_f64(*n),
        Value::String(s) => JsValue::from_str(s),
        Value::Object(entries) => {
            let o = Object::new();
            for (k, v) in entries {
                set(&o, k, &to_js(v));
            }
            o.into()
        }
    }
}

/// A value of `OptionError.allowed` as JavaScript holds it.
fn allowed_to_js(v: &AllowedValue) -> JsValue {
    match v {
        AllowedValue::Text(s) => JsValue::from_str(s),
        AllowedValue::Number(n) => JsValue::from_f64(*n),
        AllowedValue::Bool(b) => JsValue::from_bool(*b),
    }
}

/// The JS `Error` for `e`: its message is `e`'s, its `name` is
/// [`Error::name`], and it carries the fields of its kind (see the
/// TypeScript declarations in `afterglow.d.ts`).
pub fn js_error(e: &Error) -> JsValue {
    let error = js_sys::Error::new(&e.to_string());
    error.set_name(e.name());
    let fields: Vec<(&str, JsValue)> = match e {
        Error::Option(o) => vec![
            ("option", o.field.as_str().into()),
            (
                "allowed",
                match &o.allowed {
                    Allowed::OneOf(values) => {
                        values.iter().map(allowed_to_js).collect::<Array>().into()
                    }
                    Allowed::Range(text) => text.as_str().into(),
                },
            ),
        ],
        Error::Argument(a) => vec![("argument", a.argument.as_str().into())],
        Error::Shader(s) => vec![
            ("line", s.line.into()),
            ("column", s.column.into()),
            ("details", s.details.as_str().into()),
        ],
        Error::Graph(g) => vec![
            ("pass", g.pass.as_str().into()),
            ("attachment", g.attachment.as_str().into()),
        ],
        Error::TextureRule(t) => vec![
            ("texture", t.texture.as_str().into()),
            ("rule", t.rule.as_str().into()),
        ],
        Error::Device(d) => vec![("reason", d.kind.as_str().into())],
        Error::State(s) => vec![
            ("method", s.method.into()),
            ("state", s.kind.as_str().into()),
        ],
        Error::Canvas(_) | Error::Readback(_) => Vec::new(),
    };
    for (k, v) in fields {
        set(&error, k, &v);
    }
    error.into()
}

/// State shared between a JS object and the promises it returns. Each
/// call borrows it only while it runs, never across an `await`, so
/// `render()` keeps working while a promise waits; `None` after `destroy()`.
pub struct Handle<T> {
    state: Rc<RefCell<Option<T>>>,
    /// Set by the panic hook when a call on this state panicked: such a
    /// call never returns, so the state stays borrowed for good.
    broken: Rc<Cell<bool>>,
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        Handle {
            state: self.state.clone(),
            broken: self.broken.clone(),
        }
    }
}

thread_local! {
    /// The `broken` flags of the handles whose calls are running, for the
    /// panic hook.
    static IN_CALL: RefCell<Vec<Rc<Cell<bool>>>> = const { RefCell::new(Vec::new()) };
}

impl<T> Handle<T> {
    pub fn new(value: T) -> Self {
        Handle {
            state: Rc::new(RefCell::new(Some(value))),
            broken: Rc::new(Cell::new(false)),
        }
    }

    /// The error for a state that is borrowed: by a call that panicked
    /// (`broken`), or by a call still running (`busy`).
    fn unavailable(&self, method: &'static str) -> Error {
        if self.broken.get() {
            Error::broken(method)
        } else {
            Error::busy(method)
        }
    }

    /// Runs `f` on the live state for JS method `method`: a state error
    /// after `destroy()`, while another call holds it, or after a call on
    /// it panicked.
    pub fn with<R>(
        &self,
        method: &'static str,
        f: impl FnOnce(&mut T) -> Result<R, Error>,
    ) -> Result<R, Error> {
        let mut value = self.enter(method)?;
        let result = f(&mut value);
        leave();
        result
    }

    /// The live state, borrowed for a call of JS method `method`, which is
    /// now running for the panic hook. Not inlined: every method's `with`
    /// shares this one copy.
    #[inline(never)]
    fn enter(&self, method: &'static str) -> Result<RefMut<'_, T>, Error> {
        let guard = self
            .state
            .try_borrow_mut()
            .map_err(|_| self.unavailable(method))?;
        let value =
            RefMut::filter_map(guard, Option::as_mut).map_err(|_| Error::destroyed(method))?;
        IN_CALL.with(|c| c.borrow_mut().push(self.broken.clone()));
        Ok(value)
    }

    /// Reads the live state; `None` after `destroy()` or while borrowed.
    #[cfg(test)]
    pub fn peek<R>(&self, f: impl FnOnce(&T) -> R) -> Option<R> {
        let guard = self.state.try_borrow().ok()?;
        guard.as_ref().map(f)
    }

    /// Takes the state out (`destroy()`); later calls fail.
    pub fn take(&self, method: &'static str) -> Result<T, Error> {
        let mut guard = self
            .state
            .try_borrow_mut()
            .map_err(|_| self.unavailable(method))?;
        guard.take().ok_or(Error::destroyed(method))
    }
}

/// The call [`Handle::enter`] started has returned.
#[inline(never)]
fn leave() {
    IN_CALL.with(|c| c.borrow_mut().pop());
}

/// Installs the panic hook once. A panic in wasm aborts the call where it
/// happened: no destructor runs, so the renderer it held stays borrowed
/// and may be half-updated. The hook marks the renderers whose calls were
/// running as broken: every later call on them fails with a `StateError`
/// whose state is `'broken'`, instead of `'busy'` forever. It also logs the
/// panic to the console.
pub fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            IN_CALL.with(|c| {
                if let Ok(running) = c.try_borrow() {
                    for broken in running.iter() {
                        broken.set(true);
                    }
                }
            });
            console_error_panic_hook::hook(info);
        }));
    });
}

/// Whether `value` is an instance of the web interface `interface`, from
/// this realm or another: the interface's own `getter` accepts only real
/// instances (a Proxy or an imitation makes it throw). `false` where this
/// context has no such interface (a worker has no HTMLCanvasElement).
pub fn is_a(interface: &str, getter: &str, value: &JsValue) -> bool {
    if !value.is_object() {
        return false;
    }
    let prototype = get(&get(&js_sys::global(), interface), "prototype");
    if !prototype.is_object() {
        return false;
    }
    let prototype: &Object = prototype.unchecked_ref();
    let descriptor = Reflect::get_own_property_descriptor(prototype, &getter.into())
        .unwrap_or(JsValue::UNDEFINED);
    match get(&descriptor, "get").dyn_into::<js_sys::Function>() {
        Ok(read) => read.call0(value).is_ok(),
        Err(_) => false,
    }
}
