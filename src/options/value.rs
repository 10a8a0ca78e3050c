//! A JavaScript value as the option and argument parsers see it: the web
//! layer converts JS values into this tree, so the rules stay pure Rust.

/// A JavaScript value as the option parser sees it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `undefined`: the same as leaving the key out.
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    /// A plain object, keys in insertion order.
    Object(Vec<(String, Value)>),
    /// Anything else (array, function, symbol, bigint), by its type name.
    Other(String),
}

impl Value {
    /// A short description used in error messages: `'foo'`, `12`, `an array`.
    pub fn describe(&self) -> String {
        match self {
            Value::Undefined => "undefined".into(),
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => format_number(*n),
            // Long strings are cut, so a message stays readable.
            Value::String(s) if s.chars().count() > 40 => {
                let start: String = s.chars().take(32).collect();
                format!("'{start}…' ({} characters)", s.chars().count())
            }
            Value::String(s) => format!("'{s}'"),
            Value::Object(_) => "an object".into(),
            Value::Other(kind) => kind.clone(),
        }
    }

    /// The entry `key` of an object (the last one if repeated).
    pub fn get(&self, key: &str) -> &Value {
        match self {
            Value::Object(entries) => entries
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
                .unwrap_or(&Value::Undefined),
            _ => &Value::Undefined,
        }
    }
}

/// A number as JavaScript prints it: `0.5`, `NaN`, `-Infinity`, `10000`.
pub fn format_number(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n.is_infinite() {
        if n > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        decimal(n)
    }
}

/// A finite number in decimal. On the web, JavaScript's own `String(n)`:
/// Rust's float formatting would add kilobytes to the wasm, and messages
/// then print numbers exactly as the caller's JavaScript does.
#[cfg(target_arch = "wasm32")]
pub fn decimal(n: f64) -> String {
    #[wasm_bindgen::prelude::wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_name = String)]
        fn js_string(n: f64) -> String;
    }
    js_string(n)
}

/// A finite number in decimal (natively, Rust's shortest round trip).
#[cfg(not(target_arch = "wasm32"))]
pub fn decimal(n: f64) -> String {
    format!("{n}")
}

/// `'a', 'b'`: a list of names as error messages quote them.
pub fn quote_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("'{s}'")).collect();
    join(&quoted, ", ")
}

/// `parts` with `separator` between them: the one joining loop of the
/// crate (the standard library's generic `join` is larger in the wasm).
pub fn join(parts: &[String], separator: &str) -> String {
    let mut out = String::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.push_str(separator);
        }
        out.push_str(part);
    }
    out
}
